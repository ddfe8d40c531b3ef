"""diag.json as a Markdown table (means of the seeds)."""

import json
import sys
from pathlib import Path

d = json.loads((Path(__file__).resolve().parent / sys.argv[1]).read_text())
cases = sorted({k.rsplit(" seed", 1)[0] for k in d if k != "cpu_s"})
cols = ["share_programs", "both_collecting", "programs gc+gc", "programs gc+host",
        "programs host+host", "programs gc alone", "programs host alone",
        "gc alone, other plane's writes queued",
        "gc alone, other plane's writes queued, mean", "starts: other plane below threshold",
        "starts: other plane's free minus threshold, mean", "starts: other plane collecting",
        "at_run_end_free_minus_threshold",
        "iops_error"]  # fmt: skip
print("| case | " + " | ".join(c.replace("_", " ") for c in cols) + " |")
print("|---" * (len(cols) + 1) + "|")
for c in cases:
    rows = [d[k] for k in d if k.startswith(c + " seed")]
    print(f"| {c} | " + " | ".join(f"{sum(r[x] for r in rows) / len(rows):.2f}" for x in cols)
          + " |")  # fmt: skip
