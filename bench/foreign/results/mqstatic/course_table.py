"""course.json (run.py --course) as a table: per run, the chunks with both planes collecting in
more than 0.95 of the commands (the lockstep), the first of them, and the last two span writes.

    python bench/foreign/results/mqstatic/course_table.py course.json > course.md
"""

import json
import sys
from pathlib import Path


def main(path: str) -> str:
    runs = json.loads(Path(path).read_text())["runs"]
    out = ["| drive | level | what-if | seed | span writes | chunks in the lockstep | first at "
           "(span writes) | last 2 span writes: programs paired, both collecting | RGA picks "
           "there starting no collection |", "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in sorted(runs, key=lambda r: (r["drive"], r["level"], r["whatif"], r["seed"])):
        c, span = r["course"], r["span_pages"]
        locked = [x for x in c if x["both_collecting"] > 0.95]
        last = [x for x in c if x["host_writes"] > (r["drive_writes"] - 2) * span]
        first = f"{locked[0]['host_writes'] / span:.1f}" if locked else "–"
        paired = sum(x["paired"] for x in last) / len(last)
        both = sum(x["both_collecting"] for x in last) / len(last)
        out.append(f"| {r['drive']} | {r['level']}% | {r['whatif']} | {r['seed']} | "
                   f"{r['drive_writes']} | {len(locked)}/{len(c)} | {first} | {paired:.2f}, "
                   f"{both:.2f} | {sum(x['no_collection_checks'] for x in last)} |")  # fmt: skip
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(main(sys.argv[1]), end="")
