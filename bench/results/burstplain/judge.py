"""The verdict of bench/results/burstplain/RULE.md from its runs (runs.sh): both flags
(``burst_start.LATE_START`` and ``cycle_evidence.READ_PLAIN_WITHOUT_CYCLE``) on against both off
on 3 fresh FEMU drives, burststart's stored half B and femuwin's 23 guards (each folder judged by
bench/foreign/femu_end_to_end.py's ``judge``), and on 2 generated drives.

    PYTHONPATH=python python bench/results/burstplain/judge.py > bench/results/burstplain/judged.txt
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from overprov import measurement_file
from overprov.calibrate import burst_cycle, burst_start, cycle_evidence

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

R = Path("bench/results/burstplain")
BS = Path("bench/results/burststart")
FW = Path("bench/foreign/results/femuwin")


bs = load_script("burststart_judge", BS / "judge.py")  # its ``judged``; it puts bench/ on the path
fw = load_script("femuwin_judge", FW / "judge.py")  # its guards and ``zero_reading``
e2e, flag_rule, judged = bs.e2e, bs.flag_rule, bs.judged

FRESH = ("femu-52lun-56blk-thres55-3800us-ns82", "femu-56lun-50blk-thres52-4300us-ns84",
         "femu-60lun-46blk-thres54-3300us-ns80")  # fmt: skip
RISE = 0.01  # clause 3: one percentage point
SAME = 1e-9  # clause 4 and the off arms' check


def passes(r: dict) -> dict[str, bool]:
    return {"iops": bool(r["passes"]["iops"]), "waf": bool(r["passes"]["waf"])}


def errors(r: dict) -> dict[tuple[float, str], float]:
    """|error| per (level, IOPS or WAF)."""
    return {(lv["extra_op_percent"], k): abs(lv[f"{k}_error"]) for lv in r["levels"]
            for k in ("iops", "waf")}  # fmt: skip


def line(name: str, arm: str, r: dict | None) -> str:
    if r is None:
        return f"  {name} | {arm} | no prediction (failed or refused)"
    p = passes(r)
    return (f"  {name} | {arm} | IOPS median {100 * r['iops_median']:.1f}% worst "
            f"{100 * r['iops_worst']:.1f}% | WAF worst {100 * r['waf_worst']:.1f}% | targets "
            f"{int(p['iops']) + int(p['waf'])}/2 | " + " ".join(f"{lv['extra_op_percent']:g}%: "
            f"I {100 * lv['iops_error']:+.1f} W {100 * lv['waf_error']:+.1f}"
            for lv in r["levels"]))  # fmt: skip


def compare(name: str, off: dict | None, arm: dict | None, others: list[dict | None]) -> list[str]:
    """The clauses 1-3 failures of ``arm`` against ``off`` on one case (``others``: the arms
    with a flag off that were run besides off), each as text; [] where all hold."""
    fails = []
    if arm is None:
        if off is not None or any(o is not None for o in others):
            fails.append(
                f"{name}: clause 1, refused or failed where an arm with a flag off answers"
            )
        return fails
    if off is None:
        return fails
    po, pa = passes(off), passes(arm)
    for k in ("iops", "waf"):
        if po[k] and not pa[k]:
            fails.append(f"{name}: clause 2, the {k.upper()} target lost")
    eo, ea = errors(off), errors(arm)
    for key in sorted(eo):
        if ea[key] > eo[key] + RISE:
            fails.append(f"{name}: clause 3, {key[0]:g}% {key[1].upper()} |error| "
                         f"{100 * eo[key]:.1f} -> {100 * ea[key]:.1f}%")  # fmt: skip
    return fails


def figures(folder: Path, truth: dict, late: bool, plain: bool) -> str:
    """The 0% and 40% WAF as the points read them with these flags, ÷ the truth's − 1."""
    saved = burst_start.LATE_START, cycle_evidence.READ_PLAIN_WITHOUT_CYCLE
    burst_start.LATE_START, cycle_evidence.READ_PLAIN_WITHOUT_CYCLE = late, plain
    try:
        m = measurement_file.load(folder / measurement_file.NAME)
        burst_cycle.levels_read(m)
    finally:
        burst_start.LATE_START, cycle_evidence.READ_PLAIN_WITHOUT_CYCLE = saved
    curve = e2e.truth_curve(truth)
    got = {lv.extra_op_percent: lv.waf for lv in m.levels if lv.queue_depth is None}
    return ", ".join(f"{x:g}% WAF {100 * (got[x] / curve[x]['steady_waf'] - 1):+.1f}%"
                     for x in (0.0, 40.0) if got.get(x))  # fmt: skip


def same_prediction(a: Path, b: Path) -> bool:
    """Whether two folders' predictions agree at every level (IOPS and WAF, relative 1e-9)."""
    try:
        pa, pb = (json.loads((f / "prediction.json").read_text())["levels"] for f in (a, b))
    except OSError:
        return not (a / "prediction.json").exists() and not (b / "prediction.json").exists()
    return len(pa) == len(pb) and all(
        abs(x[k] / y[k] - 1) <= SAME
        for x, y in zip(pa, pb, strict=True)
        for k in ("steady_iops", "waf")
    )


def stored_cases() -> list[tuple[str, str, dict, dict[str, Path]]]:
    """The stored cases, each as (its set, its name, its truth, {arm: folder}): burststart's half B
    (off, late: stored; both: this folder) then femuwin's guards (off, plain: stored; both)."""
    out = []
    for row in (BS / "stored_half.txt").read_text().splitlines():
        _, truth_path, name = row.split()
        arms = {"off": BS / "stored" / f"{name}-off", "late": BS / "stored" / f"{name}-on",
                "both": R / "stored" / f"{name}-both"}  # fmt: skip
        out.append(("half B", name, json.loads(Path(truth_path).read_text()), arms))
    for name, (_, truth_path) in fw.GUARDS.items():
        arms = {"off": FW / "guard" / f"{name}-off", "plain": FW / "guard" / f"{name}-on",
                "both": R / "guard" / f"{name}-both"}  # fmt: skip
        out.append(("guard", name, json.loads(truth_path.read_text()), arms))
    return out


def fresh_truth(n: str) -> dict | None:
    """Fresh drive ``n``'s truth (None where it was not run), its curve printed."""
    tp = R / "femu" / f"{n}.json"
    if not tp.exists():
        return None
    truth = json.loads(tp.read_text())
    t = e2e.truth_curve(truth)
    print(f"{n}: truth " + " ".join(f"{x:g}% WAF {t[x]['steady_waf']:.3f} IOPS "
                                     f"{t[x]['steady_iops']:.0f}" for x in sorted(t)))  # fmt: skip
    return truth


def off_arm_checks(check: Path) -> list[str]:
    """The stored off arms predicted again into ``check`` (37 × 74 of burststart, 33 × 82 of
    femuwin) set against the stored ones, printed; the failures where one differs."""
    fails: list[str] = []
    print("\n## stored off arms, predicted again (check/)")
    c37, c33 = "femu-37lun-74blk-thres53-3450us-ns84", "femu-33lun-82blk-thres56-3750us-ns81"
    checks = {
        "burststart": same_prediction(
            check / f"stored-{c37}-off", BS / "stored" / f"{c37}-off"
        ),
        "femuwin": same_prediction(check / f"guard-{c33}-off", FW / "guard" / f"{c33}-off"),
    }
    for k, v in checks.items():
        print(f"  {k}: {'same' if v else 'DIFFERS (its off arms must be predicted again)'}")
        if not v:
            fails.append(f"{k}: the stored off arm differs from today's code; not judged here")
    return fails


def main() -> int:
    fails: list[str] = []
    print("## fresh FEMU drives (off = the measure's own prediction)")
    for n in FRESH:
        truth = fresh_truth(n)
        if truth is None:
            fails.append(f"{n}: clause 1, no truth (not run)")
            continue
        t = e2e.truth_curve(truth)
        folder = R / "femu" / f"{n}-off"
        rows = {a: judged(R / "femu" / f"{n}-{a}", truth) for a in ("off", "late", "plain", "both")}
        if (folder / "run.json").exists():
            run = json.loads((folder / "run.json").read_text())
            z = fw.zero_reading(folder, t[0.0]["steady_waf"])
            f = "-" if z is None else f"{z['f']:.2f}"
            print(f"  onset {run['onset_spare_factor']}; first level's F {f}")
            for a, lp in (("off", (0, 0)), ("late", (1, 0)), ("plain", (0, 1)), ("both", (1, 1))):
                print(f"  points, {a}: {figures(folder, truth, bool(lp[0]), bool(lp[1]))}")
        for a, r in rows.items():
            print(line(n, a, r))
        others = [rows["late"], rows["plain"]]
        fails += compare(n, rows["off"], rows["both"], others)
        for a in ("late", "plain"):
            got = compare(n, rows["off"], rows[a], [])
            print(f"  reported, {a} alone against off: " + ("; ".join(got) or "clauses 1-3 hold"))
    fails += off_arm_checks(R / "check")
    heads = {"half B": "burststart's stored half B (off, late: stored; both: this folder)",
             "guard": "femuwin's guards (off, plain: stored; both: this folder)"}  # fmt: skip
    for label, name, truth, folders in stored_cases():
        if label in heads:
            print(f"\n## {heads.pop(label)}")
        rows = {a: judged(f, truth) for a, f in folders.items()}
        for a, r in rows.items():
            print(line(name, a, r))
        fails += compare(f"{label} {name}", rows["off"], rows["both"],
                         [r for a, r in rows.items() if a not in ("off", "both")])  # fmt: skip
    flag_rule.femu_and_sim_verdict(fails, R / "sim.jsonl", "both", SAME)
    return 0


if __name__ == "__main__":
    sys.exit(main())
