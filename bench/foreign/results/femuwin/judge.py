"""The judging of bench/foreign/results/femuwin/RULE.md: the first level read plain where its
rounds show no burst cycle (``cycle_evidence.READ_PLAIN_WITHOUT_CYCLE``), on three fresh FEMU
drives and the 23 stored guards (each folder judged by bench/foreign/femu_end_to_end.py's
``judge``; targets femu0's judge.py).

    PYTHONPATH=python python bench/foreign/results/femuwin/judge.py \
        > bench/foreign/results/femuwin/judged.txt
    PYTHONPATH=python python bench/foreign/results/femuwin/judge.py --list   # runs.sh's list
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from overprov.calibrate import burst_cycle, cycle_evidence

sys.path.append(str(Path(__file__).resolve().parents[2]))  # bench/foreign: common.py
from common import load_script  # noqa: E402

S = Path("bench/foreign/results")
R = S / "femuwin"


# its stretches' helpers and femudeadline's drives
dg = load_script("femuwin_diagnose", R / "diagnose.py")
femufix = dg.deadline.femufix
e2e, femu0 = femufix.e2e, femufix.femu0
#: the fresh drives, in run order: name -> measure options
FRESH = {
    "femu-30lun-90blk-thres52-4050us-ns84": "--nchs 3 --luns-per-ch 10 --blks-per-pl 90 "
    "--namespace-mb 2268 --gc-thres-pcent 52 --program-ns 4050000",
    "femu-26lun-102blk-thres54-3550us-ns82": "--nchs 2 --luns-per-ch 13 --blks-per-pl 102 "
    "--namespace-mb 2175 --gc-thres-pcent 54 --program-ns 3550000",
    "femu-22lun-122blk-thres51-4500us-ns80": "--nchs 2 --luns-per-ch 11 --blks-per-pl 122 "
    "--namespace-mb 2147 --gc-thres-pcent 51 --program-ns 4500000",
}
#: the guards: name -> (default measurement folder, settled truth)
GUARDS = {n: (Path(d[2]), Path(d[1])) for n, d in dg.deadline.DRIVES.items()}
WORSE_POINTS = 2.0  # condition 4
ACTS_NEED = 2  # condition 2: fresh drives whose stretch has F < 1
RANGE_RATIO = 0.75  # condition 3


def reading(spans: dg.Spans, wafs: list[float], on: bool) -> float:
    """The 0% WAF as ``burst_cycle.read_first_level`` reads these rounds, the flag on or off."""
    plain = dg.plain(spans, wafs)
    if len(spans) < burst_cycle.MIN_ROUNDS or spans[-1][1] - spans[0][0] < 1.0 / plain:
        return plain
    waf = dg.cycle(spans, wafs)
    if on and burst_cycle.sinusoid_variance_ratio(spans, wafs, 1.0 / waf) < (
        cycle_evidence.MIN_VARIANCE_RATIO
    ):
        return plain
    return waf


def zero_reading(folder: Path, truth: float) -> dict | None:
    """F of the stretch, the 0% reading's error and one-left-out range, off and on."""
    got = dg.zc.stretch_rounds(folder)
    if got is None:
        return None
    spans, wafs = got
    out = {"f": burst_cycle.sinusoid_variance_ratio(spans, wafs, 1.0 / dg.cycle(spans, wafs))}
    for arm, on in (("off", False), ("on", True)):
        left = [reading(*dg.dropped(spans, wafs, i), on) for i in range(len(spans))]
        out[arm] = (reading(spans, wafs, on) / truth - 1, dg.spread(left, truth))
    return out


def not_worse(name: str, off: dict, on: dict) -> bool:
    """Condition 4 on one drive: answered wherever off answers, no held-out figure more than
    WORSE_POINTS worse."""
    if "refused" in off or "refused" in on:
        ok = "refused" in off
        said = ["refused" if "refused" in r else "answers" for r in (off, on)]
        print(f"  4. {name}: off {said[0]}, on {said[1]}: {'holds' if ok else 'FAILS'}")
        return ok
    err = {arm: {(k, x): abs(femu0.errors(row, k)[x]) for k in ("waf", "iops")
                 for x in femu0.HELD_OUT} for arm, row in (("off", off), ("on", on))}  # fmt: skip
    worse = [f"{k} {x:g}% {err['off'][k, x]:.1f} -> {err['on'][k, x]:.1f}" for k, x in err["off"]
             if err["on"][k, x] > err["off"][k, x] + WORSE_POINTS]  # fmt: skip
    moved = max(abs(femu0.errors(on, k)[x] - femu0.errors(off, k)[x]) for k, x in err["off"])
    print(f"  4. {name}: largest held-out move {moved:.2f} points; worse by > {WORSE_POINTS:g}: "
          f"{', '.join(worse) or 'none'}")  # fmt: skip
    return not worse


def fresh() -> dict[str, bool | None]:
    ok: dict[str, bool | None] = {"1": True, "4": True}
    acts, ranges, ran, rows_of = 0, {"off": [], "on": []}, 0, {}
    for name in FRESH:
        if not (R / f"{name}-off").exists():
            print(f"{name}: not run")
            ok["1"] = ok["4"] = False
            continue
        ran += 1
        truth = json.loads((R / f"{name}.json").read_text())
        unsettled = [f"{lv['extra_op_percent']:g}%" for lv in truth["levels"]
                     if not lv["steady_window"]["settled"]]  # fmt: skip
        rows = {arm: e2e.judge(truth, R / f"{name}-{arm}") for arm in ("off", "on")}
        rows_of[name] = rows
        onset = json.loads((R / f"{name}-on" / "run.json").read_text())["onset_spare_factor"]
        print(f"{name}: onset {onset:.3f}; truth ({truth['drive_writes']:g} span writes) "
              f"unsettled at: {unsettled or 'none'}")  # fmt: skip
        for arm, row in rows.items():
            print(femu0.row_text(name, arm, row))
        ok["1"] = femu0.targets(rows["on"]) and ok["1"]
        ok["4"] = not_worse(name, rows["off"], rows["on"]) and ok["4"]
        z = zero_reading(R / f"{name}-on", truth["levels"][0]["steady_waf"])
        if z is None:
            print("  2. no stretch (onset at or above 1): the flag cannot act")
            continue
        acted = z["f"] < cycle_evidence.MIN_VARIANCE_RATIO
        acts += acted
        print(f"  2. F {z['f']:.2f}: {'acts' if acted else 'does not act'}; 0% reading off "
              f"{z['off'][0]:+.1%} (one left out: range {z['off'][1]:.1%}), on {z['on'][0]:+.1%} "
              f"({z['on'][1]:.1%})")  # fmt: skip
        if acted:
            for arm in ranges:
                ranges[arm].append(z[arm][1])
    ok["2"] = acts >= ACTS_NEED if ran else None
    if ranges["on"]:
        off, on = statistics.median(ranges["off"]), statistics.median(ranges["on"])
        ok["3"] = on <= RANGE_RATIO * off
        print(f"# 3. one-left-out range median where it acts ({len(ranges['on'])} drives): off "
              f"{off:.1%}, on {on:.1%} (ratio {on / off:.3f}, at most {RANGE_RATIO})")  # fmt: skip
    else:
        ok["3"] = False
    print(f"# fresh drives run: {ran}; the flag acts on {acts}")
    if rows_of:
        tally(rows_of, "fresh")
    return ok


def tally(rows: dict[str, dict[str, dict]], label: str) -> None:
    """Reported, not judged: drives meeting femu0's targets and held-out WAF worst, off and on."""
    for arm in ("off", "on"):
        got = [r[arm] for r in rows.values()]
        worst = [femufix.held_out_waf(r) for r in got if "refused" not in r]
        missed = [n for n, r in rows.items() if not femufix.met(r[arm])[0]]
        print(f"# {label}, {arm}: {len(got) - len(missed)} of {len(got)} meet the targets "
              f"(missed: {', '.join(missed) or 'none'}); held-out WAF worst median "
              f"{statistics.median(worst):.1f}%, worst {max(worst):.1f}%")  # fmt: skip


def guards() -> bool:
    ok, rows_of = True, {}
    for name, (_, truth_file) in GUARDS.items():
        if not (R / "guard" / f"{name}-on").exists():
            print(f"{name}: not run")
            ok = False
            continue
        truth = json.loads(truth_file.read_text())
        rows = {arm: e2e.judge(truth, R / "guard" / f"{name}-{arm}") for arm in ("off", "on")}
        rows_of[name] = rows
        for arm, row in rows.items():
            print(femu0.row_text(name, arm, row))
        ok = not_worse(name, rows["off"], rows["on"]) and ok
    if rows_of:
        tally(rows_of, "guards")
    return ok


def main() -> None:
    if sys.argv[1:] == ["--list"]:
        for n, opts in FRESH.items():
            print(f"fresh {n} {opts}")
        for n, (folder, truth) in GUARDS.items():
            print(f"guard {n} {folder} {truth}")
        return
    first = fresh()
    fourth = guards() and bool(first["4"])
    said = {None: "not run", True: "holds", False: "FAILS"}
    print(f"# condition 1: {said[first['1']]}; 2: {said[first['2']]}; 3: {said[first['3']]}; "
          f"4: {said[fourth]} (5, the tests: the verdict)")  # fmt: skip


if __name__ == "__main__":
    main()
