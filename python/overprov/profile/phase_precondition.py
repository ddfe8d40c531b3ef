"""How much a phase must write before its steady-state window may count.

Each phase discards the tail of the drive and then writes randomly over a smaller span. The
discard hands the drive fresh free space (and, after a random-write phase, blocks full of
freshly invalid pages), so random writes first run near fresh-out-of-box speed; only when that
free space is used up and the population of blocks has been rewritten at the new utilisation
does WAF — and with it IOPS — settle. Five flat rounds on the plateau before the cliff pass the
SNIA range and slope test, so the window must not start before the phase has written

    freed + max(1, TURNOVERS × T / WAF)   drive writes of the span S (in bytes: × S),

where

* ``freed`` is the free space the discard created, in drive writes of the span: the bytes the
  previous phase (or the full-capacity precondition) covered beyond this phase's span;
* ``T`` is the NAND behind the capacity — the physical size when the target knows it (simulated
  drives), else the capacity × (1 + ASSUMED_NATIVE_OP_RATIO), the usual 7.37% of GiB-sold-as-GB;
* ``WAF`` is the greedy model's WAF at ρ = T/S − 1 (Bux & Iliadis, ``overprov.models``): in
  steady state the drive rewrites all of T once every T / WAF host bytes (each victim frees
  its invalid share 1/WAF), and the distribution of valid pages per block settles after about
  ``TURNOVERS`` such turnovers;
* and at least one drive write of the span, which the low-OP levels need after a sequential
  fill (the first victims are uniformly invalid, so WAF starts low).

The rule is in bytes, so it holds at any scale and round length; docs/profile.md ("Phase
precondition") gives the measurements behind the constants. ``--min-phase-writes`` overrides
the computed figure.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from overprov import models

ASSUMED_NATIVE_OP_RATIO = (2**30 - 10**9) / 10**9
"""Native OP of a drive sold in GB on GiB of NAND (0.0737), assumed when T is unknown."""
ASSUMED_PAGES_PER_BLOCK = 256
"""Pages per block for the greedy model when the target does not say (real drives)."""
TURNOVERS = 2.0
"""Rewrites of the whole NAND (in units of T / WAF host bytes) for WAF to settle."""
MIN_SETTLE_DRIVE_WRITES = 1.0
"""The least a phase writes before its window, in drive writes of its span."""


@dataclass(frozen=True)
class PhasePrecondition:
    """The data a phase writes before its measurement window may start, and why."""

    span_bytes: int
    freed_bytes: int
    """Bytes the phase's discard returned as free space (previous span − this span)."""
    nand_bytes: int
    """T: physical NAND behind the capacity (known, or assumed from the native OP)."""
    nand_bytes_assumed: bool
    op_ratio: float
    """ρ = T / span − 1."""
    model_waf: float | None
    """Greedy-model WAF at ρ (None when ρ ≤ 0: no spare space at all)."""
    drive_writes: float
    """Drive writes of the span to write before the window."""
    bytes: int
    overridden: bool
    """True when --min-phase-writes set ``drive_writes``."""
    rule: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def phase_precondition(
    span_bytes: int,
    freed_bytes: int,
    capacity_bytes: int,
    *,
    nand_bytes: int | None = None,
    pages_per_block: int | None = None,
    min_phase_drive_writes: float | None = None,
) -> PhasePrecondition:
    """The precondition of one phase (see the module text for the rule)."""
    if span_bytes <= 0:
        raise ValueError(f"span_bytes must be positive, got {span_bytes}")
    if freed_bytes < 0:
        raise ValueError(f"freed_bytes must be >= 0, got {freed_bytes}")
    assumed = nand_bytes is None
    t = int(capacity_bytes * (1 + ASSUMED_NATIVE_OP_RATIO)) if nand_bytes is None else nand_bytes
    rho = t / span_bytes - 1
    b = pages_per_block or ASSUMED_PAGES_PER_BLOCK
    waf = models.waf_greedy(rho, b) if rho > 0 else None
    freed_dw = freed_bytes / span_bytes
    turnover_dw = TURNOVERS * (t / span_bytes) / waf if waf else 0.0
    settle_dw = max(MIN_SETTLE_DRIVE_WRITES, turnover_dw)
    if min_phase_drive_writes is not None:
        if not min_phase_drive_writes >= 0:
            raise ValueError(f"min_phase_drive_writes must be >= 0, got {min_phase_drive_writes}")
        dw = float(min_phase_drive_writes)
        rule = f"{dw:g} drive writes of the span, set by --min-phase-writes"
    else:
        dw = freed_dw + settle_dw
        rule = (
            f"{freed_dw:.2f} (free space the discard created) + max({MIN_SETTLE_DRIVE_WRITES:g}, "
            f"{TURNOVERS:g} × T/S {t / span_bytes:.3f} / greedy WAF "
            f"{'n/a' if waf is None else format(waf, '.3f')}) = {dw:.2f} drive "
            f"writes of the span (T = {t:,} bytes{', assumed' if assumed else ''}, "
            f"ρ = {rho:.4f}, {b} pages/block)"
        )
    return PhasePrecondition(
        span_bytes=span_bytes,
        freed_bytes=freed_bytes,
        nand_bytes=t,
        nand_bytes_assumed=assumed,
        op_ratio=rho,
        model_waf=waf,
        drive_writes=dw,
        bytes=int(round(dw * span_bytes)),
        overridden=min_phase_drive_writes is not None,
        rule=rule,
    )


def span_for(op: float, capacity: int, bs: int) -> int:
    """Bytes the workload covers at OP level op%: (1 − op/100)·C, rounded down to a block."""
    span = int(capacity * (100.0 - op) / 100.0)
    return span - span % bs


def plan(
    extra_op_percents: list[float],
    capacity_bytes: int,
    bs_bytes: int,
    *,
    nand_bytes: int | None = None,
    pages_per_block: int | None = None,
    min_phase_drive_writes: float | None = None,
) -> list[PhasePrecondition]:
    """The precondition of every phase of a sweep, lowest OP first: each phase's discard frees
    what the phase before it covered (the full capacity before the first phase, which the
    profile's precondition filled)."""
    out = []
    previous = capacity_bytes
    for op in extra_op_percents:
        span = span_for(op, capacity_bytes, bs_bytes)
        out.append(
            phase_precondition(
                span,
                max(0, previous - span),
                capacity_bytes,
                nand_bytes=nand_bytes,
                pages_per_block=pages_per_block,
                min_phase_drive_writes=min_phase_drive_writes,
            )
        )
        previous = span
    return out
