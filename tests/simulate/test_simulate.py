"""`overprov simulate` as a user runs it: flags, TOML config, sweeps, JSON, errors.

Expected WAF figures are the published models' values (docs/concepts.md).
"""

from __future__ import annotations

import io
import json

import pytest
from overprov import engine, progress
from overprov.errors import ConfigError

SMALL = ("--user-pages", "262144", "--warmup", "3", "--drive-writes", "2", "--no-progress")


def test_op_sweep_matches_published_greedy_figures(overprov_cli, tmp_path):
    out_json = tmp_path / "runs.json"
    rc, out, err = overprov_cli(
        "simulate", *SMALL, "--pages-per-block", "64", "--rho", "0.28,1.0", "--json", str(out_json)
    )
    assert rc == 0, err
    assert "ρ = (T−U)/U" in out and "greedy" in out
    runs = json.loads(out_json.read_text())["runs"]
    assert [round(r["geometry"]["rho"], 2) for r in runs] == [0.28, 1.0]
    for run, published in zip(runs, (2.403, 1.239), strict=True):
        waf = run["measured"]["waf"]
        assert abs(waf - published) / published < 0.02, (waf, published)
        # per-interval WAF is recorded through every phase, 1% of capacity each
        measure = [i for i in run["intervals"] if i["phase"] == "measure"]
        # 1% of 262,144 pages rounds to 2,621: 200 whole intervals and a partial last one
        assert len(measure) == 201
        assert {i["delta"]["host_pages"] for i in measure[:-1]} == {2621}
        assert sum(i["delta"]["host_pages"] for i in measure) == 2 * 262144
        assert all(i["delta"]["waf"] >= 1.0 for i in measure)
    # the table prints the same measured figure the JSON holds
    assert f"{runs[0]['measured']['waf']:.3f}" in out


def test_extra_op_sweep_on_an_advertised_drive(overprov_cli, tmp_path):
    out_json = tmp_path / "x.json"
    rc, out, err = overprov_cli(
        "simulate",
        "--advertised",
        "2G",
        "--extra-op",
        "0,20",
        "--warmup",
        "2",
        "--drive-writes",
        "1",
        "--no-progress",
        "--json",
        str(out_json),
    )
    assert rc == 0, err
    runs = json.loads(out_json.read_text())["runs"]
    # 0% extra OP leaves the 7.37% hidden OP; 20% gives 1.0737/0.8 − 1 = 0.342
    assert abs(runs[0]["geometry"]["rho"] - 0.0737) < 0.002
    assert abs(runs[1]["geometry"]["rho"] - 0.3421) < 0.002
    assert runs[1]["measured"]["waf"] < runs[0]["measured"]["waf"]
    assert "20%" in out


def test_toml_config_with_flag_override(overprov_cli, tmp_path):
    cfg = tmp_path / "drive.toml"
    cfg.write_text(
        """
[geometry]
user_pages = 65536
op_ratio = 0.5
pages_per_block = 64

[ftl]
policy = "fifo"

[workload]
pattern = "sequential"

[run]
drive_writes = 1
warmup_drive_writes = 1
"""
    )
    out_json = tmp_path / "r.json"
    rc, out, err = overprov_cli(
        "simulate",
        "--config",
        str(cfg),
        "--workload",
        "uniform",
        "--no-progress",
        "--json",
        str(out_json),
    )
    assert rc == 0, err
    run = json.loads(out_json.read_text())["runs"][0]
    assert run["config"]["ftl"]["policy"] == "fifo"
    assert run["config"]["workload"]["pattern"] == "uniform"  # the flag won
    assert run["geometry"]["user_pages"] == 65536
    assert run["measured"]["waf"] > 1.3  # random writes at ρ=0.5 do amplify (FIFO model 1.716)


def test_sequential_workload_has_waf_one(overprov_cli, tmp_path):
    out_json = tmp_path / "s.json"
    rc, _, err = overprov_cli(
        "simulate", *SMALL, "--workload", "sequential", "--rho", "0.0737", "--json", str(out_json)
    )
    assert rc == 0, err
    assert json.loads(out_json.read_text())["runs"][0]["measured"]["waf"] == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("toml", "field"),
    [
        ('[ftl]\npolicy = "smartest"\n', "ftl.policy"),
        ("[ftl]\npolcy = 1\n", "polcy"),
        ("[workload]\nspan_percent = 0\n", "workload.span_percent"),
        ("[geometry]\npages_per_block = 0\n", "geometry.pages_per_block"),
        ("[run]\ndrive_writes = 'many'\n", "run.drive_writes"),
    ],
)
def test_bad_config_names_the_field(overprov_cli, tmp_path, toml, field):
    cfg = tmp_path / "bad.toml"
    cfg.write_text(toml)
    rc, out, err = overprov_cli("simulate", "--config", str(cfg), "--no-progress")
    assert rc == 2
    assert field in err, err
    assert "panic" not in err.lower() and "Traceback" not in err


def test_toml_syntax_error_names_file_and_line(overprov_cli, tmp_path):
    cfg = tmp_path / "broken.toml"
    cfg.write_text("[geometry]\nuser_pages = = 3\n")
    rc, _, err = overprov_cli("simulate", "--config", str(cfg))
    assert rc == 2 and "broken.toml" in err and "broken.toml:2)" in err, err


def test_op_too_small_is_refused_before_running(overprov_cli):
    rc, _, err = overprov_cli(
        "simulate", "--physical-blocks", "103", "--pages-per-block", "64", "--user-pages", "6400"
    )
    assert rc == 2 and "OP too small to collect garbage" in err, err


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--zones", "50/5:oops"), "--zones"),
        (("--hot", "80"), "--hot"),
        (("--bs", "4q"), "--bs"),
        (("--rho", "0.2,x"), "--rho"),
        (("--rho", "0.2", "--extra-op", "10"), "--extra-op"),
        (("--advertised", "12 parsecs", "--extra-op", "10"), "--advertised"),
        (("--zones-scattered",), "--zones-scattered"),
    ],
)
def test_bad_flags_name_the_flag(overprov_cli, args, needle):
    rc, _, err = overprov_cli("simulate", *args)
    assert rc == 2 and needle in err, err


def test_workload_kinds_run_and_report(tmp_path):
    base = {
        "geometry": {"user_pages": 32768, "op_ratio": 0.2, "pages_per_block": 64},
        "run": {"warmup_drive_writes": 1, "drive_writes": 1},
    }
    for workload in (
        {"pattern": "jesd219"},
        {"pattern": "zipf", "zipf_theta": 0.9},
        {"pattern": "hot-cold", "random_map": True},
        {"pattern": "uniform", "read_percent": 30, "trim_percent": 5, "request_bytes": 16384},
    ):
        rep = engine.run(engine.merge(base, {"workload": workload}))
        m = rep["measured"]
        assert rep["done"] and m["host_pages"] >= 32768 and m["waf"] >= 1.0, workload
        if workload["pattern"] == "jesd219":
            # sub-4K writes rewrite a whole page: byte WAF exceeds page WAF
            assert m["waf"] > m["ftl_waf"]
        if "read_percent" in workload:
            assert rep["read_pages"] > 0 and rep["totals"]["trimmed_pages"] > 0


def test_a_scattered_static_zone_is_collected_a_zone_in_order_is_not():
    # half the span written once by the fill and never again: in LBA order it fills whole
    # blocks greedy GC never picks; scattered, it shares blocks with the hot half and is moved
    base = {
        "geometry": {"user_pages": 32768, "op_ratio": 0.2, "pages_per_block": 64},
        "run": {"warmup_drive_writes": 1, "drive_writes": 1},
    }
    static = [
        {"access_percent": 0, "space_percent": 50},
        {"access_percent": 100, "space_percent": 50},
    ]
    waf = {}
    for scattered in (False, True):
        w = {"pattern": "zoned", "zones": static, "zones_scattered": scattered}
        waf[scattered] = engine.run(engine.merge(base, {"workload": w}))["measured"]["waf"]
    assert waf[True] > 1.5 * waf[False], waf


def test_progress_bar_draws_phases():
    buf = io.StringIO()
    bar = progress.ProgressBar("run 1/1", stream=buf, force=True)
    engine.run(
        {"geometry": {"user_pages": 65536}, "run": {"drive_writes": 1, "warmup_drive_writes": 1}},
        progress=bar,
        chunk_pages=16384,
    )
    text = buf.getvalue()
    assert "precondition" in text and "measure" in text and "100.0%" in text


def test_library_raises_config_error_not_a_panic():
    with pytest.raises(ConfigError, match="geometry.pages_per_block"):
        engine.run({"geometry": {"pages_per_block": 0}})
    with pytest.raises(ConfigError, match="workload.zones"):
        engine.validate({"workload": {"pattern": "zoned"}})


def test_the_config_page_lists_every_field():
    """docs/simulate.md (which --help points to) names every field of the Rust config."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "simulate.md").read_text()

    def fields(d, prefix=""):
        for k, v in d.items():
            yield from fields(v, f"{prefix}{k}.") if isinstance(v, dict) else [f"{prefix}{k}"]

    names = list(fields(engine.default_config()))
    assert len(names) > 50
    missing = [n for n in names if f"`{n}`" not in page]
    assert not missing, missing


def test_d_without_the_d_choices_policy_is_refused_not_ignored(overprov_cli, tmp_path):
    """`--d 4` under the default greedy policy was dropped in silence (docs/cli.md: a flag
    that would be ignored is refused); with d-choices, from the flag or a config file, it runs."""
    small = ("simulate", "--user-bytes", "64MiB", "--pages-per-block", "64", "--check")
    rc, _, err = overprov_cli(*small, "--d", "4")
    assert rc == 2
    assert err.strip() == (
        "overprov simulate: --d: only with --policy d-choices (the sample it draws); leave it out"
    )
    rc, _, err = overprov_cli(*small, "--d", "4", "--policy", "d-choices")
    assert rc == 0, err
    config = tmp_path / "dc.toml"
    config.write_text('[ftl]\npolicy = "d-choices"\n')
    rc, _, err = overprov_cli(*small, "--d", "4", "--config", str(config))
    assert rc == 0, err


def test_series_without_a_timed_run_is_refused_before_it_runs(overprov_cli, tmp_path):
    """`--series FILE` on a WAF run wrote a CSV of its header alone ("0 intervals")."""
    series = tmp_path / "s.csv"
    small = ("simulate", "--user-bytes", "64MiB", "--pages-per-block", "64", "--drive-writes",
             "1", "--warmup", "0", "--series", str(series))  # fmt: skip
    rc, out, err = overprov_cli(*small)
    assert (rc, out) == (2, "")
    assert err.strip() == (
        "overprov simulate: --series: only a timed run has a time series (give --timed or --preset)"
    )
    assert not series.exists()
    rc, _, err = overprov_cli(*small, "--timed", "--duration", "2")
    assert rc == 0, err
    assert len(series.read_text().splitlines()) > 1


def test_a_column_without_a_figure_stays_under_its_header(overprov_cli):
    """A hot/cold run has no analytic model: its "model" and "diff" cells are "-", each
    right-aligned under its header like every figure (README's first example)."""
    rc, out, err = overprov_cli(
        "simulate", "--advertised", "256M", "--extra-op", "0", "--hot", "80/20",
        "--warmup", "0", "--drive-writes", "1", "--no-progress",
    )  # fmt: skip
    assert rc == 0, err
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.lstrip().startswith("extra OP"))
    header, row = lines[head], lines[head + 1]
    for column in ("model", "diff"):
        end = header.index(column) + len(column)
        assert row[end - 1] == "-" and row[end] == " ", (column, header, row)
