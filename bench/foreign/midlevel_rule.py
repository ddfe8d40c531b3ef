"""Check the rule of results/femu-midlevel/RULE.md (a second QD4 probe at the lowest level).

    python bench/foreign/midlevel_rule.py [--dir bench/foreign/results/femu-midlevel]

Reads `evaluation.json` of `now/`, `two/`, `lv/` and `now-u4/`, `two-u4/`, `lv-u4/` (the
unseen FEMU drives U3 and U4, evaluate.py's "QD" cases) and of
`seen-{now,two,lv}/<results>-<name>/` (the seen truths, the IOPS+WAF case each): "now" is
today's plan (QD4 at the highest level) and calibrate as it is, "two" the plan with QD4 at the
lowest level too, "lv" that with the closed-loop term weighed when the QD4 figures lie at two
levels (`closed_loop.WEIGH_FROM_LEVELS`). Prints each truth's figures per mode (QD32 IOPS
median / worst over 0-40%; other queue depths that neither plan fits: median / worst; the
blocking-GC reading's weight; the closed-loop N) and each condition's verdict.
Nothing is fitted here: the figures are the evaluations'.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from closed_loop_rule import POINT, cases, med_worst, no_worse, qd32, text, units

HERE = Path(__file__).resolve().parent
UNSEEN = ("femu-8luns.json", "femu-24luns-300us.json")
MQSIM = ("results-mqsim", "results-patched-mqsim", "results-fresh-2chips-mqsim")
MODES = ("now", "two", "lv")
#: The QD4 figures either plan fits: the other-QD comparison leaves them out.
PROBES = {(0, 4), (40, 4)}
MIN_MQSIM_WEIGHT = 0.9


def other(c: dict) -> list[float]:
    """|IOPS error| at the other queue depths neither plan fits."""
    return [abs(r["iops_err"]) for r in c.get("other_qd") or []
            if (r["extra_op_percent"], r["queue_depth"]) not in PROBES]  # fmt: skip


def paired(case: str) -> str:
    """A two-probe case's name as today's plan's case (the pairs compared)."""
    return case.replace(" + 0,40 QD4", " + 40 QD4")


def weight(c: dict | None) -> float | None:
    return None if c is None else (c.get("gc_mechanism") or {}).get("weight")


def load(d: Path) -> tuple[dict, dict]:
    # U4 was evaluated into `<mode>-u4/` (at the same time as U3 into `<mode>/`)
    unseen = {m: {(k[0], paired(k[1])): c
                  for k, c in (cases(d / m / "evaluation.json")
                               | cases(d / f"{m}-u4" / "evaluation.json")).items()}
              for m in MODES}  # fmt: skip
    seen: dict[str, dict] = {m: {} for m in MODES}
    for m in MODES:
        for f in sorted((d / f"seen-{m}").glob("*/evaluation.json")):
            seen[m] |= {(f.parent.name, paired(k[1])): c for k, c in cases(f).items()}
    return unseen, seen


def table(unseen: dict, seen: dict) -> None:
    print("| truth | case (today's name) | mode | QD32 IOPS median / worst | other QDs (neither "
          "plan fits) | blocking weight | N |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for pool in (unseen, seen):
        for key in sorted(set().union(*(pool[m] for m in MODES))):
            for m in MODES:
                c = pool[m].get(key)
                if c:
                    w = weight(c)
                    print(f"| {key[0]} | {key[1]} | {m} | {text(med_worst(qd32(c)))} | "
                          f"{text(med_worst(other(c)))} | "
                          f"{'–' if w is None else f'{w:.2f}'} | {units(c)} |")  # fmt: skip
    print()


def check(unseen: dict, seen: dict, mode: str) -> list[bool]:
    """L1-L4 for ``lv``, T2-T3 for ``two`` (results/femu-midlevel/RULE.md), each verdict printed."""
    oks: list[bool] = []
    for name in UNSEEN:
        got = {k: c for k, c in unseen[mode].items() if k[0] == name}
        pooled = med_worst([e for c in got.values() for e in other(c)])
        if mode == "lv":  # L1
            ok = len(got) == 3 and pooled is not None and pooled[0] <= 0.10 and pooled[1] <= 0.20
            oks.append(ok)
            print(f"{name} {mode}: other QDs pooled {text(pooled)} over {len(got)} cases -> "
                  f"L1 {'holds' if ok else 'fails'}")  # fmt: skip
        for k, c in got.items():  # L2 / T2
            now = unseen["now"].get(k)
            ok = now is not None and no_worse(med_worst(qd32(c)), med_worst(qd32(now)))
            oks.append(ok)
            print(f"  {k[1]}: QD32 {text(med_worst(qd32(c)))} vs now "
                  f"{text(med_worst(qd32(now))) if now else 'missing'} -> "
                  f"{'no worse' if ok else 'worse or missing'}")  # fmt: skip
        nows = [c for k, c in unseen["now"].items() if k[0] == name]  # L3 / T3
        was = med_worst([e for c in nows for e in other(c)])
        ok = len(got) == 3 and no_worse(pooled, was)
        oks.append(ok)
        print(f"  other QDs pooled {text(pooled)} vs now {text(was)} -> "
              f"{'no worse' if ok else 'worse or missing'}")  # fmt: skip
    for key, now in sorted(seen["now"].items()):  # L2, L3 / T2, T3 on the seen truths
        c = seen[mode].get(key)
        ok = c is not None and no_worse(med_worst(qd32(c)), med_worst(qd32(now)))
        ok = ok and no_worse(med_worst(other(c)), med_worst(other(now)))
        oks.append(ok)
        print(f"seen {key[0]} {mode}: QD32 {text(med_worst(qd32(c))) if c else '–'} vs "
              f"{text(med_worst(qd32(now)))}, other QDs {text(med_worst(other(c))) if c else '–'}"
              f" vs {text(med_worst(other(now)))} -> no worse: {ok}")  # fmt: skip
        if mode == "lv" and key[0] in MQSIM:  # L4
            w = weight(c)
            ok4 = w is not None and w >= MIN_MQSIM_WEIGHT
            oks.append(ok4)
            print(f"  L4: blocking-GC weight {w} -> {'holds' if ok4 else 'fails'}")
    return oks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, default=HERE / "results" / "femu-midlevel")
    args = ap.parse_args(argv)
    unseen, seen = load(args.dir)
    table(unseen, seen)
    verdict = {m: check(unseen, seen, m) for m in ("lv", "two")}
    for m, oks in verdict.items():
        what = "the weighing (lv)" if m == "lv" else "the second probe alone (two)"
        print(f"{what}: {'passes' if oks and all(oks) else 'fails'} "
              f"({sum(oks)} of {len(oks)} conditions hold; 1 point = {POINT:.0%})")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
