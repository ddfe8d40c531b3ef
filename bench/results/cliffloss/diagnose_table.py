"""bench/results/cliffloss/diagnose.json's predictions against the truths bench/results/cliffpool/
recorded (runs_*.json; cliffseries' runs.json for 9601-9606): time and IOPS-lost errors per
form, as a markdown table (no simulation).

    python bench/results/cliffloss/diagnose_table.py > bench/results/cliffloss/diagnose_table.md
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNS = [
    *sorted((HERE.parent / "cliffpool").glob("runs_*.json")),
    HERE.parent / "cliffseries" / "runs.json",
]
FORMS = ("now", "with_carried", "with_truth_wait", "with_span", "with_span_truth_wait")


def truths() -> dict[str, dict]:
    out = {}
    for path in RUNS:
        for r in json.loads(path.read_text())["rows"]:
            seed, share = r["drive"].split()[1].rstrip(","), r["drive"].split()[-1]
            out[f"{seed} at {share}"] = r["purged"]["true"]
    return out


def main() -> int:
    true = truths()
    print("| case | " + " | ".join(FORMS) + " |")
    print("|---|" + "---|" * len(FORMS))
    for r in json.loads((HERE / "diagnose.json").read_text())["rows"]:
        t = true[r["case"]]
        cells = []
        for f in FORMS:
            p = r.get(f)
            if not p or "time_s" not in p:
                cells.append("—")
                continue
            te, le = p["time_s"] / t["time_s"] - 1, p["lost_iops"] / t["lost_iops"] - 1
            cells.append(f"{100 * te:+.1f}%, {100 * le:+.1f}%")
        print(f"| {r['case']} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
