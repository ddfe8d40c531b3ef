"""Conditions 1-3 of bench/foreign/results/onset-tolerant/RULE.md on its runs' folders (each
judged by bench/foreign/femu_end_to_end.py's ``judge`` against its FEMU truth).

    PYTHONPATH=python python bench/foreign/results/onset-tolerant/judge.py \
        > bench/foreign/results/onset-tolerant/judged.txt
"""

import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path("bench/foreign").resolve()))
import femu_end_to_end as e2e  # noqa: E402

S = Path("bench/foreign/results")
R = S / "onset-tolerant"
FRESH = ["femu-11lun-290blk-thres69-3200us", "femu-5lun-400blk-thres86-2800us"]
#: each stored case (folder name) and its truth, as stored.sh names them
STORED = {
    "femu-10lun-260blk-thres66-3500us-flag-s1":
        "onset-default5/femu/femu-10lun-260blk-thres66-3500us.json",
    "femu-8lun-300blk-thres70-4ms-on": "onset-default3/femu/femu-8lun-300blk-thres70-4ms.json",
    "femu-6lun-372blk-thres68-3ms-on": "femu-end-to-end/femu-6lun-372blk-thres68-3ms.json",
    "femu-14lun-224blk-thres60-5ms-ns80-on":
        "femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80.json",
    "femu-7lun-320blk-thres67-3ms-on": "settle40/femu-7lun-320blk-thres67-3ms.json",
    "femu-9lun-250blk-thres64-4ms-on": "settle40/femu-9lun-250blk-thres64-4ms.json",
}  # fmt: skip
HELD_OUT = (10.0, 20.0, 30.0)
NO_HARM_POINTS = 2.0


def errors(row: dict, what: str) -> dict[float, float]:
    return {lv["extra_op_percent"]: 100 * lv[f"{what}_error"] for lv in row.get("levels", [])}


def text(errs: dict[float, float]) -> str:
    return " / ".join(f"{errs[x]:+.1f}" for x in sorted(errs)) + "%"


def cost_ok(row: dict) -> bool:
    got = {(float(x), q) for x, q in row["levels_measured"]}
    return round(row["drive_writes"], 2) <= 2.0 and {(0.0, None), (40.0, None), (40.0, 4)} <= got


def fresh() -> bool:
    ok = True
    for name in FRESH:
        truth = json.loads((R / f"{name}.json").read_text())
        rows = {arm: e2e.judge(truth, R / f"{name}-{arm}") for arm in ("off", "on", "onsetonly")}
        for arm, row in rows.items():
            if "refused" in row:
                print(f"{name} {arm}: refused: {row['refused']}")
                continue
            print(f"{name} {arm}: onset {row['onset']}, drive writes {row['drive_writes']:.3f}, "
                  f"readings {row['readings']}; IOPS 0-40% {text(errors(row, 'iops'))}; "
                  f"WAF 0-40% {text(errors(row, 'waf'))}")  # fmt: skip
        on, off = rows["on"], rows["off"]
        if "refused" in on:
            c1 = False
            print("  1. targets: refused")
        else:
            w = [abs(errors(on, "waf")[x]) for x in HELD_OUT]
            i = [abs(errors(on, "iops")[x]) for x in HELD_OUT]
            c1 = (statistics.median(w) <= 5 and max(w) <= 10 and statistics.median(i) <= 10
                  and max(i) <= 20)  # fmt: skip
            print(f"  1. targets (on, 10/20/30%): WAF median {statistics.median(w):.1f}% worst "
                  f"{max(w):.1f}% (5/10), IOPS median {statistics.median(i):.1f}% worst "
                  f"{max(i):.1f}% (10/20): {'holds' if c1 else 'FAILS'}")  # fmt: skip
        c2 = ("refused" in off or "refused" not in on) and (not cost_ok(off) or cost_ok(on))
        print(f"  2. no refusal, cost: off {'refused' if 'refused' in off else 'answers'}, "
              f"on {'refused' if 'refused' in on else 'answers'}; cost off {cost_ok(off)}, "
              f"on {cost_ok(on)}: {'holds' if c2 else 'FAILS'}")  # fmt: skip
        ok = ok and c1 and c2
    return ok


def stored(cases: dict[str, str] = STORED, folder: Path = R / "stored") -> bool:
    """Condition 3: each case (folder name: its truth) predicted again off and on, into
    ``folder/NAME-off`` and ``folder/NAME-on``; also bench/foreign/results/femu0/judge.py's."""
    ok = True
    for name, truth_file in cases.items():
        truth = json.loads((S / truth_file).read_text())
        off, on = (e2e.judge(truth, folder / f"{name}-{arm}") for arm in ("off", "on"))
        if "refused" in on or "refused" in off:
            good = "refused" not in on or "refused" in off
            print(f"{name}: off {off.get('refused', 'answers')}; on {on.get('refused', 'answers')}"
                  f": {'holds' if good else 'FAILS'}")  # fmt: skip
            ok = ok and good
            continue
        worse = []
        for what in ("iops", "waf"):
            a, b = errors(off, what), errors(on, what)
            worse += [f"{what}@{x:g} {abs(a[x]):.1f}->{abs(b[x]):.1f}" for x in a
                      if abs(b[x]) - abs(a[x]) > NO_HARM_POINTS]  # fmt: skip
        print(f"{name}: off IOPS {text(errors(off, 'iops'))} WAF {text(errors(off, 'waf'))} "
              f"{off['readings']}; on IOPS {text(errors(on, 'iops'))} WAF "
              f"{text(errors(on, 'waf'))} {on['readings']}; worse by > 2 points: "
              f"{', '.join(worse) or 'none'}")  # fmt: skip
        ok = ok and not worse
    return ok


def main() -> None:
    c12 = fresh()
    c3 = stored()
    print(f"# conditions 1-2 {'hold' if c12 else 'FAIL'}; condition 3 {'holds' if c3 else 'FAILS'}")


if __name__ == "__main__":
    main()
