"""Simulated time through the CLI and library on the drive presets (data/presets.toml)."""

from __future__ import annotations

import csv
import json

import pytest
from overprov import engine, presets

CONSUMER = "consumer-tlc-sata"


def _timed_runs(overprov_cli, tmp_path, *args):
    out = tmp_path / "runs.json"
    rc, text, err = overprov_cli("simulate", *args, "--no-progress", "--json", str(out))
    assert rc == 0, err
    return json.loads(out.read_text())["runs"], text


def test_write_saturation_has_fob_transition_and_steady_state(overprov_cli, tmp_path):
    """At 4 GiB of NAND (8 GiB until 2026-11-28: 11.4 CPU s against 6.0): 519 intervals at
    0% extra OP, the transition first and steady from interval 163; at 40% steady from 12 of
    71; steady IOPS 9,978, 36,755, 60,123 against 10,224, 36,982, 60,322 at 8 GiB
    (docs/testing.md, "Round 6")."""
    runs, text = _timed_runs(
        overprov_cli, tmp_path, "--preset", CONSUMER, "--scale", "4GiB",
        "--precondition", "none", "--warmup", "0", "--drive-writes", "8",
        "--extra-op", "0,20,40", "--series", str(tmp_path / "s.csv"),
    )  # fmt: skip
    steady = []
    for n, run in enumerate(runs):
        t = run["timed"]
        states = [i["state"] for i in t["intervals"]]
        # fresh-out-of-box first (until GC first runs), steady state at the end
        assert states[0] == "fob" and states[-1] == "steady"
        first_other = next(i for i, s in enumerate(states) if s != "fob")
        assert "fob" not in states[first_other:]
        if n == 0:  # 0% extra OP: the write cliff takes drive writes to settle
            first_transition = states.index("transition")
            assert first_transition == first_other
            assert states.index("steady") > first_transition
            fob = t["intervals"][0]["iops"]
            assert t["intervals"][first_transition]["iops"] < fob
        assert t["fob_iops"] >= t["steady_iops"]
        steady.append(t["steady_iops"])
    assert steady[0] < steady[1] < steady[2], steady
    assert "steady IOPS" in text
    rows = list(csv.DictReader((tmp_path / "s.csv").open()))
    assert {r["run"] for r in rows} == {"1", "2", "3"}
    assert {"fob", "transition", "steady"} <= {r["state"] for r in rows}


def test_write_through_collapses_on_a_volatile_cache_but_not_with_plp():
    """Sync writes (fio sync=1: one write in flight per job) must reach NAND on a drive whose
    cache is volatile, so each waits a program time; with power-loss protection they complete
    from DRAM."""

    def run(preset, write_through, qd=1):
        cfg, _ = presets.preset_config(preset, "4GiB")
        cfg = engine.merge(
            cfg,
            {
                "timing": {"host": {"write_through": write_through, "queue_depth": qd}},
                "run": {"warmup_drive_writes": 0.01, "drive_writes": 0.02},
            },
        )
        t = engine.run(cfg)["timed"]
        return t["ios"] / t["simulated_s"], t["latency_us"]["p50"], cfg

    consumer_wb, _, _ = run(CONSUMER, False)
    consumer_wt, p50, cfg = run(CONSUMER, True)
    mlc_wt, mlc_p50, mlc = run("older-mlc-sata", True)
    enterprise_wt, _, _ = run("enterprise-tlc-nvme", True)
    print(
        f"QD1 IOPS: consumer write-back {consumer_wb:.0f}, write-through {consumer_wt:.0f} "
        f"(p50 {p50:.0f} µs); old MLC write-through {mlc_wt:.0f}; enterprise (PLP) "
        f"write-through {enterprise_wt:.0f}"
    )
    # one flush at a time: the data page (SLC mode) and the metadata pages (TLC), whose count
    # the consumer preset takes from its fit to ~220 IOPS at QD8 70:30 (docs/drives/README.md)
    t = cfg["timing"]
    flush_us = t["slc"]["program_us"] + t["flush"]["metadata_flash_pages"] * t["nand"]["program_us"]
    assert consumer_wt == pytest.approx(1e6 / flush_us, rel=0.10)
    assert 100 <= mlc_wt <= 5_000  # hundreds to low thousands
    assert consumer_wb > 10 * consumer_wt
    # each write waits for a program: SLC-mode on the consumer drive, MLC on the old one
    assert p50 >= cfg["timing"]["slc"]["program_us"]
    assert mlc_p50 >= mlc["timing"]["nand"]["program_us"]
    assert enterprise_wt > 20 * consumer_wt


def test_a_scaled_drive_keeps_waf_and_the_iops_curve():
    """Same preset scaled to 8 GiB and 32 GiB (the default scale) of NAND: WAF, steady IOPS
    and IOPS against drive writes agree within 2%. Time runs 4x faster on the smaller drive, so
    its series interval is 4x shorter (the same share of a drive write per interval)."""

    def run(scale, interval_s):
        cfg, _ = presets.preset_config(CONSUMER, scale)
        cfg = engine.merge(
            cfg,
            {
                "geometry": {"extra_op_percent": 20.0},
                "timing": {"interval_s": interval_s},
                "precondition": {"kind": "sequential"},
                "run": {"warmup_drive_writes": 0, "drive_writes": 3},
            },
        )
        return engine.run(cfg)

    small, large = run("8GiB", 0.25), run("32GiB", 1.0)
    assert large["geometry"]["blocks"] >= 3.9 * small["geometry"]["blocks"]
    for key in ("waf",):
        a, b = small["measured"][key], large["measured"][key]
        assert abs(a - b) / b < 0.02, (key, a, b)
    a, b = small["timed"]["steady_iops"], large["timed"]["steady_iops"]
    assert abs(a - b) / b < 0.02, (a, b)

    def iops_at(rep, dw):
        rows = rep["timed"]["intervals"]
        near = [i["iops"] for i in rows if abs(i["drive_writes_total"] - dw) < 0.1]
        return sum(near) / len(near)

    for dw in (0.5, 1.0, 2.0, 2.8):
        a, b = iops_at(small, dw), iops_at(large, dw)
        assert abs(a - b) / b < 0.02, (dw, a, b)
    # in the steep early transient (SLC cache spent, GC starting) an interval average over
    # ±0.1 drive writes is sensitive to where intervals fall; there they agree within 3%
    a, b = iops_at(small, 0.3), iops_at(large, 0.3)
    assert abs(a - b) / b < 0.03, (a, b)


def test_open_loop_below_capacity_serves_the_arrival_rate(overprov_cli, tmp_path):
    runs, _ = _timed_runs(
        overprov_cli, tmp_path, "--user-pages", "65536", "--timed", "--open-iops", "2000",
        "--warmup", "0", "--duration", "20",
    )  # fmt: skip
    t = runs[0]["timed"]
    assert t["simulated_s"] == pytest.approx(20, abs=0.1)
    rates = [i["iops"] for i in t["intervals"][2:]]
    assert all(abs(r - 2000) <= 2 for r in rates), rates[:5]
    assert t["latency_us"]["p99"] < 2_000  # no queueing at 2k IOPS


def test_bad_preset_and_scale_are_named(overprov_cli):
    rc, _, err = overprov_cli("simulate", "--preset", "nope")
    assert rc == 2 and "--preset" in err
    rc, _, err = overprov_cli("simulate", "--preset", CONSUMER, "--scale", "2")
    assert rc == 2 and "--scale" in err
    rc, _, err = overprov_cli("simulate", "--scale", "2")  # any drive scales; none grows
    assert rc == 2 and "--scale: must shrink" in err
    rc, _, err = overprov_cli("simulate", "--timed", "--qd", "0")
    assert rc == 2 and "argument --qd: must be ≥ 1" in err


def test_presets_say_where_their_figures_come_from():
    for name in presets.names():
        p = presets.get(name)
        assert "Illustrative" in p["source"] and p["description"]
        cfg, factor = presets.preset_config(name)
        assert 0 < factor <= 1
        engine.validate(cfg)  # every preset is a valid drive


def test_out_folder_gets_json_series_and_report(overprov_cli, tmp_path):
    out = tmp_path / "ws"
    rc, text, err = overprov_cli(
        "simulate", "--preset", CONSUMER, "--scale", "2GiB", "--extra-op", "0,30",
        "--precondition", "none", "--warmup", "0", "--drive-writes", "2", "--no-progress",
        "--out", str(out),
    )  # fmt: skip
    assert rc == 0, err
    doc = json.loads((out / "simulate.json").read_text())
    assert len(doc["runs"]) == 2 and all(r["timed"] for r in doc["runs"])
    rows = list(csv.DictReader((out / "series.csv").open()))
    assert len(rows) == sum(len(r["timed"]["intervals"]) for r in doc["runs"])
    html = (out / "report.html").read_text()
    # its figures embedded (inline SVG, or a PNG when that is smaller)
    assert ("<svg" in html or "<img" in html) and "consumer-tlc-sata" in html
    assert f"report: {out / 'report.html'}" in text
