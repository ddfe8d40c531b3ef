"""From points to a :class:`~overprov.calibrate.prediction.Prediction`: one reading of them.

A :class:`TwinReading` is one way of reading the points (how the drive uses its spare × which
garbage collection it runs, ``spare_readings.py``); :func:`read` predicts one reading: fit the
surrogate (``fit.py``) and its interval (``uncertainty.py``), build the twin (``twin.py``, held in
memory) and refine it until it reproduces the measured IOPS, simulate it at every level
(:meth:`TwinReading.simulate`), state the figures with their interval. Steady IOPS, WAF and p99
come from *simulating the twin* (the surrogate's IOPS beside, ``surrogate_iops``). WAF points
alone: WAF from the twin simulated WAF-only (``--waf-points``), else from the surrogate. Typed
figures may name their workload (``workload_curve.py``, ``twin_runs.py``). Nothing is written.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from overprov import engine
from overprov.calibrate import (
    blocking_reading,
    erase_reading,
    evidence,
    own_erase_residual,
    own_residual,
    twin_runs,
    uncertainty,
    waf_refinement,
    workload_curve,
)
from overprov.calibrate import burst_cycle as cyclemod
from overprov.calibrate import closed_loop as loopmod
from overprov.calibrate import fit as fitmod
from overprov.calibrate import twin as twinmod
from overprov.calibrate import waf_drift as driftmod
from overprov.calibrate import write_buffer as buffermod
from overprov.calibrate.gc_reserve import no_bootstrap
from overprov.calibrate.prediction import (
    EFFECTIVE,
    RAW,
    RESERVE,
    PredictedLevel,
    Prediction,
    measurement_summary,
    reading_key,
    recommendation,
)
from overprov.calibrate.twin import TwinConfigError
from overprov.errors import ConfigError
from overprov.measurement_file import Level, Measurement
from overprov.workload_options import describe_overrides, flags_text

#: A twin whose size nobody gave (figures from a datasheet): 1 TB. Every figure the twin
#: predicts is scale-free (simulated at a small scale anyway); only twin.toml shows the size.
DEFAULT_ADVERTISED_BYTES = 1_000_000_000_000
#: The smallest twin: blocks enough for GC (a 32 MiB loop device gives 16); figures size-free.
MIN_TWIN_BYTES = 4 * 2**30
TWIN = "twin.toml"
RAW_TWIN = "twin-raw-nand.toml"


def points_from(m: Measurement) -> list[fitmod.Point]:
    """The fit's points from a measurement: each level's steady IOPS and WAF (``burst_cycle``)."""
    return [
        fitmod.Point(
            extra_op_percent=lv.extra_op_percent,
            iops=lv.steady_iops,
            iops_rel_sd=max(lv.iops_rel_sd, fitmod.MIN_REL_SD),
            waf=lv.waf,
            waf_rel_sd=driftmod.waf_rel_sd(m, lv),
            queue_depth=lv.queue_depth,
        )
        for lv in cyclemod.levels_read(m)
    ]


@dataclass
class PredictionInput:
    """What calibrate fits and what it is asked: the one input of a prediction, whether the
    points were measured now (TARGET), read from a folder (``--from``) or typed (``--points``,
    ``--waf-points``)."""

    points: list[fitmod.Point]
    levels: list[float]
    """The extra-OP levels to predict, in %."""
    typed: bool = False
    """Figures typed by the user: steady figures of a drive at one OP each, so every level is
    its own simulation (``twin_runs``) and every reading they allow is made
    (``spare_readings``); otherwise a target's points, the twin swept as the target was."""
    fob_iops: float | None = None
    raw_native_op: float | None = None
    """The raw NAND's spare (``--physical`` over ``--advertised``); None: not given."""
    advertised_bytes: int | None = None
    target_iops: float | None = None
    measurement: Measurement | None = None
    source: str = ""
    workload: dict[str, Any] | None = None
    """The workload of the figures (``workload_options`` overrides; None: uniform random)."""
    jobs: int | None = None
    progress: bool = False
    """Say on stderr what is simulated (``twin_runs.say``; each sweep's bar, ``sweep``)."""
    bootstrap_samples: int = 100
    model_form: uncertainty.ModelForm | None = None
    """The model-form error the interval is widened by (None: the recorded one)."""
    other_qd_points: list[fitmod.Point] = dataclasses.field(default_factory=list)
    """IOPS figures at another queue depth than the workload's (those among ``points`` are
    moved here): only the blocking-GC reading fits them (``gc_blocking``)."""
    runs: twin_runs.Runs = dataclasses.field(default_factory=dict, repr=False, compare=False)
    """Typed figures: the twins' levels run so far, by config (``twin_runs.simulate_levels``)."""
    metadata_factor: float = 1.0
    """The metadata factor the WAF figures among ``points`` were divided by
    (``metadata_factor.read``; 1: none applied): ``reserve_hull.FACTOR_READS_FLOOR`` reads it."""
    left_to_line: tuple[float, ...] = ()
    """Typed middle levels whose IOPS figures ``three_levels.leave_to_line`` left to the line
    through the FOB and the highest level (``three_levels.ON``, on): ``bend_between.line_between``
    reads them."""

    def __post_init__(self) -> None:
        main_qd = self.measurement.qd if self.measurement is not None else fitmod.WORKLOAD_QD
        self.points, other = fitmod.split_queue_depths(self.points, main_qd)
        self.other_qd_points = [*self.other_qd_points, *other]

    def workload_or_uniform(self) -> dict[str, Any]:
        return dict(self.workload or {"pattern": "uniform"})


@dataclass(frozen=True)
class TwinReading:
    """One reading of the figures: how the drive uses its spare (``spare``: ``EFFECTIVE``,
    ρ₀ fitted, or held at ``native_op`` when given; ``RAW``: the raw spare ``native_op`` used k
    times as well, k fitted) × the garbage collection its twin runs (``design``, a name of
    ``spare_readings.DESIGNS``; ``ftl`` its ``config.ftl`` keys, None: greedy on one write
    frontier)."""

    spare: str = EFFECTIVE
    design: str = "greedy"
    ftl: dict[str, Any] | None = dataclasses.field(default=None, compare=False)
    native_op: float | None = None
    several: bool = dataclasses.field(default=False, compare=False)
    """One of several GC designs: the greedy effective-spare twin is then ``twin-greedy.toml``
    (``twin.toml`` the copy of the reading with the largest weight, ``spare_readings``)."""
    reserve: Any = dataclasses.field(default=None, compare=False)
    """``spare`` ``RESERVE``: its ``gc_reserve.ReserveForm`` (``reserve_reading.py``)."""
    erase: bool = False
    """Fitted with the erase-cost form (``erase_reading.py``, offered where called for)."""

    @property
    def key(self) -> str:
        """The reading's name in ``prediction.json``'s ``readings``."""
        return reading_key(self.spare, erase_reading.design_name(self))

    @property
    def twin_name(self) -> str:
        if self.spare == RESERVE or self.erase:
            return f"twin-{'erase' if self.erase else 'reserve'}-{self.design}.toml"
        base = RAW_TWIN if self.spare == RAW else TWIN
        plain = self.design == "greedy" and (self.spare == RAW or not self.several)
        return base if plain else base.replace(".toml", f"-{self.design}.toml")

    @property
    def fits_efficiency(self) -> bool:
        return self.spare == RAW

    def form(self, curve: fitmod.WafCurve) -> evidence.ReadingForm:
        """How this reading fits figures (for their evidence, ``evidence.assess``)."""
        form = evidence.ReadingForm(curve, self.native_op, self.fits_efficiency)
        return erase_reading.erase_form(form) if self.erase else form

    def level_of(self, twin: twinmod.TwinParameters) -> Callable[[float], float]:
        """The extra OP the twin file is simulated at for level x: x itself, or for the raw
        spare read with k ≠ 1 the level giving it k times the raw spare of x."""
        raw = self.native_op
        if not self.fits_efficiency or raw is None or twin.spare_efficiency == 1.0:
            return lambda x: x
        return lambda x: twin_runs.simulated_level(raw, twin.native_op, x)

    def simulate(
        self,
        fig: PredictionInput,
        twin: twinmod.TwinParameters,
        levels: list[float],
        timed: bool = True,
    ) -> dict[float, Level]:
        """The twin's steady figures at each of ``levels``, by level: swept on one drive as a
        target is measured, or (typed figures) one simulation per level under their
        workload; a run gives the same figures again (its seed), so a level of this
        prediction's runs (``fig.runs``) is not run again."""
        if not fig.typed:
            at = ", ".join(f"{x:g}%" for x in levels)
            twin_runs.say(fig.progress, f"the twin measured as the target was, at {at} extra OP")
            m = twinmod.simulate_levels(twin, levels)
        else:
            m = twin_runs.simulate_levels(
                twin, levels, fig.workload_or_uniform(), timed=timed, jobs=fig.jobs,
                level_of=self.level_of(twin), memo=fig.runs, progress=fig.progress,
            )  # fmt: skip
        return {lv.extra_op_percent: lv for lv in m.levels}


@dataclass
class _Fitted:
    """A reading's fit: the surrogate, its bootstrap, the twin, the interval's model-form error."""

    central: fitmod.Surrogate
    boot: dict[str, Any]
    twin: twinmod.TwinParameters
    mfe: uncertainty.ModelForm | None
    fitted_levels: list[float]

    def model_sd(self, x: float) -> float | None:
        """The model-form error at level x (it grows away from the fitted levels)."""
        c = self.central
        d = uncertainty.spare_distance(x, self.fitted_levels, c.native_op, c.spare_efficiency)
        return None if self.mfe is None else (self.mfe.at(d, x) or None)

    def waf_model_sd(self, x: float) -> float | None:
        """WAF's: the distance-dependent error (measured on WAF and IOPS figures alike)."""
        per_log_spare = self.mfe is not None and self.mfe.per_log_spare is not None
        return self.model_sd(x) if per_log_spare else None


@dataclass
class _TwinFigures:
    """One way of simulating a reading's twin: its rows, their source, its checks on the points."""

    rows: list[PredictedLevel]
    source: str
    twin: twinmod.TwinParameters
    twin_check: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    refinement: list[dict[str, float]] = dataclasses.field(default_factory=list)
    mechanism: dict[str, Any] | None = None
    write_buffer: buffermod.BufferReading | None = None


@dataclass
class Prepared:
    """A reading fitted, its twins' configs checked (:func:`prepare`): what :func:`read` runs."""

    levels: list[float]
    curve: fitmod.WafCurve
    uniform: bool
    fitted: _Fitted
    has_iops: bool


def prepare(
    fig: PredictionInput, reading: TwinReading, curve: fitmod.WafCurve | None = None, *,
    blocking_optional: bool = False,
) -> Prepared:  # fmt: skip
    """Fit ``reading`` to ``fig`` and check in the core every config :func:`read` would
    simulate, at every level, before the fit's bootstrap: raises :class:`TwinConfigError` for
    the first one the core rejects. No twin is simulated here (the WAF curve is, when not
    given and the reading is not greedy under uniform writes). ``curve`` as in :func:`read`.
    ``blocking_optional``: the blocking-GC twin is not checked (a measured target's one
    reading goes on without it; ``blocking_reading.weigh`` says why in the source)."""
    workload = fig.workload_or_uniform()
    uniform = workload_curve.is_uniform(workload)
    if not uniform and not fig.typed:
        raise ConfigError(
            "--workload: calibrate measures a target with uniform random 4 KiB writes; another "
            "workload applies to figures given with --points/--waf-points"
        )
    if reading.fits_efficiency and (reading.native_op is None or not fig.typed):
        raise ValueError("the raw-spare reading needs the raw spare and typed figures")
    levels = sorted(set(fig.levels))
    if curve is None:
        curve = (
            fitmod.waf_at
            if uniform and not reading.ftl
            else workload_curve.simulate_curve(workload, jobs=fig.jobs, ftl=reading.ftl)
        )
    has_iops = any(p.iops for p in fig.points)

    def check(twin: twinmod.TwinParameters) -> None:
        timed = has_iops and twin.t_page_us > 0
        _check_twins(fig, reading, twin, levels, timed, uniform and not blocking_optional)

    fitted = _fit(fig, reading, curve, levels, workload, check)
    return Prepared(levels, curve, uniform, fitted, has_iops and fitted.central.t_page_us > 0)


def _check_twins(
    fig: PredictionInput,
    reading: TwinReading,
    twin: twinmod.TwinParameters,
    levels: list[float],
    timed: bool,
    with_blocking: bool,
) -> None:
    """Every config the reading's simulation runs, checked by the core (``engine.check``):
    its twin at each level and each fitted figure's level, and (``timed``: IOPS figures;
    ``with_blocking``) the blocking-GC reading's twin (``gc_blocking.config``) there too."""
    if not timed and not fig.typed:
        return  # the surrogate's figures alone: nothing is simulated
    level_of = reading.level_of(twin)
    at = sorted({*levels, *(p.extra_op_percent for p in fig.points if not p.fresh)})
    workload = fig.workload_or_uniform()
    config = twinmod.sim_config(twin)
    checks = [("twin", x, twin_runs.level_config(config, level_of(x), workload, timed)) for x in at]
    if timed and with_blocking:
        checks += blocking_reading.configs(fig, reading, twin, levels)
    for what, x, cfg in checks:
        try:
            engine.check(cfg)
        except ConfigError as exc:
            raise TwinConfigError(reading.key, x, what, str(exc), twin.native_op) from None


def read(
    fig: PredictionInput,
    reading: TwinReading,
    curve: fitmod.WafCurve | None = None,
    prepared: Prepared | None = None,
) -> Prediction:
    """The prediction of one reading of ``fig``: fit, twin, its simulation at every level and
    the interval. ``curve``: the WAF curve under the figures' workload and the reading's GC
    when the caller has it already (None: the greedy model, or simulated); ``prepared``: the
    reading fitted and checked already (:func:`prepare`, which runs first otherwise: a twin
    the core rejects at any level stops the reading before its first simulation)."""
    got_p = prepared if prepared is not None else prepare(fig, reading, curve)
    levels, curve, uniform = got_p.levels, got_p.curve, got_p.uniform
    fitted, has_iops = got_p.fitted, got_p.has_iops
    if has_iops:
        got = _iops_figures(fig, reading, fitted, curve, levels, uniform)
    elif fig.typed:
        got = _waf_figures(fig, reading, fitted, levels)
    else:
        got = _surrogate_figures(fitted, levels)
    if fig.other_qd_points:  # said, never dropped in silence
        qd = fig.measurement.qd if fig.measurement is not None else fitmod.WORKLOAD_QD
        got.source += loopmod.note(len(fig.other_qd_points), got.mechanism is not None, qd,
                                   loopmod.weighs(fig.other_qd_points))  # fmt: skip
    for row in got.rows:
        x = row.extra_op_percent
        if row.waf is None:  # the twin's run gave none: the surrogate's
            row.waf = fitted.central.waf(x)
        waf_band = uncertainty.waf_band(row.waf, fitted.boot["waf"][x], fitted.waf_model_sd(x))
        row.waf_low, row.waf_high = waf_band
    return _prediction(fig, reading, fitted, got, curve, uniform, has_iops)


def _fit(
    fig: PredictionInput,
    reading: TwinReading,
    curve: fitmod.WafCurve,
    levels: list[float],
    workload: dict[str, Any],
    check: Callable[[twinmod.TwinParameters], None],
) -> _Fitted:
    """The surrogate fitted to the points, the twin (``check``-ed before the bootstrap, the
    slow part: :func:`prepare`) and its bootstrap at ``levels``."""
    central = reading.reserve.fit(fig.points) if reading.reserve else fitmod.fit(
        fig.points, fob_iops=fig.fob_iops, native_op=reading.native_op, curve=curve,
        fit_efficiency=reading.fits_efficiency,
    )  # fmt: skip
    collector = None  # the reserve reading's: its spare beyond the reserve, and its floor
    if reading.reserve:
        rho0, collector = twinmod.reserve_collector(1 + central.native_op, central.waf_floor, curve)
    twin = twinmod.TwinParameters(
        advertised_bytes=max(fig.advertised_bytes or DEFAULT_ADVERTISED_BYTES, MIN_TWIN_BYTES),
        # the twin file's own spare: k times the raw spare (at 0% extra OP)
        native_op=rho0 if collector else central.native_op * central.spare_efficiency,
        t_page_us=central.t_page_us,
        t_cmd_us=central.t_cmd_us,
        uncertainty={},
        source=fig.source,
        workload=workload,
        spare_efficiency=central.spare_efficiency,
        ftl=reading.ftl,
        gc_reserve=collector,
        erase_us_per_page=central.erase_us_per_page,  # erase_cost.py: 0 unless on
    )
    check(twin)
    boot = no_bootstrap(levels) if collector else uncertainty.bootstrap(
        fig.points, levels, fob_iops=fig.fob_iops, native_op=reading.native_op,
        samples=fig.bootstrap_samples, curve=curve, fit_efficiency=reading.fits_efficiency,
    )  # fmt: skip
    twin.uncertainty = {k: list(v) for k, v in boot["parameters"].items()}
    # the reserve reading is for controllers overprov did not build: the foreign truths' error
    simulated = fig.measurement is not None and fig.measurement.kind == "sim" and not collector
    mfe = fig.model_form or uncertainty.recorded_model_form(simulated)  # a ModelForm is truthy
    if collector:  # its own residual, not the greedy fit's (off by default)
        mfe = own_residual.reserve_reading_form(mfe, central, fig.points, reading.reserve)
    if reading.erase and own_erase_residual.ON:  # its own residual, not the greedy fit's (off)
        n_params = evidence.n_parameters(central, reading.form(curve))
        n_params += central.erase_us_per_page > 0  # t_erase, as erase_reading.assess counts it
        mfe = own_erase_residual.erase_reading_form(mfe, central, fig.points, n_params)
    fitted_levels = sorted({p.extra_op_percent for p in fig.points if not p.fresh})
    return _Fitted(central, boot, twin, mfe, fitted_levels)


def _iops_figures(
    fig: PredictionInput,
    reading: TwinReading,
    fitted: _Fitted,
    curve: fitmod.WafCurve,
    levels: list[float],
    uniform: bool,
) -> _TwinFigures:
    """IOPS points: the twin refined until it reproduces them, then simulated at every level
    (timed: steady IOPS, WAF, p99 latency); under uniform writes weighed with the blocking-GC
    reading."""

    def simulate(p: twinmod.TwinParameters, at: list[float]) -> Measurement:
        by = reading.simulate(fig, p, at)
        return Measurement(target="twin", capacity_bytes=0, scale_factor=1.0, bs_bytes=4096,
                           qd=32, levels=[by[x] for x in at], kind="sim")  # fmt: skip

    buffer = buffermod.read(
        fitted.twin, fig.points, fig.other_qd_points, skewed=not uniform, typed=fig.typed
    )
    start = dataclasses.replace(fitted.twin, buffer_bytes=buffer.buffer_bytes)
    twin, at_points, refinement = twinmod.refine(start, fig.points, simulate, curve=curve)
    by = {lv.extra_op_percent: lv for lv in at_points.levels}
    twin_check = []
    for p in fig.points:
        if p.iops and not p.fresh:
            got = by[p.extra_op_percent]
            twin_check.append({
                "extra_op_percent": p.extra_op_percent,
                "measured_iops": p.iops,
                "twin_iops": got.steady_iops,
                "rel_error": got.steady_iops / p.iops - 1.0,
                "measured_waf": p.waf,
                "twin_waf": got.waf,
            })  # fmt: skip
    twin_worst = max((abs(c["rel_error"]) for c in twin_check), default=0.0)
    source = (
        "the twin simulated at every level (steady IOPS, WAF, p99 latency); it reproduces "
        f"its measured IOPS within {100 * twin_worst:.1f}%; the fitted surrogate's IOPS "
        "are in surrogate_iops"
        + ("" if fig.typed else f"; {twinmod.P99_SOURCE}")
        + f"; the twin has {buffer.describe()}"
    )
    rows = []
    for x, lv in reading.simulate(fig, twin, levels).items():
        value = lv.steady_iops
        lo, hi = uncertainty.band(value, fitted.boot["iops"][x], fitted.model_sd(x))
        rows.append(PredictedLevel(
            x, steady_iops=value, steady_iops_low=lo, steady_iops_high=hi, waf=lv.waf,
            p99_latency_us=lv.p99_latency_us, surrogate_iops=fitted.central.iops(x),
            twin_iops=lv.steady_iops,
        ))  # fmt: skip
    got = _TwinFigures(rows, source, twin, twin_check, refinement, write_buffer=buffer)
    if uniform and not reading.reserve:  # the blocking-GC twin has no reserve
        qd = fig.measurement.qd if fig.measurement is not None else fitmod.WORKLOAD_QD
        got.mechanism = blocking_reading.weigh(fig, reading, got, curve, fitted.mfe, qd=qd)
        if got.mechanism is not None and got.mechanism["weight"] > 0.5:
            got.twin = dataclasses.replace(twin, gc_timing=got.mechanism["timing"])
        if got.mechanism is not None:
            got.source += (
                f"; IOPS weighed with the blocking-GC reading (weight "
                f"{got.mechanism['weight']:.2f}, gc_blocking.py), in fit.gc_mechanism"
            )
    return got


def _waf_figures(
    fig: PredictionInput, reading: TwinReading, fitted: _Fitted, levels: list[float]
) -> _TwinFigures:
    """WAF figures only (typed): the twin simulated WAF-only at every level and each figure."""
    at = sorted({*levels, *(p.extra_op_percent for p in fig.points if not p.fresh)})
    twin, refinement = fitted.twin, []
    if twinmod.WAF_REFINE:  # the twin's spare searched onto its lowest figure (on: wafrefine)
        twin, refinement = waf_refinement.refine_waf(
            twin, fig.points, lambda t, x: reading.simulate(fig, t, [x], timed=False)[x].waf
        )
    by = reading.simulate(fig, twin, at, timed=False)
    twin_check = []
    for p in fig.points:
        got = by[p.extra_op_percent].waf
        if p.has_steady_waf and got:
            twin_check.append({
                "extra_op_percent": p.extra_op_percent,
                "measured_iops": None,
                "twin_iops": None,
                "rel_error": got / p.waf - 1.0,
                "measured_waf": p.waf,
                "twin_waf": got,
            })  # fmt: skip
    source = (
        "the twin simulated at every level, WAF only (no IOPS points to fit times to); "
        "the fitted surrogate's WAF is in surrogate_waf"
    )
    rows = [PredictedLevel(x, waf=by[x].waf, surrogate_waf=fitted.central.waf(x)) for x in levels]
    if refinement:
        source += f"; its native spare refined onto its lowest WAF figure ({len(refinement)} runs)"
    return _TwinFigures(rows, source, twin, twin_check, refinement)


def _surrogate_figures(fitted: _Fitted, levels: list[float]) -> _TwinFigures:
    """A target's WAF points only: WAF from the fitted surrogate, the twin not simulated."""
    rows = [PredictedLevel(x, waf=fitted.central.waf(x)) for x in levels]
    source = "WAF from the fitted surrogate (no IOPS points to fit times to)"
    return _TwinFigures(rows, source, fitted.twin)


def _prediction(
    fig: PredictionInput,
    reading: TwinReading,
    fitted: _Fitted,
    got: _TwinFigures,
    curve: fitmod.WafCurve,
    uniform: bool,
    has_iops: bool,
) -> Prediction:
    mfe, twin = fitted.mfe, got.twin
    widened = mfe is not None and (mfe.rel_sd or mfe.per_log_spare is not None)
    workload = fig.workload_or_uniform()
    return Prediction(
        interval=f"{uncertainty.INTERVAL}: bootstrap over the measured points' spread"
        + (
            f", widened by the model-form error measured on {mfe.source} ({mfe.describe()})"
            if mfe is not None and widened
            else " only (no model-form error recorded)"
        ),
        prediction_source=got.source,
        workload=(
            "uniform random writes, 4 KiB, QD32, to the whole span (steady state)"
            if uniform
            else describe_overrides(workload) + ", QD32, to the whole span (steady state)"
        ),
        workload_flags=flags_text(workload),
        waf_curve=curve.to_dict() if isinstance(curve, workload_curve.SimulatedCurve) else None,
        levels=got.rows,
        recommendation=recommendation(got.rows, fig.target_iops) if has_iops else None,
        fit={
            "native_op": (fitted.central.native_op if reading.fits_efficiency else twin.native_op),
            "spare_efficiency": fitted.central.spare_efficiency,
            "t_page_us": twin.t_page_us,
            "t_cmd_us": twin.t_cmd_us,
            "surrogate": fitted.central.to_dict(),
            "parameters_interval": twin.uncertainty,
            "points": [p.__dict__ for p in fig.points],
            "points_other_queue_depth": [p.__dict__ for p in fig.other_qd_points],
            "twin_check": got.twin_check,
            "refinement": got.refinement,
            **({"gc_mechanism": got.mechanism} if got.mechanism is not None else {}),
            **({"write_buffer": got.write_buffer.to_dict()} if got.write_buffer else {}),
        },
        twin=reading.twin_name,
        measurement=measurement_summary(fig.measurement),
        twins={reading.twin_name: twin},
    )
