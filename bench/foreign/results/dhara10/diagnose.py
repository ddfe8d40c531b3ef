"""What Dhara's WAF between 0% and 40% extra OP is made of, against the shapes calibrate's readings
draw: a diagnosis on the 21 seen Dhara drives (judges nothing; surrogates only, nothing simulated).

Per drive (the truth's JSON: gc_ratio g, the FOB WAF m = the 0% level's ``fob.waf``, the steady
WAF at 0-40%), with the typed figures at 0% and 40% (rel sd 0.05, as "WAF 0+40" types them) and
the weighing's model-form sd (``uncertainty.weighing_rel_sd(None)``):

- the pace: (g + 1) · m, Dhara's WAF while its collection is behind (g + 1 tail steps a write);
- the journal's spare s: the spare factor greedy's curve, capped at the 0% figure ÷ m, needs to
  pass through the 40% figure ÷ m (``gc_reserve.ReserveForm`` fitted to the figures ÷ m);
- the readings calibrate draws today (m = 1): greedy's reserve reading with its floor (its spare
  s₁, its WAF at 10/20/30%) and the d-choices-4 effective-spare reading (its native OP, its WAF
  at 10%), each against the truth;
- the same reserve reading fitted to the figures ÷ m (× m at 10/20/30%): Dhara's own form;
- the same with the cap always fitted (the 0% figure ÷ m, whatever the floor test says):
  the pace is Dhara's mechanism, present at every level, binding or not;
- the floor test on the figures ÷ m (``ReserveForm.floor_test``): its log ratio against the
  threshold (``gc_reserve.FLOOR_SIGMAS`` sd) — whether calibrate would call for the cap.

    PYTHONPATH=python python bench/foreign/results/dhara10/diagnose.py > .../diagnose.txt
"""

from __future__ import annotations

import json
from pathlib import Path

from overprov.calibrate import (
    evidence,
    gc_designs,
    gc_reserve,
    metadata_factor,
    reserve_hull,
    uncertainty,
)
from overprov.calibrate import fit as fitmod

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
TRUTHS = [
    *sorted((RESULTS / "newftl2").glob("dhara-?.json")),
    *sorted((RESULTS / "fifogc").glob("dhara-?.json")),
    *sorted((RESULTS / "metafactor").glob("dhara-?.json")),
    *sorted((RESULTS / "dharafloor").glob("dhara-?.json")),
    *sorted((RESULTS / "wafrefine").glob("dhara-?.json")),
]
LEVELS = (10.0, 20.0, 30.0)


def steady(doc: dict) -> dict[float, float]:
    return {float(lv["extra_op_percent"]): lv["steady_waf"] for lv in doc["levels"]}


def errs(predicted: dict[float, float], truth: dict[float, float]) -> str:
    return ", ".join(f"{x:g}% {100 * (predicted[x] / truth[x] - 1):+.1f}%" for x in LEVELS)


def line(path: Path, cv_sd: float) -> tuple[str, dict]:
    doc = json.loads(path.read_text())
    g, truth = doc["config"]["gc_ratio"], steady(doc)
    m = next(lv for lv in doc["levels"] if lv["extra_op_percent"] == 0)["fob"]["waf"]
    typed = [fitmod.Point(x, None, 0.05, round(truth[x], 3), 0.05) for x in (0.0, 40.0)]
    divided = metadata_factor.divide(typed, metadata_factor.Factor(m))
    greedy = reserve_hull.form_of("greedy", cv_sd)
    r1 = greedy.fit(typed)
    rm = greedy.fit(divided)  # the floor where the floor test calls for it
    test = greedy.floor_test(divided)
    capped = gc_reserve.CappedCurve(fitmod.waf_at, divided[0].waf)  # the pace's cap, always
    pc = gc_reserve._fit_spare(divided, capped)
    d4 = evidence.ReadingForm(gc_designs.waf_curve("d-choices-4"), None, False).fit(typed)
    pace = (g + 1) * m
    row = {
        "drive": path.stem, "g": g, "m": m, "w0": truth[0.0], "pace": pace,
        "s_m": 1 + rm.native_op, "s_1": 1 + r1.native_op,
        "today_reserve": {x: r1.waf(x) / truth[x] - 1 for x in LEVELS},
        "d4_10": d4.waf(10.0) / truth[10.0] - 1,
        "paced": {x: m * rm.waf(x) / truth[x] - 1 for x in LEVELS},
        "capped": {x: m * pc.waf(x) / truth[x] - 1 for x in LEVELS},
        "log_ratio": test["log_ratio"], "threshold": test["threshold"],
    }  # fmt: skip
    text = (
        f"{path.parent.name}/{path.stem}: {doc['drive']}; FOB WAF m {m:.4f}; truth "
        + ", ".join(f"{x:g}% {w:.3f}" for x, w in sorted(truth.items()))
        + f"\n  pace (g + 1)·m {pace:.3f} (0% truth {100 * (truth[0.0] / pace - 1):+.1f}%)"
        f"; the journal's spare (capped greedy through 40%/m) s {1 + rm.native_op:.4f}\n"
        f"  today, reserve (greedy, floor {r1.waf_floor or 0:.3f}, m = 1) s {1 + r1.native_op:.4f}:"
        f" {errs({x: r1.waf(x) for x in LEVELS}, truth)}\n"
        f"  today, effective d-choices-4 (m = 1) native OP {d4.native_op:.4f}: 10% "
        f"{100 * row['d4_10']:+.1f}%\n"
        f"  with m, reserve (greedy, floor {rm.waf_floor or 0:.3f}): "
        f"{errs({x: m * rm.waf(x) for x in LEVELS}, truth)}\n"
        f"  with m, the cap always (floor {divided[0].waf:.3f}) s {1 + pc.native_op:.4f}: "
        f"{errs({x: m * pc.waf(x) for x in LEVELS}, truth)}\n"
        f"  floor test on figures ÷ m: log ratio {test['log_ratio']:.3f}, threshold "
        f"{test['threshold']:.3f}: {'called for' if test['called_for'] else 'NOT called for'}"
    )
    return text, row


def main() -> None:
    cv_sd = uncertainty.weighing_rel_sd(None)
    print(f"weighing model-form sd {cv_sd:.4f}\n")
    rows = []
    for path in TRUTHS:
        text, row = line(path, cv_sd)
        rows.append(row)
        print(text + "\n")
    within = lambda e: all(abs(v) <= 0.05 for v in e.values())  # noqa: E731
    print(f"drives: {len(rows)}")
    near = sum(abs(r["w0"] / r["pace"] - 1) <= 0.01 for r in rows)
    print(f"0% truth within 1% of the pace (g + 1)·m: {near}")
    s = sorted(r["s_m"] for r in rows)
    print(f"the journal's spare s (with m): {s[0]:.4f}-{s[-1]:.4f}; with m = 1: "
          f"{min(r['s_1'] for r in rows):.4f}-{max(r['s_1'] for r in rows):.4f}")  # fmt: skip
    print(f"today's reserve reading (m = 1) within 5% at 10-30%: "
          f"{sum(within(r['today_reserve']) for r in rows)}")  # fmt: skip
    d4 = sum(abs(r["d4_10"]) <= 0.05 for r in rows)
    print(f"effective d-choices-4 (m = 1) within 5% at 10%: {d4}")
    print(f"reserve reading with m within 5% at 10-30%: {sum(within(r['paced']) for r in rows)}")
    print(
        f"with m and the cap always within 5% at 10-30%: {sum(within(r['capped']) for r in rows)}"
        f"; worst {100 * max(abs(v) for r in rows for v in r['capped'].values()):.1f}%"
    )
    called = [r["drive"] for r in rows if r["log_ratio"] > r["threshold"]]
    binds = [r["drive"] for r in rows if r["log_ratio"] > 0]
    print(f"floor test (÷ m) calls for the cap on {len(called)}; "
          f"the cap binds (log ratio > 0) on {len(binds)}")  # fmt: skip
    print("not called for: " + ", ".join(f"{r['drive']} (g {r['g']}, {r['log_ratio']:.3f})"
                                         for r in rows if r["drive"] not in called))  # fmt: skip


if __name__ == "__main__":
    main()
