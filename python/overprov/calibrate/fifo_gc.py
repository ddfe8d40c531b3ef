"""A GC design that collects the block written longest ago, whatever it holds: the FIFO reading
(off by default, :data:`OFFERED`).

A log-structured FTL that cleans its log's tail in order chooses no victim: Dhara (dlbeer/dhara,
a journal FTL; bench/foreign/dhara.py) collects the journal's tail, moving the live pages of
each tail block to the head. Under uniform random writes its WAF is the published FIFO/LRU
curve, α / (α + W₀(−α e^−α)) with α = 1 + ρ (P. Desnoyers, "Analytic modeling of SSD write
performance", SYSTOR 2012; ``models.waf_fifo``), which does not depend on the block size. The
core's ``policy = "fifo"`` collects that way (crates/overprov-sim/src/ftl/gc/fifo.rs).

With the design on, uniform figures are read once more beside the greedy and d-choices readings
of ``gc_designs.py``, with the twin's GC collecting in FIFO order; like them it is weighed by its
evidence (``spare_readings.weigh``), and the reserve readings (``reserve_hull.form_of``) take
its curve as they take every uniform design's. Its curve is the published model, not fitted.

What it can tell: little from uniform figures. At ``fit.PAGES_PER_BLOCK`` (512) FIFO's WAF
is above greedy's mean-field curve by 1.0% at ρ = 0.1, 0.6% at 0.2 and less beyond, 2.0% at
0.05 and 5.8% at 0.017 (the blocks are large: greedy tends to FIFO as blocks grow, Desnoyers),
so the reading is a near twin of greedy's wherever a figure lies; it parts from greedy only
below a few percent of spare. Its rule and verdict: bench/foreign/results/fifogc/RULE.md and
bench/foreign/results/fifogc/verdict.md (not met: off).
"""

from __future__ import annotations

from typing import Any

from overprov import models
from overprov.calibrate import curve_table
from overprov.calibrate import fit as fitmod

#: Whether uniform figures are also read with the FIFO design (``gc_designs.UNIFORM_DESIGNS``
#: holds it while this is on, read at each use). Off: bench/foreign/results/fifogc/RULE.md
#: decides it.
OFFERED = False
NAME = "fifo"
FTL: dict[str, Any] = {"policy": "fifo", "host_streams": "single"}


def curve(rho: float) -> float:
    """The design's WAF at spare ratio ``rho`` under uniform random writes (a ``fit.WafCurve``):
    Desnoyers' FIFO model at ``rho``, held at ``fit.RHO_MIN`` below it."""
    return models.waf_fifo(max(rho, fitmod.RHO_MIN))


def named_curve() -> curve_table.NamedCurve:
    """:func:`curve` as the design's curve (``gc_designs.curve``)."""
    return curve_table.NamedCurve(
        "FIFO GC (the block written longest ago is collected, a log's tail) under uniform "
        "random writes, Desnoyers' FIFO/LRU model",
        FTL,
        curve,
    )
