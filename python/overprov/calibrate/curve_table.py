"""A GC design's WAF curve under uniform random writes, tabulated as its ratio to the greedy
model (``fit.waf_at``) at fixed spare ratios and read between them in log ρ, and the curve with
the description and ``to_dict`` a design's curve carries.

The d-choices designs (``gc_designs.py``), the batch design (``batch_gc.py``) and the low-mark
design (``low_mark.py``) each keep a table of this form beside this module; each module's
``main`` rewrites its own. Kept apart from ``gc_designs.py`` so that it can import the designs
it offers without a cycle.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from overprov import outputs
from overprov.calibrate import fit as fitmod

TABLE_POINTS = 41


def table_rhos() -> list[float]:
    lo, hi = fitmod.RHO_MIN, fitmod.RHO_MAX
    return [lo * (hi / lo) ** (i / (TABLE_POINTS - 1)) for i in range(TABLE_POINTS)]


def ratio_at(rho: float, rhos: list[float], ratios: list[float]) -> float:
    """A tabulated ratio to the greedy model at ``rho``: linear in log ρ between the table's
    spares ``rhos`` (increasing), its first or last ratio outside them."""
    if rho <= rhos[0]:
        return ratios[0]
    if rho >= rhos[-1]:
        return ratios[-1]
    i = bisect.bisect_right(rhos, rho)
    a, b = math.log(rhos[i - 1]), math.log(rhos[i])
    f = (math.log(rho) - a) / (b - a)
    return (1 - f) * ratios[i - 1] + f * ratios[i]


@dataclass(frozen=True, eq=False)
class NamedCurve:
    """A design's WAF curve as a function of ρ (``waf``), with the description and ``to_dict``
    a design's curve carries (``batch_gc.py``'s, ``low_mark.py``'s)."""

    description: str
    ftl: dict[str, Any]
    waf: fitmod.WafCurve

    def __call__(self, rho: float) -> float:
        return self.waf(rho)

    def to_dict(self) -> dict[str, Any]:
        return {"description": self.description, "ftl": dict(self.ftl)}


def write_table(doc: dict[str, Any], name: str) -> Path:
    """Write a tabulated curve beside this module (run from a source checkout); its path."""
    path = Path(__file__).with_name(name)
    outputs.write_json(doc, path)
    return path


def write_ratio_table(name: str, what: str, ratio_of: fitmod.WafCurve, **keys: Any) -> Path:
    """Write a design's table beside this module: its ratio to the greedy model at each of
    :func:`table_rhos` (``ratio_of``: a ratio, or None where it has none), ``what`` it is and
    ``keys`` (its settings); its path."""
    rhos = table_rhos()
    doc = {"what": what, **keys, "rho": rhos, "ratio": [ratio_of(r) for r in rhos]}
    return write_table(doc, name)
