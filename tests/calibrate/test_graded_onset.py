"""The graded plan's first level sized by the drive's own free space: sweeps of prefix rounds
until the write counters show garbage collection (calibrate/graded_run.py), and the fallback to
an assumed native OP where the onset cannot be seen.

These are the sweeps after a *plain* fill: their plans pass ``onset_from_empty=False``, so they
hold whatever ``plan.ONSET_FROM_EMPTY`` is (with it the graded plan grades its fill and dates the
onset there, ``test_gc_onset_fill.py``)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from overprov import measurement_file
from overprov.calibrate import validation
from overprov.calibrate.graded_run import (
    SPARE_EARLY,
    SPARE_LOWER_BOUND,
    SPARE_NO_COUNTERS,
    SPARE_ONSET,
)
from overprov.calibrate.measure import measure
from overprov.calibrate.onset_detector import OnsetDetector
from overprov.calibrate.plan import design, parse_budget, plan_of
from overprov.calibrate.precondition import ASSUMED_NATIVE_OP_PERCENT
from overprov.errors import InputError
from overprov.measurement_file import Round
from overprov.profile.sim_target import SimTarget

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from graded_sweeps_bench import prefix_shares  # noqa: E402  (bench/: read its rounds' labels)

GIB = 2**30


def _drive(seed: int, tmp_path) -> str:
    path = validation.write_drive(seed, tmp_path)
    return f"sim:{path}@{validation.scale_for(validation.drive(seed), GIB)}"


def _native_spare(seed: int) -> float:
    d = validation.drive(seed)
    return d["physical_bytes"] / d["advertised_bytes"] - 1


def _graded_share(m, marker: str, level: str = "op0") -> float:
    return (
        sum(r.bytes_written for r in m.rounds if r.label.startswith(level + "-" + marker))
        / m.capacity_bytes
    )


def test_the_first_level_is_sized_by_the_onset_of_garbage_collection(tmp_path):
    """Generated drive 11 has 24.4% native OP, three times what the rounds used to assume
    (7.37%): one pass sized for that left it free space, and its 0% window straddled the onset
    of garbage collection (+33% IOPS against the truth at 2 GiB). The sweeps measure its free
    space from the write counters and write it once: within 2 drive writes, the 0% figures are
    within 10% of the truth."""
    spec = _drive(11, tmp_path)
    said: list[str] = []
    with SimTarget(spec) as t:
        m = measure(t, design([0, 40], parse_budget("2dw"), onset_from_empty=False), said.append)
    assert m.drive_writes <= 2.0
    assert m.spare_source == SPARE_ONSET
    assert m.spare_drive_writes == pytest.approx(_native_spare(11), abs=0.02)
    assert _graded_share(m, "s") == pytest.approx(m.spare_drive_writes, abs=0.02)
    assert not any("larger --budget" in s for s in said)
    # the sweeps' size names its unit (it was "(15 sweep(s) of 0.0050)")
    onset = re.compile(
        r"began after [\d.]+ drive writes of graded rounds \(\d+ sweeps? of [\d.]+ drive writes\)"
    )
    assert any(onset.search(s) for s in said), said
    truth = validation.truth(spec, [0.0]).levels[0]
    zero = m.levels[0]
    assert zero.extra_op_percent == 0
    assert abs(zero.steady_iops / truth.steady_iops - 1) < 0.10, (zero, truth)
    assert abs(zero.waf / truth.waf - 1) < 0.10, (zero, truth)


def test_a_drive_near_the_assumed_spare_measures_about_that(tmp_path):
    """The consumer preset (NAND in GiB sold as GB): the onset comes after about the free space
    the assumption gave, less the blocks its collector keeps."""
    with SimTarget("sim:consumer-tlc-sata@1GiB") as t:
        m = measure(t, design([0, 40], parse_budget("2dw"), onset_from_empty=False))
    assert m.spare_source == SPARE_ONSET
    assert 0.04 < m.spare_drive_writes <= ASSUMED_NATIVE_OP_PERCENT / 100 + 0.01


def _round(host: int, nand: int) -> Round:
    return Round("r", 0.0, 1.0, host, 1.0, None, host_bytes=host, nand_bytes=nand)


def _feed(deltas: list[tuple[int, int]], cap: int = 1000) -> OnsetDetector:
    det = OnsetDetector(cap)
    host = nand = 0
    before = _round(0, 0)
    for dh, dn in deltas:
        host, nand = host + dh, nand + dn
        r = _round(host, nand)
        r.bytes_written = dh
        det.add(before, r)
        before = r
    return det


def test_the_onset_is_dated_through_bursts_and_past_a_stray_move():
    """Garbage collection runs in bursts (rounds without it after it has begun), and a lone
    wear-levelling move before the onset is no onset."""
    # 1000-byte drive: the onset needs 2 bytes of excess within 20 bytes of host writes
    steady = [(10, 10)] * 5
    stray = [(10, 11)]  # one move: 1 byte of excess, then none for more than 20 bytes
    bursts = [(10, 10), (10, 25), (10, 10), (10, 30)]
    det = _feed(steady + stray + steady + bursts)
    assert det.onset_drive_writes == pytest.approx(0.120)  # 12 rounds of 10 before the burst
    assert _feed(steady + stray + steady).onset_drive_writes is None
    assert _feed([(10, 20)] * 3).onset_drive_writes == 0.0  # from the first round


class _NoCounters(SimTarget):
    """A simulated drive that reports no write counters (as a loop device or an NVMe drive
    without a vendor log)."""

    def write_counters(self):  # type: ignore[override]
        return None


class _FoldsCounted(SimTarget):
    """A drive whose NAND counter includes its SLC cache's folding: every host byte is
    programmed twice, so WAF is above 1 before garbage collection starts."""

    def write_counters(self):  # type: ignore[override]
        c = super().write_counters()
        return {"host_bytes": c["host_bytes"], "nand_bytes": c["nand_bytes"] + c["host_bytes"]}


def test_without_counters_the_rounds_fall_back_to_the_assumed_spare_and_say_so():
    plan = design([0, 40], parse_budget("2dw"), onset_from_empty=False)
    assert plan.spare_from == "onset"
    said: list[str] = []
    with _NoCounters("sim:consumer-tlc-sata@1GiB") as t:
        m = measure(t, plan, said.append)
    assert m.spare_source == SPARE_NO_COUNTERS
    assert m.spare_drive_writes == pytest.approx(ASSUMED_NATIVE_OP_PERCENT / 100)
    assert _graded_share(m, "s") == 0
    assert _graded_share(m, "g1") == pytest.approx(ASSUMED_NATIVE_OP_PERCENT / 100, rel=0.05)
    assert any("no write counters" in s and "assumed 7.37% native OP" in s for s in said)
    # a plan designed for a target without counters assumes from the start
    assert design([0, 40], parse_budget("2dw"), write_counters=False).spare_from == "assumed"


def test_nand_writes_above_the_hosts_from_the_first_round_are_no_onset():
    said: list[str] = []
    with _FoldsCounted("sim:consumer-tlc-sata@1GiB") as t:
        m = measure(t, design([0, 40], parse_budget("2dw"), onset_from_empty=False), said.append)
    assert m.spare_source == SPARE_EARLY
    assert m.spare_drive_writes == pytest.approx(ASSUMED_NATIVE_OP_PERCENT / 100)
    written = _graded_share(m, "s") + _graded_share(m, "g1")
    assert written == pytest.approx(ASSUMED_NATIVE_OP_PERCENT / 100, rel=0.05)
    assert any("from the first round after the fill" in s for s in said)


def test_a_budget_that_ends_the_sweeps_first_says_the_level_is_not_steady(tmp_path):
    """Drive 11 needs about 0.24 drive writes of sweeps; 1.85 drive writes leave the first
    level about 0.17 after the later levels' minimum: the free space is a lower bound, and
    calibrate asks for a larger budget."""
    said: list[str] = []
    with SimTarget(_drive(11, tmp_path)) as t:
        m = measure(t, design([0, 40], parse_budget("1.85dw"), onset_from_empty=False), said.append)
    assert m.drive_writes <= 1.85
    assert m.spare_source == SPARE_LOWER_BOUND
    assert m.spare_drive_writes < _native_spare(11) - 0.03
    assert any("not its steady state" in s and "larger --budget" in s for s in said)


def _doc(plan) -> dict:
    return {"target": "sim:x", "capacity_bytes": 1 << 30, "scale_factor": 1.0, "bs_bytes": 4096,
            "qd": 32, "plan": plan.to_dict()}  # fmt: skip


def test_a_stored_graded_plan_without_the_new_fields_sizes_for_the_assumed_spare():
    plan = design([0, 40], parse_budget("2dw"))
    doc = _doc(plan)
    doc["spare_drive_writes"], doc["spare_source"] = 0.2, SPARE_ONSET
    m = measurement_file.check(doc, "m.json")
    assert plan_of(m) == plan and m.spare_drive_writes == 0.2
    old = _doc(plan)
    del old["plan"]["spare_from"], old["plan"]["sweep_drive_writes"]
    got = plan_of(measurement_file.check(old, "m.json"))
    assert got is not None and got.precondition == "graded" and got.spare_from == "assumed"
    bad = _doc(plan)
    bad["plan"]["spare_from"] = "guessed"
    with pytest.raises(InputError, match=r"m.json: plan.spare_from: 'guessed'"):
        measurement_file.check(bad, "m.json")
    bad = _doc(plan)
    bad["spare_drive_writes"] = -0.1
    with pytest.raises(InputError, match=r"spare_drive_writes"):
        measurement_file.check(bad, "m.json")


def test_a_resumed_graded_run_keeps_the_measured_spare_and_its_first_level():
    """Stopped right after its first level is kept, the graded run resumes with the stored
    plan: the first level and its measured free space are kept, the second level runs its one
    pass (no sweeps), and the run ends complete within the budget (which holds the second fill
    a resumed simulated drive needs: its state is not stored)."""
    plan = design([0, 40], parse_budget("3.2dw"), precondition="graded", onset_from_empty=False)
    kept: list = []

    def journal(m) -> None:
        kept.append(m)
        if len(m.levels) == 1:
            raise KeyboardInterrupt

    with SimTarget("sim:consumer-tlc-sata@1GiB") as t, pytest.raises(KeyboardInterrupt):
        measure(t, plan, journal=journal)
    doc = kept[-1].to_dict()
    stored = measurement_file.check(doc, "m.json")
    assert stored.status == "interrupted" and stored.spare_source == SPARE_ONSET
    spare = stored.spare_drive_writes
    with SimTarget("sim:consumer-tlc-sata@1GiB") as t:
        m = measure(t, plan_of(stored), resume=stored)
    assert m.status == "complete" and m.spare_drive_writes == spare
    assert [lv.extra_op_percent for lv in m.levels] == [0, 40, 40]
    resumed = [r for r in m.rounds if r.run == 1]
    assert resumed and not any("-s" in r.label for r in resumed)
    assert any(r.label.startswith("op40-g1") for r in resumed)
    assert m.drive_writes <= 3.2


def test_the_sweeps_write_each_prefix_its_share_though_a_round_has_a_floor(tmp_path):
    """A round lasts at least the target's shortest, so the smallest prefixes' rounds (a
    sixteenth of the largest's share and less) wrote that floor instead of their share: on
    generated drive 37 at 1 GiB the smallest prefix got 7.2 times its share (2 GiB: 5.1), the
    oldest fill blocks far more invalidation than the design's linear profile. Each prefix now
    carries what it is owed across sweeps (``SweepAccount``): its share to within 20%."""
    from overprov.calibrate.precondition import graded_rounds

    with SimTarget(_drive(37, tmp_path)) as t:
        m = measure(t, design([0, 40], parse_budget("2dw"), onset_from_empty=False))
    assert m.spare_source == SPARE_ONSET
    shares = prefix_shares(m)
    ideal = graded_rounds(0.0, sum(shares.values()))
    assert sorted(shares) == list(range(1, len(ideal) + 1))
    for k, wrote in shares.items():
        assert wrote == pytest.approx(ideal[k - 1].drive_writes, rel=0.2), (k, shares)


def test_a_sweep_account_pays_back_a_floor_rounds_overshoot():
    """Shares below the floor: a round writes the floor, and the prefix skips sweeps until it
    is owed half a floor again; after any sweep it is within one floor of its shares."""
    from overprov.calibrate.graded_run import SweepAccount
    from overprov.calibrate.precondition import graded_rounds

    steps = graded_rounds(0.0, 0.005)
    floor = 4 * steps[-1].drive_writes  # the smallest prefix's share is a quarter of a floor
    acc = SweepAccount(steps, floor)
    for n in range(1, 41):
        acc.next_sweep()
        for i in range(len(steps)):
            share = acc.due(i)
            if share is not None:
                acc.wrote(i, max(share, floor))
        for i, step in enumerate(steps):
            assert abs(acc.written[i] - n * step.drive_writes) <= floor, (n, i)
    assert acc.due(len(steps) - 1) is None or acc.owed[-1] >= 0.5 * floor


def test_a_drive_with_much_spare_and_a_cost_benefit_collector_reads_its_steady_zero_level(
    tmp_path,
):
    """Generated drive 37 (26.3% native OP, cost-benefit victims) at 2 GiB: with the smallest
    prefixes' rounds at their floor, its 0% window read WAF +6.5% and IOPS -5.1% against the
    truth (the collector took the over-invalidated oldest fill blocks first, then climbed through
    the rest); with each prefix at its share, within 3% (-0.2% and +1.2%)."""
    spec = f"sim:{validation.write_drive(37, tmp_path)}@"
    spec += validation.scale_for(validation.drive(37), 2 * GIB)
    truth = validation.truth(spec, [0.0]).levels[0]
    with SimTarget(spec) as t:
        m = measure(t, design([0, 40], parse_budget("2dw"), onset_from_empty=False))
    zero = m.levels[0]
    assert m.drive_writes <= 2.0
    assert abs(zero.waf / truth.waf - 1) < 0.03, (zero.waf, truth.waf)
    assert abs(zero.steady_iops / truth.steady_iops - 1) < 0.03, (zero.steady_iops, truth)
