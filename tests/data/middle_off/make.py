"""The figures ``--middle-level off`` must leave as they were before the third level existed
(tests/calibrate/test_middle_off.py): 30 plan designs and a whole measurement of a 1 GiB
simulated drive, as written by the package at b1bb6e52 (main before the midlevel merge).

Made with the package of that commit and today's core (no change under crates/ since):
    git archive b1bb6e52 python | tar -x -C /tmp/old
    cp python/overprov/_core.abi3.so /tmp/old/python/overprov/
    PYTHONPATH=/tmp/old/python .venv/bin/python tests/data/middle_off/make.py > \\
        tests/data/middle_off/golden.json
"""

from __future__ import annotations

import itertools
import json
from typing import Any

#: A preset small enough to measure in a test, with write counters (the random plan's two
#: levels and its QD4 probe under no budget).
DRIVE = "sim:consumer-tlc-sata@1GiB"


def designs(design: Any, budget_type: Any) -> dict[str, dict]:
    """30 plans: three level sets, five budgets, with and without write counters."""
    level_sets = ([0.0, 10.0, 20.0, 30.0, 40.0], [0.0, 40.0], [0.0, 20.0])
    budgets = (
        budget_type(), budget_type(drive_writes=2.0), budget_type(drive_writes=4.0),
        budget_type(drive_writes=6.0), budget_type(io_seconds=7200.0),
    )  # fmt: skip
    out = {}
    for levels, budget, counters in itertools.product(level_sets, budgets, (True, False)):
        key = f"{levels} {budget.text()} counters={counters}"
        out[key] = design(levels, budget, write_counters=counters).to_dict()
    return out


def measured(m: Any) -> dict:
    """A measurement's figures: every field but its run times and the drive's identity."""
    d = m.to_dict()
    for key in ("runs", "identity", "target"):
        d.pop(key, None)
    return d


def main() -> None:
    from overprov.calibrate.measure import measure
    from overprov.calibrate.plan import Budget, design
    from overprov.profile.sim_target import SimTarget

    plan = design([0.0, 10.0, 20.0, 30.0, 40.0], Budget())
    with SimTarget(DRIVE) as t:
        m = measure(t, plan)
    doc = {"designs": designs(design, Budget), "measurement": measured(m)}
    print(json.dumps(doc, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
