"""How often the twin's victims hold no invalid page at 0%: per seen drive, the victims the
core collected and those with every page valid (``victim_valid_histogram``'s last bin, over the
measured phase), base and skip (``twin.py``'s cases), and the WAF; beside RULE.md, not judged.

    PYTHONPATH=python python bench/foreign/results/mqskip/full_victims.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
import mqsim_pairing as m  # noqa: E402
from cpu_clock import cpu_s  # noqa: E402

DRIVES = ("320x32", "640x16", "512x32", "768x32", "384x64", "1536x16")


def main() -> int:
    from overprov import engine

    cpu0, rows = cpu_s(), []
    for d in DRIVES:
        blocks, pages = map(int, d.split("x"))
        for skip in (False, True):
            cfg = m.twin_config(blocks, pages, 0, 32, 2, -1, "victim", False, True, True, True)
            if skip:
                cfg = engine.merge(cfg, {"ftl": {"gc_skip_full_victim": True}})
            r = engine.run(cfg)
            hist = r["victim_valid_histogram"]
            rows.append({"drive": f"u{d}", "skip": skip, "victims": sum(hist),
                         "full_victims": hist[-1], "waf": r["measured"]["waf"]})  # fmt: skip
    doc = {"rows": rows, "cpu_s": round(cpu_s() - cpu0, 1),
           "command": "python bench/foreign/results/mqskip/full_victims.py"}  # fmt: skip
    (HERE / "full_victims.json").write_text(json.dumps(doc, indent=1) + "\n")
    for r in rows:
        print(r)
    print("cpu_s", doc["cpu_s"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
