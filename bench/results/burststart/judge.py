"""The verdict of bench/results/burststart/RULE.md from its runs (runs.sh): every figure the rule
names, per drive and arm, and each condition's outcome.

    PYTHONPATH=python python bench/results/burststart/tabulate.py --half B \
        > bench/results/burststart/tabulate-B.txt
    PYTHONPATH=python python bench/results/burststart/judge.py > bench/results/burststart/judged.txt
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from overprov import measurement_file
from overprov.calibrate import burst_start

HERE = Path("bench/results/burststart")
sys.path[:0] = ["bench/foreign", "bench"]
import femu_end_to_end as e2e  # noqa: E402
import flag_rule  # noqa: E402
from common import load_script  # noqa: E402

tabulate = load_script("tabulate", HERE / "tabulate.py")

DRIVES = ("femu-46lun-70blk-thres70-3600us", "femu-50lun-66blk-thres58-4100us",
          "femu-62lun-52blk-thres74-3000us")  # fmt: skip
PT = 0.01


def forty(folder: Path, truth: dict, on: bool) -> tuple[float, float] | None:
    """The 40% level's WAF and IOPS as the points read them (flag ``on`` or off) / truth − 1."""
    m = measurement_file.load(folder / measurement_file.NAME)
    burst_start.read_later_levels(m, on=on)
    lv = [x for x in m.levels if x.extra_op_percent == 40.0 and x.queue_depth is None]
    if not lv or lv[-1].waf is None:
        return None
    t = e2e.truth_curve(truth)[40.0]
    return lv[-1].waf / t["steady_waf"] - 1, lv[-1].steady_iops / t["steady_iops"] - 1


def judged(folder: Path, truth: dict) -> dict | None:
    try:
        row = e2e.judge(truth, folder)
    except (OSError, ValueError, KeyError, StopIteration):
        return None
    return None if "refused" in row else row


def targets(row: dict) -> int:
    return int(row["passes"]["iops"]) + int(row["passes"]["waf"])


def pred_line(name: str, arm: str, r: dict | None) -> str:
    if r is None:
        return f"{name} | {arm} | FAILED (no prediction or refused)"
    return (f"{name} | {arm} | IOPS median {100 * r['iops_median']:.1f}% worst "
            f"{100 * r['iops_worst']:.1f}% | WAF worst {100 * r['waf_worst']:.1f}% | targets "
            f"{targets(r)}/2 | " + " ".join(f"{lv['extra_op_percent']:g}%: I "
            f"{100 * lv['iops_error']:+.1f} W {100 * lv['waf_error']:+.1f}"
            for lv in r["levels"]))  # fmt: skip


def no_harm(pairs: list[tuple[dict | None, dict | None]], rise_run: float) -> tuple[bool, str]:
    """Medians of WAF worst and IOPS median with the flag on at most 1 point above off's, no
    case's either more than ``rise_run`` above its off, targets met on >= off."""
    if not pairs or any(a is None or b is None for a, b in pairs):
        return False, "a run failed or was refused"
    off, on = [b for _, b in pairs], [a for a, _ in pairs]
    ok, parts = True, []
    for k in ("waf_worst", "iops_median", "iops_worst"):
        mo, mn = statistics.median(r[k] for r in off), statistics.median(r[k] for r in on)
        rise = max(a[k] - b[k] for a, b in zip(on, off, strict=True))
        parts.append(f"{k} median off {100 * mo:.1f}% on {100 * mn:.1f}%, largest rise "
                     f"{100 * rise:+.1f} pts")  # fmt: skip
        if k != "iops_worst":
            ok = ok and mn <= mo + PT and rise <= rise_run
    t_off, t_on = sum(map(targets, off)), sum(map(targets, on))
    parts.append(f"targets met off {t_off} on {t_on}")
    return ok and t_on >= t_off, "; ".join(parts)


def main() -> int:
    verdict: dict[str, tuple[bool, str]] = {}
    e40: dict[str, tuple] = {}
    fresh: list[tuple[dict | None, dict | None]] = []
    per_drive_ok = True
    for n in DRIVES:
        tp = HERE / "femu" / f"{n}.json"
        if not tp.exists():
            print(f"{n}: no truth")
            per_drive_ok = False
            continue
        truth = json.loads(tp.read_text())
        t = e2e.truth_curve(truth)
        levels = " ".join(
            f"{x:g}% WAF {t[x]['steady_waf']:.3f} IOPS {t[x]['steady_iops']:.0f}" for x in sorted(t)
        )
        print(f"truth {n}: {levels}")
        meas = HERE / "femu" / f"{n}-measure"
        off, on = forty(meas, truth, False), forty(meas, truth, True)
        e40[n] = (off, on)
        got = None
        if off:
            m = measurement_file.load(meas / measurement_file.NAME)
            lv = [x for x in m.levels if x.extra_op_percent == 40.0 and x.queue_depth is None]
            got = burst_start.later_stretch(m, lv[-1])

        def pc(v: tuple | None) -> str:
            return "-" if v is None else f"WAF {100 * v[0]:+.1f}%, IOPS {100 * v[1]:+.1f}%"

        print(f"  40% figure / truth - 1: off {pc(off)}; on {pc(on)}; read over bursts: "
              f"{got is not None}")  # fmt: skip
        a, b = judged(HERE / "femu" / f"{n}-on", truth), judged(HERE / "femu" / f"{n}-off", truth)
        print("  " + pred_line(n, "off", b))
        print("  " + pred_line(n, "on", a))
        fresh.append((a, b))
        if a is not None and b is not None:
            per_drive_ok = per_drive_ok and (
                a["waf_worst"] <= b["waf_worst"] + PT
                and a["iops_median"] <= b["iops_median"] + PT
                and a["iops_worst"] <= b["iops_worst"] + 3 * PT
            )
    vals = [v for v in e40.values() if v[0] is not None and v[1] is not None]
    if len(vals) == len(DRIVES):
        mo = statistics.median(abs(v[0][0]) for v in vals)
        mn = statistics.median(abs(v[1][0]) for v in vals)
        wo, wn = max(abs(v[0][0]) for v in vals), max(abs(v[1][0]) for v in vals)
        verdict["1 the 40% WAF figure"] = (
            mn <= 2 / 3 * mo and wn <= wo,
            f"median |e| off {100 * mo:.1f}% on {100 * mn:.1f}%; worst off {100 * wo:.1f}% on "
            f"{100 * wn:.1f}%",
        )
    else:
        verdict["1 the 40% WAF figure"] = (False, "a drive has no 40% figure")
    _, text2 = no_harm(fresh, 0.05)
    complete = len(fresh) == len(DRIVES) and all(a and b for a, b in fresh)
    verdict["2 the prediction's targets (fresh)"] = (
        complete
        and per_drive_ok
        and sum(targets(a) for a, _ in fresh) >= sum(targets(b) for _, b in fresh),
        text2 + f"; each drive's WAF worst, IOPS median, IOPS worst within +1/+1/+3 pts of off: "
        f"{per_drive_ok}",
    )
    verdict["3 no harm, generated drives"] = flag_rule.sim_no_harm(HERE / "sim.jsonl", "late_start")
    # 4: the stored half B
    diag = json.loads(tabulate.DIAGNOSE.read_text())
    half = tabulate.halves(diag)
    seen, brows = set(), []
    for d in diag:
        if d["truth_path"] and half[d["truth_path"]] == "B" and d["case"] not in seen:
            seen.add(d["case"])
            r = tabulate.one(d["case"], d["truth_path"])
            if r is not None:
                brows.append(r)
    mr = statistics.median(abs(r["read"]) for r in brows)
    ml = statistics.median(abs(r["late"]) for r in brows)
    worse = max(abs(r["late"]) - abs(r["read"]) for r in brows)
    c4a = ml <= mr and worse <= 2 * PT
    pairs, lines = [], []
    listed = HERE / "stored_half.txt"
    for line in listed.read_text().splitlines() if listed.exists() else []:
        case, truth_path, name = line.split()
        truth = json.loads(Path(truth_path).read_text())
        a, b = judged(HERE / "stored" / f"{name}-on", truth), judged(
            HERE / "stored" / f"{name}-off", truth)  # fmt: skip
        pairs.append((a, b))
        lines += ["  " + pred_line(name, "off", b), "  " + pred_line(name, "on", a)]
    c4b, text4b = no_harm(pairs, 0.05)
    verdict["4 no harm, stored half B"] = (
        c4a and c4b,
        f"40% figure over {len(brows)} measurements: median |e| read {100 * mr:.1f}% late "
        f"{100 * ml:.1f}%, largest rise {100 * worse:+.1f} pts; repredicted ({len(pairs)}): "
        + text4b,
    )
    print("\nstored half B, repredicted:")
    print("\n".join(lines))
    flag_rule.print_verdict(verdict)
    return 0


if __name__ == "__main__":
    sys.exit(main())
