"""Judge bench/foreign/results/mqfixed/RULE.md from the case files runs.sh wrote (fresh-*-plan/,
fresh-*-few/, seen-on-few/, seen-on-plan/ where needed) and today's stored plan cases: G, S, F1,
F2 and what they report; writes results.json and prints verdict.md's clauses and tables. No
simulation. Targets, errors and coverage are mqline's judge's.

    PYTHONPATH=python python bench/foreign/results/mqfixed/judge.py
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from common import load_script  # noqa: E402  (bench/foreign/common.py)

MQGATE = load_script("mqgate_judge", HERE.parent / "mqgate" / "judge.py")
FIRES, MQLINE = MQGATE.FIRES, MQGATE.MQLINE  # mqbend's fires.py, mqline's judge
MQLINE.HERE = HERE  # its case() reads this rule's arms
bend_between, fitmod = MQGATE.bend_between, MQGATE.fitmod
FRESH = ("u704x16", "u1248x16", "u672x32", "u928x16")
R = HERE.parent
#: The 14 seen drives where bend_between fires, and today's stored plan case of each.
SEEN_FIRING = {
    **{
        u: R / f"mqgate/seen-on/MQSim--mqsim-retry_unseen--{u}.json"
        for u in ("u1536x16", "u320x32", "u384x64", "u512x32", "u640x16", "u768x32")
    },
    **{
        u: R / f"daytally/cases/MQSim--{f}_fresh--{u}.json"
        for f, u in (
            ("jointband", "u1344x16"),
            ("jointband", "u480x32"),
            ("mqbend", "u1088x16"),
            ("mqbend", "u352x32"),
            ("mqline", "u1184x16"),
            ("mqline", "u1472x16"),
            ("mqline", "u288x32"),
            ("mqline", "u608x32"),
        )
    },
}
SLACK = 0.01  # S and F2: one point
WITHIN_F2 = 0.10  # F2: an on-arm 20% error within 10% is no harm
GATE = re.compile(
    r"gate read at (\S+)% extra OP alone(, predicted there apart)?: the twin's IOPS "
    r"over the line's (\S+) there, so (open|closed)"
)


def moved(doc: dict) -> bool:
    """The line moved some level (the prediction's source names it)."""
    return "extra OP from the line through the FOB" in (doc.get("prediction_source") or "")


def gate(doc: dict) -> dict | None:
    m = GATE.search(doc.get("prediction_source") or "")
    if m is None:
        return None
    ratio = None if m.group(3) == "no" else float(m.group(3))
    return {
        "level": float(m.group(1)),
        "apart": bool(m.group(2)),
        "ratio": ratio,
        "open": m.group(4) == "open",
    }


def stored_moved(doc: dict) -> bool:
    """A stored plan case moved: its 10% IOPS equal the line's at its predicted WAF (0.1%)."""
    pts, fob = FIRES.from_command(doc["command"])
    steady = sorted((p for p in pts if not p.fresh), key=lambda p: p.extra_op_percent)
    high = fitmod.Point(40.0, steady[-1].iops, waf=steady[-1].waf)
    lv = next(r for r in doc["levels"] if r["extra_op_percent"] == 10)
    return abs(lv["iops_pred"] / bend_between.line_iops(fob, high, lv["waf_pred"]) - 1) < 0.001


def err_at(doc: dict, x: int, key: str = "iops_err") -> float:
    return next(r[key] for r in doc["levels"] if r["extra_op_percent"] == x)


def worse(off: dict, on: dict) -> list[str]:
    """Figures on the on arm more than a point further from the truth than off's."""
    return [
        f"{k[:4]} {r['extra_op_percent']}%"
        for r, s in zip(off["levels"], on["levels"], strict=True)
        for k in ("iops_err", "waf_err")
        if k in r and k in s and abs(s[k]) > abs(r[k]) + SLACK
    ]


def fresh_row(stem: str) -> dict:
    arms = {
        a: MQLINE.case(f"fresh-{a}", stem) for a in ("off-plan", "on-plan", "off-few", "on-few")
    }
    if any(d is None or "levels" not in d for d in arms.values()):
        return {"missing": True}
    out = {"fires": bend_between.fires(*FIRES.from_command(arms["off-plan"]["command"]))}
    for a, d in arms.items():
        out[a] = {
            "moved": moved(d),
            "gate": gate(d),
            "targets": MQLINE.targets(d),
            "iops": MQLINE.errors(d),
            "waf": " / ".join(f"{100 * r['waf_err']:+.1f}%" for r in d["levels"]),
            "median": d["summary"]["iops_median"],
            "inside": MQLINE.inside(d),
        }
    out["err20"] = {a: err_at(arms[a], 20) for a in ("off-few", "on-few")}
    out["worse_plan"] = worse(arms["off-plan"], arms["on-plan"])
    return out


def seen_row(stem: str, stored: Path) -> dict:
    few = MQLINE.case("seen-on-few", stem)
    if few is None or "levels" not in few:
        return {"missing": True}
    g, base = gate(few), json.loads(stored.read_text())
    on_plan_moves = g is not None and g["open"]
    row = {
        "gate": g,
        "on_few_moved": moved(few),
        "on_plan_moves": on_plan_moves,
        "stored_moved": stored_moved(base),
        "targets_stored": MQLINE.targets(base),
        "on_few_iops": MQLINE.errors(few),
        "on_few_targets": MQLINE.targets(few),
    }
    if on_plan_moves == row["stored_moved"]:
        row |= {"on_plan": "the stored case", "lost": [], "worse": []}
        return row
    run = MQLINE.case("seen-on-plan", stem)
    if run is None or "levels" not in run:
        return row | {"on_plan": "not run", "lost": ["not run"], "worse": []}
    t_on = MQLINE.targets(run)
    lost = [t for t in ("iops", "waf") if row["targets_stored"][t] and not t_on[t]]
    return row | {"on_plan": "run", "lost": lost, "worse": worse(base, run)}


def judge() -> dict:
    fresh = {s: fresh_row(s) for s in FRESH}
    seen = {s: seen_row(s, p) for s, p in SEEN_FIRING.items()}
    got = {s: r for s, r in fresh.items() if not r.get("missing")}
    g_fresh = [s for s, r in got.items() if r["on-plan"]["moved"] != r["on-few"]["moved"]]
    g_seen = [
        s
        for s, r in seen.items()
        if r.get("missing")
        or r["gate"] is None
        or r["gate"]["level"] != 10.0
        or r["on_few_moved"] != r["on_plan_moves"]
    ]
    s_bad = {
        s: r.get("lost", ["missing"]) + r.get("worse", [])
        for s, r in seen.items()
        if r.get("missing") or r["lost"] or r["worse"]
    }
    tgt = ("iops", "waf")
    met = {
        a: sum(r[a]["targets"][t] for r in got.values() for t in tgt)
        for a in ("off-plan", "on-plan", "off-few", "on-few")
    }
    f1_lost = [
        (s, t)
        for s, r in got.items()
        for t in tgt
        if r["off-plan"]["targets"][t] and not r["on-plan"]["targets"][t]
    ]
    f2_lost = [
        (s, t)
        for s, r in got.items()
        for t in tgt
        if r["off-few"]["targets"][t] and not r["on-few"]["targets"][t]
    ]
    f2_worse = [
        s
        for s, r in got.items()
        if abs(r["err20"]["on-few"]) > WITHIN_F2
        and abs(r["err20"]["on-few"]) > abs(r["err20"]["off-few"]) + SLACK
    ]
    enough = len(got) >= 3
    verdict = {
        "G": {
            "fresh_differ": g_fresh,
            "seen_inconsistent": g_seen,
            "holds": enough and not g_fresh and not g_seen,
        },
        "S": {"lost_or_worse": s_bad, "holds": not s_bad},
        "F1": {
            "targets_met": [met["off-plan"], met["on-plan"]],
            "lost": f1_lost,
            "holds": enough and met["on-plan"] >= met["off-plan"] and not f1_lost,
        },
        "F2": {
            "targets_met": [met["off-few"], met["on-few"]],
            "lost": f2_lost,
            "worse_at_20": f2_worse,
            "holds": enough and not f2_lost and not f2_worse,
        },
        "fresh_missing": [s for s in FRESH if s not in got],
    }
    verdict["adopt"] = all(verdict[k]["holds"] for k in ("G", "S", "F1", "F2"))
    return {"fresh": fresh, "seen": seen, "verdict": verdict}


def _g(g: dict | None) -> str:
    return (
        "–"
        if g is None
        else f"{g['ratio']} at {g['level']:g}%, {'open' if g['open'] else 'closed'}"
    )


FRESH_HEAD = (
    "fresh drive | fires | arm | moved | gate | IOPS error 0/10/20/30/40% (few: 0/20/40%) | WAF "
    "error | targets (IOPS, WAF) | unfitted inside"
)
SEEN_HEAD = (
    "seen drive | on-few: gate | on-few moved | on-plan moves | stored plan case moved | on-plan "
    "answer | on-few IOPS error 0/20/40% | on-few targets | stored targets"
)


def _fresh_cells(s: str, r: dict) -> list[list]:
    return [
        [s, r["fires"], a, c["moved"], _g(c["gate"]), c["iops"], c["waf"],
         f"{c['targets']['iops']}, {c['targets']['waf']}", f"{c['inside'][0]}/{c['inside'][1]}"]
        for a, c in ((a, r[a]) for a in ("off-plan", "on-plan", "off-few", "on-few"))
    ]  # fmt: skip


def _seen_cells(s: str, r: dict) -> list[list]:
    few, base = r["on_few_targets"], r["targets_stored"]
    return [[s, _g(r["gate"]), r["on_few_moved"], r["on_plan_moves"], r["stored_moved"],
             r["on_plan"], r["on_few_iops"], f"{few['iops']}, {few['waf']}",
             f"{base['iops']}, {base['waf']}"]]  # fmt: skip


def tables(res: dict) -> list[str]:
    out = []
    for group, head, cells in (
        ("fresh", FRESH_HEAD, _fresh_cells),
        ("seen", SEEN_HEAD, _seen_cells),
    ):
        n = head.count("|") + 1
        out += [f"| {head} |", "|" + "---|" * n]
        for s, r in res[group].items():
            rows = [[s, "missing", *[""] * (n - 2)]] if r.get("missing") else cells(s, r)
            out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
        out.append("")
    return out


def main() -> None:
    res = judge()
    (HERE / "results.json").write_text(json.dumps(res, indent=1) + "\n")
    verdict = res["verdict"]
    for clause in ("G", "S", "F1", "F2"):
        print(f"- {clause}: {json.dumps(verdict[clause])}")
    print(f"- fresh missing: {verdict['fresh_missing']}; adopt: {verdict['adopt']}\n")
    print("\n".join(tables(res)))


if __name__ == "__main__":
    main()
