"""The blocking-GC reading of IOPS figures: a twin whose garbage collection is non-preemptive.

The analytic surrogate (``fit.py``) reads IOPS as ``1/IOPS = t_cmd + WAF·t_page``: every unit
written costs the same NAND time wherever it goes. Drives whose garbage collection runs per GC
domain and stalls the host writes to that domain (MQSim's non-preemptive GC, per plane, with
no write cache) do not follow it: collections run on fewer NAND units than host writes do, so
IOPS fall faster than 1/WAF, and blocked writes hold queue slots, so IOPS change with queue
depth at the same WAF.

This reading simulates that mechanism in the core (``[timing.gc] blocking = "domain"``,
docs/simulator.md) on a small twin held in memory: :data:`DIES` dies of
:data:`UNITS_PER_FLASH_PAGE` mapping units per flash page, no write buffer (host writes wait
for their program), ``domains`` GC domains — collections run one at a time per domain, so with
``domains`` < :data:`DIES` garbage collection has fewer parallel units than host writes. The
unknowns are the domain count (a grid, :data:`DOMAINS`), the die count when IOPS figures at a
second queue depth identify it (:data:`DIES_GRID`, domains up to the dies; at one queue depth
the program time absorbs it and :data:`DIES` is kept) with the planes per die (multi-plane
host programs, ``timing.nand.planes_per_die``: :data:`PLANES_GRID`, the same condition; a
die's planes combine the host writes waiting for it, and with :data:`GC_MULTIPLANE` also GC
relocations, ``timing.gc.multiplane``) and the program time (one scale: every
NAND time is a fixed share of it, so the twin's IOPS scale exactly as 1/program time and the
scale is fitted in closed form on log IOPS). The spare space is the analytic fit's (pinned by
WAF figures when given). The FOB figure is the twin's die-bound rate without GC,
``min(QD, dies · planes) · units per page / program time``.

Its evidence (``evidence.py``'s rule): χ² of its residuals at the fitted figures (IOPS, FOB, and
its WAF at the WAF figures, the same figures and noise the analytic reading is scored on) plus,
for each steady figure, its error when predicted from the others (the program time refitted
without it); a figure at another queue depth counts as a steady one. A reading whose
residuals exceed their noise (``evidence.reproduces``, with :data:`N_PARAMETERS` fitted, one
more when the dies are) gets no weight when the analytic reading reproduces them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from overprov import engine, sweep
from overprov.calibrate import batch_gc, evidence
from overprov.calibrate import fit as fitmod

#: The twin's parallel units (dies) when the figures are at one queue depth: they do not
#: identify it (at one queue depth the program time absorbs it).
DIES = 8
#: Parallel units tried when the figures hold a second queue depth (``Point.queue_depth``):
#: below the queue depth the dies bound how many writes run at once, so the IOPS' change with
#: queue depth identifies them.
DIES_GRID = (1, 2, 4, 8)
UNITS_PER_FLASH_PAGE = 4
PAGE_BYTES = 4096
PAGES_PER_BLOCK = 256
#: The twin's size: 1 GiB advertised simulates in about a second per level.
USER_PAGES = 1 << 18
#: GC domains tried: collections on 1 to 8 of the dies (or planes) at once (at most the dies
#: times the planes).
DOMAINS = (1, 2, 3, 4, 6, 8)
#: Planes per die tried when the figures hold a second queue depth (the core's multi-plane
#: programs, ``timing.nand.planes_per_die``: a die programs up to that many waiting host units
#: in one program time, so IOPS grow with queue depth up to dies × planes where host programs
#: dominate and not where GC does), the dies × planes up to :data:`MAX_PARALLEL_UNITS`. One
#: plane only: the grid (1, 2), fixed from the mechanism before evaluation, chose the same
#: single-plane twins on MQSim's figures (docs/calibrate-validation.md, "Multi-plane
#: programs"), and the plan's figures do not tell 2 planes from 2 dies, so two planes would
#: cost twins and buy nothing. At one queue depth planes are not identified either and 1 is kept.
PLANES_GRID: tuple[int, ...] = (1,)
#: Whether the twins of more than one plane per die let GC relocations take part in their
#: multi-plane programs (``timing.gc.multiplane``: a collection's programs take host units of
#: other domains and relocations of other collections on their free planes, as MQSim's
#: scheduler pairs them); False: only waiting host units combine. Evaluated with PLANES_GRID
#: (1, 2) under a pre-registered rule and not adopted: the fit kept single-plane twins on the
#: patched MQSim curve (docs/calibrate-validation.md, "GC relocations in multi-plane programs").
GC_MULTIPLANE = False
#: With :data:`GC_MULTIPLANE`: 0 lets a unit take any free plane of a program; N > 0 pairs
#: units only at one page offset among N (``timing.gc.multiplane_offsets``, MQSim's rule: host
#: units placed on planes by address, each plane's offsets on counters of its own), so pairing
#: needs many waiting writes. Evaluated with 32 (MQSim's pages per block) under a
#: pre-registered rule and not adopted: on the patched MQSim curve held-out IOPS medians of
#: 7.5%, 4.8% and 10.1% (the rule: 10%), on the recorded curve 10–14 points worse
#: (docs/calibrate-validation.md, "Pairing at one page offset").
GC_MULTIPLANE_OFFSETS = 0
#: Which GC domain runs a collection the twin's FTL starts (``timing.gc.trigger``): "victim"
#: (the victim block's: the collections of one trigger, about WAF of them, are spread over the
#: domains) or "writer" (the triggering host unit's: they stay on one domain, one after
#: another, as MQSim collects on the plane whose frontier block a write filled).
GC_TRIGGER = "victim"
#: The twin's parallel program units (dies × planes) at most: the die grid's top.
MAX_PARALLEL_UNITS = 8
#: Whether the die grid reaches past :data:`MAX_PARALLEL_UNITS` (many-unit drives: a queue of
#: 32 keeping 16 to 64 dies busy) when a second queue depth identifies the dies; off by default
#: (bench/results/blockdies/RULE.md). With it, :data:`WIDE_DIES` are tried one after another,
#: each only while the best cell so far has the most dies tried (the grid's top), and only when
#: the figures gain more from queue depth than :data:`MAX_PARALLEL_UNITS` units can without GC
#: (:func:`needs_wide_grid`): a fit that chose fewer dies, or figures 8 units explain, keep
#: the grid above and its answer. Evaluated under a pre-registered rule and not adopted: on
#: fresh many-unit drives the IOPS-only answers stayed 34–41% off at the median, and two FEMU
#: drives lost 5–6 points at worst (docs/calibrate-validation.md, "The blocking-GC reading's
#: die grid past 8").
WIDE_DIE_GRID = False
#: Die counts past :data:`MAX_PARALLEL_UNITS` the wide grid tries (one plane each), their GC
#: domains :data:`DOMAINS` and those of these counts up to the dies (a 64-die twin collects
#: on 1 to 64 domains: many-unit drives collect per die or per line, not on 8 units).
WIDE_DIES = (16, 32, 64)
#: The nominal program time the twin is simulated at (per flash page); the fit scales it.
NOMINAL_PROGRAM_US = 700.0
#: Read time as a share of program time (tR/tPROG of the core's default NAND: 60/700).
READ_SHARE = 60.0 / 700.0
WARMUP_DRIVE_WRITES = 2.0
MEASURED_DRIVE_WRITES = 1.5
SEED = 1
#: Fitted parameters: the domain count and the program time (the spare is the analytic fit's);
#: the die count too when a second queue depth identifies it.
N_PARAMETERS = 2


def timing(
    domains: int, program_us: float, queue_depth: int, dies: int = DIES, planes: int = 1,
    gc_multiplane: bool = False, multiplane_offsets: int = 0, gc_trigger: str = "victim",
) -> dict[str, Any]:  # fmt: skip
    """The twin's ``[timing]``: no buffer, no controller cost, non-preemptive GC; multi-plane
    host programs with ``planes`` > 1 (the key is left out at 1: the single-plane twin), GC
    relocations in them too with ``gc_multiplane``, at one page offset among
    ``multiplane_offsets`` when above 0; collections on the triggering write's domain with
    ``gc_trigger`` "writer" (the key is left out for "victim")."""
    nand: dict[str, Any] = {
        "channels": dies,
        "dies_per_channel": 1,
        "flash_page_bytes": PAGE_BYTES * UNITS_PER_FLASH_PAGE,
        "read_us": program_us * READ_SHARE,
        "program_us": program_us,
        "erase_us": 1.0,
        "die_block_bytes": PAGE_BYTES * PAGES_PER_BLOCK,
        "channel_mb_s": 1e6,
    }
    gc: dict[str, Any] = {"blocking": "domain", "domains": domains}
    if gc_trigger != "victim":
        gc["trigger"] = gc_trigger
    if planes > 1:
        nand["planes_per_die"] = planes
        if gc_multiplane:
            gc["multiplane"] = True
            if multiplane_offsets:
                gc["multiplane_offsets"] = multiplane_offsets
    return {
        "enabled": True,
        "host": {"queue_depth": queue_depth, "command_overhead_us": 0.0, "link_mb_s": 1e6},
        "nand": nand,
        "buffer": {"bytes": 0, "power_loss_protected": False},
        "gc": gc,
        "state_round_drive_writes": 0.1,
    }


def _physical_bytes(native_op: float) -> int:
    """The NAND bytes of :func:`config`'s drive."""
    return int(round(USER_PAGES * PAGE_BYTES * (1.0 + native_op)))


def _physical_blocks(native_op: float) -> int:
    """The erase blocks of :func:`config`'s drive (a batch share's count: ``batch_gc.resolve``)."""
    return _physical_bytes(native_op) // (PAGE_BYTES * PAGES_PER_BLOCK)


def config(
    native_op: float,
    extra_op_percent: float,
    domains: int,
    program_us: float,
    queue_depth: int,
    dies: int = DIES,
    ftl: dict[str, Any] | None = None,
    planes: int = 1,
    gc_multiplane: bool = False,
    multiplane_offsets: int = 0,
    gc_trigger: str = "victim",
) -> dict[str, Any]:
    """``ftl``: the reading's GC victim choice (``config.ftl`` keys; None: greedy)."""
    return engine.merge(
        engine.default_config(),
        {
            "ftl": batch_gc.resolve(dict(ftl or {}), _physical_blocks(native_op)),
            "geometry": {
                "page_size_bytes": PAGE_BYTES,
                "pages_per_block": PAGES_PER_BLOCK,
                "advertised_bytes": USER_PAGES * PAGE_BYTES,
                "physical_bytes": _physical_bytes(native_op),
                "extra_op_percent": extra_op_percent,
            },
            "run": {
                "warmup_drive_writes": WARMUP_DRIVE_WRITES,
                "drive_writes": MEASURED_DRIVE_WRITES,
                "seed": SEED,
            },
            "timing": timing(
                domains,
                program_us,
                queue_depth,
                dies,
                planes,
                gc_multiplane,
                multiplane_offsets,
                gc_trigger,
            ),  # fmt: skip
        },
    )


def _figures(report: dict[str, Any]) -> tuple[float, float | None]:
    """(steady IOPS, WAF) of a twin run: the measured part's (after the warm-up)."""
    timed = report.get("timed") or {}
    iops = (timed.get("measured") or {}).get("iops")
    if not iops:
        raise ValueError("blocking-GC twin: the timed run measured no IOPS")
    return float(iops), (report.get("measured") or {}).get("waf")


#: One twin run: (dies, planes per die, domains, simulated extra-OP level, queue depth).
Run = tuple[int, int, int, float, int]


def simulate_runs(
    native_op: float, keys: list[Run], program_us: float = NOMINAL_PROGRAM_US,
    jobs: int | None = None,
    ftl: dict[str, Any] | None = None,
    gc_multiplane: bool | None = None,
    multiplane_offsets: int | None = None,
    gc_trigger: str | None = None,
    progress: bool = False,
) -> dict[Run, tuple[float, float | None]]:  # fmt: skip
    """(IOPS, WAF) of the twin per run, all runs through ``sweep`` (``progress``: on stderr);
    ``gc_multiplane`` and ``multiplane_offsets`` (None: :data:`GC_MULTIPLANE`,
    :data:`GC_MULTIPLANE_OFFSETS`) for the runs of more than one plane; ``gc_trigger`` (None:
    :data:`GC_TRIGGER`) for every run."""
    keys = list(dict.fromkeys(keys))
    gc_mp = GC_MULTIPLANE if gc_multiplane is None else gc_multiplane
    offsets = GC_MULTIPLANE_OFFSETS if multiplane_offsets is None else multiplane_offsets
    trigger = GC_TRIGGER if gc_trigger is None else gc_trigger
    configs = [config(native_op, x, d, program_us, qd, n, ftl, pl, gc_mp, offsets, trigger)
               for n, pl, d, x, qd in keys]  # fmt: skip
    reports = sweep.run_points(configs, jobs=jobs, label="blocking-GC twin", progress=progress)
    if reports.interrupted:
        raise KeyboardInterrupt
    return {k: _figures(r) for k, r in zip(keys, reports, strict=True)}


def fob_iops(program_us: float, queue_depth: int, dies: int = DIES, planes: int = 1) -> float:
    """The twin's rate without garbage collection (every die's planes programming host
    units)."""
    return 1e6 * min(queue_depth, dies * planes) * UNITS_PER_FLASH_PAGE / program_us


#: A grid cell: (dies, planes per die, domains).
Cell = tuple[int, int, int]


def grid(identified: bool) -> list[Cell]:
    """(dies, planes, domains) tried: when a second queue depth identifies them, the die grid
    × :data:`PLANES_GRID` (dies × planes up to :data:`MAX_PARALLEL_UNITS`) × domains up to the
    dies × planes; else :data:`DIES`, one plane, × :data:`DOMAINS`."""
    if not identified:
        return [(DIES, 1, d) for d in DOMAINS if d <= DIES]
    return [(n, pl, d) for pl in PLANES_GRID for n in DIES_GRID if n * pl <= MAX_PARALLEL_UNITS
            for d in DOMAINS if d <= n * pl]  # fmt: skip


def wide_cells(dies: int) -> list[Cell]:
    """The wide grid's cells of ``dies`` dies (:data:`WIDE_DIES`): one plane, domains
    :data:`DOMAINS` and :data:`WIDE_DIES` up to the dies."""
    return [(dies, 1, d) for d in sorted({*DOMAINS, *WIDE_DIES}) if d <= dies]


def needs_wide_grid(pairs: list[tuple[float, int, float, int]]) -> bool:
    """Whether IOPS figures at two queue depths at one level, ``(iops, qd, iops, qd)`` each, gain
    more from the higher queue depth than :data:`MAX_PARALLEL_UNITS` units can without GC
    (``min(qd, units)`` writes at once): only then can more dies be what the figures need."""
    for a, qa, b, qb in pairs:
        (lo, qlo), (hi, qhi) = sorted([(a, qa), (b, qb)], key=lambda t: t[1])
        if qlo == qhi or lo <= 0:
            continue
        bound = min(qhi, MAX_PARALLEL_UNITS) / min(qlo, MAX_PARALLEL_UNITS)
        if hi / lo > bound:
            return True
    return False


@dataclass
class BlockingReading:
    domains: int
    program_us: float
    chi2: float
    queue_depth: int
    native_op: float
    candidates: list[dict[str, Any]] = field(default_factory=list)
    residuals: list[dict[str, Any]] = field(default_factory=list)
    residual_chi2: float = 0.0
    """χ² of the residuals at the fitted figures alone (``evidence.reproduces``)."""
    dies: int = DIES
    dies_identified: bool = False
    """Whether figures at a second queue depth chose ``dies`` (else it is :data:`DIES`)."""
    ftl: dict[str, Any] | None = None
    """The GC victim choice of the reading the twin belongs to (None: greedy)."""
    planes: int = 1
    """Planes per die (multi-plane host programs), fitted with the dies."""
    gc_multiplane: bool = False
    """Whether its multi-plane programs take GC relocations too (``timing.gc.multiplane``)."""
    multiplane_offsets: int = 0
    """Page offsets per block when units pair only at one offset (0: any free plane)."""
    gc_trigger: str = "victim"
    """Which domain runs a collection: the victim's or the triggering write's (``"writer"``)."""

    def n_parameters(self) -> int:
        # a second queue depth fits the dies, and the planes when the grid holds several
        return N_PARAMETERS + self.dies_identified * (1 + (len(PLANES_GRID) > 1))

    def reproduces(self) -> bool:
        """Whether the fitted twin reproduces its figures within their noise."""
        return evidence.reproduces(self.residual_chi2, len(self.residuals), self.n_parameters())

    def evidence(self) -> dict[str, Any]:
        """Its residuals and fitted parameters as ``evidence.weights`` takes a reading's."""
        return {"residuals": self.residuals, "n_parameters": self.n_parameters()}

    def twin_timing(self) -> dict[str, Any]:
        return timing(self.domains, self.program_us, self.queue_depth, self.dies, self.planes,
                      self.gc_multiplane, self.multiplane_offsets, self.gc_trigger)  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        return {
            "mechanism": "non-preemptive GC per domain, no write buffer ([timing.gc] blocking)",
            "dies": self.dies,
            "planes_per_die": self.planes,
            "gc_multiplane": self.gc_multiplane and self.planes > 1,
            "multiplane_offsets": self.multiplane_offsets if self.planes > 1 else 0,
            "gc_trigger": self.gc_trigger,
            "dies_identified": self.dies_identified,
            "parallelism": (
                "fitted: figures at a second queue depth chose the dies and planes"
                if self.dies_identified
                else f"not identified: figures at one queue depth, {DIES} dies of one plane assumed"
            ),
            "domains": self.domains,
            "program_us": self.program_us,
            "read_us": self.program_us * READ_SHARE,
            "queue_depth": self.queue_depth,
            "native_op": self.native_op,
            **({"ftl": dict(self.ftl)} if self.ftl else {}),
            "chi2": self.chi2,
            "residual_chi2": self.residual_chi2,
            "reproduces_fitted_figures": self.reproduces(),
            "candidates": self.candidates,
            "residuals": self.residuals,
        }


def _sd(p: fitmod.Point) -> float:
    return max(p.iops_rel_sd, fitmod.MIN_REL_SD)


def _log_scale(pairs: list[tuple[float, fitmod.Point]]) -> float:
    """ln(program time / nominal) minimising Σ (ln(model/figure)/σ)² (model ∝ 1/time)."""
    ws = [1.0 / _sd(p) ** 2 for _, p in pairs]
    num = sum(w * math.log(m / p.iops) for (m, p), w in zip(pairs, ws, strict=True))  # type: ignore[operator]
    return num / sum(ws)


def fits(points: list[fitmod.Point], queue_depth: int = fitmod.WORKLOAD_QD) -> bool:
    """Whether :func:`fit` fits (and simulates) the reading to these figures: three IOPS
    figures at least, one steady at the workload's queue depth."""
    iops = [p for p in points if p.iops]
    steady = [p for p in iops if not p.fresh and (p.queue_depth or queue_depth) == queue_depth]
    # two figures fix the domains and the program time exactly: nothing would be left to
    # test the reading against, and the analytic reading fits two figures as well
    return bool(steady) and len(iops) >= 3


def _score(
    cell: Cell,
    sims: dict[Run, tuple[float, float | None]],
    steady: list[fitmod.Point],
    other: list[fitmod.Point],
    fresh: list[fitmod.Point],
    *,
    queue_depth: int,
    qd_of: Callable[[fitmod.Point], int],
    level_of: Callable[[float], float],
    model_rel_sd: float,
) -> tuple[float, float, float, list[dict[str, Any]]]:
    """One grid cell's (χ², χ² of the residuals alone, fitted program time, residuals)."""
    n, pl, d = cell

    def model0(p: fitmod.Point) -> float:
        if p.fresh:
            return fob_iops(NOMINAL_PROGRAM_US, queue_depth, n, pl)
        return sims[(n, pl, d, level_of(p.extra_op_percent), qd_of(p))][0]

    figs = [(model0(p), p) for p in steady + other + fresh]
    s = _log_scale(figs)
    chi2 = 0.0
    residuals = []
    for m, p in figs:
        e = math.log(m / p.iops) - s  # type: ignore[operator]
        chi2 += (e / _sd(p)) ** 2
        residuals.append({"extra_op_percent": p.extra_op_percent, "figure": "iops",
                          "fresh": p.fresh, "queue_depth": qd_of(p),
                          "log_error": e, "rel_sd": _sd(p)})  # fmt: skip
    for p in steady:  # its WAF at the WAF figures: scored on the analytic reading's figures
        waf = sims[(n, pl, d, level_of(p.extra_op_percent), queue_depth)][1]
        if p.waf is not None and waf:
            e = math.log(waf / p.waf)
            chi2 += (e / max(p.waf_rel_sd, fitmod.MIN_REL_SD)) ** 2
            residuals.append({"extra_op_percent": p.extra_op_percent, "figure": "waf",
                              "fresh": False, "queue_depth": queue_depth, "log_error": e,
                              "rel_sd": max(p.waf_rel_sd, fitmod.MIN_REL_SD)})  # fmt: skip
    residual_chi2 = chi2
    if len(figs) >= 3:  # each steady figure predicted from the others
        for i, (m, p) in enumerate(figs):
            if p.fresh:
                continue
            rest = figs[:i] + figs[i + 1 :]
            e = math.log(m / p.iops) - _log_scale(rest)  # type: ignore[operator]
            chi2 += (e / math.hypot(_sd(p), model_rel_sd)) ** 2
    return chi2, residual_chi2, NOMINAL_PROGRAM_US * math.exp(s), residuals


def fit(
    points: list[fitmod.Point],
    native_op: float,
    *,
    queue_depth: int = fitmod.WORKLOAD_QD,
    level_of: Callable[[float], float] = lambda x: x,
    model_rel_sd: float = 0.0,
    jobs: int | None = None,
    ftl: dict[str, Any] | None = None,
    progress: bool = False,
) -> BlockingReading | None:
    """The reading fitted to the IOPS figures (steady, FOB, and steady ones at another queue
    depth: ``Point.queue_depth``, which identify the dies); None with fewer than three (one
    steady at the workload's queue depth at least)."""

    def qd_of(p: fitmod.Point) -> int:
        return p.queue_depth or queue_depth

    steady = [p for p in points if p.iops and not p.fresh and qd_of(p) == queue_depth]
    other = [p for p in points if p.iops and not p.fresh and qd_of(p) != queue_depth]
    fresh = [p for p in points if p.iops and p.fresh]
    if not fits(points, queue_depth):
        return None
    identified = bool(other)
    cells = grid(identified)
    sims: dict[Run, tuple[float, float | None]] = {}

    def simulate(cells: list[Cell]) -> None:
        runs = [(n, pl, d, level_of(p.extra_op_percent), qd_of(p)) for n, pl, d in cells
                for p in steady + other]  # fmt: skip
        sims.update(simulate_runs(native_op, runs, jobs=jobs, ftl=ftl, progress=progress))

    simulate(cells)
    best: BlockingReading | None = None
    candidates: list[dict[str, Any]] = []

    def score(cells: list[Cell]) -> None:
        nonlocal best
        for n, pl, d in cells:
            chi2, residual_chi2, program_us, residuals = _score(
                (n, pl, d), sims, steady, other, fresh, queue_depth=queue_depth,
                qd_of=qd_of, level_of=level_of, model_rel_sd=model_rel_sd,
            )  # fmt: skip
            candidates.append({"dies": n, "planes_per_die": pl, "domains": d,
                               "program_us": program_us, "chi2": chi2,
                               "residual_chi2": residual_chi2})  # fmt: skip
            if best is None or chi2 < best.chi2:
                best = BlockingReading(d, program_us, chi2, queue_depth, native_op,
                                       residuals=residuals, residual_chi2=residual_chi2, dies=n,
                                       dies_identified=identified, ftl=ftl, planes=pl,
                                       gc_multiplane=GC_MULTIPLANE and pl > 1,
                                       multiplane_offsets=GC_MULTIPLANE_OFFSETS,
                                       gc_trigger=GC_TRIGGER)  # fmt: skip

    score(cells)
    pairs = [(p.iops, qd_of(p), q.iops, queue_depth) for p in other for q in steady
             if q.extra_op_percent == p.extra_op_percent]  # fmt: skip
    if WIDE_DIE_GRID and identified and needs_wide_grid(pairs):  # type: ignore[arg-type]
        for n in WIDE_DIES:  # grown while the best cell has the most dies tried
            assert best is not None
            if best.dies * best.planes < max(c[0] * c[1] for c in cells):
                break
            more = wide_cells(n)
            simulate(more)
            score(more)
            cells = cells + more
    assert best is not None
    best.candidates = candidates
    return best


def predict(
    r: BlockingReading,
    levels: list[float],
    *,
    queue_depth: int | None = None,
    level_of: Callable[[float], float] = lambda x: x,
    jobs: int | None = None,
    progress: bool = False,
) -> dict[float, tuple[float, float | None]]:
    """(IOPS, WAF) of the fitted twin at ``levels`` (at its own queue depth unless given)."""
    qd = queue_depth or r.queue_depth
    runs = [(r.dies, r.planes, r.domains, level_of(x), qd) for x in levels]
    sims = simulate_runs(r.native_op, runs, program_us=r.program_us, jobs=jobs, ftl=r.ftl,
                         gc_multiplane=r.gc_multiplane,
                         multiplane_offsets=r.multiplane_offsets,
                         gc_trigger=r.gc_trigger, progress=progress)  # fmt: skip
    return {x: sims[(r.dies, r.planes, r.domains, level_of(x), qd)] for x in levels}
