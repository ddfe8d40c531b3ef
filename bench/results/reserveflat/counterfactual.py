"""Diagnosis only (no rule, no change to python/overprov): three one-at-a-time changes to the
greedy reserve reading, set in this process alone, on every case and arm of ``diagnose.py``:
does the gate then pass, and what does the reading predict at 0-40% against FEMU's truth?

A. the spare fitted to the onset within ``gc_reserve.ONSET_REL_SD`` instead of pinned to it
   (``discard_transient.SPARE_FROM_ONSET`` off here);
B. the floor read from the lowest level's WAF figure alone (the floor test's IOPS branch left
   out: it reads WAF through t_cmd and t_page fitted to the 40% level alone);
C. the spare placed by the two figures: the greedy curve through the 40% WAF figure (the edge
   between 30% and 40% where the figures put it), the onset then weighed as one figure
   (``gc_reserve.with_onset``) rather than fitted.

    PYTHONPATH=python python bench/results/reserveflat/counterfactual.py > counterfactual.txt
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from overprov.calibrate import discard_transient, evidence, gc_reserve, plausibility, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.calibrate.reserve_twin_check import onset_from_empty
from overprov.errors import ConfigError

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
diagnose = load_script("diagnose", HERE / "diagnose.py")


@dataclass(frozen=True)
class WafFloorForm(gc_reserve.ReserveForm):
    """B: the reserve reading with its floor read from the WAF figure alone."""

    def floor_test(self, points: list[fitmod.Point]) -> dict:
        t = super().floor_test(points)
        if t.get("called_for") and "waf" in t.get("read_from", {}):
            t = {**t, "waf": t["read_from"]["waf"]}
        return t


def truth_all(case_truth: str, name: str) -> dict[float, float]:
    """The stored truth's QD32 WAF by level, with this folder's extra levels where run."""
    out = diagnose.truth_waf(case_truth)
    extra = HERE / "truth" / f"{name}.json"
    if extra.exists():
        for r in json.loads(extra.read_text())["levels"]:
            if r["queue_depth"] == 32:
                out[float(r["extra_op_percent"])] = r["steady_waf"]
    return dict(sorted(out.items()))


def verdict(form: gc_reserve.ReserveForm, points: list[fitmod.Point], onset: float, cv: float):
    """(offered and passing the gate, the surrogate, residual χ² with the onset, its bound)."""
    try:
        s = form.fit(points)
        ev = gc_reserve.with_onset(evidence.assess(form, form.checked_points(points), cv), s, onset)
        offered = form.called_for(points)
    except ConfigError as exc:
        return False, None, str(exc), None
    ok = offered and plausibility.surrogate_misses_its_points(s, points) is None
    bound = evidence.chi2_quantile(ev["n_figures"] - ev["n_parameters"])
    return ok, s, ev["residual_chi2"], bound


def line(tag: str, ok: bool, s, chi2, bound, truth: dict[float, float]) -> str:
    if s is None:
        return f"    {tag}: fails ({chi2})"
    errs = ", ".join(f"{x:g}% {100 * (s.waf(x) / w - 1):+.1f}" for x, w in truth.items())
    return (
        f"    {tag}: {'PASSES' if ok else 'refused'} (spare s {1 + s.native_op:.4f}, floor "
        f"{s.waf_floor or 0:.3f}, residual chi2 with the onset {chi2:.2f}, bound {bound:.2f}); "
        f"WAF vs truth (%): {errs}"
    )


def main() -> int:
    t0 = os.times()
    for name, folder, truth_path in diagnose.CASES:
        base = Path(folder).name.removesuffix("-off")
        truth = truth_all(truth_path, base)
        print(f"== {name}; truth WAF " + ", ".join(f"{x:g}% {w:.3f}" for x, w in truth.items()))
        for arm, (late, plain) in diagnose.ARMS.items():
            m, points = diagnose.points_of(folder, late, plain)
            if plausibility.input_problems(points):
                print(f"  [{arm}] refused by an input rule (no reading changes that)")
                continue
            onset = onset_from_empty(m)
            cv = uncertainty.weighing_rel_sd(uncertainty.model_form_for(points, False))
            gate = plausibility.fit_misses_its_points(points, m.fob_iops, onset, None)
            print(f"  [{arm}] today's gate: {gate or 'passes'}")
            print(
                line(
                    "today (greedy reserve)",
                    *verdict(
                        gc_reserve.ReserveForm(fitmod.waf_at, cv, onset=onset), points, onset, cv
                    ),
                    truth,
                )
            )
            discard_transient.SPARE_FROM_ONSET = False
            try:
                print(
                    line(
                        "A spare fitted to the onset",
                        *verdict(
                            gc_reserve.ReserveForm(fitmod.waf_at, cv, onset=onset),
                            points,
                            onset,
                            cv,
                        ),
                        truth,
                    )
                )
            finally:
                discard_transient.SPARE_FROM_ONSET = True
            print(
                line(
                    "B floor from the WAF figure",
                    *verdict(WafFloorForm(fitmod.waf_at, cv, onset=onset), points, onset, cv),
                    truth,
                )
            )
            fig = {p.extra_op_percent: p.waf for p in points if not p.fresh}
            if fig[40.0] < fig[0.0]:
                s_fig = diagnose.spare_through(fig[40.0], 40.0)
                print(
                    line(
                        f"C spare through the 40% figure ({100 * (s_fig / onset - 1):+.1f}% "
                        "vs onset)",
                        *verdict(
                            gc_reserve.ReserveForm(fitmod.waf_at, cv, onset=s_fig),
                            points,
                            onset,
                            cv,
                        ),
                        truth,
                    )
                )
            else:
                print("    C: the 40% figure is not below the 0% one: no edge to place")
    t1 = os.times()
    print(f"CPU s (user + system): {t1.user - t0.user + t1.system - t0.system:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
