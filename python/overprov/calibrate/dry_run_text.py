"""``calibrate --dry-run``'s text: the target, its checks, the measurement plan calibrate would
run (``plan.design``, with ``middle_level.design``'s third level where asked) and what it would
cost in time and wear, before any write."""

from __future__ import annotations

from typing import Any

from overprov.calibrate import middle_level
from overprov.calibrate.plan import (
    DEFAULT_BUDGET_DRIVE_WRITES,
    Budget,
    default_budget,
    default_budget_note,
)


def calibrate_text(
    spec: str, levels: list[float], budget: Budget | None, options: dict[str, Any]
) -> str:
    """``calibrate --dry-run``: the target, its checks, the measurement plan (levels, drive
    writes at most) and its time at the drive's steady IOPS. ``budget`` None: the default
    (``plan.default_budget``). ``options["middle"]`` (``--middle-level on``): the plan with its
    third level where the budget holds it, else a line saying what it costs and which budget
    holds it (``middle_level.unheld_text``)."""
    from overprov.profile.dry_run import (
        ASSUMED_RANDOM_IOPS,
        header,
        identify,
        sim_drive_iops,
        wear_line,
    )
    from overprov.units import human_seconds

    ident = identify(spec, confirm=options.get("confirm"), allow_hdd=bool(options.get("allow_hdd")))
    cap = max(ident.capacity_bytes, 1)
    # a simulated drive reports its NAND writes; a real one is known only once opened
    counters = ident.sim is not None
    why = None
    if budget is None:
        buffer = ident.sim.buffer_bytes if ident.sim is not None else 0
        budget, why = default_budget(
            write_counters=counters, buffer_bytes=buffer, capacity_bytes=cap
        )
    asked = bool(options.get("middle"))
    plan = middle_level.design(levels, budget, write_counters=counters, middle=asked)
    if ident.sim is not None:
        iops = sim_drive_iops(ident.sim)[1]
        whose = "the drive's steady figure at 0% extra OP, from its parameters"
    else:
        iops = ASSUMED_RANDOM_IOPS
        whose = "an assumption: a real drive's speed is known only once it is written"
    dw = plan.planned_drive_writes()
    kind = " of simulated I/O time" if ident.sim is not None else ""
    lines = header(ident, "calibrate")
    lines.append(f"plan: {plan.text()} (budget {budget.text()})")
    if why is not None:
        lines.append(f"  {default_budget_note(why)}")
    unheld = middle_level.unheld_text(plan) if asked and counters else ""
    if unheld:
        lines.append(f"  {unheld}")
    if why is not None and not counters:
        lines.append(
            "  a drive that reports NAND write counters once opened (SMART, a vendor log) is "
            f"measured with the graded plan within {DEFAULT_BUDGET_DRIVE_WRITES:g} drive writes "
            "instead"
        )
    lines += [
        f"estimate: at most {human_seconds(dw * cap / (iops * 4096))}{kind}; "
        + wear_line(dw, cap, options.get("rated_tbw"), "at most"),
        f"  at {iops:,.0f} random-write IOPS ({whose})",
    ]
    return "\n".join(lines)
