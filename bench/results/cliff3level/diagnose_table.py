# ruff: noqa: E501 - a markdown table's rows
"""bench/results/cliff3level/DIAGNOSIS.md's table from diagnose.json (no simulation).

python bench/results/cliff3level/diagnose_table.py > bench/results/cliff3level/diagnose_table.md
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:+.1f}%"


def arm(a: dict | None) -> str:
    if not a:
        return "no cliff"
    return " / ".join(pct(a[k]) for k in ("iops_before", "iops_after", "lost_iops"))


def main() -> None:
    rows = json.loads((HERE / "diagnose.json").read_text())["rows"]
    print(
        "| case | truth's before-cliff written-read wait µs | probe's (twin's slot) | written reads' share before, truth / twin | past, truth / twin | probe's slots: before / past / lost | past slot the truth's | both slots the truth's |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        t, w, a = r.get("truth_windows") or {}, r.get("twin_windows") or {}, r["arms"]
        kw = r.get("twin_kwargs") or {}
        tb = (t.get("before") or {}).get("read_written", {})
        share = lambda d, k, s: (d.get(k) or {}).get(s, {}).get("share")  # noqa: E731
        f = lambda x: "–" if x is None else f"{100 * x:.2f}%"  # noqa: E731
        slot = kw.get("read_slot_ns")
        print(f"| {r['case']} | {tb.get('mean_us') or 0:.0f} | {'–' if slot is None else f'{slot / 1e3:.0f}'} "
              f"| {f(share(t, 'before', 'read_written'))} / {f(share(w, 'before', 'read_written_slot'))} "
              f"| {f(share(t, 'past', 'read_written'))} / {f(share(w, 'past', 'read_written_slot'))} "
              f"| {arm(a.get('probe_slots'))} | {arm(a.get('past_oracle'))} "
              f"| {arm(a.get('past_and_before_oracle'))} |")  # fmt: skip


if __name__ == "__main__":
    main()
