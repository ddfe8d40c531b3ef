"""Judge bench/foreign/results/mqline/RULE.md from the case files runs.sh wrote (fresh-off/,
fresh-on/, seen-off/, seen-on/): F1, F2, S1 and the reported coverage; writes results.json and
verdict.md's clauses and table (the reading below them is written by hand). No simulation.

    PYTHONPATH=python python bench/foreign/results/mqline/judge.py
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from common import load_script  # noqa: E402  (bench/foreign/common.py)
from overprov.calibrate import bend_between  # noqa: E402

FIRES = load_script("mqbend_fires", HERE.parent / "mqbend" / "fires.py")
FRESH = ("u288x32", "u608x32", "u1184x16", "u1472x16")
SEEN = ("u1536x16", "u320x32", "u384x64", "u512x32", "u640x16", "u768x32")
UNFITTED = (10.0, 20.0, 30.0)
WITHIN = 0.20  # F1
MEDIAN_SLACK = 0.01  # F2


def case(arm: str, stem: str) -> dict | None:
    got = sorted((HERE / arm).glob(f"MQSim--*--{stem}.json"))
    return json.loads(got[0].read_text()) if got else None


def targets(doc: dict) -> dict[str, bool]:
    """The scoreboard's targets, each apart: IOPS (median ≤ 10%, worst ≤ 20%), WAF (≤ 5%)."""
    s = doc["summary"]
    return {"iops": s["iops_median"] <= 0.10 and s["iops_worst"] <= 0.20,
            "waf": s["waf_worst"] <= 0.05}  # fmt: skip


def inside(doc: dict) -> tuple[int, int]:
    """(unfitted IOPS and WAF figures at 10-30% inside the 80% interval, how many)."""
    rows = [lv for lv in doc["levels"] if lv["extra_op_percent"] in UNFITTED]
    flags = [lv[k] for lv in rows for k in ("iops_in_80", "waf_in_80") if k in lv]
    return sum(flags), len(flags)


def errors(doc: dict) -> str:
    return " / ".join(f"{100 * lv['iops_err']:+.1f}%" for lv in doc["levels"])


def judge() -> dict:
    fresh, seen = {}, {}
    for stem in FRESH:
        off, on = case("fresh-off", stem), case("fresh-on", stem)
        if off is None or on is None or "levels" not in off or "levels" not in on:
            fresh[stem] = {"missing": True}
            continue
        fired = bend_between.fires(*FIRES.from_command(off["command"]))
        worst_on = max(abs(lv["iops_err"]) for lv in on["levels"])
        fresh[stem] = {
            "fires": fired, "off": errors(off), "on": errors(on),
            "median_off": off["summary"]["iops_median"], "median_on": on["summary"]["iops_median"],
            "worst_on": worst_on, "inside_off": inside(off), "inside_on": inside(on),
            "targets_off": targets(off), "targets_on": targets(on),
        }  # fmt: skip
    for stem in SEEN:
        off, on = case("seen-off", stem), case("seen-on", stem)
        if off is None or on is None or "levels" not in off or "levels" not in on:
            seen[stem] = {"missing": True}
            continue
        seen[stem] = {
            "off": errors(off), "on": errors(on), "targets_off": targets(off),
            "targets_on": targets(on), "inside_off": inside(off), "inside_on": inside(on),
            "median_off": off["summary"]["iops_median"], "median_on": on["summary"]["iops_median"],
        }  # fmt: skip
    fired = [s for s, r in fresh.items() if r.get("fires")]
    good = [s for s in fired if fresh[s]["worst_on"] <= WITHIN]
    f1 = bool(fired) and len(good) >= math.ceil(2 * len(fired) / 3)
    f2_bad = [s for s in fired if fresh[s]["median_on"] > fresh[s]["median_off"] + MEDIAN_SLACK]
    lost = [(s, t) for s, r in seen.items() if not r.get("missing")
            for t in ("iops", "waf") if r["targets_off"][t] and not r["targets_on"][t]]  # fmt: skip
    complete = not any(r.get("missing") for r in (*fresh.values(), *seen.values()))
    verdict = {
        "F1": {"fired": fired, "within_20_every_level": good, "holds": f1},
        "F2": {"worse_by_more_than_1_point": f2_bad, "holds": bool(fired) and not f2_bad},
        "S1": {"targets_lost": lost, "holds": complete and not lost},
        "complete": complete,
    }
    verdict["adopt"] = all(verdict[k]["holds"] for k in ("F1", "F2", "S1"))
    return {"fresh": fresh, "seen": seen, "verdict": verdict}


def table(res: dict) -> list[str]:
    out = [
        "| drive | fires | IOPS error off (0/10/20/30/40%) | on | median off → on | "
        "unfitted inside off → on | targets off → on (IOPS, WAF) |",
        "|---|---|---|---|---|---|---|",
    ]
    for group, rows in (("fresh", res["fresh"]), ("seen", res["seen"])):
        for stem, r in rows.items():
            if r.get("missing"):
                out.append(f"| {group} {stem} | missing | | | | | |")
                continue
            t_off, t_on = r["targets_off"], r["targets_on"]
            out.append(
                f"| {group} {stem} | {r.get('fires', True)} | {r['off']} | {r['on']} | "
                f"{100 * r['median_off']:.1f}% → {100 * r['median_on']:.1f}% | "
                f"{r['inside_off'][0]}/{r['inside_off'][1]} → {r['inside_on'][0]}/"
                f"{r['inside_on'][1]} | {t_off['iops']}, {t_off['waf']} → {t_on['iops']}, "
                f"{t_on['waf']} |"
            )
    return out


if __name__ == "__main__":
    res = judge()
    (HERE / "results.json").write_text(json.dumps(res, indent=1) + "\n")
    v = res["verdict"]
    lines = [f"- {k}: {json.dumps(v[k])}" for k in ("F1", "F2", "S1")]
    lines += [f"- complete: {v['complete']}; adopt: {v['adopt']}", "", *table(res)]
    print("\n".join(lines))
