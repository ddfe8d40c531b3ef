"""The mix before the SLC cache's cliff capped by the command ceiling the write series measured,
and a rise's plateau read on its faster side: two forms of ``cliff_prediction``'s prediction
with the read probes (``PROBES_IN_PREDICTION``), acting only with it (bench/results/cliffmix/).

Why (bench/results/clifflift/verdict.md; checked on seen drives in
bench/results/cliffmix/check_seen.json): with the probes, a read holding its measured slot
(``read_slot.request_loop``'s ``read_slot_ns`` and ``unwritten_slot_ns``: reads of written
pages and of trimmed space) is sent to neither the twin's link nor its controller, and
calibrate's twin identifies no link, so under a mix with 70% reads the twin's commands before
the cliff add up past what the drive's link or controller let through. The write series' level
before its cache's step (QD32 4 KiB writes into the cache, from purged) is the fastest the drive
was seen to take writes, but a die-bound one (SLC programs slower than the link) says nothing of
the link; the probe of reads over trimmed space (``cliff_step.unwritten_probe``: the workload's
queue depth, 99% reads of pages never written, answered by the host path and controller, not
the NAND) runs at the queue depth ÷ its reads' mean time, the fastest the drive was seen to
answer a command at that depth. The mix's ceiling is the faster of the two
(:func:`command_ceiling_iops`; without the probe of trimmed space, none): every command of the
mix, a read holding its slot too, passes a gate at that rate (``cliff.read_slot_series``'s
``command_ceiling_iops``). A read's command is taken to cost the link and controller what the
faster of the two measured commands does: a form, not measured.

A rise (the series faster after its step than before: SLC programs slower per byte than TLC)
has its fastest level after the step; the plateau the twin's ceiling is lifted to
(``cliff_prediction.lift_ceiling``) and the gate are then that level, not the one before.

- :data:`MIX_CAPPED`: whether the two forms act (with ``PROBES_IN_PREDICTION`` only).
- :func:`plateau_iops`: the series' fastest level around its step.
- :func:`command_ceiling_iops`: the mix's ceiling from the plateau and the probe of trimmed
  space.
"""

from __future__ import annotations

from typing import Any

#: With ``cliff_prediction.PROBES_IN_PREDICTION`` (off by default): the mix from purged capped
#: at the series' plateau (:func:`plateau_iops`) and a rise's plateau read after its step
#: (bench/results/cliffmix/RULE.md); False: bench/results/clifflift/RULE.md's form
MIX_CAPPED = True


def plateau_iops(step: Any, rise_faster_side: bool) -> float | None:
    """The level a cache's step (``cliff_step.measured_step``'s, or None) shows the drive
    taking commands at: its level before the step or, with ``rise_faster_side``, the faster of
    before and after (a rise's is after)."""
    if step is None:
        return None
    if rise_faster_side:
        return float(max(step.iops_before, step.iops_after))
    return float(step.iops_before)


def command_ceiling_iops(
    plateau_iops: float | None, qd: int, unwritten_read_us: float | None
) -> float | None:
    """The mix's command ceiling (commands a second): the faster of the write series' plateau
    and the probe of reads over trimmed space's rate (``qd`` × 10⁶ ÷ its reads' mean time in
    µs, Little's law with every command a read: 99% are); None without that probe."""
    if unwritten_read_us is None or unwritten_read_us <= 0 or qd < 1:
        return None
    return max(qd * 1e6 / unwritten_read_us, plateau_iops or 0.0)
