"""The pre-run estimate of a profile: how long it takes and how much it writes.

Each phase writes its precondition (``overprov.profile.phase_precondition``, a number of bytes)
and then at least a window of rounds (at most ``max_rounds``) with a baseline of as many rounds
before it; the bytes per second of random writes decide how many rounds the precondition
takes. Figures are per member (members run in parallel). For ``sim:`` targets the durations are
simulated I/O time, not the wall-clock time of the run (which is usually far shorter).
"""

from __future__ import annotations

import math
from typing import Any

from overprov.file_location import NOT_ON_A_DISK
from overprov.mount_table import mount_holding
from overprov.profile import phase_precondition
from overprov.profile.dry_run import ASSUMED_RANDOM_IOPS
from overprov.profile.settings import ProfileSettings
from overprov.units import human_bytes, human_seconds

ASSUMED_SEQ_BYTES_PER_S = 500e6

ROUND_DRIVE_WRITES_HINT = 10.0
"""A round writing this many drive writes of the tested span (a phase's: the capacity less its
extra OP; the smallest span's, where a round writes the most) or more gets a hint to shorten
--round-seconds (a tiny --size with 60 s rounds writes thousands: steady state is then judged
on rounds far coarser than the drive's GC)."""

BOUND_RANDOM_IOPS = 1_000_000.0
"""The stated maximum speed of the write bound when the drive's speed is assumed: a drive (or
a loop device over a file in the page cache) writing faster than this writes more than the
bound says. An assumed speed gives no limit; a bound needs a stated one."""


def drive_facts(target: Any, settings: ProfileSettings) -> dict[str, Any]:
    """What the target knows of itself: a simulated drive its NAND, its speed (from its
    parameters: dry_run.sim_drive_iops) and its rounds' time factor; a real one nothing."""
    facts: dict[str, Any] = {
        "nand_bytes": getattr(target, "physical_bytes", None),
        "pages_per_block": getattr(target, "pages_per_block", None),
        "simulated": target.kind == "sim",
        "time_factor": getattr(target, "time_factor", 1.0),
    }
    if target.kind == "sim" and getattr(target, "config", None) is not None:
        from overprov.profile.dry_run import sim_drive_iops

        figures = [sim_drive_iops(target, op) for op in settings.extra_op_percents]
        # harmonic mean: each phase writes about as much, so time goes as 1/IOPS
        steady = len(figures) / sum(1 / f[1] for f in figures)
        facts["random_iops"] = steady * 4096 / settings.bs_bytes
        facts["seq_bytes_per_s"] = figures[0][0] * 4096
        facts["measured"] = (
            f"random writes at {steady:,.0f} IOPS, the drive's steady figure from its "
            "parameters (harmonic mean over the levels)"
        )
    return facts


def estimate(
    settings: ProfileSettings,
    capacity_bytes: int,
    members: int,
    *,
    random_iops: float | None = None,
    seq_bytes_per_s: float | None = None,
    measured: str = "",
    nand_bytes: int | None = None,
    pages_per_block: int | None = None,
    simulated: bool = False,
    time_factor: float = 1.0,
) -> dict[str, Any]:
    """Duration and bytes written of a whole run (per member).

    Rounds per phase: the rounds the phase precondition takes at ``random_iops``, then at
    least a window (and a baseline of a window before it), at most ``max_rounds``. Bytes depend
    on the drive's speed, so they come from ``random_iops`` and ``seq_bytes_per_s`` — measured
    figures when given, else stated assumptions. ``time_factor``: simulated seconds per
    second of a round (a scaled ``sim:`` drive's rounds are shorter, docs/profile.md).
    """
    assumptions = []
    speed_assumed = random_iops is None
    if random_iops is None:
        # --target-iops is a floor the user asks for, not the drive's speed: never below the
        # assumption (a loop device over a file wrote 3.5× the estimate made at its target)
        random_iops = max(settings.target_iops or 0.0, ASSUMED_RANDOM_IOPS)
        assumptions.append(f"random writes at an assumed {random_iops:,.0f} IOPS per member")
    if seq_bytes_per_s is None:
        seq_bytes_per_s = ASSUMED_SEQ_BYTES_PER_S
        assumptions.append(
            f"sequential writes at an assumed {human_bytes(seq_bytes_per_s)}/s per member"
        )
    rnd_bytes_per_s = random_iops * settings.bs_bytes
    round_s = settings.round_seconds * time_factor
    round_bytes = rnd_bytes_per_s * round_s
    w = settings.steady_window_rounds
    baseline = w if settings.steady_max_decline_fraction is not None else 0
    phases = []
    rounds_min = rounds_max = 0
    for op, pre in zip(
        settings.extra_op_percents,
        phase_precondition.plan(
            settings.extra_op_percents,
            capacity_bytes,
            settings.bs_bytes,
            nand_bytes=nand_bytes,
            pages_per_block=pages_per_block,
            min_phase_drive_writes=settings.min_phase_drive_writes,
        ),
        strict=True,
    ):
        pre_rounds = math.ceil(pre.bytes / round_bytes) if round_bytes > 0 else 0
        hi = pre_rounds + settings.max_rounds
        # a phase gives up at max_rounds, even before a window and its baseline fit
        lo = min(max(pre_rounds + w, w + baseline), hi)
        rounds_min += lo
        rounds_max += hi
        span = phase_precondition.span_for(float(op), capacity_bytes, settings.bs_bytes)
        phases.append(
            {
                "extra_op_percent": float(op),
                "round_drive_writes": round_bytes / span if span > 0 else None,
                "precondition_bytes": pre.bytes,
                "precondition_drive_writes": pre.drive_writes,
                "rounds_min": lo,
                "rounds_max": hi,
                "seconds_min": lo * round_s,
                "seconds_max": hi * round_s,
            }
        )
    pre_bytes = settings.precondition_passes * capacity_bytes
    if settings.precondition == "seq":
        pre_s = pre_bytes / seq_bytes_per_s
    else:
        pre_s = pre_bytes / rnd_bytes_per_s
    fob_s = settings.fob_s * time_factor
    seconds_min = fob_s + pre_s + rounds_min * round_s
    seconds_max = fob_s + pre_s + rounds_max * round_s
    bytes_min = pre_bytes + (fob_s + rounds_min * round_s) * rnd_bytes_per_s
    bytes_max = pre_bytes + (fob_s + rounds_max * round_s) * rnd_bytes_per_s
    bound = None
    if speed_assumed:
        bound = {
            "bytes_per_member": _bound_bytes(settings, pre_bytes, phases, round_s, fob_s),
            "random_iops": BOUND_RANDOM_IOPS,
            "max_rounds": settings.max_rounds,
            "round_seconds": settings.round_seconds,
        }
    share = None
    if settings.rated_tbw:
        share = bytes_max / (settings.rated_tbw * 1e12)
    return {
        "round_seconds": settings.round_seconds,
        "round_drive_writes": max(
            (p["round_drive_writes"] for p in phases if p["round_drive_writes"] is not None),
            default=None,
        ),  # of the tested span: the largest, at the phase whose span is smallest
        "phases": len(settings.extra_op_percents),
        "rounds_min": rounds_min,
        "rounds_max": rounds_max,
        "seconds_min": seconds_min,
        "seconds_max": seconds_max,
        "precondition_bytes_per_member": pre_bytes,
        "phase_precondition_bytes_per_member": sum(p["precondition_bytes"] for p in phases),
        "per_phase": phases,
        "bytes_per_member_min": int(bytes_min),
        "bytes_per_member_max": int(bytes_max),
        "bytes_total_max": int(bytes_max * members),
        "endurance_share_max": share,
        "bound": bound,
        "simulated_time": simulated,
        "assumptions": assumptions,
        "measured": measured,
    }


def _bound_bytes(
    settings: ProfileSettings,
    pre_bytes: int,
    phases: list[dict[str, Any]],
    round_s: float,
    fob_s: float,
) -> int:
    """The most a member writes if it writes no faster than ``BOUND_RANDOM_IOPS``: the
    precondition, each phase's precondition (its last round may run a whole round past it) and
    then ``max_rounds`` rounds, the FOB round; whatever the drive's true speed below the
    bound, since each phase stops at ``max_rounds`` rounds past its precondition."""
    per_s = BOUND_RANDOM_IOPS * settings.bs_bytes
    per_phase = sum(p["precondition_bytes"] for p in phases)
    rounds = len(phases) * (settings.max_rounds + 1)
    return int(pre_bytes + per_phase + (fob_s + rounds * round_s) * per_s)


def bound_text(est: dict[str, Any]) -> str:
    """The true upper bound on bytes written when the estimate rests on an assumed speed, with
    the speed it holds for; "" when the speed is the drive's own (measured or simulated)."""
    b = est.get("bound")
    if not b:
        return ""
    return (
        f"at most {human_bytes(b['bytes_per_member'])} if the drive writes no faster than "
        f"{b['random_iops']:,.0f} IOPS: each phase stops at --max-rounds {b['max_rounds']} "
        f"rounds of {human_seconds(b['round_seconds'])} past its precondition (a faster drive "
        "writes more)"
    )


def round_hint(est: dict[str, Any]) -> str:
    """A hint to shorten --round-seconds when one round writes ``ROUND_DRIVE_WRITES_HINT``
    drive writes of the tested span or more; "" otherwise."""
    per_round = est.get("round_drive_writes")
    if per_round is None or per_round < ROUND_DRIVE_WRITES_HINT:
        return ""
    round_s = est.get("round_seconds")
    shorter = ""
    if round_s:
        fewer = max(1, round(round_s / per_round))
        shorter = f" ({fewer} s: about {per_round * fewer / round_s:,.1f} drive writes a round)"
    return (
        f"each round writes about {per_round:,.0f} drive writes of the tested span: a shorter "
        f"--round-seconds{shorter} or a larger --size judges steady state on finer rounds"
    )


def _what(kind: str, members: int) -> str:
    if members > 1:
        return f"{members} members"
    return {"block": "the device", "sim": "a simulated drive"}.get(kind, "a file")


def _span(show: Any, low: Any, high: Any, between: str) -> str:
    """``low`` to ``high`` as ``show`` writes them; one figure when they read the same (a
    profile whose every phase runs its most rounds: not "24 s to 24 s")."""
    a, b = show(low), show(high)
    return a if a == b else f"{a}{between}{b}"


def estimate_text(est: dict[str, Any], spec: str, kind: str, capacity: int, members: int) -> str:
    each = " each" if members > 1 else ""
    time_kind = " of simulated I/O time" if est.get("simulated_time") else ""
    lines = [
        f"estimate for {spec} ({_what(kind, members)}, {human_bytes(capacity)} tested{each}):",
        f"  duration {_span(human_seconds, est['seconds_min'], est['seconds_max'], ' to ')}"
        f"{time_kind} ({est['phases']} phases, "
        f"{_span(str, est['rounds_min'], est['rounds_max'], '–')} rounds)",
        "  writes "
        + ("about " if est.get("bound") else "")
        + _span(human_bytes, est["bytes_per_member_min"], est["bytes_per_member_max"], " to ")
        + (" per member" if members > 1 else "")
        + f" (precondition {human_bytes(est['precondition_bytes_per_member'])}; before each "
        f"phase's window {human_bytes(est.get('phase_precondition_bytes_per_member', 0))} in "
        "all)",
    ]
    if est.get("simulated_time"):
        lines.append("  a simulated run takes seconds to minutes of wall-clock time")
    if est.get("endurance_share_max") is not None:
        lines.append(
            f"  up to {est['endurance_share_max']:.2%} of the rated endurance (TBW)"
            + (" at that speed" if est.get("bound") else "")
        )
    if est["assumptions"]:
        lines.append("  assuming " + "; ".join(est["assumptions"]))
    if bound := bound_text(est):
        lines.append("  " + bound)
    if hint := round_hint(est):
        lines.append("  " + hint)
    if est.get("measured"):
        lines.append("  " + est["measured"])
    return "\n".join(lines)


def wear_warning(kind: str, spec: str) -> str:
    if kind == "sim":
        return f"{spec} is simulated: nothing is written to any device."
    if kind == "block":
        return (
            f"WARNING: profiling destroys all data on {spec} and WEARS THE DRIVE: it writes the "
            "figures above, a share of its rated endurance. Shrink --size, --extra-op levels or "
            "--max-rounds to write less."
        )
    in_ram = _not_on_a_disk(spec)
    if in_ram:
        return (
            f"WARNING: profiling overwrites {spec}, which is on {in_ram}: the figures will be "
            "those of memory, not of an SSD."
        )
    return (
        f"WARNING: profiling overwrites {spec} and writes the figures above to the file system "
        "that holds it (and to the drive under it)."
    )


def _not_on_a_disk(spec: str) -> str:
    """The file systems of a file target's members that no drive holds (a tmpfs, ramfs:
    ``file_location.NOT_ON_A_DISK``), in words; "" when every member is on a disk."""
    found = []
    for member in spec.split(","):
        entry = mount_holding(member)
        if entry is not None and entry.fs_type in NOT_ON_A_DISK:
            said = f"{entry.mount_point} ({entry.fs_type}, {NOT_ON_A_DISK[entry.fs_type]})"
            if said not in found:
                found.append(said)
    return "; ".join(found)
