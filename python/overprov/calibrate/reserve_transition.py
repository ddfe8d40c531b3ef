"""The GC-reserve reading's transition term: a model-form error that grows where the reading
leaves its victim floor.

The reserve reading (``gc_reserve.py``, ``reserve_reading.py``) caps its design's WAF curve at
the floor the lowest level reads: WAF = min(curve(ρ(x)), floor), a hard corner at the level
where the curve meets the floor (its *edge*). A drive rounds that corner, so the levels near the
edge are where the reading's form is least like the drive, and its fit shows nothing of it: the
plan's figures at 0% and 40% sit one on the floor and one far up the curve. On the FEMU
end-to-end drives the reading's WAF misses near the edge reach 4–5% while its own residual on the
figures can be under 2% (bench/intervals/widthtrans/DIAGNOSIS.md).

With :data:`TRANSITION_TERM` on, a measured target's reserve reading is widened by its own
residual (``own_residual.own_reserve_form``) and, at each level x, by
``EDGE_REL_SD · exp(−|D(x)| / EDGE_LOG_WAF)`` in quadrature inside the form's scale, D(x) the
log distance of the uncapped curve's WAF at x from the floor, ln(curve(ρ(x)) ÷ floor): 0 at the
edge, large on the floor far below it and far up the curve. The two constants were set on the
stored FEMU end-to-end figures (the diagnosis above); the rule that judges the term on drives
nobody had run is bench/intervals/RULE-widthtrans.md (met: on by default). Off: the reading
is widened by the greedy surrogate's residual, as every reading.

Typed figures without an onset (``reserve_hull.py``, ``reserve_hull.UNDATED_EDGE``, only with
``reserve_hull.OFFERED``): the reading's surrogate is marked ``undated_edge`` and its term on the
curve's side of the edge (D(x) < 0) is :data:`UNDATED_REL_SD` falling by e every
:data:`UNDATED_LOG_WAF` instead (:class:`UndatedFloorEdge`); on the floor's side as above. Set on
the seen generated reserve drives (gen-R1–R8's plan figures, the greedy reserve surrogate against
the truth at 10–30%: bench/intervals/hullres2/DIAGNOSIS.md): on the curve's side it misses by
−0.02 to −0.07 in log WAF out to D = −1.5, where the FEMU-set term is under 0.01.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from overprov.calibrate import fit as fitmod

#: Off: the reserve reading's interval as before (``own_residual.OWN_RESERVE_RESIDUAL``'s rule).
#: On: its own residual and the transition term (module doc). On by default since
#: bench/intervals/RULE-widthtrans.md was met (bench/intervals/widthtrans/verdict.md).
TRANSITION_TERM = True
#: The term's relative sd at the edge: the size of the seen FEMU end-to-end WAF misses next to
#: it (0.041–0.051 within 0.3 of the edge in log WAF).
EDGE_REL_SD = 0.05
#: The log-WAF distance from the floor over which the term falls by e: the seen WAF misses stay
#: above 0.03 out to 0.65 on the curve's side.
EDGE_LOG_WAF = 0.5
#: The term on the curve's side for a reading without an onset (:class:`UndatedFloorEdge`): the
#: smallest round size and fall that cover the seen generated reserve drives' curve-side misses
#: at 80% (bench/intervals/hullres2/DIAGNOSIS.md).
UNDATED_REL_SD = 0.07
UNDATED_LOG_WAF = 3.0


@dataclass(frozen=True)
class FloorEdge:
    """Where a reserve reading's curve meets its floor: the reading's spare (``native_op``,
    ``spare_efficiency``), its uncapped design curve and its floor's WAF."""

    native_op: float
    spare_efficiency: float
    curve: fitmod.WafCurve
    waf_floor: float

    def log_waf_from_floor(self, extra_op_percent: float) -> float:
        """D(x) = ln(curve(ρ(x)) ÷ floor): positive on the floor, negative up the curve;
        +inf where the reading has no spare left (ρ ≤ 0)."""
        rho = self.spare_efficiency * fitmod.rho_eff(self.native_op, extra_op_percent)
        if rho <= fitmod.RHO_MIN:
            return math.inf
        return math.log(self.curve(rho) / self.waf_floor)

    def sd_at(self, extra_op_percent: float) -> float:
        """The transition term at a level (module doc)."""
        d = abs(self.log_waf_from_floor(extra_op_percent))
        return 0.0 if math.isinf(d) else EDGE_REL_SD * math.exp(-d / EDGE_LOG_WAF)

    def describe(self) -> str:
        return (
            f"a term of {EDGE_REL_SD:g} where the GC-reserve reading leaves its victim floor "
            f"(WAF {self.waf_floor:.3g}), falling by e every {EDGE_LOG_WAF:g} in log WAF away "
            "from it"
        )


@dataclass(frozen=True)
class UndatedFloorEdge(FloorEdge):
    """The edge of a reserve reading fitted without an onset (module doc): on the curve's side
    :data:`UNDATED_REL_SD` falling by e every :data:`UNDATED_LOG_WAF`."""

    def sd_at(self, extra_op_percent: float) -> float:
        d = self.log_waf_from_floor(extra_op_percent)
        if d >= 0:
            return super().sd_at(extra_op_percent)
        return UNDATED_REL_SD * math.exp(d / UNDATED_LOG_WAF)

    def describe(self) -> str:
        return (
            f"{super().describe()}; on the curve's side {UNDATED_REL_SD:g}, falling by e every "
            f"{UNDATED_LOG_WAF:g} (no onset dates where the floor gives way)"
        )


def floor_edge(central: fitmod.Surrogate) -> FloorEdge | None:
    """The edge of a reserve reading's surrogate ``central`` (``gc_reserve.ReserveSurrogate``);
    None when it fitted no floor; an :class:`UndatedFloorEdge` when the surrogate is marked
    ``undated_edge`` (``reserve_hull.UndatedReserveForm``)."""
    floor = getattr(central, "waf_floor", None)
    if floor is None:
        return None
    curve = getattr(central.curve, "curve", central.curve)  # a CappedCurve's uncapped curve
    kind = UndatedFloorEdge if getattr(central, "undated_edge", False) else FloorEdge
    return kind(central.native_op, central.spare_efficiency, curve, floor)
