"""Why calibrate misses Dhara's WAF at 10% on J and K and its own fitted 0% on L and M: a
diagnosis on the 13 seen Dhara drives (judges nothing; milliseconds, nothing simulated).

For each Dhara truth's "WAF 0+40" case as stored (the typed figures read from the case's command:
bench/foreign/results/metafactor/today/*.json for J-M, .../metafactor/seen/today/*.json for
A-I), with the weighing's model-form error (``uncertainty.weighing_rel_sd(None)``, as
``spare_readings.weigh`` has it for typed figures):

- the effective-spare readings' weights per uniform design as ``steep_pair.gentlest_alone``
  weighs them (``steep_pair.plain_evidences``, ``evidence.weights_of``), whether it fires, and
  whether ``reserve_hull.none_links`` does: the floor path (``reserve_hull.replaces_plain``);
- whether greedy's undated reserve reading is called for (``reserve_hull.form_of``,
  ``gc_reserve.ReserveForm.called_for``) and its surrogate's WAF at 10, 20, 30%;
- the d-choices-4 effective-spare surrogate's WAF at 10% (the reading that carries J-M's answer);
- the answer at 10% (the stored case's ``waf_pred``) and the truth (its ``waf_true``).

    PYTHONPATH=python python bench/foreign/results/dharafloor/diagnose.py > .../diagnose.txt
"""

from __future__ import annotations

import json
from pathlib import Path

from overprov.calibrate import evidence, gc_designs, reserve_hull, steep_pair, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.errors import ConfigError

HERE = Path(__file__).resolve().parent
META = HERE.parent / "metafactor"
CASES = [*sorted((META / "seen" / "today").glob("dhara-?.json")),
         *sorted((META / "today").glob("dhara-?.json"))]  # fmt: skip


def typed_points(command: str | list[str]) -> list[fitmod.Point]:
    words = command.split() if isinstance(command, str) else list(command)
    spec = words[words.index("--waf-points") + 1]
    pairs = [item.split(":") for item in spec.split(",")]
    return [fitmod.Point(float(x), None, 0.05, float(w), 0.05) for x, w in pairs]


def line(case: Path, cv_sd: float) -> str:
    res = json.loads(case.read_text())["result"]
    points = typed_points(res["command"])
    nan = float("nan")  # a refused case stores no levels
    truth = {float(lv["extra_op_percent"]): lv["waf_true"] for lv in res.get("levels") or []}
    truth = {x: truth.get(x, nan) for x in (10.0, 20.0, 30.0)}
    evs = steep_pair.plain_evidences(points, cv_sd)
    w = evidence.weights_of(evs) if evs else {}
    weights = " ".join(f"{d} {w[d]:.2f}" for d in gc_designs.UNIFORM_DESIGNS)
    fires = steep_pair.fires(points, cv_sd, reserve_hull.floor_in_waf(points))
    none = reserve_hull.none_links(points, cv_sd)
    form = reserve_hull.form_of("greedy", cv_sd)
    try:
        called = form.called_for(points)
        rs = form.fit(points)
        reserve = ", ".join(f"{x:g}% {rs.waf(x):.3f}" for x in (10.0, 20.0, 30.0))
    except ConfigError as exc:
        called, reserve = False, f"cannot fit ({exc})"
    d4 = gc_designs.waf_curve("d-choices-4")
    s4 = evidence.ReadingForm(d4, None, False).fit(points)
    by = {float(lv["extra_op_percent"]): lv for lv in res.get("levels") or []}
    ans10 = by.get(10.0, {}).get("waf_pred")
    readings = ", ".join(f"{k} {v:.2f}" for k, v in (res.get("readings") or {}).items() if v >= 0.1)
    return (
        f"{case.stem}: typed 0% {points[0].waf:g}, 40% {points[1].waf:g}; truth 10% "
        f"{truth[10.0]:.3f}, 20% {truth[20.0]:.3f}, 30% {truth[30.0]:.3f}\n"
        f"  plain weights: {weights}; gentlest_alone fires: {fires}; none_links: {none}\n"
        f"  answer carried by: {readings or '(refused)'}; answer 10% "
        f"{'-' if ans10 is None else f'{ans10:.3f} ({100 * (ans10 / truth[10.0] - 1):+.1f}%)'}\n"
        f"  d-choices-4 surrogate: native OP {s4.native_op:.4f}, 10% {s4.waf(10.0):.3f}\n"
        f"  greedy reserve reading called for: {called}; its surrogate {reserve}"
    )


def main() -> None:
    cv_sd = uncertainty.weighing_rel_sd(None)
    print(f"weighing model-form sd {cv_sd:.4f}; SPAN_MIN_WEIGHT {evidence.SPAN_MIN_WEIGHT}\n")
    for case in CASES:
        print(line(case, cv_sd) + "\n")


if __name__ == "__main__":
    main()
