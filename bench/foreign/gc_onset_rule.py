"""The verdict of results/gc-onset/RULE.md (and of results/gc-onset-fit/RULE.md, whose
conditions are the same on other drives): the four pass conditions, read from the bench's files.

    python bench/foreign/gc_onset_rule.py [--folder bench/foreign/results/gc-onset]
    python bench/foreign/gc_onset_rule.py --folder bench/foreign/results/gc-onset-fit \
        --unseen unseen.json --binds femu-16lun-160blk-thres60,femu-32lun-80blk-thres70 \
        --left-alone femu-8lun-256blk-thres85 --unseen-in-3

    python bench/foreign/gc_onset_rule.py --folder bench/foreign/results/gc-onset-plan \
        --unseen unseen.json --binds femu-24lun-144blk-thres60-300us,femu-16lun-224blk-thres75 \
        --left-alone femu-8lun-384blk-thres88 --unseen-in-3 --fitted-noise 0.02

    python bench/foreign/gc_onset_rule.py --folder bench/foreign/results/gc-onset-fill-femu \
        --unseen unseen.json --seen '' --dated fill-onsets.json --binds ... --left-alone ... \
        --unseen-in-3 --fitted-noise 0.02

``--dated`` (``results/gc-onset-fill-femu/RULE.md``): first, each drive's onset as the graded
plan dates it in its fill (``femu_onset.py --fill``) against FEMU's first copy on the same
writes, within ``--dating-tolerance`` drive writes. ``--seen ''``: no seen truths (condition 3
over the unseen cases only, condition 4 not judged: said so).

``--fitted-noise`` (the third rule, ``results/gc-onset-plan/RULE.md``): in condition 3 a
*fitted* figure of a plan case (0% or 40%) counts as worse only when its |error| is also above
this share (the figures' noise: a fit residual within it is no regression); a held-out figure
keeps the 1-point bound.

Reads the unseen drives' cases (``--unseen``: their plan cases, and in the second rule their
held-out levels too), ``plan-no-onset.json`` when there (the first rule's record of the reading
without the onset) and ``seen.json`` (every seen curve and the corpus), all written by
``bench/gc_reserve_bench.py``, and prints each condition's figures and whether it holds. Errors
are |prediction ÷ truth − 1|.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

BINDS = ("femu-24lun-thres65-250us", "femu-16lun-192blk")
LEFT_ALONE = "femu-32lun-96blk-thres80"
HELD_OUT = (10.0, 20.0, 30.0)
FITTED = (0.0, 40.0)


def _errors(case: dict, figure: str, key: str) -> list[float]:
    return [abs(r[key]) for r in case["rows"]
            if r["figure"] == figure and r["extra_op_percent"] in HELD_OUT]  # fmt: skip


def condition_1(plan: list[dict], no_onset: dict, binds: tuple[str, ...]) -> tuple[bool, list[str]]:
    ok, lines = True, []
    for c in plan:
        if c["drive"] not in binds or c["kind"] != "plan":
            continue
        w, wb = _errors(c, "waf", "with_reserve_error"), _errors(c, "waf", "baseline_error")
        i, ib = _errors(c, "iops", "with_reserve_error"), _errors(c, "iops", "baseline_error")
        old = no_onset.get((c["drive"], c["raw_nand_given"]))
        held = (statistics.median(w) <= 0.05 and max(w) <= 0.10
                and statistics.median(w) < statistics.median(wb)
                and statistics.median(i) <= statistics.median(ib))  # fmt: skip
        ok &= held
        lines.append(
            f"  {c['drive']} raw NAND {'given' if c['raw_nand_given'] else 'not given'}: "
            f"reserve weight {c['reserve_weight']:.2f}; WAF median / worst "
            f"{100 * statistics.median(wb):.1f} / {100 * max(wb):.1f}% → "
            + (f"(no onset {100 * statistics.median(old):.1f} / {100 * max(old):.1f}%) → "
               if old else "")
            + f"{100 * statistics.median(w):.1f} / {100 * max(w):.1f}%; IOPS median "
            f"{100 * statistics.median(ib):.1f} → {100 * statistics.median(i):.1f}%: "
            + ("holds" if held else "FAILS")
        )  # fmt: skip
    return ok, lines


def worse_rows(cases: list[dict], fitted_noise: float | None = None) -> list[tuple[dict, dict]]:
    """Rows whose |error| grows by more than 1 point over the baseline's; with
    ``fitted_noise``, a plan case's fitted figure (0%, 40%) only when its |error| is above that
    too."""

    def worse(c: dict, r: dict) -> bool:
        e = abs(r["with_reserve_error"])
        if e <= abs(r["baseline_error"]) + 0.01:
            return False
        fitted = c["kind"] == "plan" and r["extra_op_percent"] in FITTED
        return not (fitted and fitted_noise is not None and e <= fitted_noise)

    return [(c, r) for c in cases for r in c["rows"] if worse(c, r)]


def dating(rows: list[dict], tolerance: float) -> tuple[bool, list[str]]:
    """Each drive's plan-dated onset (``femu_onset.py --fill``) against FEMU's first copy."""
    ok, lines = True, []
    for r in rows:
        d = r["difference"]
        held = abs(d) <= tolerance
        ok &= held
        lines.append(
            f"  {Path(r['file']).stem}: {r['onset_spare_factor']:.4f} (in the {r['dated_in']}; "
            f"the fill ends at {r['fill_end_drive_writes']:.3f}) against FEMU's "
            f"{r['first_copy']['onset_spare_factor']:.4f}: {d:+.4f}: "
            + ("holds" if held else "FAILS")
        )
    return ok, lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folder", type=Path,
                    default=Path(__file__).resolve().parent / "results" / "gc-onset")  # fmt: skip
    ap.add_argument("--unseen", default="plan.json", help="the unseen drives' cases, in FOLDER")
    ap.add_argument("--binds", default=",".join(BINDS), help="the drives where the reserve binds")
    ap.add_argument("--left-alone", default=LEFT_ALONE, help="the drive where it does not")
    ap.add_argument("--unseen-in-3", action="store_true",
                    help="condition 3 over the unseen drives' cases too")  # fmt: skip
    ap.add_argument("--fitted-noise", type=float, default=None,
                    help="condition 3: a fitted figure within it is not worse")  # fmt: skip
    ap.add_argument("--seen", default="seen.json", help="the seen truths' cases ('': none)")
    ap.add_argument("--dated", default=None, help="femu_onset.py --fill's onsets, in FOLDER")
    ap.add_argument(
        "--dating-tolerance",
        type=float,
        default=0.005,
        help="--dated: the most the plan's onset may differ from FEMU's first copy",
    )
    args = ap.parse_args(argv)
    verdicts = []
    if args.dated:
        ok0, lines = dating(json.loads((args.folder / args.dated).read_text()),
                            args.dating_tolerance)  # fmt: skip
        print(f"0. the plan's onset in its graded fill is FEMU's first copy (within "
              f"{args.dating_tolerance:g} drive writes):")  # fmt: skip
        print("\n".join(lines))
        verdicts.append(ok0)
    plan = json.loads((args.folder / args.unseen).read_text())["cases"]
    before_file = args.folder / "plan-no-onset.json"
    before = json.loads(before_file.read_text())["cases"] if before_file.exists() else []
    no_onset = {(c["drive"], c["raw_nand_given"]): _errors(c, "waf", "with_reserve_error")
                for c in before}  # fmt: skip
    seen = json.loads((args.folder / args.seen).read_text())["cases"] if args.seen else []
    ok1, lines = condition_1(plan, no_onset, tuple(args.binds.split(",")))
    print("1. right where the reserve binds (WAF median <= 5%, worst <= 10%, below the "
          "baseline's; IOPS median no higher):")  # fmt: skip
    print("\n".join(lines))
    verdicts.append(ok1)
    alone = [c for c in plan if c["drive"] == args.left_alone]
    bad = worse_rows(alone)
    weight = max((c["reserve_weight"] for c in alone), default=0.0)
    print(f"2. left alone where it does not bind ({args.left_alone}): {len(bad)} of "
          f"{sum(len(c['rows']) for c in alone)} figures worse by > 1 point (reserve weight "
          f"{weight:.2f}): " + ("holds" if not bad and alone else "FAILS"))  # fmt: skip
    verdicts.append(not bad and bool(alone))
    third = seen + plan if args.unseen_in_3 else seen
    foreign = [c for c in third if c["kind"] == "plan" or c.get("foreign")]
    bad = worse_rows(foreign, args.fitted_noise)
    n = sum(len(c["rows"]) for c in foreign)
    which = ("seen and unseen" if seen else "unseen") if args.unseen_in_3 else "seen"
    noise = ("" if args.fitted_noise is None
             else f" (a fitted figure only beyond {100 * args.fitted_noise:g}%)")  # fmt: skip
    print(f"3. {which} foreign truths: {len(bad)} of {n} figures worse by > 1 point{noise}: "
          + ("holds" if not bad else "FAILS"))  # fmt: skip
    for c, r in bad:
        b, a = 100 * r["baseline_error"], 100 * r["with_reserve_error"]
        print(f"   {c['kind']} {c['drive']} {r['extra_op_percent']:g}% {r['figure']}: "
              f"{b:+.1f}% → {a:+.1f}%")  # fmt: skip
    verdicts.append(not bad)
    loo = [r for c in seen if c["kind"] == "loo" for r in c["rows"]]
    if not loo:
        print("4. held-out levels of the seen truths: not run (no seen truths): not judged")
        print("the rule: " + ("PASSES" if all(verdicts) else "FAILS"))
        return 0
    b = [abs(r["baseline_error"]) for r in loo]
    a = [abs(r["with_reserve_error"]) for r in loo]
    ok4 = (statistics.median(a) <= statistics.median(b) + 0.005
           and max(a) <= max(b) + 0.02)  # fmt: skip
    print(f"4. held-out levels ({len(loo)} figures): median {100 * statistics.median(b):.2f} → "
          f"{100 * statistics.median(a):.2f}%, worst {100 * max(b):.0f} → {100 * max(a):.0f}%: "
          + ("holds" if ok4 else "FAILS"))  # fmt: skip
    verdicts.append(ok4)
    print("the rule: " + ("PASSES" if all(verdicts) else "FAILS"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
