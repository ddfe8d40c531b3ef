"""C5 of bench/foreign/results/scorecover/RULE.md: calibrate run for real on stored truths,
flag off and with ``EVALUATE_FLAGS="distance_term.ON=True"`` (the slope recorded in
model_form_error.json), each through the scoreboard's run.py (``one``): the flag-on run's IOPS
intervals must equal ``distance_term.iops_bounds`` applied to the flag-off run (relative 1e-9),
everything else identical; a case several readings carry identical both ways. Writes
check.json and the cases under check-off/ and check-on/; logs CPU s (bench/cpu_clock.py).

    PYTHONPATH=python python bench/foreign/results/scorecover/check.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[2]))
import judge  # noqa: E402
import levels  # noqa: E402
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import distance_term  # noqa: E402

RUN = levels.ROOT / "bench/foreign/results/scoreboard/run.py"
#: three cases one reading carries (the cheapest stored of three families) and one several carry
STEMS = (
    "FEMU--top--femu",
    "MQSim--patched--mqsim",
    "FlashSim--flashsim--flashsim-a",
    "SimpleSSD--top--simplessd-spare0125",
)
REL_TOL = 1e-9


def run(stem: str, arm: str) -> tuple[dict, float]:
    """The case of ``stem`` run again in arm ``off`` or ``on``; its document and CPU s."""
    stored = json.loads((levels.CASES / f"{stem}.json").read_text())
    truth = Path(stored["truth"])
    env = dict(os.environ, SCOREBOARD_CASES=str(HERE / f"check-{arm}"))
    env["EVALUATE_FLAGS"] = "distance_term.ON=True" if arm == "on" else ""
    cmd = ["nice", "-n", "10", sys.executable, str(RUN), "one", str(truth.parent), truth.stem]
    c0 = cpu_s()
    subprocess.run([*cmd, stored["family"]], env=env, check=True, cwd=levels.ROOT)
    used = cpu_s() - c0
    out = next((HERE / f"check-{arm}").glob(f"{stored['family']}--*--{truth.stem}.json"))
    return json.loads(out.read_text()), used


def close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return abs(a - b) <= REL_TOL * max(abs(a), abs(b))


def compare(off: dict, on: dict, slope: float) -> dict:
    """Whether ``on`` is ``off`` composed with the term (or, several readings carrying, ``off``
    itself)."""
    gated = judge.one_reading(off)
    fitted = levels.fitted_levels(levels.case_points(off["command"]))
    fit = off["fit"]
    bad = []
    for a, b in zip(off["levels"], on["levels"], strict=True):
        lo, hi = a["iops_low"], a["iops_high"]
        if gated:
            ((lo, hi),) = distance_term.iops_bounds(
                [(a["extra_op_percent"], a["iops_pred"], lo, hi)],
                fitted,
                fit["native_op"],
                fit["spare_efficiency"] or 1.0,
                slope,
            )
        for k, want in (("iops_low", lo), ("iops_high", hi)):
            if not close(want, b[k]):
                bad.append(f"{a['extra_op_percent']}% {k}: composed {want} vs run {b[k]}")
        for k in ("iops_pred", "waf_pred", "waf_low", "waf_high", "iops_true"):
            if a.get(k) != b.get(k):
                bad.append(f"{a['extra_op_percent']}% {k}: {a.get(k)} vs {b.get(k)}")
    return {"one_reading": gated, "equal": not bad, "differences": bad}


def same_as_stored(stem: str, off: dict) -> float:
    """The largest relative difference of the flag-off run's IOPS figures from the stored case."""
    stored = json.loads((levels.CASES / f"{stem}.json").read_text())
    worst = 0.0
    for a, b in zip(stored["levels"], off["levels"], strict=True):
        for k in ("iops_pred", "iops_low", "iops_high", "waf_pred", "waf_low", "waf_high"):
            worst = max(worst, abs(a[k] / b[k] - 1))
    return worst


def main() -> int:
    slope = distance_term.recorded_slope()
    cases, total = {}, 0.0
    for stem in STEMS:
        off, c_off = run(stem, "off")
        on, c_on = run(stem, "on")
        total += c_off + c_on
        cases[stem] = compare(off, on, slope) | {
            "cpu_s": c_off + c_on,
            "stored_max_rel_diff": same_as_stored(stem, off),
        }
        print(stem, cases[stem], flush=True)
    equal = sum(c["equal"] and c["one_reading"] for c in cases.values())
    several_same = all(c["equal"] for c in cases.values() if not c["one_reading"])
    worst = max(c["stored_max_rel_diff"] for c in cases.values())
    stored = (
        "identical to the stored cases"
        if worst == 0
        else f"{100 * worst:.2g}% at most from the stored cases"
    )
    doc = {
        "slope": slope,
        "cases": cases,
        "equal_cases": equal,
        "all_equal": all(c["equal"] for c in cases.values()),
        "cpu_s": total,
        "summary": f"{equal} one-reading cases equal to the composition, the several-reading "
        f"case{'' if several_same else ' not'} unchanged; the flag-off runs' IOPS and WAF "
        f"figures {stored}; {total:.0f} CPU s.",
    }
    (HERE / "check.json").write_text(json.dumps(doc, indent=1) + "\n")
    print(doc["summary"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
