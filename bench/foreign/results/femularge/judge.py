"""The conditions of bench/foreign/results/femularge/RULE.md on its runs' folders (each judged by
bench/foreign/femu_end_to_end.py's ``judge``; the rows, the targets and the no-change check are
gate14's and femu0's).

    PYTHONPATH=python python bench/foreign/results/femularge/judge.py \
        > bench/foreign/results/femularge/judged.txt
    PYTHONPATH=python python bench/foreign/results/femularge/judge.py --list   # runs.sh's list
"""

from __future__ import annotations

import copy
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, "bench/foreign")
sys.path.insert(0, "bench/foreign/results/femu40")
import common  # noqa: E402  (femu.py's settle rule)

gate14 = common.load_script("gate14_judge", "bench/foreign/results/gate14/judge.py")
e2e, femu0 = gate14.e2e, gate14.femu0

S = Path("bench/foreign/results")
R = S / "femularge"
FRESH = {
    "femu-25lun-108blk-thres76-3900us-ns82": "--nchs 5 --luns-per-ch 5 --blks-per-pl 108 "
    "--namespace-mb 2214 --gc-thres-pcent 76 --program-ns 3900000",
    "femu-27lun-98blk-thres59-4100us-ns84": "--nchs 3 --luns-per-ch 9 --blks-per-pl 98 "
    "--namespace-mb 2223 --gc-thres-pcent 59 --program-ns 4100000",
    "femu-29lun-94blk-thres77-4400us-ns85": "--nchs 1 --luns-per-ch 29 --blks-per-pl 94 "
    "--namespace-mb 2317 --gc-thres-pcent 77 --program-ns 4400000",
    "femu-31lun-86blk-thres57-3600us-ns80": "--nchs 1 --luns-per-ch 31 --blks-per-pl 86 "
    "--namespace-mb 2133 --gc-thres-pcent 57 --program-ns 3600000",
}
#: the seen drives: gate14's stored list (femu40's ten stored cases, H1, H2: name -> default
#: folder, truth) and gate14's J1-J3
SEEN = dict(gate14.STORED) | {
    n: (S / "gate14" / f"{n}-off", S / "gate14" / f"{n}.json") for n in gate14.FRESH
}
SEEN_REFUSED = gate14.SEEN_REFUSED
EARLY_SPAN_WRITES = 12  # gate14's truths: the window 4-12 of the same run


def measure_options(default: Path) -> str:
    """A seen drive's ``measure`` options from its default folder's run.json (the carry as
    recorded; the three older files record none: --no-carry, as femu0/runon.sh measured them)."""
    run = json.loads((default / "run.json").read_text())
    d = run["drive"]
    carry = "--carry" if run.get("carry", False) else "--no-carry"
    return (
        f"{carry} --seed {run.get('seed', 1)} --nchs {d['nchs']} --luns-per-ch "
        f"{d['luns_per_ch']} --blks-per-pl {d['blks_per_pl']} --namespace-mb "
        f"{run['namespace_mb']} --gc-thres-pcent {d['gc_thres_pcent']} "
        f"--gc-thres-pcent-high {d['gc_thres_pcent_high']} --program-ns {d['pg_wr_lat']}"
    )


def early(truth: dict) -> dict:
    """The truth as gate14 judged it: each level's figures over span writes 4-12 of its series."""
    t = copy.deepcopy(truth)
    for lv in t["levels"]:
        w = common.settle(lv["series"][:EARLY_SPAN_WRITES])
        lv["steady_iops"], lv["steady_waf"] = w["iops_mean"], w["waf_mean"]
    return t


def held_out(row: dict) -> tuple[float, float, float]:
    """Held-out WAF worst, IOPS median and worst |error| (%)."""
    waf, iops = ([abs(femu0.errors(row, k)[x]) for x in femu0.HELD_OUT] for k in ("waf", "iops"))
    return max(waf), statistics.median(iops), max(iops)


def not_worse(name: str, base: dict, new: dict) -> bool:
    """R3 on one seen drive: answered wherever base answers; held-out WAF worst, IOPS median and
    IOPS worst each at most 1 point worse."""
    if "refused" in base or "refused" in new:  # a refusal is fine only where base refused
        ok = "refused" in base
        said = ("refused" if "refused" in r else "answers" for r in (base, new))
        print(f"  R3. {name}: base {next(said)}, new {next(said)}: {'holds' if ok else 'FAILS'}")
        return ok
    a, b = held_out(base), held_out(new)
    ok = all(y <= x + gate14.NO_CHANGE_POINTS for x, y in zip(a, b, strict=True))
    print(
        f"  R3. {name}: held-out WAF worst / IOPS median / worst {a[0]:.1f} / {a[1]:.1f} / "
        f"{a[2]:.1f}% -> {b[0]:.1f} / {b[1]:.1f} / {b[2]:.1f}%: {'holds' if ok else 'FAILS'}"
    )
    return ok


def fresh() -> dict[str, bool]:
    ok = {"G1": True, "G2": True, "R1": True, "R2": True}
    for name in FRESH:
        truth = json.loads((R / f"{name}.json").read_text())
        unsettled = [f"{lv['extra_op_percent']:g}%" for lv in truth["levels"]
                     if not lv["steady_window"]["settled"]]  # fmt: skip
        print(f"{name}: truth 30 span writes, window 22-30 unsettled at: {unsettled or 'none'}")
        rows = {a: e2e.judge(truth, R / f"{name}-{a}") for a in ("off", "on", "rate", "rateoff")}
        for arm, row in rows.items():
            print(femu0.row_text(name, arm, row))
        print("  G1:", end="")
        ok["G1"] &= femu0.targets(rows["on"])
        ok["G2"] &= gate14.unchanged(name, rows["off"], rows["on"])
        print("  R1:", end="")
        ok["R1"] &= femu0.targets(rows["rate"])
        if "refused" not in rows["off"]:
            print("  R2:", end="")
            ok["R2"] &= femu0.targets(rows["rateoff"])
        for arm in ("on", "rate"):  # reported: against gate14's window (4-12)
            row = e2e.judge(early(truth), R / f"{name}-{arm}")
            if "refused" not in row:
                print(
                    f"  reported, {arm} against the 4-12 window: WAF worst / IOPS median / "
                    "worst %.1f / %.1f / %.1f%%" % held_out(row)
                )
    return ok


def seen() -> dict[str, bool]:
    ok = {"G2": True, "G3": True, "R3": True}
    for name, (default, truth_file) in SEEN.items():
        truth = json.loads(truth_file.read_text())
        arms = ("on", "base", "baseoff", "rate", "rateoff")  # on: the stored default, the gate
        folders = {"default": default} | {a: R / "stored" / f"{name}-{a}" for a in arms}
        rows = {arm: e2e.judge(truth, folder) for arm, folder in folders.items()}
        for arm, row in rows.items():
            print(femu0.row_text(name, arm, row))
        if name == SEEN_REFUSED:
            print("  G3:", end="")
            ok["G3"] &= femu0.targets(rows["on"])
        else:
            ok["G2"] &= gate14.unchanged(name, rows["default"], rows["on"])
        ok["R3"] &= not_worse(f"{name} (gate on)", rows["base"], rows["rate"])
        ok["R3"] &= not_worse(f"{name} (gate off)", rows["baseoff"], rows["rateoff"])
    return ok


def main() -> None:
    if sys.argv[1:] == ["--list"]:
        for name, opts in FRESH.items():
            print(f"fresh {name} {opts}")
        for name, (default, _) in SEEN.items():
            print(f"seen {name} {default} {measure_options(default)}")
        return
    a, b = fresh(), seen()
    g = a["G1"] and a["G2"] and b["G2"] and b["G3"]
    r = a["R1"] and a["R2"] and b["R3"]
    print(f"# fresh: {a}; seen: {b}")
    print(
        f"# RESERVE_READING_GATE conditions G1-G3: {'hold' if g else 'FAIL'} (G4: the tests); "
        f"ROUND_RATE conditions R1-R3: {'hold' if r else 'FAIL'} (R4: the tests)"
    )


if __name__ == "__main__":
    main()
