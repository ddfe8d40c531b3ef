"""Task 1 of the level3 brief (a diagnosis on seen truths; judging nothing): typed IOPS and WAF
at 0, 20 and 40% extra OP (+ FOB, + QD4 at 40% where the truth has it: midlevel's case), which
gate keeps the GC-reserve reading out, which check refuses, and what a reading would need to
reproduce the three levels.

The seen truths: the ten where midlevel's plan test fired
(bench/foreign/results/midlevel/typed.md; nine refused with 20% typed) and femud4's four older
FEMU drives (bench/foreign/results/femud4/DIAGNOSIS.md). For each, from the surrogates alone
(no twin):

(a) the plain greedy fit's gate (``plausibility.surrogate_misses_its_points``, what
    ``fit_misses_its_points`` runs first) and ``reserve_hull.floor_in_waf`` (the two-level gate
    of every reserve-reading path: ``applies``, ``replaces_plain``, ``explains``,
    ``steep_pair.fires``);
(b) each uniform design's effective-spare reading on the three levels (``evidence.assess``):
    weight (``evidence.weights_of``), reproduced (``evidence.reproduced``), WAF at 0-40% against
    the truth;
(c) each design's reserve reading without an onset (``reserve_hull.form_of``): floor called
    for, the fit's own gate, WAF at 0-40% against the truth, and its evidence on the three
    levels weighed beside (b)'s as one class;
(d) bend_between on the 0%/40% figures (``above_line``) and the line through the FOB and the
    40% figure at the 20% figure's WAF against the 20% IOPS figure (what the twin refused on);
(e) midlevel's stored answer (``seen-typed/``): refused and why, or WAF errors;
(f) (b/c)'s readings with each reserve reading's held-out terms like for like
    (``reserve_held_out.like_for_like``, on by default for two levels) and the weights then;
(g) the 20% IOPS figure left out (its WAF kept): the plain d-4 and d-8 fits' WAF errors, and
    d-4's on the 0/40 figures alone (today's plan case).

    PYTHONPATH=python python bench/foreign/results/level3/diagnose.py > \
        bench/foreign/results/level3/diagnosis.txt
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOREIGN = HERE.parents[1]
ROOT = FOREIGN.parent.parent
sys.path.insert(0, str(FOREIGN.parent))
sys.path.insert(0, str(FOREIGN))
from common import load_script  # noqa: E402  (bench/foreign/common.py)
from cpu_clock import cpu_s  # noqa: E402  (bench/cpu_clock.py)
from overprov.calibrate import (  # noqa: E402
    bend_between,
    evidence,
    gc_designs,
    plausibility,
    reserve_held_out,
    reserve_hull,
    uncertainty,
)
from overprov.calibrate import fit as fitmod  # noqa: E402
from overprov.errors import ConfigError  # noqa: E402

TYPED = load_script("midlevel_typed", FOREIGN / "results" / "midlevel" / "typed.py")
SEEN = HERE.parent / "midlevel" / "seen-typed"
#: midlevel's ten where the plan's test fired, then femud4's four older FEMU drives
KEYS = (
    "MQSim--mqsim-retry_unseen--u512x32", "MQSim--mqsim-retry_unseen--u640x16",
    "MQSim--mqsim-retry_unseen--u768x32", "MQSim--mqsim-retry_unseen--u1536x16",
    "MQSim--mqsim-retry_unseen--u320x32", "MQSim--mqsim-retry_unseen--u384x64",
    "MQSim--mqsim-reserve_unseen--u1024x32-op12",
    "FEMU--byfig5_unseen--femu-6lun-240blk-thres68",
    "FEMU--femufix--femu-11lun-290blk-thres69-3200us-on",
    "FEMU--gatefix--femu-33lun-82blk-thres56-3750us-ns81",
    "FEMU--top--femu", "FEMU--femu-midlevel--femu-8luns", "FEMU--femu-units--femu-16luns",
    "FEMU--femu-units--femu-32luns-400us",
)  # fmt: skip
LEVELS = (0, 10, 20, 30, 40)


def errs(s: fitmod.Surrogate, truth: dict) -> str:
    return ", ".join(f"{x}% {100 * (s.waf(x) / truth[x]['steady_waf'] - 1):+.1f}" for x in LEVELS)


def one(folder: str, stem: str, family: str) -> None:
    key = TYPED.key(folder, stem, family)
    doc = json.loads((ROOT / folder / f"{stem}.json").read_text())
    curve, _others, today_case, mid_case = TYPED.cases_of(doc)
    pts3, fob = TYPED.typed_points(doc, curve, mid_case)
    pts2, _ = TYPED.typed_points(doc, curve, today_case)
    steady3 = [p for p in pts3 if p.queue_depth is None]  # the workload's queue depth
    cv_sd = uncertainty.weighing_rel_sd(uncertainty.model_form_for(steady3, False))
    print(f"== {key}  (cv_sd {cv_sd:.4f})")
    print("  truth WAF " + ", ".join(f"{x}% {curve[x]['steady_waf']:.3f}" for x in LEVELS))
    plain = fitmod.fit(steady3, fob_iops=fob)
    gate = plausibility.surrogate_misses_its_points(plain, steady3)
    print(f"  (a) plain greedy fit's gate: {gate or 'passes'}")
    two = [p for p in pts2 if p.queue_depth is None]
    print(f"      floor_in_waf(0/20/40) {reserve_hull.floor_in_waf(steady3)}; "
          f"floor_in_waf(0/40) {reserve_hull.floor_in_waf(two)}")  # fmt: skip
    evs, fits = {}, {}
    for design in gc_designs.UNIFORM_DESIGNS:
        form = evidence.ReadingForm(gc_designs.waf_curve(design), None, False)
        try:
            evs[f"plain {design}"] = evidence.assess(form, steady3, cv_sd)
            fits[f"plain {design}"] = form.fit(steady3)
        except ConfigError as exc:
            print(f"  (b) plain {design}: cannot fit ({exc})")
        rform = reserve_hull.form_of(design, cv_sd)
        try:
            test = rform.floor_test(steady3)
            called = rform.called_for(steady3)
            s = rform.fit(steady3)
        except ConfigError as exc:
            print(f"  (c) reserve {design}: cannot fit ({exc})")
            continue
        miss = plausibility.surrogate_misses_its_points(s, steady3)
        print(f"  (c) reserve {design}: floor test called_for {test['called_for']} "
              f"(floor {s.waf_floor}); called_for {called}; "
              f"its gate: {miss or 'passes'}")  # fmt: skip
        print(f"      WAF err {errs(s, curve)}")
        if test["called_for"]:
            evs[f"reserve {design}"] = evidence.assess(rform, steady3, cv_sd)
            fits[f"reserve {design}"] = s
    w = evidence.weights_of(evs)
    lfl = {n: reserve_held_out.like_for_like(ev, reserve_hull.form_of(n.split()[1], cv_sd),
                                              steady3, cv_sd) if n.startswith("reserve") else ev
           for n, ev in evs.items()}  # fmt: skip
    w_lfl = evidence.weights_of(lfl)
    for name, ev in evs.items():
        rep = evidence.reproduced(ev, untested=False)
        print(f"  (b/c) {name:22s} w={w[name]:.3g} chi2={ev['chi2']:.2f} "
              f"res={ev['residual_chi2']:.2f} reproduced {rep}; "
              f"WAF err {errs(fits[name], curve)}")  # fmt: skip
        print("        like for like (reserve_held_out.like_for_like): "
              f"chi2={lfl[name]['chi2']:.2f} w={w_lfl[name]:.3g}")  # fmt: skip
    above = bend_between.above_line(pts2, fob)
    low, high = sorted((p for p in steady3 if p.iops and p.has_steady_waf),
                       key=lambda p: p.extra_op_percent)[::2]  # fmt: skip
    mid = next(p for p in steady3 if p.extra_op_percent == 20 and p.iops)
    above_text = "none" if above is None else f"WAF {above[0]:.2f}, ratio {above[1]:.2f}"
    print(f"  (d) bend_between on 0/40: fires {bend_between.fires(pts2, fob)}; above_line "
          f"{above_text}")  # fmt: skip
    try:
        line20 = bend_between.line_iops(fob, high, mid.waf)
        print(f"      line at the 20% figure's WAF {mid.waf:.3f}: {line20:,.0f} IOPS, figure "
              f"{mid.iops:,.0f} ({100 * (line20 / mid.iops - 1):+.1f}%); plain fit's IOPS at 20% "
              f"{100 * (plain.iops(20) / mid.iops - 1):+.1f}%, at 0% "
              f"{100 * (plain.iops(0) / low.iops - 1):+.1f}%")  # fmt: skip
    except ValueError as exc:
        print(f"      line: {exc}")
    # (g) the middle IOPS figure left to the line: each design's plain fit on the rest
    rest = [p if p.extra_op_percent != 20 else replace(p, iops=None) for p in steady3]
    for design in ("d-choices-4", "d-choices-8"):
        s = evidence.ReadingForm(gc_designs.waf_curve(design), None, False).fit(rest)
        print(f"  (g) 20% IOPS left to the line, plain {design}: WAF err {errs(s, curve)}")
    s = evidence.ReadingForm(gc_designs.waf_curve("d-choices-4"), None, False).fit(two)
    print(f"      0/40 only, plain d-choices-4: WAF err {errs(s, curve)}")
    stored = json.loads((SEEN / f"{key}.json").read_text())
    if stored["summary"].get("refused"):
        print(f"  (e) midlevel's answer: refused: {stored['error'][-1].split(': ', 2)[-1]}")
    else:
        e = {r["extra_op_percent"]: r.get("waf_err") for r in stored["levels"]}
        print("  (e) midlevel's answer: WAF err " + ", ".join(
            f"{x}% {100 * e[x]:+.1f}" for x in LEVELS if e.get(x) is not None))  # fmt: skip


if __name__ == "__main__":
    c0 = cpu_s()
    rows = {TYPED.key(*r): r for r in TYPED.truths()}
    for k in KEYS:
        one(*rows[k])
    print(f"\n{cpu_s() - c0:.1f} CPU s (bench/cpu_clock.py)")
