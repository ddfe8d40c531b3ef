"""Merge results files of one simulator (runs of different levels or lengths) into one.

    python bench/foreign/merge.py OUT IN1 IN2 ...   # a later file's (OP, QD) case wins

The merged document keeps the first file's provenance and lists every run's command, date and
drive writes under `runs`; each level keeps its own `drive_writes`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402


def merge(docs: list[dict]) -> dict:
    if len({d["simulator"] for d in docs}) != 1:
        raise ValueError("results of different simulators")
    out = {k: v for k, v in docs[0].items() if k not in ("levels", "command", "date")}
    out["runs"] = []
    cases: dict[tuple, dict] = {}
    for d in docs:
        out["runs"].extend(d.get("runs") or [
            {"command": d["command"], "date": d["date"], "drive_writes": d["drive_writes"]}
        ])  # fmt: skip
        for r in d["levels"]:
            r.setdefault("drive_writes", d["drive_writes"])
            cases[(r["extra_op_percent"], r["queue_depth"])] = r
    out["date"] = max(r["date"] for r in out["runs"])
    out["drive_writes"] = None  # per level
    out["levels"] = [cases[k] for k in sorted(cases, key=lambda k: (k[1] != 32, k[1], k[0]))]
    return out


def main(argv: list[str]) -> int:
    out, *ins = (Path(a) for a in argv)
    common.write_results(out, merge([json.loads(p.read_text()) for p in ins]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
