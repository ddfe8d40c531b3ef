"""The clauses of bench/foreign/results/midlevel/RULE.md from the case files (fresh-today/,
fresh-mid/, seen-typed/d2.json), for arms A and S; prints verdict.md's text.

    python bench/foreign/results/midlevel/judge.py > bench/foreign/results/midlevel/verdict.md
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
MQSIM = ("u1664x16", "u864x32", "u1760x16")
FEMU = ("femu-71lun-45blk-thres65", "femu-73lun-40blk-thres62")
ARMS = {"A": ("steep_pair", "bend_between"), "S": ("steep_pair",)}
WAF_TARGET = 0.05


def load(folder: str, family: str, stem: str) -> dict | None:
    p = HERE / folder / f"{family}--midlevel_fresh--{stem}.json"
    return json.loads(p.read_text()) if p.exists() else None


def targets(c: dict | None) -> tuple[bool, bool]:
    """(the IOPS target met, the WAF target met); a refusal or a missing case meets neither."""
    s = (c or {}).get("summary") or {}
    if not c or s.get("refused") or s.get("iops_median") is None:
        return False, False
    iops = s["iops_median"] <= 0.10 and s["iops_worst"] <= 0.20
    return iops, s["waf_worst"] is not None and s["waf_worst"] <= WAF_TARGET


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def describe(c: dict | None) -> str:
    if c is None:
        return "not run"
    s = c["summary"]
    if s.get("refused"):
        return "refused: " + (c.get("error") or ["?"])[-1][:120]
    levels = {r["extra_op_percent"]: r for r in c["levels"]}
    waf = ", ".join(f"{x}% {100 * levels[x]['waf_err']:+.1f}%" for x in sorted(levels))
    warn = ", ".join(c.get("warnings", [])) or "none"
    return (f"IOPS {pct(s['iops_median'])} / {pct(s['iops_worst'])}, WAF worst "
            f"{pct(s['waf_worst'])} ({waf}); warnings: {warn}")  # fmt: skip


def main() -> None:
    print("# Verdict of bench/foreign/results/midlevel/RULE.md (judge.py's output)\n")
    drives = [("MQSim", s) for s in MQSIM] + [("FEMU", s) for s in FEMU]
    rows = {}
    for fam, stem in drives:
        today, mid = load("fresh-today", fam, stem), load("fresh-mid", fam, stem)
        fired = (today or {}).get("plan_test_today", [])
        rows[stem] = (fam, today, mid, fired)
        print(f"## {fam} {stem}\n")
        print(f"- the plan's test on the 0% and 40% figures: {', '.join(fired) or 'silent'}")
        print(f"- today's plan case: {describe(today)}")
        if mid is not None and mid.get("third_level"):
            print(f"- with 20% typed: {describe(mid)}")
        print()
    d2 = json.loads((HERE / "seen-typed" / "d2.json").read_text())
    verdicts = {}
    for arm, tests in ARMS.items():
        met = {"MQSim": 0, "FEMU": 0}
        lost = []
        for stem, (fam, today, mid, fired) in rows.items():
            fires = any(t in fired for t in tests)
            case = mid if fires else today
            both = all(targets(case))
            met[fam] += both
            if not fires and targets(case) != targets(today):
                lost.append(stem)
        d2_fires = any(t in d2["today"]["plan_test"] for t in tests)
        d2_case = d2["mid"] if d2_fires else d2["today"]
        d2_ok = "waf_err" in d2_case and all(
            abs(e) <= WAF_TARGET for e in d2_case["waf_err"].values()
        )
        clauses = {
            "M1 (both targets on >= 2 of 3 MQSim)": met["MQSim"] >= 2,
            "F1 (both targets on >= 1 of 2 FEMU)": met["FEMU"] >= 1,
            "N1 (no target lost where the test is silent)": not lost,
            "D1 (the d-2 drive's WAF within 5% at 0-40%)": d2_ok,
        }
        verdicts[arm] = all(clauses.values())
        print(f"## Arm {arm} (the third level where {' or '.join(tests)} fires)\n")
        print(f"- MQSim both targets: {met['MQSim']} of 3; FEMU: {met['FEMU']} of 2")
        for name, ok in clauses.items():
            print(f"- {name}: {'holds' if ok else 'fails'}")
        errs = ", ".join(f"{x}% {100 * e:+.1f}%" for x, e in d2_case.get("waf_err", {}).items())
        print(f"- d-2 drive ({'20% typed' if d2_fires else 'today'}): WAF {errs}\n")
    chosen = "A" if verdicts["A"] else "S" if verdicts["S"] else None
    print("## Verdict\n")
    print(f"Arm {chosen} is adopted: middle_level.ON = True"
          + ("" if chosen == "A" else ", WHERE_BENT = False") if chosen
          else "Neither arm holds: middle_level.ON stays off.")  # fmt: skip


if __name__ == "__main__":
    main()
