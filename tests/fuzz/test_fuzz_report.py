"""Fuzz: ``overprov report`` on mutated profile results folders and simulate JSON files.

Every case is validated and loaded the way ``report`` reads it (``report/validate.py``, then
``report/load.py``); the first few that pass are rendered by the real command as well."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from overprov.errors import OverprovError

from .mutate import SEED, assert_clean, case_count, deadline, mutate_doc, mutate_text, run_cli

FULL_REPORTS = 2
"""Validated cases rendered by ``overprov report`` as well, the first that pass. Two reach every
line of overprov's code a rendered case reaches: with seed 0 the third and fourth (profile: a
round's ``nand_bytes_written`` and a FOB IOPS figure changed; simulate: interval deltas) ran no
line of ``python/overprov`` that the first two had not (line tracing, ``sys.settrace``): the
first renders into a new folder, the second into the folder the first wrote. At four they were
a fifth of the test's CPU (docs/testing.md, "Round 8")."""


@pytest.fixture(scope="module")
def sources(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("fuzz-report")
    prof = base / "prof"
    # no report.html: the cases copy the folder without it (``report*``)
    rc, _, err = run_cli(["profile", "sim:consumer-tlc-sata@1GiB", "--extra-op", "0,40",
                          "--round-seconds", "5000", "--max-rounds", "10",  # 5 simulated s
                          "--no-report", "--out", str(prof)])  # fmt: skip
    assert rc in (0, 3), err
    sim = base / "sim.json"
    # an interval every 10% of a drive write: 20 intervals a run, the most a mutation reaches
    # (mutate._paths: a list's first 20 entries), precondition, warm-up and measured among
    # them; at the default 1% a run has 200, 180 of them validated in every case and never
    # mutated, and the first 20 are all precondition
    rc, _, err = run_cli(["simulate", "--advertised", "64M", "--pages-per-block", "64",
                          "--extra-op", "0,30", "--drive-writes", "0.5", "--warmup", "0.5",
                          "--interval-pct", "10", "--no-progress", "--json", str(sim)])  # fmt: skip
    assert rc == 0, err
    runs = json.loads(sim.read_text())["runs"]
    assert all(len(r["intervals"]) >= 20 for r in runs)  # every interval a mutation reaches
    phases = {i["phase"] for i in runs[0]["intervals"][:20]}
    assert phases == {"precondition", "warmup", "measure"}, phases
    return {"profile": prof, "simulate": sim}


def _read_as_report_does(path: Path) -> str:
    """'ok', or 'refused' for an OverprovError; anything else propagates (a crash)."""
    from overprov.report.load import load_inputs
    from overprov.report.validate import validate_inputs

    try:
        with deadline():
            validate_inputs([path])
            load_inputs([path])
    except OverprovError:
        return "refused"
    return "ok"


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["profile", "simulate"])
def test_fuzz_report_inputs(sources, tmp_path, kind):
    rng = random.Random(SEED)
    src = sources[kind]
    doc_path = src / "results.json" if kind == "profile" else src
    original = json.loads(doc_path.read_text())
    outcomes = {"ok": 0, "refused": 0}
    full = 0
    for i in range(case_count()):
        case = tmp_path / f"case{i % 2}"
        if case.exists():
            shutil.rmtree(case)
        if kind == "profile":
            shutil.copytree(src, case, ignore=shutil.ignore_patterns("report*"))
            target, doc_file = case, case / "results.json"
        else:
            case.mkdir()
            target = doc_file = case / "sim.json"
        if rng.random() < 0.85:
            text = json.dumps(mutate_doc(original, rng))
        else:
            text = mutate_text(json.dumps(original, indent=1), rng)
        doc_file.write_text(text, encoding="utf-8", errors="surrogateescape")
        outcome = _read_as_report_does(target)
        outcomes[outcome] += 1
        if outcome == "ok" and full < FULL_REPORTS:
            full += 1
            rc, _, err = run_cli(["report", str(target), "--out", str(tmp_path / "out")])
            assert_clean(rc, err, f"case {i}")
    assert outcomes["ok"] and outcomes["refused"], outcomes


def test_a_list_where_the_simulate_config_says_pages_per_block(sources, tmp_path):
    """Found by this suite (seed 0, after the simulate document grew): two series whose configs
    differ and one says ``pages_per_block: [..]``; the loader compared the values in a set and
    raised TypeError. Any JSON value there is read (and named as what differs) or refused."""
    doc = json.loads(sources["simulate"].read_text())
    doc["runs"][1]["config"]["ftl"]["policy"] = "fifo"  # two series
    doc["runs"][1]["config"]["geometry"]["pages_per_block"] = [64, {"x": 1}]
    path = tmp_path / "sim.json"
    path.write_text(json.dumps(doc))
    assert _read_as_report_does(path) in ("ok", "refused")
