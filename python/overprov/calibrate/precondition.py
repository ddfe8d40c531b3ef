"""Graded preconditioning: a drive brought near its random-write steady state in one write of
its physical capacity, with the rounds every target already runs (fio 3.33 has no ``sprandom``).

**Why.** After a sequential fill every erase block is fully valid. Uniform random writes then
invalidate all of them at the same rate, so they reach the garbage collector's threshold
together: WAF and IOPS swing for about one write of the span before they settle, which is why
a plain plan writes ~0.8 span writes before it may look for a steady window.

**The steady state it aims at.** Under uniform random writes a page written ``a`` span writes
ago is still valid with probability ``e^-a``; blocks are written at a constant rate, so their
ages are spread evenly up to the age ``A = ln(1 / v_gc)`` at which greedy GC takes them
(``v_gc`` the victims' validity). Desnoyers ("Analytic models of SSD write performance", ACM
TOS 8(2), 2012) gives the same picture as ``i · f(i) = const``; fio's ``sprandom`` (fio ≥ 3.41,
HOWTO "sprandom") lays that distribution out region by region with an offset list.

**How, with ordinary rounds.** After the sequential fill the FTL holds the data in LBA order.
``K`` timed random-write rounds over shrinking prefixes of the span, round ``k`` over the first
``(K - k + 1) / K`` of it and writing ``h / K`` of that prefix, give the fill's region ``m``
(from the end) an invalidation hazard of ``m · h / K``: the fill blocks' ages are spread evenly
over ``[0, h]``, the steady state's profile, and the rounds' own data ages the same way (later,
shorter rounds invalidate it where they overlap). The rounds write ``h · S · (K + 1) / (2K)``,
chosen to equal the space that is neither valid data nor already invalid — the physical
capacity left after the span (the first level, on a filled drive: ``P − S``) or the space a
discard handed back (a later level: the share the tail held) — so the drive is full when they
end, as it is in steady state. ``P`` is not known before the fit: at the first level
``graded_run.py`` runs the rounds as sweeps until the write counters show garbage collection
start, so they write the drive's own free space; without counters it falls back to the native
OP most client drives ship with (GiB of NAND sold as GB, 7.37%), and the settling rule that
follows takes the rest.

**A later level.** A level's discard leaves the data of its span where the earlier level put
it, and its rounds can only grade blocks whose data lies in a region (the fill's): blocks whose
pages are spread over the whole span (written by random writes) are invalidated alike by any
host writes and reach the collector together, a crest of WAF that lasts until they have aged
about ``A`` span writes (measured: +4% to +6% at 40% after a 0% level on drives with 19-24%
native OP, passing only 0.6-0.8 drive writes later: bench/graded_layout_bench.py). So a graded
level (the last one too: run on, it reaches its own crest) ends at its first window that holds
within 10%
(``measure.GRADED_EARLY_STOP_PERCENT``; at the first level, whose window waits out the swing
after the onset where the budget holds it, ``graded_run.past_the_swing``), leaving the span
mostly in the fill's blocks, and a
later level's rounds run over *suffixes* of its span, ``[(1 - f) · S, S)``: the
earlier level's prefix rounds left the fill's hazard falling along the span, and hazard added
over suffixes rises along it, so the sum stays spread (``graded_run.round_region``). Over
prefixes both levels' hazards piled up at the span's start.

**The fill graded as it goes** (``graded_fill_steps``, the plan's ``fill_hazard``): the sequential
fill in ``K`` steps, each writing the next ``1/K`` of the capacity and then random writes over
the part already filled, ``c · y / K`` at fill position ``y``. The fill's data at ``u`` is then
overwritten by every later step at hazard ``c / K`` a step, ``c · (1 − u)`` in all when the fill
ends: the prefix rounds' profile with ``h = c``, for ``c / 2`` drive writes more. The random
writes' own data ages the same way. Because the hazard starts with the fill, its oldest blocks
are partly invalid long before it ends, so a collector that starts before a drive write (a GC
reserve larger than the native spare) finds victims past a floor such as FEMU's (1/8 invalid)
and its first copy dates the onset from empty inside the fill (``gc_onset.py``).

``plan.design`` uses these rounds when a drive-write budget cannot hold the plan of plain random
writes (e.g. ``--budget 2dw``); docs/calibrate-graded-plan.md, "Two drive writes", has what it
costs in accuracy.
"""

from __future__ import annotations

from dataclasses import dataclass

from overprov.errors import ConfigError

#: Native OP assumed when sizing the first level's rounds: NAND in GiB sold as GB.
ASSUMED_NATIVE_OP_PERCENT = 7.37
#: Prefix rounds per level: enough steps for the ages to look continuous to the GC.
GRADED_ROUNDS = 16
#: What one sweep of prefix rounds writes (of the tested capacity) when the first level's
#: rounds run until the onset of garbage collection (``graded_run.py``): the step by which the
#: measured free space is known, small against the least native OP sold (about 3%).
SWEEP_DRIVE_WRITES = 0.005


#: The graded fill's step (``graded_fill_steps``): the share of the capacity each writes
#: sequentially, the resolution of an onset dated inside the fill
#: (``gc_onset.ONSET_ROUND_DRIVE_WRITES``).
FILL_STEP_DRIVE_WRITES = 0.005


@dataclass(frozen=True)
class FillStep:
    """One step of the graded fill: the sequential writes that bring the filled part to
    ``end_fraction`` of the capacity, then ``random_drive_writes`` (of the capacity) of random
    writes over ``[0, end_fraction · C)``."""

    end_fraction: float
    random_drive_writes: float


def graded_fill_steps(hazard: float, steps: int | None = None) -> list[FillStep]:
    """The fill's steps for hazard ``hazard`` at the span's start (module docstring); ``steps``
    None: one per :data:`FILL_STEP_DRIVE_WRITES`."""
    k = steps or round(1 / FILL_STEP_DRIVE_WRITES)
    if hazard < 0:
        raise ConfigError(f"precondition: the fill's hazard must not be negative, got {hazard}")
    return [FillStep(i / k, hazard * i / k / k) for i in range(1, k + 1)]


def graded_fill_drive_writes(hazard: float, steps: int | None = None) -> float:
    """What the graded fill's random writes add (of the capacity): ``c · (K + 1) / (2K)``."""
    if not hazard:
        return 0.0
    return sum(s.random_drive_writes for s in graded_fill_steps(hazard, steps))


@dataclass(frozen=True)
class GradedRound:
    """Random writes over ``[0, span_fraction · S)`` totalling ``drive_writes`` (of the
    tested capacity)."""

    span_fraction: float
    drive_writes: float


def free_share(
    extra_op_percent: float,
    prev_extra_op_percent: float | None,
    assumed_native_op_percent: float = ASSUMED_NATIVE_OP_PERCENT,
) -> float:
    """Capacity share (of the tested capacity C) that is neither valid nor invalid data when
    the level starts: after the fill, the physical capacity beyond the span; after a lower
    level, the share its discard handed back."""
    if not 0 <= extra_op_percent < 100:
        raise ConfigError(f"precondition: extra OP {extra_op_percent} not in [0, 100)")
    if prev_extra_op_percent is None:
        physical = 1.0 + assumed_native_op_percent / 100.0
        return physical - (1.0 - extra_op_percent / 100.0)
    return max(0.0, extra_op_percent - prev_extra_op_percent) / 100.0


def graded_rounds(
    extra_op_percent: float, free_drive_writes: float, rounds: int = GRADED_ROUNDS
) -> list[GradedRound]:
    """The prefix rounds that write ``free_drive_writes`` (of C) over the span of a level with
    graded invalidation (module docstring)."""
    if rounds < 1:
        raise ConfigError(f"precondition: rounds must be at least 1, got {rounds}")
    span = 1.0 - extra_op_percent / 100.0
    if free_drive_writes <= 0:
        return []
    # sum over k of (h/K)·L_k = h·S·(K+1)/(2K) = free  →  h
    hazard = free_drive_writes * 2 * rounds / (span * (rounds + 1))
    out = []
    for k in range(rounds):
        frac = (rounds - k) / rounds
        out.append(GradedRound(frac, hazard / rounds * frac * span))
    return out
