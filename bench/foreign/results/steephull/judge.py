"""The verdict's clauses of bench/foreign/results/steephull/RULE.md from the stored cases.

    PYTHONPATH=python python bench/foreign/results/steephull/judge.py > judged.txt

Figures, targets and "bit-identical" are femutyped's (bench/foreign/results/femutyped/judge.py).
"""

from __future__ import annotations

import importlib.util
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent
FINAL = HERE.parent / "scoreboard" / "cases-final"
_JUDGE = HERE.parent / "femutyped" / "judge.py"
_spec = importlib.util.spec_from_file_location("femutyped_judge", _JUDGE)
ft = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(ft)  # type: ignore[union-attr]
UNFITTED = (10, 20, 30)
FRESH = [
    "FEMU--femutyped_fresh--femu-39lun-40blk-thres66",
    "FEMU--femutyped_fresh--femu-45lun-36blk-thres71",
    "FEMU--femutyped_fresh--femu-49lun-34blk-thres62",
    "FEMU--steephull_fresh--femu-51lun-38blk-thres67",
    "FEMU--steephull_fresh--femu-55lun-37blk-thres61",
]
BAND = (0.70, 0.90)
CENTRE = 0.01  # a met case's prediction moves when it is more than 1% from off's


def arms(name: str) -> tuple[dict | None, dict | None, str]:
    """Off and on case of a judged case, and where each came from."""
    off_p, on_p = HERE / "off" / f"{name}.json", HERE / "on" / f"{name}.json"
    final = ft.load(FINAL / f"{name}.json")
    off = ft.load(off_p) if off_p.exists() else final
    if on_p.exists():
        return off, ft.load(on_p), "run off and on"
    if name in FRESH:
        return off, None, "NOT RUN on"
    return off, off, "not read by the flag (fires.txt): cases-final"


def inside(doc: dict | None) -> dict[tuple[str, int], bool]:
    if doc is None or "levels" not in doc:
        return {}
    return {(k, int(lv["extra_op_percent"])): bool(lv[f"{k}_in_80"])
            for lv in doc["levels"] if int(lv["extra_op_percent"]) in UNFITTED
            for k in ("iops", "waf")}  # fmt: skip


def widths(doc: dict | None) -> list[float]:
    if doc is None or "levels" not in doc:
        return []
    return [(lv[f"{k}_high"] - lv[f"{k}_low"]) / lv[f"{k}_pred"] for lv in doc["levels"]
            if int(lv["extra_op_percent"]) in UNFITTED for k in ("iops", "waf")]  # fmt: skip


def moved(off: dict, on: dict) -> float:
    """The largest |on ÷ off − 1| of the QD32 IOPS and WAF predictions at every level."""
    return max(abs(b[k] / a[k] - 1) for a, b in zip(off["levels"], on["levels"], strict=True)
               for k in ("iops_pred", "waf_pred"))  # fmt: skip


def main() -> None:
    print("## check: cases the flag does not read, run with it on, against cases-final")
    checks = sorted((HERE / "check-on").glob("*.json"))
    same = [ft.identical(ft.load(p), ft.load(FINAL / p.name)) for p in checks]
    for p, s in zip(checks, same, strict=True):
        print(f"{p.stem}: {'bit-identical' if s else 'DIFFERS'}")
    check_ok = len(checks) >= 3 and all(same)

    names = sorted(p.stem for p in FINAL.glob("*.json")) + FRESH
    tally = {a: {} for a in ("off", "on")}  # (family, figure) -> [inside, n]
    lost, moves, refused, not_run = [], [], [], []
    print("\n## cases run (off -> on)")
    for name in names:
        off, on, how = arms(name)
        family = name.split("--")[0]
        if how == "NOT RUN on" or off is None:
            not_run.append(name)
        for arm, doc in (("off", off), ("on", on)):
            for (k, _), hit in inside(doc).items():
                t = tally[arm].setdefault((family, k), [0, 0])
                t[0] += hit
                t[1] += 1
        figs_off, figs_on = ft.figures(off), ft.figures(on)
        t_off, t_on = ft.targets(figs_off), ft.targets(figs_on)
        lost += [f"{name}: {k}" for k in t_off if t_off[k] and not t_on[k]]
        if figs_off is not None and figs_on is None:
            refused.append(name)
        if any(t_off.values()) and figs_on is not None and moved(off, on) > CENTRE:
            moves.append(f"{name}: {100 * moved(off, on):.1f}%")
        if how == "run off and on":
            i_off, i_on = inside(off), inside(on)
            w_off, w_on = widths(off), widths(on)
            mv = f"{100 * moved(off, on):.1f}%" if figs_off and figs_on else "-"
            print(f"{name}: inside {sum(i_off.values())}/{len(i_off)} -> "
                  f"{sum(i_on.values())}/{len(i_on)}; median width "
                  f"{100 * statistics.median(w_off) if w_off else 0:.0f}% -> "
                  f"{100 * statistics.median(w_on) if w_on else 0:.0f}%; centre moved {mv}; "
                  f"off {ft.text(figs_off)}; on {ft.text(figs_on)}")  # fmt: skip

    def pooled(arm: str, families: tuple[str, ...] | None = None) -> tuple[int, int]:
        rows = [v for (f, _), v in tally[arm].items() if families is None or f in families]
        return sum(r[0] for r in rows), sum(r[1] for r in rows)

    print("\n## coverage at the unfitted levels (10-30%, QD32 IOPS and WAF), off -> on")
    for f, k in sorted(tally["off"]):
        a, b = tally["off"][(f, k)], tally["on"].get((f, k), [0, 0])
        print(f"{f} {k}: {a[0]}/{a[1]} -> {b[0]}/{b[1]}")
    h_off, n_off = pooled("off")
    h_on, n_on = pooled("on")
    c1 = n_on > 0 and BAND[0] <= h_on / n_on <= BAND[1]
    print(f"C1 pooled: off {h_off}/{n_off} ({100 * h_off / n_off:.1f}%), on {h_on}/{n_on} "
          f"({100 * h_on / max(n_on, 1):.1f}%): {'holds' if c1 else 'FAILS'}")  # fmt: skip
    fm_off, fm_on = pooled("off", ("FEMU", "MQSim")), pooled("on", ("FEMU", "MQSim"))
    c2 = fm_on[0] > fm_off[0]
    print(f"C2 FEMU+MQSim inside: {fm_off[0]}/{fm_off[1]} -> {fm_on[0]}/{fm_on[1]}: "
          f"{'holds' if c2 else 'FAILS'}")  # fmt: skip
    below = [f"{f} {k}" for (f, k), (h, n) in tally["off"].items()
             if h / n >= 0.70 and (lambda t: t[0] / max(t[1], 1))(tally["on"].get((f, k), [0, 0]))
             < 0.70]  # fmt: skip
    c3 = not below
    print(f"C3 families >= 70% off below 70% on: {below or 'none'}: {'holds' if c3 else 'FAILS'}")
    c4 = not lost and not moves
    print(f"C4 targets lost: {lost or 'none'}; met cases' centre moved > 1%: {moves or 'none'}: "
          f"{'holds' if c4 else 'FAILS'}")  # fmt: skip
    c5 = not refused and not not_run
    print(f"C5 new refusals: {refused or 'none'}; not run: {not_run or 'none'}: "
          f"{'holds' if c5 else 'FAILS'}")  # fmt: skip
    print(f"check of the unread cases: {'holds' if check_ok else 'FAILS (run the 72 on)'}")
    ok = c1 and c2 and c3 and c4 and c5 and check_ok
    print(f"\nthe rule: {'MET: adopt' if ok else 'NOT MET: the flag stays off'}")


if __name__ == "__main__":
    main()
