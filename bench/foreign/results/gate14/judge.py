"""Conditions 1-3 of bench/foreign/results/gate14/RULE.md on its runs' folders (each judged by
bench/foreign/femu_end_to_end.py's ``judge`` against its FEMU truth; the targets and the rows'
text are bench/foreign/results/femu0/judge.py's, its stored cases' truths femu40's list).

    PYTHONPATH=python python bench/foreign/results/gate14/judge.py \
        > bench/foreign/results/gate14/judged.txt
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, "bench/foreign/results/femu40")
import judge as femu40  # noqa: E402  (femu40's judge: its femu0 judge, stored list and e2e)

e2e = femu40.e2e
femu0 = femu40.femu0
S = Path("bench/foreign/results")
R = S / "gate14"
FRESH = [
    "femu-19lun-150blk-thres62-4600us-ns80",
    "femu-21lun-130blk-thres74-3700us-ns85",
    "femu-23lun-118blk-thres58-4300us-ns85",
]
SEEN_REFUSED = "femu-14lun-224blk-thres60-5ms-ns80-on"
#: the default's folder (today's defaults, femu40's runs) and the truth of each stored case
STORED = {n: (S / "femu40/stored" / f"{n}-off", S / t) for n, t in femu40.STORED.items()} | {
    n: (S / "femu40" / f"{n}-off", S / "femu40" / f"{n}.json") for n in femu40.FRESH
}
#: the most a figure may move with the flag on (points)
NO_CHANGE_POINTS = 1.0


def moved(off: dict, on: dict) -> list[str]:
    """The figures (0-40%, IOPS and WAF errors) that differ by more than NO_CHANGE_POINTS."""
    out = []
    for what in ("iops", "waf"):
        a, b = femu0.errors(off, what), femu0.errors(on, what)
        out += [f"{what}@{x:g} {a[x]:+.1f}->{b[x]:+.1f}" for x in a
                if abs(b[x] - a[x]) > NO_CHANGE_POINTS]  # fmt: skip
    return out


def unchanged(name: str, off: dict, on: dict) -> bool:
    """Condition 3 on one case: answered with the flag wherever the default answers, and no
    figure moved by more than NO_CHANGE_POINTS."""
    if "refused" in off:
        print(f"  3. {name}: refused by default, {'refused' if 'refused' in on else 'answers'} on")
        return True
    if "refused" in on:
        print(f"  3. {name}: answered by default, REFUSED on")
        return False
    diff = moved(off, on)
    print(f"  3. {name}: moved by > {NO_CHANGE_POINTS:g} point: {', '.join(diff) or 'none'}")
    return not diff


def arms(name: str) -> dict[str, dict]:
    """A fresh drive's off and on arms, judged against its truth."""
    truth = json.loads((R / f"{name}.json").read_text())
    return {arm: e2e.judge(truth, R / f"{name}-{arm}") for arm in ("off", "on")}


def fresh() -> bool:
    """Condition 1 (and 3 on the fresh drives' off arms)."""
    ok = True
    for name, rows in ((n, arms(n)) for n in FRESH):
        print("\n".join(femu0.row_text(name, a, row) for a, row in rows.items()))
        met, same = femu0.targets(rows["on"]), unchanged(name, rows["off"], rows["on"])
        ok = ok and met and same
    return ok


def stored() -> bool:
    """Conditions 2 and 3 on the stored cases."""
    ok = True
    for name, (default, truth_file) in STORED.items():
        truth = json.loads(truth_file.read_text())
        off, on = e2e.judge(truth, default), e2e.judge(truth, R / "stored" / f"{name}-on")
        print(femu0.row_text(name, "default", off))
        print(femu0.row_text(name, "on", on))
        if name == SEEN_REFUSED:
            met = femu0.targets(on)
            print(f"  2. {name} (seen): {'holds' if met else 'FAILS'}")
            ok = ok and met
        else:
            ok = unchanged(name, off, on) and ok
    return ok


def main() -> None:
    first, second = fresh(), stored()
    print(f"# condition 1: {'holds' if first else 'FAILS'}; conditions 2-3: "
          f"{'hold' if second else 'FAIL'}")  # fmt: skip


if __name__ == "__main__":
    main()
