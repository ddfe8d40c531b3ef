"""The stored EagleTree truths against their reruns on the patched build (reruns/ of this
folder, by runs.sh): each level's figures and its per-round series, equal or not.

    python bench/foreign/results/eaglefix/compare.py

Prints a markdown table (REPORT.md's): per truth, the levels rerun, how many are identical in
every field below, and each differing level with its fields.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent
STORED = {
    "eagletree": RESULTS / "eagletree.json",
    "et-4die-r50p200": RESULTS / "iops-form" / "et-4die-r50p200.json",
    "et-8die-bus4-r10p40": RESULTS / "iops-form" / "et-8die-bus4-r10p40.json",
    "et-8die-r25p300": RESULTS / "iops-form" / "et-8die-r25p300.json",
}
FIELDS = ("span_pages", "steady_iops", "steady_waf", "fob_iops", "series")


def differing(stored: dict, rerun: dict) -> dict[str, list[str]]:
    """Level name ("X% QDn") -> the FIELDS whose values differ; a level missing from either
    document is named with "missing"."""

    def by_level(doc: dict) -> dict:
        return {(r["extra_op_percent"], r["queue_depth"]): r for r in doc["levels"]}

    a, b = by_level(stored), by_level(rerun)
    out = {}
    for key in sorted(a.keys() | b.keys()):
        name = f"{key[0]}% QD{key[1]}"
        if key not in a or key not in b:
            out[name] = ["missing"]
        elif fields := [f for f in FIELDS if a[key].get(f) != b[key].get(f)]:
            out[name] = fields
    return out


def main() -> int:
    print("| stored truth | levels rerun | identical | differing (fields) |")
    print("|---|---|---|---|")
    for stem, path in STORED.items():
        rerun_path = HERE / "reruns" / f"{stem}.json"
        if not rerun_path.exists():
            print(f"| {path.relative_to(RESULTS.parent.parent.parent)} | not rerun | | |")
            continue
        rerun = json.loads(rerun_path.read_text())
        diff = differing(json.loads(path.read_text()), rerun)
        n = len(rerun["levels"])
        listed = "; ".join(f"{k}: {', '.join(v)}" for k, v in diff.items()) or "none"
        print(f"| {path.relative_to(RESULTS.parent.parent.parent)} | {n} | {n - len(diff)} "
              f"| {listed} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
