"""Data placement through the CLI (--fdp, --fdp-isolation, --fdp-ranges, sequential zones) and
the two validation shapes of docs/fdp.md on small drives: the flash cache (CacheLib, EuroSys
'25) and the noisy reclaim-unit handle (WARP, FAST '26)."""

from __future__ import annotations

import json

import pytest
from overprov import engine, fdp_validation
from overprov.errors import ConfigError
from overprov.json_schemas import validate_document
from overprov.placement_options import parse_ranges
from overprov.workload_options import parse_zones

SMALL = ("--user-pages", "16384", "--pages-per-block", "64", "--rho", "0.17", "--warmup", "2",
         "--drive-writes", "2", "--no-progress")  # fmt: skip
SMALL_PAGES = 1 << 14


def _runs(overprov_cli, tmp_path, *args):
    out = tmp_path / "runs.json"
    rc, text, err = overprov_cli("simulate", *SMALL, *args, "--json", str(out))
    assert rc == 0, err
    doc = json.loads(out.read_text())
    validate_document(doc, "overprov.simulate", str(out))
    return doc["runs"], text


def test_fdp_gives_each_stream_a_handle_and_reports_it(overprov_cli, tmp_path):
    runs, text = _runs(
        overprov_cli, tmp_path, "--zones", "60/5:40/95/seq", "--precondition", "none", "--fdp"
    )
    run = runs[0]
    p = run["placement"]
    assert p["isolation"] == "initially-isolated" and p["source"] == "workload"
    assert [h["id"] for h in p["handles"]] == [0, 1]
    assert abs(p["handles"][0]["host_share_percent"] - 60) < 1
    assert sum(h["host_pages"] for h in p["handles"]) == run["measured"]["host_pages"]
    assert sum(h["relocated_pages"] for h in p["handles"]) == run["measured"]["gc_pages"]
    assert run["config"]["workload"]["zones"][1]["sequential"] is True
    assert "data placement" in text and "initially-isolated" in text
    # the same workload on one frontier amplifies more
    off, text_off = _runs(overprov_cli, tmp_path, "--zones", "60/5:40/95/seq", "--precondition",
                          "none")  # fmt: skip
    assert "placement" not in off[0] and "data placement" not in text_off
    assert off[0]["measured"]["waf"] > run["measured"]["waf"] + 0.5


def test_ranges_and_isolation_flags_reach_the_core(overprov_cli, tmp_path):
    runs, _ = _runs(
        overprov_cli, tmp_path, "--fdp", "--fdp-ranges", "0-25=1,25-100=2",
        "--fdp-isolation", "persistently-isolated", "--timed", "--interval-s", "0.5",
    )  # fmt: skip
    p = runs[0]["placement"]
    assert (p["isolation"], p["source"]) == ("persistently-isolated", "ranges")
    assert [h["host_pages"] > 0 for h in p["handles"]] == [False, True, True]
    assert abs(p["handles"][1]["host_share_percent"] - 25) < 1.5


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--fdp-isolation", "persistently-isolated"), "--fdp-isolation: only with --fdp"),
        (("--fdp", "--fdp-ranges", "0-5"), "--fdp-ranges"),
        (("--fdp", "--fdp-ranges", "0-60=0,50-100=1"), "placement.ranges[1]"),
        (("--fdp", "--fdp-isolation", "sometimes"), "--fdp-isolation"),
        (("--zones", "50/5:50/95/backwards"), "--zones"),
        (("--fdp", "--streams", "workload", "--hot", "80/20"), "ftl.host_streams"),
    ],
)
def test_bad_placement_flags_name_the_flag_or_field(overprov_cli, args, needle):
    rc, _, err = overprov_cli("simulate", *SMALL, *args)
    assert rc == 2 and needle in err, err


def test_zone_and_range_syntax():
    assert parse_zones("60/5:40/95/seq", "--zones") == [
        {"access_percent": 60.0, "space_percent": 5.0},
        {"access_percent": 40.0, "space_percent": 95.0, "sequential": True},
    ]
    assert parse_zones("50/50/rand:50/50", "--zones")[0] == {
        "access_percent": 50.0,
        "space_percent": 50.0,
    }
    with pytest.raises(ConfigError, match="zone 1"):
        parse_zones("1/2/3/4", "--zones")
    assert parse_ranges("0-5=0, 5-100=3") == [
        {"start_percent": 0.0, "end_percent": 5.0, "id": 0},
        {"start_percent": 5.0, "end_percent": 100.0, "id": 3},
    ]
    with pytest.raises(ConfigError, match="whole number"):
        parse_ranges("0-5=x")


def test_flash_cache_shape():
    """FDP keeps WAF near 1 at full utilisation where the shared frontier amplifies ≥ 2.5; at
    50% utilisation the gap closes (published 1.03/3.22 and 1.03/1.22)."""
    rows = {(r["utilisation_percent"], r["fdp"]): r["waf"]
            for r in fdp_validation.run_flash_cache(SMALL_PAGES)}  # fmt: skip
    assert rows[(100, True)] <= 1.1, rows
    assert rows[(100, False)] >= 2.5, rows
    assert rows[(50, True)] <= 1.1, rows
    gap_full = rows[(100, False)] - rows[(100, True)]
    gap_half = rows[(50, False)] - rows[(50, True)]
    assert 0 <= gap_half < gap_full / 4, rows


def test_noisy_handle_shape():
    """Initially isolated handles amplify ≥ 2 and more than persistently isolated ones (the
    direction WARP measured); the cold handle pays for the hot one's invalidations."""
    rows = {r["isolation"]: r for r in fdp_validation.run_adversarial(SMALL_PAGES)}
    init, pers = rows["initially-isolated"], rows["persistently-isolated"]
    assert init["waf"] >= 2, rows
    assert pers["waf"] < init["waf"], rows
    assert init["handle_waf"][2] > 2 * pers["handle_waf"][2], rows
    assert rows["none"]["waf"] > init["waf"], rows


def test_library_refuses_placement_with_several_jobs():
    cfg = fdp_validation.adversarial_config("initially-isolated", SMALL_PAGES)
    cfg["timing"] = {"enabled": True, "host": {"numjobs": 2}}
    with pytest.raises(ConfigError, match="placement"):
        engine.validate(cfg)


PLAN = ("plan", "--capacity", "960GB", "--pages-per-block", "64", "--extra-op", "0,20,40")


def test_plan_says_how_much_of_the_drive_fdp_gives_back(overprov_cli, tmp_path):
    out = tmp_path / "plan.json"
    fdp = ("--simulate", "--placement", "fdp", "--zones", "60/5:40/95/seq")
    rc, text, err = overprov_cli(*PLAN, *fdp, "--target-dwpd", "0.5", "--json", str(out))
    assert rc == 0, err
    doc = json.loads(out.read_text())
    validate_document(doc, "overprov.plan", str(out))
    without = doc["placement"]["without"]
    # the same workload on one frontier needs more OP for the same DWPD
    assert without["target_dwpd_extra_op_percent"] > doc["target_dwpd_extra_op_percent"] + 10
    points = doc["placement"]["target_dwpd_give_back_percent"]
    assert points == round(
        without["target_dwpd_extra_op_percent"] - doc["target_dwpd_extra_op_percent"], 1
    )
    assert f"FDP lets you give back {points:.1f} % of the drive" in text
    assert "Without data placement:" in text and "FDP handle per stream" in text
    assert [r["waf"] for r in doc["rows"]] < [r["waf"] for r in without["rows"]]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--placement", "fdp", "--zones", "60/5:40/95/seq"), "--placement: only with --simulate"),
        (("--simulate", "--placement", "fdp"), "--placement fdp: give the streams with --zones"),
        (
            ("--simulate", "--zones", "60/5:40/95", "--fdp-isolation", "persistently-isolated"),
            "--fdp-isolation: only with --placement fdp",
        ),  # fmt: skip
        (("--simulate", "--placement", "sometimes"), "--placement"),
    ],
)
def test_plan_placement_flags_are_never_ignored(overprov_cli, args, needle):
    rc, _, err = overprov_cli(*PLAN, *args)
    assert rc == 2 and needle in err, err


def test_a_config_file_sets_placement_and_sequential_zones(overprov_cli, tmp_path):
    toml = tmp_path / "fdp.toml"
    toml.write_text(
        '[placement]\nenabled = true\nisolation = "persistently-isolated"\n'
        '[workload]\npattern = "zoned"\nzones = [{access_percent = 60, space_percent = 5}, '
        "{access_percent = 40, space_percent = 95, sequential = true}]\n"
    )
    runs, _ = _runs(overprov_cli, tmp_path, "--config", str(toml))
    p = runs[0]["placement"]
    assert p["isolation"] == "persistently-isolated" and len(p["handles"]) == 2
    toml.write_text("[placement]\nenabeld = true\n")
    rc, _, err = overprov_cli("simulate", *SMALL, "--config", str(toml))
    assert rc == 2 and "enabeld" in err, err
