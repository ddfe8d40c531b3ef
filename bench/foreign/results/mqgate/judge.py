"""Judge bench/foreign/results/mqgate/RULE.md from the case files runs.sh wrote (fresh-off/,
fresh-on/, seen-off/, seen-on/): F1, F2, S1 and what they report; writes results.json and
verdict.md's clauses and table (the reading below them is written by hand). No simulation.
The helpers (targets, figures inside, errors) are mqline's judge's.

    PYTHONPATH=python python bench/foreign/results/mqgate/judge.py
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from common import load_script  # noqa: E402  (bench/foreign/common.py)
from overprov.calibrate import bend_between  # noqa: E402
from overprov.calibrate import fit as fitmod  # noqa: E402

FIRES = load_script("mqbend_fires", HERE.parent / "mqbend" / "fires.py")
MQLINE = load_script("mqline_judge", HERE.parent / "mqline" / "judge.py")
MQLINE.HERE = HERE  # its case() reads this rule's arms
SEEN_RATIOS = load_script("mqgate_seen_ratios", HERE / "seen_ratios.py")
FRESH = ("u256x32", "u544x32", "u1120x16", "u1312x16")
SEEN = MQLINE.SEEN
WITHIN, MEDIAN_SLACK = MQLINE.WITHIN, MQLINE.MEDIAN_SLACK  # F1 (20%), F2 (1 point)
MOVED_REL = 0.001  # "moves": an IOPS differing by more than 0.1%


def moved(off: dict, on: dict) -> bool:
    return any(
        abs(b["iops_pred"] / a["iops_pred"] - 1) > MOVED_REL
        for a, b in zip(off["levels"], on["levels"], strict=True)
    )


def twin_over_line(doc: dict) -> str:
    """The twin's IOPS over the FOB-highest line's at each middle level's predicted WAF."""
    cmd = doc["command"]
    pts, wafs = SEEN_RATIOS._figures(cmd, "--points"), SEEN_RATIOS._figures(cmd, "--waf-points")
    fob = float(re.search(r"--fob-iops (\S+)", cmd).group(1))
    lo_x, hi_x = min(pts), max(pts)
    high = fitmod.Point(hi_x, pts[hi_x], waf=wafs[hi_x])
    return " / ".join(
        f"{lv['iops_pred'] / bend_between.line_iops(fob, high, lv['waf_pred']):.2f}"
        for lv in doc["levels"]
        if lo_x < lv["extra_op_percent"] < hi_x
    )


def arm_pair(off_arm: str, on_arm: str, stem: str) -> dict:
    off, on = MQLINE.case(off_arm, stem), MQLINE.case(on_arm, stem)
    if off is None or on is None or "levels" not in off or "levels" not in on:
        return {"missing": True}
    return {
        "fires": bend_between.fires(*FIRES.from_command(off["command"])),
        "twin_over_line": twin_over_line(off), "moved": moved(off, on),
        "off": MQLINE.errors(off), "on": MQLINE.errors(on),
        "median_off": off["summary"]["iops_median"], "median_on": on["summary"]["iops_median"],
        "worst_on": max(abs(lv["iops_err"]) for lv in on["levels"]),
        "inside_off": MQLINE.inside(off), "inside_on": MQLINE.inside(on),
        "targets_off": MQLINE.targets(off), "targets_on": MQLINE.targets(on),
    }  # fmt: skip


def judge() -> dict:
    fresh = {s: arm_pair("fresh-off", "fresh-on", s) for s in FRESH}
    seen = {s: arm_pair("seen-off", "seen-on", s) for s in SEEN}
    got = {s: r for s, r in fresh.items() if not r.get("missing")}
    moved_on = [s for s, r in got.items() if r["moved"]]
    good = [s for s in moved_on if got[s]["worst_on"] <= WITHIN]
    f1 = bool(moved_on) and len(good) >= math.ceil(2 * len(moved_on) / 3)
    f2_bad = [s for s, r in got.items() if r["median_on"] > r["median_off"] + MEDIAN_SLACK]
    lost = [(s, t) for s, r in seen.items() if not r.get("missing")
            for t in ("iops", "waf") if r["targets_off"][t] and not r["targets_on"][t]]  # fmt: skip
    seen_complete = not any(r.get("missing") for r in seen.values())
    verdict = {
        "F1": {"moved": moved_on, "within_20_every_level": good, "holds": f1},
        "F2": {"worse_by_more_than_1_point": f2_bad, "holds": bool(got) and not f2_bad},
        "S1": {"targets_lost": lost, "holds": seen_complete and not lost},
        "fresh_missing": [s for s in FRESH if s not in got],
    }
    verdict["adopt"] = all(verdict[k]["holds"] for k in ("F1", "F2", "S1"))
    return {"fresh": fresh, "seen": seen, "verdict": verdict}


def table(res: dict) -> list[str]:
    """mqline's table, its "fires" column also giving the gate's figure and whether it moved."""
    view = {
        group: {
            stem: r if r.get("missing") else
            {**r, "fires": f"{r['fires']}; {r['twin_over_line']}; {r['moved']}"}
            for stem, r in res[group].items()
        }
        for group in ("fresh", "seen")
    }  # fmt: skip
    out = MQLINE.table(view)
    out[0] = out[0].replace("| fires |", "| fires; twin ÷ line at 10/20/30%; moved |")
    return out


def main() -> None:
    """Write results.json; print the clauses, then the table."""
    res = judge()
    (HERE / "results.json").write_text(json.dumps(res, indent=1) + "\n")
    verdict = res["verdict"]
    for clause in ("F1", "F2", "S1"):
        print(f"- {clause}: {json.dumps(verdict[clause])}")
    print(f"- fresh missing: {verdict['fresh_missing']}; adopt: {verdict['adopt']}\n")
    print("\n".join(table(res)))


if __name__ == "__main__":
    main()
