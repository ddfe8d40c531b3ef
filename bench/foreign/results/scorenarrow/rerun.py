"""The scoreboard's stored cases that several readings span, run again so that each reading's
own figures and intervals are kept (the stored cases keep only the combined interval and the
readings' weights): each case's stored calibrate command (bench/foreign/results/scoreboard/
cases-final) run as it was, its whole JSON kept in runs-<arm>/ but the twins' files. Arm ``off``
runs the code of the base commit (``--python``: a copy of its python/ taken before any change of
this branch); arm ``on`` this worktree's with ``reading_mixture.ON = True``. CPU s of each run
(bench/cpu_clock.py) in runs-<arm>.log. Without STEMs: every such case, one family at a time in
turn (:func:`round_robin`), none started once the runs' CPU s reach ``--cap-cpu-s``.

    PYTHONPATH=python python bench/foreign/results/scorenarrow/rerun.py off [--python DIR] [STEM]
    PYTHONPATH=python python bench/foreign/results/scorenarrow/rerun.py on STEM ...
"""

from __future__ import annotations

import argparse
import datetime
import json
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
sys.path.insert(0, str(ROOT / "bench"))
from cpu_clock import cpu_s  # noqa: E402

CASES = ROOT / "bench/foreign/results/scoreboard/cases-final"
#: a reading is in today's span at this share of the largest weight (spare_readings.SPAN_MIN_WEIGHT)
SPAN_SHARE = 0.01
#: no new run once the runs' CPU seconds reach this (the brief's budget is 500 CPU s in all)
CAP_CPU_S = 400.0
FLAG_ON = "from overprov.calibrate import reading_mixture; reading_mixture.ON = True; "


def spanned_stems() -> list[str]:
    """The answered stored cases with two or more readings at SPAN_SHARE of the largest weight."""
    out = []
    for path in sorted(CASES.glob("*.json")):
        doc = json.loads(path.read_text())
        weights = list((doc.get("readings") or {}).values())
        if "levels" in doc and weights:
            top = max(weights)
            if sum(w >= SPAN_SHARE * top for w in weights) >= 2:
                out.append(path.stem)
    return out


def round_robin(stems: list[str]) -> list[str]:
    """``stems`` taken one family at a time in turn (families in name order, each family's cases
    in name order), so that a run stopped by its CPU cap has reached every family alike."""
    by: dict[str, list[str]] = {}
    for s in stems:
        by.setdefault(s.split("--")[0], []).append(s)
    out: list[str] = []
    while any(by.values()):
        for fam in sorted(by):
            if by[fam]:
                out.append(by[fam].pop(0))
    return out


def keep(pred: dict) -> dict:
    """The prediction's figures: levels, fit, interval and each reading's figures and weight."""
    readings = {
        k: {f: r.get(f) for f in ("levels", "fit", "weight")}
        for k, r in (pred.get("readings") or {}).items()
    }
    return {
        "levels": pred["levels"],
        "fit": pred.get("fit"),
        "interval": pred.get("interval"),
        "readings": readings,
    }


def run(stem: str, arm: str, python_dir: Path) -> float:
    stored = json.loads((CASES / f"{stem}.json").read_text())
    argv = shlex.split(stored["command"])[1:]  # "overprov calibrate ..." as evaluate.py ran it
    main = "from overprov.cli import main; sys.exit(main())"
    prelude = FLAG_ON if arm == "on" else ""
    env = {"PYTHONPATH": str(python_dir), "PATH": "/usr/bin:/bin"}
    c0 = cpu_s()
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["nice", "-n", "10", sys.executable, "-c", f"import sys; {prelude}{main}"]
        res = subprocess.run(
            [*cmd, *argv, "--out", tmp], capture_output=True, text=True, env=env, cwd=ROOT
        )
    used = cpu_s() - c0
    if res.returncode != 0:
        raise RuntimeError(f"{stem}: {res.stderr.strip().splitlines()[-1:]}")
    out = HERE / f"runs-{arm}" / f"{stem}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(keep(json.loads(res.stdout)), indent=1) + "\n")
    return used


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("arm", choices=("off", "on"))
    ap.add_argument("stems", nargs="*")
    ap.add_argument("--python", type=Path, default=ROOT / "python")
    ap.add_argument("--cap-cpu-s", type=float, default=CAP_CPU_S)
    args = ap.parse_intermixed_args()
    stems = args.stems or round_robin(spanned_stems())
    log = HERE / f"runs-{args.arm}.log"
    total = 0.0
    for stem in stems:
        if total >= args.cap_cpu_s:
            break
        if (HERE / f"runs-{args.arm}" / f"{stem}.json").exists():
            continue
        used = run(stem, args.arm, args.python.resolve())
        total += used
        now = datetime.datetime.now(datetime.UTC).strftime("%H:%M:%S")
        with log.open("a") as f:
            f.write(f"{now} {stem}: {used:.1f} CPU s, total {total:.1f} CPU s (this invocation)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
