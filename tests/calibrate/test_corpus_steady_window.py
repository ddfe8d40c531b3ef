"""A level's figure from a published measurement log (bench/corpus_steady_window.py): the
window is the last 5 of 20 rounds of equal host writes, and SNIA PTS's steady-state criterion
decides whether the log shows it settled (docs/calibrate-validation.md, "A real drive's logged
WAF and IOPS at several spares")."""

from __future__ import annotations

import pytest
from overprov.calibrate import twin_steady


def _run(steady_window, waf_at, iops_at, seconds=400):
    """A run logged every second: WAF and IOPS as functions of the share of the run done."""
    samples, host, media = [steady_window.Sample(0.0, 0.0, 0.0)], 0.0, 0.0
    for t in range(1, seconds + 1):
        done = t / seconds
        written = iops_at(done) * steady_window.BLOCK_BYTES
        host += written
        media += written * waf_at(done)
        samples.append(steady_window.Sample(float(t), host, media))
    return samples


def test_the_window_is_the_runs_last_quarter_and_its_figure_is_the_windows(steady_window):
    # WAF falls from 3 to 2 over the first half and stays; IOPS rise likewise
    samples = _run(
        steady_window, lambda x: max(2.0, 3.0 - 2 * x), lambda x: min(1000.0, 500 + 1000 * x)
    )
    waf = steady_window.window_figure(samples, "waf")
    iops = steady_window.window_figure(samples, "iops")
    assert len(waf.rounds) == steady_window.WINDOW_ROUNDS == 5
    assert waf.value == pytest.approx(2.0) and iops.value == pytest.approx(1000.0, rel=1e-3)
    assert waf.steady and iops.steady and waf.range_share < 1e-9
    # the edges cut the host writes into equal rounds
    edges = steady_window.round_edges(samples)
    assert len(edges) == steady_window.ROUNDS + 1 and edges[-1] is samples[-1]


def test_a_window_still_moving_is_not_shown_steady(steady_window):
    # WAF still climbing 30% over the last quarter: the fitted line's excursion is over 10%
    samples = _run(steady_window, lambda x: 1.0 + 1.2 * x, lambda x: 1000.0)
    fig = steady_window.window_figure(samples, "waf")
    assert not fig.steady and fig.slope_share > twin_steady.MAX_SLOPE_SHARE
    # a flat window whose rounds scatter by more than 20% of their mean is not steady either
    assert steady_window.snia_shares([1.0, 1.3, 1.0, 1.3, 1.0])[0] is False
    assert steady_window.snia_shares([1.0, 1.1, 1.0, 1.1, 1.0])[0] is True


def test_per_thread_rates_are_summed_and_integrated(steady_window):
    header = "hash,time,timeDiff,filesizeGib,pattern,writes\n"
    a = header + "h1,10,10,372,uniform,100\nh1,20,10,372,uniform,100\n"
    b = header + "h2,10,10,372,uniform,300\nh2,20,10,372,uniform,100\n"
    ((key, samples),) = steady_window.read_thread_stats([a, b]).items()
    assert key == ("h1", 372.0)
    assert [s.host_bytes / steady_window.BLOCK_BYTES for s in samples] == [0, 4000, 6000]
    assert samples[-1].media_bytes is None
    with pytest.raises(ValueError, match="no WAF"):
        steady_window.waf_between(samples[0], samples[-1])
