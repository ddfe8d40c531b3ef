"""Page addresses of a skewed write workload for a foreign FTL's trace, by the corpus's definitions.

The workloads are SSD-iq's (Haas, Lee, Bonnet, Leis, "SSD-iq: Uncovering the Hidden Side of SSD
Performance", PVLDB 2025; its iob tool), named and given as bench/corpus_workload_runs.py names
and gives them (``workload_label``, ``overprov_workload``): iob's ``uniform``;
``zipf-shuffle θ``, Zipf(θ) ranks over the span's pages in a random order (rank k, counted from
1, is written with probability ∝ k^−θ); ``zones-shuffle "sA fA sB fB ..."``, zones holding the
share sA of the span's pages and taking the share fA of the writes, uniform inside a zone, the
zones' pages scattered over the span in a random order ("zones-ro S" when one zone takes no
write: its pages are written by the fill only). ``--pattern``/``--details`` of a driver are iob's
words; the workload is carried as ``overprov simulate``'s dict (corpus_workload_runs'
``overprov_workload``) so that the twin runs the same definition.

:func:`sampler` returns a function drawing ``n`` page numbers in ``0 .. span - 1`` (numpy,
seeded): the order of the pages is one random permutation of the span for the whole run, drawn
before any write, as iob's ``shuffle`` does. Uniform pages are drawn by Python's ``random``
(``randrange``), as the drivers drew them before this module: a seed gives the same trace.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

Sampler = Callable[[int], np.ndarray]


def zipf_cdf(span: int, theta: float) -> np.ndarray:
    """The cumulative probability of ranks 1..span under Zipf(θ) (θ = 0: uniform)."""
    if span < 1 or theta < 0:
        raise ValueError(f"zipf over {span} pages with θ {theta}: needs span ≥ 1 and θ ≥ 0")
    w = np.arange(1, span + 1, dtype=np.float64) ** -theta
    cdf = np.cumsum(w)
    return cdf / cdf[-1]


def zone_bounds(span: int, zones: list[dict[str, float]]) -> list[tuple[int, int, float]]:
    """(first slot, end slot, write share) of each zone over ``span`` slots: a zone's end is its
    cumulative space share of the span, rounded, the last zone's the span (as the core's
    ``zone_ranges`` in crates/overprov-sim/src/workload/mod.rs)."""
    out, start, space = [], 0, 0.0
    total = sum(z["access_percent"] for z in zones)
    if not zones or total <= 0:
        raise ValueError(f"zones {zones!r}: need at least one zone that takes writes")
    for i, z in enumerate(zones):
        space += z["space_percent"] / 100.0
        end = span if i + 1 == len(zones) else round(space * span)
        if end <= start:
            raise ValueError(f"zone {i} of {zones!r} holds no page of the {span}-page span")
        out.append((start, end, z["access_percent"] / total))
        start = end
    return out


def sampler(workload: dict[str, Any], span: int, seed: int, shuffle: bool = True) -> Sampler:
    """A function drawing ``n`` pages of the span under ``workload`` (``overprov simulate``'s
    dict: pattern uniform, zipf with ``zipf_theta``, zoned with ``zones``). ``shuffle`` False:
    rank k is page k - 1 and the zones lie in the span in their order, as iob's ``zipf`` and
    ``zones`` (and the core's zoned pattern) lay them."""
    pattern = workload.get("pattern", "uniform")
    if pattern == "uniform":  # Python's random, as the drivers' uniform runs always drew them
        r = random.Random(seed)
        return lambda n: np.fromiter((r.randrange(span) for _ in range(n)), np.int64, n)
    rng = np.random.default_rng(seed)
    order = rng.permutation(span) if shuffle else np.arange(span)  # slot -> page
    if pattern == "zipf":
        cdf = zipf_cdf(span, float(workload["zipf_theta"]))

        def zipf(n: int) -> np.ndarray:
            slots = np.searchsorted(cdf, rng.random(n), side="right")
            return order[np.minimum(slots, span - 1)]

        return zipf
    if pattern == "zoned":
        bounds = [b for b in zone_bounds(span, workload["zones"]) if b[2] > 0]
        starts = np.array([b[0] for b in bounds])
        lengths = np.array([b[1] - b[0] for b in bounds])
        shares = np.array([b[2] for b in bounds])

        def zoned(n: int) -> np.ndarray:
            which = rng.choice(len(bounds), size=n, p=shares)
            slots = starts[which] + (rng.random(n) * lengths[which]).astype(np.int64)
            return order[slots]

        return zoned
    raise ValueError(f"workload pattern {pattern!r}: uniform, zipf or zoned")
