"""The readings that carry each stored plan case's prediction, and their own residuals on the
fitted figures (DIAGNOSIS.md's data; no calibrate run, no twin, no truth used here).

For each plan case of bench/foreign/results/status72/cases/ (the 72) and
bench/foreign/results/freshnow/cases/ (13 fresh ones), from the case's own typed figures: every
reading ``spare_readings.weigh`` offers (the surrogates' fits, milliseconds), its evidence
residuals at the fitted figures (``evidence.assess``: steady IOPS, steady WAF and the FOB, at
the workload's queue depth), its parameter count, and the weight the stored case gave it
(``readings`` in the case file: the final weights after the twins ran). Its own residual sd is
sqrt(Σ r² / (n − p)) as ``uncertainty.surrogate_residual_sd`` takes it (None when n ≤ p); per
figure kind, the RMS of that kind's residuals times sqrt(n / (n − p)).

Writes readings.json beside this file. ≈ 10 CPU s.

    PYTHONPATH=python python bench/foreign/results/carryunit/readings.py
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
sys.path.insert(0, str(RESULTS / "bootwidth"))
# bench/foreign/results/bootwidth/diagnose.py: its path to scorecover's levels and cpu_clock
from diagnose import cpu_s, levels  # noqa: E402
from overprov.calibrate import predict as predmod  # noqa: E402
from overprov.calibrate import spare_readings, three_levels, uncertainty  # noqa: E402

FOLDERS = {"status72": RESULTS / "status72" / "cases", "freshnow": RESULTS / "freshnow" / "cases"}


def kind_of(r: predmod.TwinReading) -> str:
    """The reading's kind: erase-cost, GC-reserve, raw spare, or plain (effective spare)."""
    if r.erase:
        return "erase"
    if r.spare == predmod.RESERVE:
        return "reserve"
    return "raw" if r.spare == predmod.RAW else "plain"


def own_residuals(ev: dict) -> dict[str, float | None]:
    """The reading's residual sd on its fitted figures at the workload's queue depth, all
    together and per figure kind (module text)."""
    res = [d for d in ev["residuals"] if d.get("queue_depth") is None]
    n, p = len(res), int(ev["n_parameters"])
    out: dict[str, float | None] = {"n": n, "p": p}
    if n <= p:
        return {**out, "all": None, "iops": None, "waf": None}
    out["all"] = math.sqrt(sum(d["log_error"] ** 2 for d in res) / (n - p))
    for f in ("iops", "waf"):
        got = [d["log_error"] for d in res if d["figure"] == f]
        rms = math.sqrt(sum(e * e for e in got) / len(got)) if got else None
        out[f] = rms * math.sqrt(n / (n - p)) if rms is not None else None
    return out


def case_readings(doc: dict) -> dict:
    points = levels.case_points(doc["command"])
    fob = next((p.iops for p in points if p.fresh), None)
    points, _left = three_levels.leave_to_line(points, fob)
    xs = [float(lv["extra_op_percent"]) for lv in doc["levels"]]
    fig = predmod.PredictionInput(points, xs, typed=True, fob_iops=fob,
                                  model_form=uncertainty.model_form_for(points, False))  # fmt: skip
    evs, _curves = spare_readings.weigh(fig)
    stored = doc.get("readings", {})
    within = spare_readings.class_weights(evs)
    out = []
    for r, ev in evs.items():
        out.append({
            "key": r.key, "kind": kind_of(r), "weight": stored.get(r.key),
            "within_class": within.get(r), **own_residuals(ev),
        })  # fmt: skip
    form = fig.model_form
    return {
        "greedy_R": uncertainty.fit_residual_sd(fig.points),
        "rule3": form is not None and form.residual_sd is not None and form.iops_only_sd is None,
        "readings": out,
        "unmatched_stored": sorted(set(stored) - {r["key"] for r in out}),
    }


def main() -> int:
    c0 = cpu_s()
    got: dict[str, dict] = {}
    for name, folder in FOLDERS.items():
        for path in sorted(folder.glob("*.json")):
            doc = json.loads(path.read_text())
            if "levels" in doc:
                got[path.stem] = {"set": name, "family": doc["family"], **case_readings(doc)}
    out = {"cases": got, "cpu_s": round(cpu_s() - c0, 1)}
    (HERE / "readings.json").write_text(json.dumps(out, indent=0) + "\n")
    print(f"{len(got)} cases; CPU {out['cpu_s']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
