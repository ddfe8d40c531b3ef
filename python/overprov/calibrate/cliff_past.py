"""The mix past the SLC cache's cliff with the read probes (``cliff_prediction``'s
``PROBES_IN_PREDICTION``): a read of a written page past the cache holds the slot the probe
past the cliff measured, and every command issued after it waits for it (bench/results/cliffpast/).

Why (bench/results/cliffpast/DIAGNOSIS.md, on seen drives): past the cliff under QD8 70% reads
from purged the truth's dies were busy 66–68% of the time (38% on a controller-bound one), its
writes and reads of trimmed space waited 100–150 µs (60–95 µs before the cliff), while the
twin's dies ran 91–100% busy and its level past the cliff came out 32–45% fast. The truth's
host link is booked in request order (the core's default, crates/overprov-sim/src/timing/
link.rs): a read of a written page waits 500–820 µs behind the TLC programs on its die and
every transfer booked after it waits behind it, so the other dies idle. Booked per direction
(``"gaps"``) the same truths ran past the cliff within 5–8% of the twin's level; the twin books
its link in gaps (``read_probes.LINK_BOOKING``) and sends those reads to its one fitted die,
where they wait 1.4–3.1 ms. The fold's share of die time past the cliff was 2–5%: not the cause.

The form: past the fitted cache, each read of a written page holds the probe past the cliff's
measured read time (``read_slot.request_loop``'s ``read_slot_after_ns``), and with
:data:`READS_IN_ORDER` before the cliff too every command issued after a read of a written page
completes no earlier than it, a write reaching the drive no earlier (``reads_in_order``). That
a drive's link is booked in order is a form (the truths', by construction; a drive whose reads
do not block, as py_ssd_sim's, is not checked with it).

- :data:`READS_IN_ORDER`: whether the form acts (with ``PROBES_IN_PREDICTION`` only).
- :func:`loop_kw`: the loop's arguments for the form, from the probe past the cliff.
"""

from __future__ import annotations

from typing import Any

#: With ``cliff_prediction.PROBES_IN_PREDICTION`` (off by default): reads of written pages
#: past the cache hold the probe past the cliff's read time and complete in request order
#: (bench/results/cliffpast/RULE.md); False: bench/results/cliffmix/RULE.md's form
READS_IN_ORDER = True


def loop_kw(after_read_us: float | None) -> dict[str, Any] | None:
    """``read_slot.request_loop``'s arguments for the form: reads of written pages past the
    cache holding ``after_read_us`` (µs; the probe past the cliff's reads' mean time), every
    command after such a read waiting for it; None where the form does not act."""
    if not READS_IN_ORDER or after_read_us is None or after_read_us <= 0:
        return None
    return {"read_slot_after_ns": round(after_read_us * 1e3), "reads_in_order": True}
