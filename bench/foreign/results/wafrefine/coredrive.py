"""bench/foreign/results/wafrefine/RULE.md's core-generated drive as a WAF-only truth: d-choices
victims with d = 4, 128 MiB, 64 pages a block, native spare 3%, uniform random writes (as
tests/calibrate/test_fitted_waf_missed.py's drive), its WAF at 0/10/20/30/40% by the core.

    PYTHONPATH=python python bench/foreign/results/wafrefine/coredrive.py OUT.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from overprov import engine

USER_BYTES = 2**27
NATIVE_OP = 0.03


def waf(x: float) -> float:
    cfg = engine.merge(engine.default_config(), {
        "ftl": {"policy": "d-choices", "d_choices": 4},
        "geometry": {"page_size_bytes": 4096, "pages_per_block": 64,
                     "advertised_bytes": USER_BYTES,
                     "physical_bytes": int(USER_BYTES * (1 + NATIVE_OP)), "extra_op_percent": x},
        "run": {"seed": 1},
    })  # fmt: skip
    return float(engine.run(cfg)["measured"]["waf"])


def main(out: Path) -> None:
    levels = [
        {"extra_op_percent": x, "queue_depth": 32, "steady_iops": None,
         "steady_waf": waf(float(x)), "fob_iops": None}
        for x in (0, 10, 20, 30, 40)
    ]  # fmt: skip
    doc = {"simulator": "overprov core (d-choices, d = 4)", "drive": "128 MiB, 64 pages a block, "
           f"native spare {NATIVE_OP:.0%}", "advertised_bytes": USER_BYTES,
           "physical_bytes": int(USER_BYTES * (1 + NATIVE_OP)), "levels": levels}  # fmt: skip
    out.write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(Path(sys.argv[1]))
