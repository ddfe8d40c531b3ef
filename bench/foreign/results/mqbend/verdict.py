"""The clauses of bench/foreign/results/mqbend/RULE.md judged from the runs' files: the fire set
on the 72 scoreboard cases (``fires.py``'s function), the fresh drives' off and on arms
(``fresh-off/``, ``fresh-on/``), where the warning fires on them, and the third-level cases
(``fresh-20-40/``, ``fresh-0-20-40/``); printed as markdown (verdict.md's body).

    PYTHONPATH=python python bench/foreign/results/mqbend/verdict.py   # verdict.md's clauses
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
R = "bench/foreign/results"
sys.path.insert(0, str(HERE))
import fires  # noqa: E402
from overprov.calibrate import bend_between  # noqa: E402

FRESH = ("u352x32", "u1088x16", "u256x64")
SIX = {f"MQSim--mqsim-retry_unseen--{s}"
       for s in ("u320x32", "u384x64", "u512x32", "u640x16", "u768x32", "u1536x16")}  # fmt: skip
REFUSED = "FEMU--gatefix--femu-33lun-82blk-thres56-3750us-ns81"


def _verdict(ok: bool) -> str:
    return "**holds**" if ok else "**fails**"


def r1(root: Path) -> tuple[bool, list[str]]:
    fired, met_fired = set(), []
    for f in sorted((root / R / "scoreboard" / "cases-mix").glob("*.json")):
        res = json.loads(f.read_text())
        if f.stem == REFUSED:
            doc = json.loads((root / res["truth"]).read_text())
            points, fob = fires.from_command(" ".join(fires.plan_command(doc)))
        else:
            points, fob = fires.from_command(res["command"])
        if bend_between.fires(points, fob):
            fired.add(f.stem)
            if (res.get("summary") or {}).get("met"):
                met_fired.append(f.stem)
    ok = fired == SIX and not met_fired
    return ok, [f"- R1, the 72: fires on {sorted(fired)}; on a case that meets both targets: "
                f"{met_fired or 'none'} -> {_verdict(ok)}"]  # fmt: skip


def _case(folder: str, stem: str) -> dict | None:
    hits = sorted((HERE / folder).glob(f"*{stem}.json"))
    return json.loads(hits[0].read_text()) if hits else None


def fresh_rows() -> list[dict]:
    rows = []
    for stem in FRESH:
        truth = HERE / "fresh" / f"{stem}.json"
        row: dict = {"stem": stem, "ran": truth.exists()}
        if row["ran"]:
            points, fob = fires.from_command(
                " ".join(fires.plan_command(json.loads(truth.read_text())))
            )
            row["above"] = bend_between.above_line(points, fob)
            row["fires"] = bend_between.fires(points, fob)
        for arm in ("fresh-off", "fresh-on", "fresh-20-40", "fresh-0-20-40"):
            row[arm] = _case(arm, stem)
        rows.append(row)
    return rows


def _met(case: dict | None) -> bool:
    return bool(case and (case.get("summary") or {}).get("met"))


def _err10(case: dict | None) -> float | None:
    if not case or "levels" not in case:
        return None
    return next(lv["iops_err"] for lv in case["levels"] if lv["extra_op_percent"] == 10)


def _errs(case: dict | None) -> str:
    if not case:
        return "not run"
    if "levels" not in case:
        return f"refused ({' '.join(case.get('error') or [])[:160]})"
    s = case.get("summary") or {}
    errs = " / ".join(f"{lv['iops_err']:+.1%}" for lv in case["levels"])
    return f"IOPS {errs}; WAF worst {s.get('waf_worst', float('nan')):.1%}"


def judge() -> list[str]:
    root = HERE.parents[3]
    ok1, out = r1(root)
    rows = fresh_rows()
    ran = [r for r in rows if r["ran"] and r["fresh-off"]]
    miss = [r for r in ran if not _met(r["fresh-off"])]
    miss += [r for r in rows if r not in ran]  # a drive not judged counts against the clauses
    fired_miss = [r for r in miss if r.get("fires")]
    fired_met = [r for r in ran if _met(r["fresh-off"]) and r.get("fires")]
    ok2 = len(miss) >= 2 and len(fired_miss) >= 2 and not fired_met
    helped = [r for r in rows if r.get("fires") and (e := _err10(r["fresh-20-40"])) is not None
              and abs(e) <= 0.20]  # fmt: skip
    ok3 = len(helped) >= 2
    same = [
        r
        for r in ran
        if r["fresh-on"] and r["fresh-on"].get("levels") == r["fresh-off"].get("levels")
    ]
    ok4 = len(ran) == len(FRESH) and len(same) == len(ran)
    out += [
        f"- R2, fires where the fresh drives miss: miss a target {[r['stem'] for r in miss]}, "
        f"fires on those {[r['stem'] for r in fired_miss]}, fires on a drive that meets both "
        f"{[r['stem'] for r in fired_met] or 'none'} -> {_verdict(ok2)}",
        f"- R3, IOPS+WAF 20+40 puts IOPS at 10% within ±20% where it fires: "
        f"{[r['stem'] for r in helped]} -> {_verdict(ok3)}",
        f"- R4, the on arm's levels equal the off arm's: {[r['stem'] for r in same]} of "
        f"{[r['stem'] for r in ran]} -> {_verdict(ok4)}",
        f"- **all hold: {ok1 and ok2 and ok3 and ok4}**",
        "",
        "| fresh drive | lowest WAF, over the line | fires | off arm (plan case) | met | "
        "IOPS+WAF 20+40, FOB | IOPS+WAF 0+20+40, FOB (report) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        above = f"{r['above'][0]:.1f}, {r['above'][1]:.2f}" if r.get("above") else "—"
        out.append(f"| {r['stem']} | {above} | {r.get('fires')} | {_errs(r['fresh-off'])} | "
                   f"{'yes' if _met(r['fresh-off']) else 'no'} | {_errs(r['fresh-20-40'])} | "
                   f"{_errs(r['fresh-0-20-40'])} |")  # fmt: skip
    return out


if __name__ == "__main__":
    print("\n".join(judge()))
