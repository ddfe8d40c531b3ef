"""Garbage collection designs that give uniform random writes WAF curves of different shapes.

Under uniform random writes the simulator's greedy and cost-benefit victim choices, with one
write frontier or several, give one WAF curve (docs/calibrate-model.md), so figures were read with
greedy GC alone. Drives built by others do not all collect greedily: MQSim's page-level FTL
chooses victims by RGA, the *randomized greedy algorithm* (of d blocks drawn at random, the one
with the fewest valid pages; Y. Li, P. P. C. Lee, J. C. S. Lui, "Stochastic modeling of
large-scale solid-state storage systems: analysis, design tradeoffs and optimization",
SIGMETRICS 2013), whose WAF lies between random victims (d = 1) and greedy (d → ∞) and falls
more slowly with spare space the smaller d is. Its WAF against the spare ratio is the fixed
point of B. Van Houdt's mean-field model ("A mean field model for a class of garbage
collection algorithms in flash-based solid state drives", SIGMETRICS 2013;
``models.waf_d_choices``).

Uniform figures are therefore read once per design of :data:`UNIFORM_DESIGNS`: greedy and
d-choices with d in a fixed grid (2, 4 and 8: the steps at which the curve parts from greedy's
by about 35%, 12% and 4% at 10% spare, fixed from the model before any foreign figure was
held out; d ≥ 16 is within 1.2% of greedy from 1% of spare up and adds nothing a figure could
tell apart). Each design's curve is Van Houdt's model at b = ``fit.PAGES_PER_BLOCK``,
tabulated once (:data:`TABLE`, ``python -m overprov.calibrate.gc_designs`` rewrites it: each
point costs a tenth of a second) as its ratio to the greedy model, interpolated in log ρ.

A fixed reserve of free blocks kept before collecting (MQSim's threshold is 5% of a plane's blocks)
is not a design of its own here: with a reserve r of the NAND, the spare garbage collection
works with at extra OP x is (1 + ρ₀)(1 − r)/(1 − x) − 1, the same form as a native spare of
(1 + ρ₀)(1 − r) − 1, so a fitted native spare absorbs it exactly. MQSim's reserve is not fixed
(a GC check skipped while 10 collections run is not retried: about 14 blocks a plane are kept
at 0% extra OP, 48 at 10%), which no design here expresses (docs/calibrate-validation.md,
"MQSim's WAF at 10% extra OP").

Under a skewed workload the simulator's own designs part, so its figures are read once per
design of :data:`GC_DESIGNS` (``spare_readings.py``); :data:`DESIGNS` names them all.

Three more designs can be offered beside these, each behind its module's ``OFFERED`` flag
(:data:`OFFERABLE`, all off: their rules were not met): a low mark (``low_mark.py``), batches
(``batch_gc.py``) and FIFO victims (``fifo_gc.py``: Desnoyers' published curve, within 1.04% of
greedy's at 512 pages a block from ρ = 0.1 up, so it moves no Dhara answer; its rule
bench/foreign/results/fifogc/RULE.md, not met: bench/foreign/results/fifogc/verdict.md).
"""

from __future__ import annotations

import json
import sys
from collections import ChainMap
from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from overprov import models
from overprov.calibrate import batch_gc, curve_table, fifo_gc, low_mark
from overprov.calibrate import fit as fitmod

#: The d-choices sample sizes uniform figures are read with (fixed a priori, above).
D_GRID = (2, 4, 8)
#: The designs offered while their module's flag ``OFFERED`` is on, in the order they follow the
#: designs set here (each module has ``NAME``, ``FTL`` and ``named_curve()``).
OFFERABLE = (low_mark, batch_gc, fifo_gc)


class _UniformDesigns(MutableMapping[str, dict[str, Any]]):
    """The uniform designs by name: those set here, then each of :data:`OFFERABLE` (the
    low-mark design, ``low_mark.py``, the batch design, ``batch_gc.py``, then the FIFO design,
    ``fifo_gc.py``) while its flag
    ``OFFERED`` is on: a flag read at each use, so that setting it (bench/foreign/evaluate.py's
    ``--low-mark-reading`` and EVALUATE_FLAGS) offers it."""

    def __init__(self, designs: dict[str, dict[str, Any]]) -> None:
        self._set = designs

    def _all(self) -> dict[str, dict[str, Any]]:
        offered = {m.NAME: dict(m.FTL) for m in OFFERABLE if m.OFFERED}
        return {**self._set, **offered} if offered else self._set

    def __getitem__(self, name: str) -> dict[str, Any]:
        return self._all()[name]

    def __setitem__(self, name: str, ftl: dict[str, Any]) -> None:
        self._set[name] = ftl

    def __delitem__(self, name: str) -> None:
        del self._set[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


#: Design name → ``config.ftl`` keys; the first is the twin's own greedy GC.
UNIFORM_DESIGNS: MutableMapping[str, dict[str, Any]] = _UniformDesigns(
    {
        "greedy": {"policy": "greedy", "host_streams": "single"},
        **{
            f"d-choices-{d}": {"policy": "d-choices", "d_choices": d, "host_streams": "single"}
            for d in D_GRID
        },
    }
)
#: The garbage collection designs a skewed workload's figures are read with (``config.ftl``
#: keys), by name; the first is the twin's own, the one uniform figures are read with.
GC_DESIGNS: dict[str, dict[str, str]] = {
    "greedy": {"policy": "greedy", "host_streams": "single"},
    "greedy-zones": {"policy": "greedy", "host_streams": "workload"},
    "cost-benefit": {"policy": "cost-benefit", "host_streams": "single"},
    "cost-benefit-zones": {"policy": "cost-benefit", "host_streams": "workload"},
}
#: Every design by name: the skewed workloads' and the uniform ones (above).
#: A view: the uniform ones first, as a dict merging them after the skewed ones would look them up.
DESIGNS: Mapping[str, dict[str, Any]] = ChainMap(UNIFORM_DESIGNS, GC_DESIGNS)
TABLE = "gc_design_curves.json"


def ratio_row(d: int) -> list[float]:
    """Van Houdt's d-choices WAF over the greedy model's, at each of ``curve_table.table_rhos``."""
    b = fitmod.PAGES_PER_BLOCK
    return [
        models.waf_d_choices(r, b, d) / models.waf_greedy(r, b) for r in curve_table.table_rhos()
    ]


@lru_cache(maxsize=1)
def _table() -> dict[str, Any]:
    text = resources.files("overprov.calibrate").joinpath(TABLE).read_text()
    return json.loads(text)


@dataclass(frozen=True)
class DChoicesCurve:
    """WAF against ρ of d-choices victims under uniform random writes (callable like
    ``fit.waf_at``)."""

    d: int

    @property
    def description(self) -> str:
        return (
            f"d-choices GC (d = {self.d}) under uniform random writes, Van Houdt's mean-field "
            f"model (b = {fitmod.PAGES_PER_BLOCK})"
        )

    def __call__(self, rho: float) -> float:
        t = _table()
        rho = max(rho, fitmod.RHO_MIN)
        return fitmod.waf_at(rho) * curve_table.ratio_at(rho, t["rho"], t["ratio"][str(self.d)])

    def to_dict(self) -> dict[str, Any]:
        return {"description": self.description, "ftl": UNIFORM_DESIGNS[f"d-choices-{self.d}"]}


def curve(design: str) -> fitmod.WafCurve | None:
    """A uniform design's WAF curve (None for greedy: the fit's own ``fit.waf_at``)."""
    for m in OFFERABLE:
        if design == m.NAME:
            return m.named_curve()
    ftl = UNIFORM_DESIGNS[design]
    return DChoicesCurve(int(ftl["d_choices"])) if ftl["policy"] == "d-choices" else None


def waf_curve(design: str) -> fitmod.WafCurve:
    """A design's WAF curve: :func:`curve`'s, greedy's the fit's own ``fit.waf_at``."""
    return curve(design) or fitmod.waf_at


def main() -> Path:
    """Rewrite :data:`TABLE` from the model (run from a source checkout); its path."""
    doc = {
        "what": "Van Houdt's mean-field d-choices WAF over the greedy model's (models.py), "
        f"b = {fitmod.PAGES_PER_BLOCK}, uniform random writes",
        "rho": curve_table.table_rhos(),
        "ratio": {str(d): ratio_row(d) for d in D_GRID},
    }
    return curve_table.write_table(doc, TABLE)


if __name__ == "__main__":
    print(f"wrote {main()}", file=sys.stderr)
