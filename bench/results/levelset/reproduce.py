"""Why a level's predicted WAF depends on the other levels ``overprov calibrate`` is asked for.

Calibrates the test's drive (tests/calibrate/test_calibrate_cli.py: sim:older-mlc-sata@1GiB,
--extra-op 0,10,20,30,40), refits it with ``--from`` at several level sets, and then simulates
the twin those refits sweep (captured from ``twin.simulate_levels``) at level sets and seeds,
to tell the sweep's history from the window's noise. Prints JSON (levelset.json) with the CPU
seconds of each part (bench/cpu_clock.py).

    PYTHONPATH=python:bench nice -n 10 /work/main/.venv/bin/python \
        bench/results/levelset/reproduce.py > bench/results/levelset/levelset.json
"""

from __future__ import annotations

import contextlib
import io
import json
import statistics
import sys
import tempfile
from pathlib import Path

from cpu_clock import cpu_s
from overprov.calibrate import twin as twinmod
from overprov.cli import main

DRIVE = "sim:older-mlc-sata@1GiB"
ALL = [0, 10, 20, 30, 40]
REFIT_SETS = [[0, 20], [20], [0, 10, 20], [20, 40], ALL]
SWEEP_SETS = [[20], [0, 20], [0, 10, 20], [30, 40], [20, 40], ALL]
SEEDS = [1, 2, 3, 4]


def _quiet_main(argv: list[str]) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    if rc != 0:
        raise RuntimeError(f"{argv}: rc {rc}: {err.getvalue()[-2000:]}")
    return out.getvalue()


def main_() -> dict:
    res: dict = {"drive": DRIVE}
    tmp = Path(tempfile.mkdtemp(prefix="levelset-"))
    t = cpu_s()
    _quiet_main(["calibrate", DRIVE, "--out", str(tmp / "cal"), "--extra-op", "0,10,20,30,40",
                 "--target-iops", "20000"])  # fmt: skip
    res["calibrate_cpu_s"] = round(cpu_s() - t, 2)

    captured: list[tuple[twinmod.TwinParameters, list[float]]] = []
    real = twinmod.simulate_levels

    def spy(p, levels, **kw):
        captured.append((p, list(levels)))
        return real(p, levels, **kw)

    twinmod.simulate_levels = spy
    refits = []
    twins = []
    t = cpu_s()
    for s in REFIT_SETS:
        captured.clear()
        ex = ",".join(str(x) for x in s)
        pred = json.loads(
            _quiet_main(
                [
                    "calibrate",
                    "--from",
                    str(tmp / "cal"),
                    "--out",
                    str(tmp / f"r{ex}"),
                    "--extra-op",
                    ex,
                    "--json",
                    "-",
                ]
            )
        )
        final = [c for c in captured if c[1] == [float(x) for x in s]][-1][0]
        twins.append(final)
        refits.append({
            "extra_op": s,
            "waf": {str(r["extra_op_percent"]): r["waf"] for r in pred["levels"]},
            "steady_iops": {str(r["extra_op_percent"]): r["steady_iops"] for r in pred["levels"]},
            "twin_iops": {str(r["extra_op_percent"]): r["twin_iops"] for r in pred["levels"]},
            "simulated_level_sets": [c[1] for c in captured],
        })  # fmt: skip
    twinmod.simulate_levels = real
    res["refit_cpu_s"] = round(cpu_s() - t, 2)
    res["refits"] = refits
    res["same_twin_in_every_refit"] = all(tw == twins[0] for tw in twins)

    t = cpu_s()
    sweeps = []
    for s in SWEEP_SETS:
        for seed in SEEDS:
            m = real(twins[0], [float(x) for x in s], seed=seed)
            sweeps.append(
                {
                    "extra_op": s,
                    "seed": seed,
                    "waf": {f"{lv.extra_op_percent:g}": lv.waf for lv in m.levels},
                }
            )
    res["sweep_cpu_s"] = round(cpu_s() - t, 2)
    res["sweeps"] = sweeps
    summary = {}
    for x in ("20", "40"):
        for s in SWEEP_SETS:
            key = ",".join(str(v) for v in s)
            w = [r["waf"][x] for r in sweeps if r["extra_op"] == s and x in r["waf"]]
            if w:
                summary[f"{x}% in [{key}]"] = {
                    "mean": statistics.mean(w), "sd": statistics.stdev(w),
                    "min": min(w), "max": max(w),
                }  # fmt: skip
    res["waf_over_seeds"] = summary
    return res


if __name__ == "__main__":
    json.dump(main_(), sys.stdout, indent=1)
    print()
