"""The budget that bounds calibrate's measurement plan (``plan.py``): drive writes or device I/O
time, the default and why a target gets the random plan's instead, and ``--budget``'s text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from overprov.errors import ConfigError
from overprov.units import parse_duration_seconds

#: Default budget: the graded plan's 2 drive writes (``precondition.py``; adopted by the sixth
#: rule in docs/calibrate-graded-plan.md, "Two drive writes"); a drive-write budget that
#: holds the random plan's minimum (about 3.4, e.g. ``4dw``) or a time budget chooses the
#: random plan.
DEFAULT_BUDGET_DRIVE_WRITES = 2.0
#: The budget without ``--budget`` where the graded plan was not validated: a target that
#: reports no NAND write counters (its first level is then sized for an assumed native OP, and a
#: drive with more spare keeps free space into its 0% window) or a simulated drive whose write
#: buffer is over :data:`GRADED_BUFFER_SHARE_MAX` of its capacity (still filling through the 0%
#: window). Enough for three settled levels of the random plan on every drive of the validation
#: family (docs/calibrate-graded-plan.md, "Two drive writes").
RANDOM_PLAN_BUDGET_DRIVE_WRITES = 6.0
#: The largest write buffer, as a share of the user capacity, of the drives the graded plan was
#: adopted on (the sixth rule kept drives at or under it).
GRADED_BUFFER_SHARE_MAX = 0.05


@dataclass(frozen=True)
class Budget:
    """At most ``drive_writes`` host writes (in units of the tested capacity) or ``io_seconds``
    of device I/O time; None: unbounded in that unit."""

    drive_writes: float | None = None
    io_seconds: float | None = None

    def text(self) -> str:
        parts = []
        if self.drive_writes is not None:
            parts.append(f"{self.drive_writes:g} drive writes")
        if self.io_seconds is not None:
            parts.append(f"{self.io_seconds / 3600:g} h of I/O")
        return " or ".join(parts) or "unbounded"


#: A drive-write budget (``2dw``): the budget's own unit; an I/O time is any duration with its
#: unit (``units.parse_duration_seconds``: ``90m``, ``1.5h``, ``600s``).
_DRIVE_WRITES_RE = re.compile(r"^\s*([0-9]*\.?[0-9]+)\s*dw\s*$", re.IGNORECASE)
_UNIT_GIVEN_RE = re.compile(r"[a-zA-Z]\s*$")


def default_budget(
    *, write_counters: bool, buffer_bytes: int = 0, capacity_bytes: int = 1
) -> tuple[Budget, str | None]:
    """The budget without ``--budget``, and why it is not the graded plan's (None when it is).

    The graded plan (:data:`DEFAULT_BUDGET_DRIVE_WRITES`) where it was validated: the target
    reports its NAND writes and its write buffer (a simulated drive's; 0 when not known) is at
    most :data:`GRADED_BUFFER_SHARE_MAX` of its capacity. Elsewhere the random plan's
    :data:`RANDOM_PLAN_BUDGET_DRIVE_WRITES`; ``--budget 2dw`` still asks for the graded one.
    """
    share = buffer_bytes / max(capacity_bytes, 1)
    if not write_counters:
        why = (
            "the target reports no NAND write counters, so the graded plan could not measure "
            "its free space"
        )
    elif share > GRADED_BUFFER_SHARE_MAX:
        why = (
            f"its write buffer ({buffer_bytes:,} bytes) is {100 * share:.1f}% of its capacity, "
            f"over the {100 * GRADED_BUFFER_SHARE_MAX:g}% of the drives the graded plan was "
            "checked on"
        )
    else:
        return Budget(drive_writes=DEFAULT_BUDGET_DRIVE_WRITES), None
    return Budget(drive_writes=RANDOM_PLAN_BUDGET_DRIVE_WRITES), why


def default_budget_note(why: str) -> str:
    """What calibrate says when :func:`default_budget` chose the random plan."""
    return (
        f"the random plan within {RANDOM_PLAN_BUDGET_DRIVE_WRITES:g} drive writes, not the "
        f"graded plan's {DEFAULT_BUDGET_DRIVE_WRITES:g}: {why} (--budget "
        f"{DEFAULT_BUDGET_DRIVE_WRITES:g}dw asks for the graded plan; "
        'docs/calibrate-graded-plan.md, "Limits")'
    )


def parse_budget(text: str | None) -> Budget:
    """``"2dw"`` (drive writes), ``"2h"``, ``"90m"``, ``"600s"`` (device I/O time, read by
    the one duration parser, ``units.parse_duration_seconds``, its unit required: a bare number
    could be either); None: the default of :data:`DEFAULT_BUDGET_DRIVE_WRITES` drive writes."""
    if text is None:
        return Budget(drive_writes=DEFAULT_BUDGET_DRIVE_WRITES)
    neither = f"--budget: {text!r} is neither drive writes (e.g. 2dw) nor I/O time (e.g. 2h, 90m)"
    m = _DRIVE_WRITES_RE.match(text)
    if m:
        value = float(m.group(1))
        if value <= 0:
            raise ConfigError(f"--budget: must be positive, got {text!r}")
        return Budget(drive_writes=value)
    if not _UNIT_GIVEN_RE.search(text):
        raise ConfigError(neither)
    try:
        return Budget(io_seconds=parse_duration_seconds(text, "--budget"))
    except ConfigError as exc:
        if str(exc).startswith("--budget: expected"):  # not a duration: say both forms
            raise ConfigError(neither) from None
        raise ConfigError(f"--budget: must be positive, got {text!r}") from None  # 0h
