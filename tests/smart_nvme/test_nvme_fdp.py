"""FDP: the events log read from nvme-cli's output (text and JSON, written per
src/nvme-print-stdout.c stdout_fdp_events and src/nvme-print-json.c json_nvme_fdp_events), and
the endurance group's extra media writes split by reclaim-unit handle with bounds that state the
error. Every figure below is worked by hand from tests/data/nvme-vendor-from-source/fdp-*.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from overprov.smart.fdp import handle_estimates, parse_fdp_events
from overprov.smart.nvme_logs import NvmeLogError, parse_nvme_log

FROM_SOURCE = Path(__file__).resolve().parents[1] / "data" / "nvme-vendor-from-source"
FDP_EVENTS_SAMPLES = ("fdp-events.txt", "fdp-events.json")

# fdp-events.*: Media Reallocated moves of 40,000 + 20,000 (handle 1), 10,000 (handle 2) and
# 30,000 (handle 0) logical blocks, and one Reclaim Unit Not Fully Written event
MOVES = {1: 60_000, 2: 10_000, 0: 30_000}
# fdp-stats.*: HBMW 4.0e12, MBMW 5.2e12: 1.2e12 B of extra media writes
HOST, MEDIA = 4_000_000_000_000, 5_200_000_000_000


def _stats():
    return parse_nvme_log((FROM_SOURCE / "fdp-stats.txt").read_text(), "fdp-stats.txt")


def test_text_events_carry_their_handle():
    events = parse_fdp_events((FROM_SOURCE / "fdp-events.txt").read_text(), "e.txt")
    assert len(events) == 5
    moved = [e for e in events if e.type == 0x80]
    assert [(e.ruhid, e.nlbam) for e in moved] == [
        (1, 40_000),
        (1, 20_000),
        (2, 10_000),
        (0, 30_000),
    ]
    assert {e.handle for e in moved} == {"RG 0 / RUH 0", "RG 0 / RUH 1", "RG 0 / RUH 2"}
    assert events[3].type == 0 and events[3].nlbam is None


def test_json_events_are_grouped_by_placement_identifier():
    # nvme-cli's JSON has no reclaim group or handle: the placement identifier names it
    events = parse_fdp_events((FROM_SOURCE / "fdp-events.json").read_text(), "e.json")
    est = handle_estimates(events, _stats(), None)
    assert {h["handle"]: h["lbas_moved"] for h in est["handles"]} == {
        "PID 0x0": 30_000,
        "PID 0x1": 60_000,
        "PID 0x2": 10_000,
    }
    assert any("--lba-size" in n for n in est["notes"])
    assert all(h["gc_bytes_estimate"] is None for h in est["handles"])


def test_the_split_and_its_bounds_by_hand():
    events = parse_fdp_events((FROM_SOURCE / "fdp-events.txt").read_text(), "e.txt")
    est = handle_estimates(events, _stats(), 4096)
    extra = MEDIA - HOST  # 1.2e12
    explained = 100_000 * 4096  # 409,600,000 B
    assert est["extra_media_bytes"] == extra and est["explained_bytes"] == explained
    by = {h["handle"]: h for h in est["handles"]}
    h1 = by["RG 0 / RUH 1"]
    assert h1["share_of_moves"] == pytest.approx(0.6)
    assert h1["moved_bytes"] == 60_000 * 4096
    assert h1["gc_bytes_estimate"] == pytest.approx(0.6 * extra)  # 7.2e11
    assert h1["gc_bytes_low"] == 60_000 * 4096
    assert h1["gc_bytes_high"] == pytest.approx(60_000 * 4096 + extra - explained)
    assert h1["waf_term"] == pytest.approx(0.6 * extra / HOST)  # 0.18
    # the terms add up to the group's WAF - 1 = 0.3
    assert sum(h["waf_term"] for h in est["handles"]) == pytest.approx(MEDIA / HOST - 1)
    assert "0.0341%" in est["error"]  # 409.6e6 / 1.2e12 of the extra writes


def test_events_that_explain_more_than_the_extra_writes_give_no_bounds():
    text = (
        "Event[0]\n  Event Type: 0x80 (Media Reallocated)\n"
        "  Number of LBAs Moved (NLBAM): 65535\n"
        "  Reclaim Group Identifier: 0\n  Reclaim Unit Handle Identifier 3\n\n"
    )
    stats = parse_nvme_log(
        "Host Bytes with Metadata Written (HBMW): 1,000,000\n"
        "Media Bytes with Metadata Written (MBMW): 1,100,000\n",
        "s.txt",
    )
    est = handle_estimates(parse_fdp_events(text, "e.txt"), stats, 4096)
    assert est["error"] is None and est["handles"][0]["gc_bytes_estimate"] is None
    assert any("different windows" in n for n in est["notes"])


def test_media_not_above_host_leaves_nothing_to_split():
    stats = parse_nvme_log(
        "Host Bytes with Metadata Written (HBMW): 2,000\n"
        "Media Bytes with Metadata Written (MBMW): 1,000\n",
        "s.txt",
    )
    events = parse_fdp_events((FROM_SOURCE / "fdp-events.txt").read_text(), "e.txt")
    est = handle_estimates(events, stats, 512)
    assert any("not above host bytes" in n for n in est["notes"])
    assert all(h["waf_term"] is None for h in est["handles"])


def test_a_broken_events_output_is_refused_by_name():
    with pytest.raises(NvmeLogError, match="x.txt: no 'Event"):
        parse_fdp_events("something else\n", "x.txt")
    with pytest.raises(NvmeLogError, match=r"x.json: events\[0\].nlbam"):
        parse_fdp_events(json.dumps({"events": [{"type": 128, "nlbam": -1}]}), "x.json")


def test_the_cli_reports_the_handles(overprov_cli, tmp_path):
    out = tmp_path / "r.json"
    rc, stdout, err = overprov_cli(
        "smart",
        "--nvme-log",
        str(FROM_SOURCE / "fdp-stats.json"),
        "--fdp-events",
        str(FROM_SOURCE / "fdp-events.txt"),
        "--lba-size",
        "4KiB",
        "--json",
        str(out),
    )
    assert rc == 0, err
    assert "lifetime WAF: 1.300" in stdout and "RG 0 / RUH 1: 2 events" in stdout
    doc = json.loads(out.read_text())
    assert doc["waf"] == pytest.approx(1.3)
    assert doc["fdp_handles"]["lba_bytes"] == 4096
    assert len(doc["fdp_handles"]["handles"]) == 3


@pytest.mark.parametrize(
    "argv, named",
    [
        (["smart", "--lba-size", "4096", "--nvme-log", "F"], "--lba-size"),
        (["smart-nvme", "--device", "/dev/nvme0", "--fdp-events", "E"], "--fdp-events"),
        (["smart", "snapshot.json", "--fdp-events", "E"], "--fdp-events"),
    ],
)
def test_an_fdp_flag_that_would_be_ignored_is_refused(overprov_cli, argv, named):
    argv = [str(FROM_SOURCE / "fdp-stats.txt") if a == "F" else a for a in argv]
    rc, _, err = overprov_cli(*argv)
    assert rc == 2 and named in err


def test_events_beside_a_log_that_is_not_fdp_statistics_give_shares_only():
    other = parse_nvme_log((FROM_SOURCE / "ibm-crit-log.txt").read_text(), "ibm.txt")
    events = parse_fdp_events((FROM_SOURCE / "fdp-events.txt").read_text(), "e.txt")
    est = handle_estimates(events, other, 4096)
    assert any("not the FDP statistics" in n for n in est["notes"])
    assert est["extra_media_bytes"] is None
    assert [h["share_of_moves"] for h in est["handles"]] == pytest.approx([0.3, 0.6, 0.1])
