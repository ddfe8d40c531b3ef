"""``calibrate TARGET``'s measurement: the target measured into the output folder under a plan
within the budget (with ``--cliff``'s step first), or a measurement kept there continued
(``--resume DIR``, checked against the other flags first). ``cli.py`` chooses the source and
fits what is measured.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from overprov import measurement_file
from overprov.calibrate import cliff_step, middle_level
from overprov.calibrate import plan as planmod
from overprov.errors import ConfigError
from overprov.measurement_file import Measurement


def measure_target(
    args: argparse.Namespace, out: Path, levels: list[float], stored: Measurement | None = None
) -> Measurement:
    """Measure TARGET into ``out`` (measurement.json rewritten atomically after every round),
    or continue ``stored``, the measurement kept in ``out`` (``--resume``)."""
    from overprov.calibrate.cliff_prediction import planned_step
    from overprov.calibrate.measure import measure, write_counters
    from overprov.profile.runner import stderr_progress
    from overprov.profile.target_kinds import make_target

    spec = stored.target if stored is not None else args.target
    cliff = planned_step(args, stored)
    # the profiler's target: the same safety checks (blockdev) when it is opened
    target = make_target(spec, out / "fio", confirm=list(args.confirm), allow_hdd=args.allow_hdd)
    # a simulated drive keeps no state to resume: it starts fresh and is filled again
    target.open(resuming=stored is not None and target.kind != "sim")
    try:
        if stored is not None:
            why = target.same_as(stored.identity or {})
            if why is not None:
                raise ConfigError(f"--resume: not the target of {out}: {why}")
            plan = planmod.plan_of(stored)
            assert plan is not None  # checked by the caller
            done = ", ".join(f"{lv.extra_op_percent:g}%" for lv in stored.levels) or "none"
            stderr_progress(
                f"calibrate --resume {out}: continuing on {spec}; finished levels kept (not "
                f"run again): {done}; {stored.drive_writes:.2f} drive writes so far (budget "
                f"{plan.budget.text()})"
            )
        else:
            counters = write_counters(target) is not None
            if args.budget is None:
                budget, why = planmod.default_budget(
                    write_counters=counters,
                    buffer_bytes=getattr(target, "buffer_bytes", 0),
                    capacity_bytes=target.capacity_bytes,
                )
                if why is not None:
                    stderr_progress(f"calibrate {spec}: {planmod.default_budget_note(why)}")
            else:
                budget = planmod.parse_budget(args.budget)
            plan = middle_level.design(
                levels, budget, write_counters=counters, middle=middle_asked(args)
            )
            if cliff is not None:
                plan = cliff_step.with_cliff_budget(plan, cliff)
                stderr_progress(f"calibrate {spec}: {cliff.text()}")
            stderr_progress(
                f"calibrate {spec}: {plan.text()}; at most {plan.planned_drive_writes():.1f} "
                f"drive writes of {target.capacity_bytes:,} bytes (budget {budget.text()})"
            )
            if target.kind != "sim":
                stderr_progress(
                    f"WARNING: calibrating destroys all data on {spec}"
                    + (" and wears the drive" if target.kind == "block" else "")
                    + f": it writes up to {plan.planned_drive_writes():.1f} times its tested "
                    "capacity."
                )
        path = out / measurement_file.NAME
        try:
            m = measure(
                target,
                plan,
                stderr_progress,
                journal=lambda kept: measurement_file.save(kept, path),
                resume=stored,
                cliff=cliff,
                # resumed: the stored plan's (the option is refused), else as asked
                middle=lambda p, kept: middle_level.decide(
                    p, kept, p.middle is not None or (stored is None and middle_asked(args))
                ),
            )
        except KeyboardInterrupt:
            stderr_progress(
                f"interrupted: every finished round is kept in {path}; continue with "
                f"overprov calibrate --resume {out}"
            )
            raise
    finally:
        target.close()
    if m.stop_reason:
        stderr_progress(f"measuring stopped early: {m.stop_reason}")
    return m


def middle_asked(args: argparse.Namespace) -> bool:
    """``--middle-level`` on or off; not given: ``middle_level.ON``."""
    got = getattr(args, "middle_level", None)
    return middle_level.ON if got is None else got == "on"


def stored_measurement(args: argparse.Namespace) -> Measurement:
    """The measurement ``--resume DIR`` continues, checked against the other flags."""
    folder = args.resume
    if args.out is not None:
        raise ConfigError("--resume DIR: DIR is the output folder; do not also give --out")
    if args.budget is not None:
        raise ConfigError("--resume: a resumed calibration keeps its plan and --budget")
    if getattr(args, "middle_level", None) is not None:
        raise ConfigError(
            "--resume: a resumed calibration keeps its plan and its third level; do not give "
            "--middle-level"
        )
    path = folder / measurement_file.NAME
    if not path.exists():
        raise ConfigError(f"--resume {folder}: no {measurement_file.NAME} in it to continue")
    stored = measurement_file.load(path)
    if args.target and args.target != stored.target:
        raise ConfigError(
            f"--resume: {folder} is a calibration of {stored.target!r}, not {args.target!r}"
        )
    if stored.plan is None or stored.identity is None:
        raise ConfigError(
            f"--resume: {path} records no plan or target identity (an older overprov wrote "
            f"it); refit it with --from {folder}"
        )
    return stored
