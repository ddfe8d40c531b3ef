"""bench/foreign/mqsim_pairing.py: a queue model of MQSim's multi-plane command formation, and
overprov's core configured as MQSim's drive (no MQSim run)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "foreign"))
import mqsim_pairing  # noqa: E402


def test_host_writes_pair_at_one_page_offset_only_when_many_wait():
    # no valid page to move (WAF 1): only host writes are programmed, and two writes on the
    # two planes pair only at one page offset of 32, so pairing needs a deep queue
    deep = mqsim_pairing.scheduler_model(32, 320, 1.0, 128, host_writes=3000, warmup=500)
    shallow = mqsim_pairing.scheduler_model(32, 320, 1.0, 2, host_writes=3000, warmup=500)
    assert deep["share_programs"] > 0.8, deep
    assert shallow["share_programs"] < 0.1, shallow
    assert deep["waf"] == pytest.approx(1.0)
    # a paired command programs two host pages in one program time
    assert deep["iops"] > 1.6 * shallow["iops"]


def test_the_model_programs_the_pages_the_waf_asks_for():
    r = mqsim_pairing.scheduler_model(32, 320, 2.5, 32, host_writes=3000, warmup=1000)
    assert r["waf"] == pytest.approx(2.5, rel=0.08)
    assert 0.0 <= r["overlap"] <= 1.0
    # at least a program a host write, and no more than the die time of one a page allows
    assert r["iops"] < 1e6 / (2.5 * 750 / 2)


def test_the_line_through_the_end_levels_misses_nothing_on_a_line():
    pts = [(1e6 / (100 + w * 500), w) for w in (19.3, 4.4, 2.5, 1.8, 1.45)]
    assert mqsim_pairing.line_errors(pts) == pytest.approx([0.0, 0.0, 0.0], abs=1e-12)
    bent = [pts[0], (pts[1][0] * 0.8, pts[1][1]), *pts[2:]]
    assert mqsim_pairing.line_errors(bent)[0] == pytest.approx(1 / 0.8 - 1)


def test_drive_names_give_their_geometry():
    assert mqsim_pairing.drive_geometry("u512x32") == (512, 32)
    assert mqsim_pairing.drive_geometry("u1024x32-op12") == (1024, 32)
    assert mqsim_pairing.drive_geometry("u320x32-qd") == (320, 32)
    assert mqsim_pairing.drive_geometry("qd-u640x16") == (640, 16)
    with pytest.raises(ValueError, match="BLOCKSxPAGES"):
        mqsim_pairing.drive_geometry("mqsim")


ALL_VARIANTS = {
    **mqsim_pairing.TWIN_VARIANTS,
    **mqsim_pairing.HOLD_VARIANTS,
    **mqsim_pairing.AT_TRIGGER_VARIANTS,
    **mqsim_pairing.COLLECTIONS_FIRST_VARIANTS,
}


@pytest.mark.parametrize("variant", list(ALL_VARIANTS))
def test_the_twin_on_mqsims_geometry_is_a_valid_core_config(variant):
    from overprov import engine

    planes, offsets, trigger, hold, *more = ALL_VARIANTS[variant]
    cfg = mqsim_pairing.twin_config(64, 32, 10, 32, planes, offsets, trigger, hold, *more)
    engine.check(cfg)
    pools, at_trigger, first = (*more, False, False, False)[:3]
    assert cfg["ftl"].get("plane_pools", 0) == (planes if pools else 0)
    assert (trigger == "victim") if pools else True
    assert cfg["timing"]["gc"].get("relocations_at_trigger", False) == at_trigger
    assert at_trigger == ("relocations at trigger" in variant)
    assert cfg["timing"]["gc"].get("collections_first", False) == first
    assert first == variant.endswith("collections first")
    nand, gc = cfg["timing"]["nand"], cfg["timing"]["gc"]
    assert (nand["planes_per_die"], nand["program_us"], nand["erase_us"]) == (planes, 750.0, 3800.0)
    assert gc.get("multiplane_offsets", 0) == (32 if offsets < 0 else offsets)
    assert gc.get("erase_hold", False) == hold == variant.endswith("erase hold")


def test_the_implied_share_is_the_one_plane_page_time_over_the_cases():
    held = "two planes, one offset, writer's plane, erase hold, QD32"
    doc = {"cases": {
        "one plane, QD32": {"page_time_us": [900.0, 900.0]},
        held: {"page_time_us": [600.0, 900.0]},
        "two planes, one offset, writer's plane, QD4": {"page_time_us": [600.0, 600.0]},
    }}  # fmt: skip
    assert mqsim_pairing.implied_shares(doc) == {held: [0.5, 0.0]}


def test_a_collection_holding_the_die_keeps_the_middle_levels_unpaired():
    # at a middle level (WAF 4.4, QD32) the queued erase holds every host program that is not
    # a relocation's partner: few pairs; lifted, host writes pair among themselves meanwhile
    held = mqsim_pairing.scheduler_model(32, 320, 4.4, 32, host_writes=3000, warmup=1000)
    lifted = mqsim_pairing.scheduler_model(
        32, 320, 4.4, 32, host_writes=3000, warmup=1000, erase_holds_programs=False
    )
    assert held["share_programs"] < 0.35 < 0.5 < lifted["share_programs"], (held, lifted)
    assert lifted["iops"] > 1.1 * held["iops"]


def test_writes_queued_ahead_of_a_collection_make_the_planes_collect_together():
    # bench/foreign/results/mqmid/DIAGNOSIS.md: in MQSim's order the writes queued at a
    # collection's start wait behind it and the planes rarely collect at once; programmed first
    # (the core's request order), their replacements drain the other plane and both collect
    mqsim_order = mqsim_pairing.scheduler_model(32, 512, 4.4, 32, host_writes=3000, warmup=1000)
    core_order = mqsim_pairing.scheduler_model(
        32, 512, 4.4, 32, host_writes=3000, warmup=1000, queued_first=True
    )
    assert mqsim_order["overlap"] < 0.3 < 0.9 < core_order["overlap"], (mqsim_order, core_order)
    assert core_order["share_programs"] > mqsim_order["share_programs"] + 0.2


def test_the_trace_records_each_command_and_leaves_the_figures_unchanged():
    # bench/foreign/results/mqorder/diag.py: one tuple a command, the run's figures as without
    trace: list = []
    traced = mqsim_pairing.scheduler_model(16, 320, 4.0, 32, 1500, 500, 2, trace=trace)
    plain = mqsim_pairing.scheduler_model(16, 320, 4.0, 32, 1500, 500, 2)
    assert traced == plain
    kinds = {x[1] for x in trace}
    assert kinds == {"r", "p", "e"}
    assert all(x[0] <= y[0] for x, y in zip(trace, trace[1:], strict=False))
    programs = [x for x in trace if x[1] == "p"]
    # host pages programmed: every write the run completed (warm-up included, the first QD
    # queued ones too), each command one or two pages of at most two planes
    assert sum(x[3] for x in programs) == 2000
    assert all(1 <= x[2] <= 2 and 0 <= x[3] <= x[2] and x[10] in (0, 1) for x in trace)


def test_the_valid_share_keeps_the_mean_of_the_victims_collected():
    # rga_empty_picks: Binomial(n, q) victims, those with every page valid left, average the
    # valid pages the WAF asks for
    n, mean = 32, 32 * (1 - 1 / 19.3)
    q = mqsim_pairing.page_valid_share(n, mean)
    assert (n * q - n * q**n) / (1 - q**n) == pytest.approx(mean, rel=1e-9)
    assert 1 - 1 / 19.3 < q < 1
    # at a middle level a victim without an invalid page is all but impossible
    assert mqsim_pairing.page_valid_share(32, 32 * (1 - 1 / 4.4)) ** 32 < 1e-3


def test_rga_empty_picks_spend_checks_at_zero_percent_only():
    # bench/foreign/results/mqstatic/DIAGNOSIS.md: a pick with no invalid page starts no
    # collection (MQSim l. 143); at WAF 19 about a third of the draws, at WAF 4.4 none
    full = mqsim_pairing.scheduler_model(
        32, 320, 19.3, 32, host_writes=1500, warmup=500, rga_empty_picks=True
    )
    assert full["empty_picks_per_start"] > 0.2, full
    assert full["waf"] == pytest.approx(19.3, rel=0.1)
    middle = mqsim_pairing.scheduler_model(
        32, 320, 4.4, 32, host_writes=3000, warmup=1000, rga_empty_picks=True
    )
    assert middle["empty_picks_per_start"] == 0.0
    assert middle["waf"] == pytest.approx(4.4, rel=0.08)
    # off, the figures are those of the model without the option (no key added)
    plain = mqsim_pairing.scheduler_model(32, 320, 4.4, 32, host_writes=3000, warmup=1000)
    assert "empty_picks_per_start" not in plain
