"""A later graded level read over bursts started past its first round
(``calibrate/burst_start.py``): a synthetic graded measurement whose 40% level's first round
carries the collection the 0% level left (much NAND, few host writes)."""

import pytest
from overprov.calibrate import burst_start, gc_onset
from overprov.calibrate import predict as predmod
from overprov.calibrate.plan import design, parse_budget
from overprov.measurement_file import Level, Measurement, Round

CAP = 2**30
DH = CAP // 40
#: the 40% level's rounds: (label, host bytes, WAF, IOPS); the first carries 0.1 drive writes of
#: NAND for 1/100 of a round's host writes
FORTY = [("op40-g1.01-01", DH // 100, 0.1 * CAP / (DH // 100), 50.0),
         ("op40-g1.01-02", DH, 1.8, 400.0), ("op40-g1.02-01", DH, 1.6, 420.0),
         ("op40-r001", DH, 1.9, 380.0), ("op40-r002", DH, 1.7, 410.0)]  # fmt: skip


def measurement(onset: float = 0.84, forty: list | None = None) -> Measurement:
    """A graded plan's measurement at 0% and 40% (graded and random rounds, then the QD4
    probe); each level's stored figures as ``level_window.over_bursts`` reads them."""
    forty = FORTY if forty is None else forty
    m = Measurement(target="sim:t", capacity_bytes=CAP, scale_factor=1.0, bs_bytes=4096, qd=32)
    plan = design([0.0, 40.0], parse_budget("2dw"), write_counters=True)
    assert plan.precondition == "graded"
    m.plan = plan.to_dict()
    m.onset_spare_factor, m.onset_source = onset, gc_onset.ONSET_FROM_EMPTY
    host = nand = 0
    rows = [("op0-r001", DH, 8.0, 130.0), ("op0-r002", DH, 8.0, 130.0), *forty,
            ("op40-qd4-r001", DH, 1.7, 300.0)]  # fmt: skip
    for label, dh, waf, iops in rows:
        host, nand = host + dh, nand + round(waf * dh)
        m.rounds.append(Round(label, 0.0, iops, dh, dh / 4096 / iops, None, host, nand))
    at = [r for r in m.rounds if r.label.startswith("op40-") and "-qd" not in r.label]
    before = m.rounds[m.rounds.index(at[0]) - 1]
    read_waf = (at[-1].nand_bytes - before.nand_bytes) / (at[-1].host_bytes - before.host_bytes)
    read_iops = sum(r.iops * r.duration_s for r in at) / sum(r.duration_s for r in at)
    m.levels = [
        Level(0.0, 130.0, 0.05, 8.0, None, False, 2, 0.0, 0.05),
        Level(40.0, read_iops, 0.02, read_waf, None, False, len(at), 0.0, 0.1),
        Level(40.0, 300.0, 0.05, 1.7, None, False, 1, 0.0, 0.025, queue_depth=4),
    ]
    return m


@pytest.fixture
def late(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(burst_start, "LATE_START", True)


def figures(m: Measurement) -> list[tuple[float, float | None]]:
    return [(p.iops, p.waf) for p in predmod.points_from(m)]


def test_off_by_default_the_figures_as_read() -> None:
    assert burst_start.LATE_START is False
    m = measurement()
    assert figures(m) == [(lv.steady_iops, lv.waf) for lv in m.levels]
    assert m.levels[1].waf > 2.5  # the first round's NAND read into the 40% figure (1.75 without)


@pytest.mark.usefixtures("late")
def test_the_later_level_is_read_past_its_first_round() -> None:
    m = measurement()
    got = figures(m)
    rest = FORTY[1:]
    waf = sum(dh * w for _, dh, w, _ in rest) / sum(dh for _, dh, _, _ in rest)
    iops = sum(dh / 4096 for _, dh, _, _ in rest) / sum(dh / 4096 / i for _, dh, _, i in rest)
    assert got[1][1] == pytest.approx(waf, rel=1e-6)
    assert got[1][0] == pytest.approx(iops, rel=1e-9)
    assert got[0] == (130.0, 8.0) and got[2] == (300.0, 1.7)  # 0% and the probe as read
    assert figures(m) == got  # read again from the rounds: the same figures


@pytest.mark.usefixtures("late")
def test_no_reserve_nothing_read_over_bursts_nothing_moved() -> None:
    """An onset at or above 1 reads nothing over bursts (``level_window.over_bursts``)."""
    m = measurement(onset=1.1)
    assert figures(m) == [(lv.steady_iops, lv.waf) for lv in m.levels]


@pytest.mark.usefixtures("late")
def test_a_stretch_too_short_is_left_as_read() -> None:
    m = measurement(forty=FORTY[: burst_start.MIN_ROUNDS])
    assert burst_start.read_later_levels(m) == 0
    assert figures(m)[1] == (m.levels[1].steady_iops, m.levels[1].waf)
