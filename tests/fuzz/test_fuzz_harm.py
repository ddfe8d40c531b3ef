"""Fuzz: silent harm. Two classes of command lines that used to exit 0 doing damage:

* paths aliasing inputs — an output option (``--json``, ``--series``, ``--out``) naming one of
  the command's inputs under another spelling (the same path, ``./``, ``..``, a symlink, a chain
  of symlinks, a hard link): refused with exit 2 before any work, the input unchanged;
* huge plans — ``simulate`` asked for days of work (drive writes, warm-up, trace passes):
  refused with exit 1 naming ``--yes`` within seconds, never started.

Pass: the refusal; a silent success (exit 0) is a failure, as is any crash or hang."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
from pathlib import Path

import pytest

from .mutate import SEED, assert_clean, case_count, deadline, run_cli

DATA = Path(__file__).resolve().parents[1] / "data"
SMART = DATA / "smart" / "INTEL_SSDPE2KX080T8_1.json"
NVME_LOG = DATA / "nvme-vendor" / "cachelib-wdc-vs-smart-add-log-c0.txt"
IOLOG = DATA / "traces" / "fio-randrw.iolog"
DRIVE = Path(__file__).resolve().parents[2] / "docs" / "drives" / "consumer-1tb-sata.toml"
CONFIG = """[geometry]
user_bytes = 16777216
op_ratio = 0.28
pages_per_block = 64
[run]
drive_writes = 0.5
warmup_drive_writes = 0.5
"""
ALIASES = ("same", "dot", "dotdot", "symlink", "chain", "hardlink")


@pytest.fixture(scope="module")
def sim_json(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("fuzz-alias") / "sim.json"
    rc, _, err = run_cli(["simulate", "--advertised", "64M", "--pages-per-block", "64",
                          "--extra-op", "0,20", "--warmup", "0.5", "--drive-writes", "0.5",
                          "--no-progress", "--json", str(path)])  # fmt: skip
    assert rc == 0, err
    return path


def _inputs(sim_json: Path) -> dict[str, tuple[Path, list[str]]]:
    """name → (a real input file, the command line with IN where it goes)."""
    return {
        "report": (sim_json, ["report", "IN", "--out", "OUTDIR"]),
        "report-smart": (SMART, ["report", str(sim_json), "--smart", "IN", "--out", "OUTDIR"]),
        "plan": (sim_json, ["plan", "--capacity", "1T", "--daily-writes", "500GB",
                            "--simulation", "IN"]),
        "plan-trace": (IOLOG, ["plan", "--trace", "IN", "--preset", "consumer-tlc-sata"]),
        "simulate-config": (None, ["simulate", "--config", "IN", "--no-progress"]),
        "simulate-trace": (IOLOG, ["simulate", "--advertised", "64M", "--extra-op", "7",
                                   "--trace", "IN", "--no-progress"]),
        "smart": (SMART, ["smart", "IN"]),
        "smart-nvme": (NVME_LOG, ["smart-nvme", "--nvme-log", "IN"]),
        "drive": (DRIVE, ["drive", "show", "IN"]),
    }  # fmt: skip


def _alias(kind: str, source: Path, where: Path, n: int) -> str:
    if kind == "same":
        return str(source)
    if kind == "dot":
        return str(source.parent / "." / source.name)
    if kind == "dotdot":
        return str(source.parent / ".." / source.parent.name / source.name)
    alias = where / f"alias-{n}"
    if kind == "symlink":
        alias.symlink_to(source)
    elif kind == "chain":
        (where / f"hop-{n}").symlink_to(source)
        alias.symlink_to(where / f"hop-{n}")
    else:
        os.link(source, alias)
    return str(alias)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_fuzz_paths_aliasing_inputs(tmp_path, sim_json):
    rng = random.Random(SEED)
    commands = _inputs(sim_json)
    silent = []
    for n in range(case_count(60)):
        name = rng.choice(sorted(commands))
        kind = rng.choice(ALIASES)
        source, argv = commands[name]
        case_dir = tmp_path / f"case-{n}"
        case_dir.mkdir()
        original = case_dir / "in"  # a private copy: the damage, if any, stays here
        if source is None:
            original.write_text(CONFIG)
        else:
            shutil.copy(source, original)
        before = _digest(original)
        option = "--series" if name.startswith("simulate") and rng.random() < 0.3 else "--json"
        out = _alias(kind, original, case_dir, n)
        line = [str(original) if a == "IN" else str(case_dir / "o") if a == "OUTDIR" else a
                for a in argv] + [option, out]  # fmt: skip
        case = f"case {n} ({name}, {kind}, {option}): {' '.join(line)}"
        with deadline():
            rc, _, err = run_cli(line)
        assert_clean(rc, err, case)
        if rc == 0 or _digest(original) != before:
            silent.append(case)
            continue
        assert rc == 2 and "it would be overwritten" in err, f"{case}: {err}"
        assert not (case_dir / "o").exists(), case
    assert silent == [], f"{len(silent)} silent successes: {silent[:5]}"


HUGE = [
    ["--drive-writes", "1e9"],
    ["--drive-writes", "1e12"],
    ["--warmup", "1e9"],
    ["--drive-writes", "2e8", "--extra-op", "0,10,20"],
    ["--warmup", "1e8", "--drive-writes", "1e8"],
]


def test_fuzz_huge_plans(tmp_path):
    rng = random.Random(SEED)
    trace = tmp_path / "t.iolog"
    shutil.copy(IOLOG, trace)
    cases = [["simulate", "--advertised", rng.choice(["64M", "256M"]), "--pages-per-block", "64",
              "--extra-op", "0", "--no-progress", *extra] for extra in HUGE]  # fmt: skip
    for repeat in ("1e9", "4000000000"):
        cases.append(["simulate", "--advertised", "64M", "--extra-op", "7", "--trace",
                      str(trace), "--trace-repeat", repeat, "--no-progress"])  # fmt: skip
    silent = []
    for n, line in enumerate(cases):
        case = f"case {n}: {' '.join(line)}"
        with deadline():
            rc, out, err = run_cli(line)
        assert_clean(rc, err, case)
        if rc == 0:
            silent.append(case)
            continue
        # refused by the plan's limit (--yes) or by the core's own bound on host writes
        assert rc in (1, 2) and ("--yes" in err or "too many" in err), f"{case}: {err}"
        assert out == ""
    assert silent == [], f"{len(silent)} silent successes: {silent}"
