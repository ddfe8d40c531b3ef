"""A graded plan's first level read through its collector's burst cycle
(``calibrate/burst_cycle.py``): synthetic rounds swinging round a known mean."""

import math

import pytest
from overprov.calibrate import burst_cycle, cycle_evidence, gc_onset
from overprov.calibrate import predict as predmod
from overprov.calibrate.plan import design, parse_budget
from overprov.measurement_file import Level, Measurement, Round

CAP = 2**30
MEAN_WAF = 8.0
#: host I/Os per second per unit of 1/WAF: IOPS = SPEED / WAF
SPEED = 3500.0


def swing(x0: float, x1: float, amplitude: float, phase: float) -> float:
    """The mean over host drive writes x0..x1 of MEAN_WAF + amplitude sin(2πx/P + phase),
    P = 1 / MEAN_WAF (one pass of the data through the collector)."""
    k = 2 * math.pi * MEAN_WAF
    return MEAN_WAF + amplitude * (math.cos(k * x0 + phase) - math.cos(k * x1 + phase)) / (
        k * (x1 - x0)
    )


def measurement(
    sizes: list[float],
    onset: float = 0.9,
    phase: float = 0.0,
    amplitude: float = 4.5,
    jitter: float = 0.0,
) -> Measurement:
    """A graded plan's measurement whose 0% level ran random rounds of these sizes (drive
    writes) swinging round MEAN_WAF by ±``amplitude`` (FEMU: 4.9-13.4 with 4.5), every other
    round ``jitter`` above the swing and the others as far below it, its level the plain mean
    over its stretch."""
    m = Measurement(target="sim:t", capacity_bytes=CAP, scale_factor=1.0, bs_bytes=4096, qd=32)
    plan = design([0.0, 40.0], parse_budget("2dw"), write_counters=True)
    assert plan.precondition == "graded"
    m.plan = plan.to_dict()
    m.onset_spare_factor, m.onset_source = onset, gc_onset.ONSET_FROM_EMPTY
    host = round(1.175 * CAP)
    nand = round(1.4 * host)
    m.rounds.append(Round("fill-200", 0.0, 500.0, host, 1.0, None, host, nand))
    x = host / CAP
    for i, size in enumerate(sizes):
        waf = swing(x, x + size, amplitude, phase) + (jitter if i % 2 else -jitter)
        dh = round(size * CAP)
        host, nand, x = host + dh, nand + round(waf * dh), x + size
        iops = SPEED / waf
        label = f"op0-r{i + 1:03d}"
        m.rounds.append(Round(label, 0.0, iops, dh, dh / 4096 / iops, None, host, nand))
    stretch, before = burst_cycle.stretch_of(m) or (m.rounds[1:], m.rounds[0])
    dh = stretch[-1].host_bytes - before.host_bytes
    waf = (stretch[-1].nand_bytes - before.nand_bytes) / dh
    ios = sum(r.iops * r.duration_s for r in stretch)
    iops = ios / sum(r.duration_s for r in stretch)
    m.levels.append(Level(0.0, iops, 0.05, waf, None, False, len(stretch), 0.02, sum(sizes)))
    return m


#: the plan's 0% level: rounds of 0.0125 drive writes and one of 0.05 (a slow round's follower)
SIZES = [0.0125] * 4 + [0.05] + [0.0125] * 11


@pytest.fixture
def flag_on(monkeypatch):
    monkeypatch.setattr(burst_cycle, "READ_THROUGH_CYCLE", True)


@pytest.fixture
def flag_off(monkeypatch):
    monkeypatch.setattr(burst_cycle, "READ_THROUGH_CYCLE", False)


def test_the_sinusoid_mean_of_a_pure_swing_is_its_constant_over_uneven_rounds():
    edges = [0.0, 0.01, 0.03, 0.035, 0.09, 0.1, 0.16, 0.2]
    spans = list(zip(edges, edges[1:], strict=False))
    values = [swing(a, b, 4.0, 1.0) for a, b in spans]
    assert burst_cycle.sinusoid_mean(spans, values, 1 / MEAN_WAF) == pytest.approx(MEAN_WAF)


def test_on_by_default():  # bench/foreign/results/femu0/verdict.md
    assert burst_cycle.READ_THROUGH_CYCLE is True


def test_off_the_plain_figures_stay(flag_off):
    m = measurement(SIZES, phase=1.0)
    before = (m.levels[0].waf, m.levels[0].steady_iops)
    assert not burst_cycle.read_first_level(m)
    assert (m.levels[0].waf, m.levels[0].steady_iops) == before


@pytest.mark.parametrize("phase", [0.0, 1.0, 2.5, 4.0])
def test_on_the_stretch_reads_the_mean_the_plain_window_misses(flag_on, phase):
    m = measurement(SIZES, phase=phase)
    plain = m.levels[0].waf
    stretch, _ = burst_cycle.stretch_of(m)
    assert stretch[0].label == "op0-r003"  # the rounds past the segment's 0.02 drive writes
    point = predmod.points_from(m)[0]  # read through the cycle where the points are taken
    assert point.waf == pytest.approx(MEAN_WAF, rel=0.005)
    assert point.iops == pytest.approx(SPEED / MEAN_WAF, rel=0.01)
    assert m.levels[0].waf == point.waf  # in place: every later reader sees the same figure
    if phase == 2.5:
        assert abs(plain / MEAN_WAF - 1) > 0.02  # the case the flag is for


def test_on_a_stretch_shorter_than_one_pass_or_a_drive_without_a_reserve_is_left(flag_on):
    short = measurement([0.0125] * 8, phase=1.0)  # 6 rounds past the minimum: 0.075 < 0.125
    no_reserve = measurement(SIZES, onset=1.1, phase=1.0)
    for m in (short, no_reserve):
        before = m.levels[0].waf
        assert not burst_cycle.read_first_level(m)
        assert m.levels[0].waf == before


def test_rounds_a_whole_period_long_are_left_as_read_not_refused(flag_on):
    """Rounds each one period long average the cycle out themselves: the fit's sine and cosine
    columns vanish and the normal equations are singular; the level keeps its plain figures
    (a ValueError from the fit no longer escapes)."""
    period = 1.0 / MEAN_WAF
    with pytest.raises(ValueError, match="cannot tell"):
        burst_cycle.sinusoid_mean([(i * period, (i + 1) * period) for i in range(6)],
                                  [MEAN_WAF] * 6, period)  # fmt: skip
    m = measurement([period] * 8, phase=0.7)
    before = m.levels[0].waf
    burst_cycle.read_first_level(m)  # fitted or left, never raising
    assert m.levels[0].waf == pytest.approx(before, rel=0.01)
    assert before == pytest.approx(MEAN_WAF, rel=0.01)


#: every other round 2 above MEAN_WAF and the others 2 below: no cycle of period 1 / WAF
NO_CYCLE = {"amplitude": 0.0, "jitter": 2.0}


def spans_values(m: Measurement) -> tuple[list[tuple[float, float]], list[float]]:
    stretch, before = burst_cycle.stretch_of(m)
    spans, values, prev = [], [], before
    for r in stretch:
        spans.append((prev.host_bytes / CAP, r.host_bytes / CAP))
        values.append((r.nand_bytes - prev.nand_bytes) / (r.host_bytes - prev.host_bytes))
        prev = r
    return spans, values


def test_the_f_ratio_is_large_for_a_swing_and_small_without_one():
    swinging = spans_values(measurement(SIZES, phase=1.0, jitter=0.3))
    flat = spans_values(measurement(SIZES, phase=1.0, **NO_CYCLE))
    assert burst_cycle.sinusoid_variance_ratio(*swinging, 1 / MEAN_WAF) > 20
    assert (
        burst_cycle.sinusoid_variance_ratio(*flat, 1 / MEAN_WAF) < cycle_evidence.MIN_VARIANCE_RATIO
    )


def test_reading_plain_without_a_cycle_is_off_by_default():  # femuwin/RULE.md
    assert cycle_evidence.READ_PLAIN_WITHOUT_CYCLE is False


def test_rounds_without_a_cycle_keep_their_plain_figures_with_it_on(flag_on, monkeypatch):
    m = measurement(SIZES, phase=1.0, **NO_CYCLE)
    before = (m.levels[0].waf, m.levels[0].steady_iops)
    monkeypatch.setattr(cycle_evidence, "READ_PLAIN_WITHOUT_CYCLE", True)
    assert not burst_cycle.read_first_level(m)
    assert (m.levels[0].waf, m.levels[0].steady_iops) == before
    monkeypatch.setattr(cycle_evidence, "READ_PLAIN_WITHOUT_CYCLE", False)
    assert burst_cycle.read_first_level(m)  # without it, a sinusoid fitted to the alternation
    assert m.levels[0].waf != before[0]


@pytest.mark.parametrize("phase", [0.0, 2.5])
def test_a_swing_is_still_read_through_the_cycle_with_it_on(flag_on, monkeypatch, phase):
    monkeypatch.setattr(cycle_evidence, "READ_PLAIN_WITHOUT_CYCLE", True)
    point = predmod.points_from(measurement(SIZES, phase=phase))[0]
    assert point.waf == pytest.approx(MEAN_WAF, rel=0.005)
