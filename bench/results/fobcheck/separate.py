"""Does any IOPS-only statistic in tally.json separate the cases whose WAF misses by > 25%?

One row per distinct input (the QD32 figures, FOB, raw NAND given or not): cases that differ
only by QD4 figures share every statistic, and their worst recorded WAF miss is kept. For each
statistic: the AUC (the chance a missing case's value exceeds a case within's; 0.5 is none, a
statistic that separates sits near 0 or 1) and, each way, the most misses a threshold flags
while flagging no case within.

Run: python bench/results/fobcheck/separate.py bench/results/fobcheck/tally.json
"""

from __future__ import annotations

import json
import math
import re
import sys

MISS = 0.25
STATS = {
    "fob_ratio": "FOB ÷ the steady figures' own line at WAF 1",
    "abs_log_fob_ratio": "|ln(FOB ÷ that line)|",
    "cmd_share": "full fit's t_cmd ÷ t_page (−0.5: at its bound)",
    "cost": "full fit's residual χ²",
    "native_op": "full fit's ρ₀",
    "waf_low": "full fit's WAF at the lowest level",
    "fob_over_low": "FOB ÷ IOPS at the lowest level",
    "span_ratio": "IOPS at the highest ÷ the lowest level",
    "true_fob_ratio": "oracle, needs the truth's WAF: FOB ÷ the true line at WAF 1",
    "abs_log_true": "oracle: |ln(FOB ÷ the true line)|",
}


def inputs(cmd: str) -> str:
    pts = [t for t in re.search(r"--points (\S+)", cmd).group(1).split(",") if "@qd" not in t]
    fob = re.search(r"--fob-iops (\S+)", cmd).group(1)
    return ",".join(pts) + " fob " + fob + (" raw" if "--advertised" in cmd else "")


def auc_table(scored: list[dict], outcome: str) -> None:
    """Each statistic's AUC and purest thresholds for ``outcome`` (a worst |WAF error|)."""
    miss = [r for r in scored if r[outcome] > MISS]
    ok = [r for r in scored if r[outcome] <= MISS]
    print(f"{len(scored)} inputs: {len(miss)} miss by > 25%, {len(ok)} within\n")
    print("| statistic | AUC | misses flagged, no case within flagged (high / low side) |")
    print("|---|---|---|")
    for name, words in STATS.items():
        m = [r[name] for r in miss if r.get(name) is not None]
        o = [r[name] for r in ok if r.get(name) is not None]
        if not m or not o:
            continue
        auc = sum((a > b) + 0.5 * (a == b) for a in m for b in o) / (len(m) * len(o))
        high = sum(a > max(o) for a in m)
        low = sum(a < min(o) for a in m)
        print(
            f"| {words} (`{name}`) | {auc:.2f} | {high} / {low} of {len(m)} "
            f"({len(m)} miss, {len(o)} within) |"
        )


def main(path: str) -> None:
    with open(path) as f:
        rows = json.load(f)
    groups: dict[str, list[dict]] = {}
    for r in rows:
        if r.get("error") is None:
            groups.setdefault(inputs(r["command"]), []).append(r)
    scored, one_level = [], []
    for rs in groups.values():
        r = dict(rs[0])
        errs = [x["waf_worst"] for x in rs if x["waf_worst"] is not None]
        r["worst"] = max(errs) if errs else None
        if r["fob_ratio"] is None:
            one_level.append(r)
            continue
        r["abs_log_fob_ratio"] = abs(math.log(r["fob_ratio"]))
        if r["true_fob_ratio"] is not None:
            r["abs_log_true"] = abs(math.log(r["true_fob_ratio"]))
        scored.append(r)
    print(
        f"{len(groups)} distinct inputs (QD32 figures, FOB, raw NAND or not): {len(scored)} "
        f"with >= 2 steady levels, {len(one_level)} with one (no steady line to set FOB "
        f"against)\n"
    )
    print("### Outcome: calibrate's recorded prediction (refused inputs left out)\n")
    auc_table([r for r in scored if r["worst"] is not None], "worst")
    print("\n### Outcome: the analytic surrogate this code fits, against the truth's WAF\n")
    auc_table([r for r in scored if r["fit_waf_worst"] is not None], "fit_waf_worst")
    print("\n### Every input with >= 2 steady levels, by FOB ÷ line\n")
    print(
        "| FOB ÷ line | oracle: FOB ÷ true line | t_cmd ÷ t_page | χ² | ρ₀ | WAF low "
        "| recorded worst WAF miss | analytic fit's | raw NAND | evaluation |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in sorted(scored, key=lambda r: r["fob_ratio"]):
        rec = "refused" if r["worst"] is None else f"{100 * r['worst']:.0f}%"
        fw = "–" if r["fit_waf_worst"] is None else f"{100 * r['fit_waf_worst']:.0f}%"
        tr = "–" if r["true_fob_ratio"] is None else f"{r['true_fob_ratio']:.2f}"
        print(
            f"| {r['fob_ratio']:.3f} | {tr} | {r['cmd_share']:+.2f} | {r['cost']:.1f} | "
            f"{r['native_op']:.3f} | {r['waf_low']:.2f} | {rec} | {fw} | "
            f"{'yes' if r['raw_nand'] else 'no'} | {r['file']} ({r['label'] or r['case']}) |"
        )
    print("\n### One steady level (no line to set FOB against)\n")
    for r in one_level:
        rec = "refused" if r["worst"] is None else f"{100 * r['worst']:.0f}%"
        print(f"- {r['file']}: {r['case']}: recorded worst WAF miss {rec}")


if __name__ == "__main__":
    main(sys.argv[1])
