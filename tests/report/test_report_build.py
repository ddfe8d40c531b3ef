"""A user writes a report from simulations: `overprov report sim.json`, a timed simulation,
two simulations overlaid, and the errors they can make."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html import unescape

import pytest
from overprov.errors import ConfigError
from overprov.report import write_report
from report_checks import check_page, figure_keys, read_csv
from report_cli import overprov


def _text(page: str) -> str:
    """The page's visible words, tags removed."""
    return unescape(re.sub(r"<[^>]+>", " ", page.split("<body>", 1)[1]))


def test_report_of_a_simulation_through_the_cli(sim_json, sim_report):
    # `overprov report SIM_JSON --out OUT --nand tlc` (conftest.sim_report: the page the
    # browser test renders too, written once; exit status 0 checked there)
    out = sim_report
    stdout = (out.parent / "stdout.txt").read_text()
    assert f"report written to {out / 'report.html'}" in stdout
    page = check_page(out)
    assert figure_keys(out) == {
        "waf-vs-op",
        "waf-intervals-sim-1-gb-greedy",
        "erase-spread",
    }
    runs = json.loads(sim_json.read_text())["runs"]
    rows = read_csv(out / "report-files" / "phases.csv")
    assert [float(r["op_percent"]) for r in rows] == [0.0, 10.0, 20.0, 30.0]
    for row, run in zip(rows, runs, strict=True):
        assert float(row["waf"]) == pytest.approx(run["measured"]["waf"], rel=1e-5)
        assert float(row["rho"]) == pytest.approx(run["geometry"]["rho"], rel=1e-5)
    # the conclusion is computed from the runs
    lo, hi = runs[0]["measured"]["waf"], runs[-1]["measured"]["waf"]
    words = _text(page)
    assert (
        f"30% extra OP (ρ {100 * runs[-1]['geometry']['rho']:.1f}%) cuts WAF to {hi:.2f}, "
        f"{lo / hi:.1f}× less than at 0% ({lo:.2f})"
    ) in words
    assert "The greedy model agrees within" in words
    # header: what was simulated, with which software, and the command
    assert "sim 1 GB greedy" in words and "overprov-sim" in words
    assert "--extra-op 0,10,20,30" in words
    # endurance from TLC's typical P/E cycles and the simulated WAF
    endurance = read_csv(out / "report-files" / "endurance.csv")
    phys = runs[0]["geometry"]["physical_bytes"]
    assert float(endurance[0]["tbw_bytes"]) == pytest.approx(phys * 1000 / lo, rel=1e-5)
    assert "TLC at an assumed 1,000 P/E cycles" in words
    # a simulation without IOPS has no IOPS figures, and says nothing about them
    assert "iops-vs-op" not in figure_keys(out) and "Steady-state IOPS" not in page


def test_timed_simulation_gives_iops_latency_and_write_saturation(timed_json, tmp_path):
    out = tmp_path / "rep"
    path = write_report([timed_json], out, target_iops=40_000)
    assert path == out / "report.html"
    page = check_page(out)
    assert {
        "iops-vs-op",
        "phase-cost",
        "iops-time-sim-1-gb-greedy",
        "write-saturation-sim-1-gb-greedy",
        "latency-sim-1-gb-greedy",
        "latency-vs-op",
        "waf-vs-op",
    } <= figure_keys(out)
    runs = json.loads(timed_json.read_text())["runs"]
    rows = read_csv(out / "report-files" / "phases.csv")
    steady = [r["timed"]["steady_iops"] for r in runs]
    assert steady[0] is None and rows[0]["status"] == "not_steady"
    for row, value in zip(rows[1:], steady[1:], strict=True):
        assert float(row["steady_iops"]) == pytest.approx(value, rel=1e-5)
    # the recommendation is the smallest steady OP meeting the target, computed here
    best = next((r, v) for r, v in zip(rows, steady, strict=True) if v is not None and v >= 40_000)
    op = float(best[0]["op_percent"])
    assert best[0]["recommended"] == "1"
    base = rows[0]
    words = _text(page)
    assert (
        f"{op:g}% extra OP sustains {best[1]:,.0f} IOPS, "
        f"{best[1] / float(base['iops_mean']):.1f}× the 0% figure"
    ) in words
    # per-second series and the latency histogram are in the CSVs
    series = read_csv(out / "report-files" / "iops-per-second.csv")
    assert len(series) == sum(len(r["timed"]["intervals"]) for r in runs)
    hist = read_csv(out / "report-files" / "latency-histogram.csv")
    assert {float(h["op_percent"]) for h in hist} == {0.0, 10.0, 20.0, 30.0}
    assert float(hist[-1]["cdf"]) == pytest.approx(1.0)
    # WAF is the steady window's (each interval's WAF weighted by its host bytes: 2.0 in this
    # fixture), not the whole run's measured.waf; the run that never settled is said so
    for row, run in zip(rows[1:], runs[1:], strict=True):
        assert float(row["waf"]) == pytest.approx(2.0, rel=1e-9)
        assert abs(run["measured"]["waf"] / 2.0 - 1) > 0.05  # the whole run: another figure
    assert "steady window (0%: intervals 73–90 of 90" in words  # last fifth, not steady
    assert "10%: intervals 66–90 of 90, 65–90 s simulated" in words
    assert "Whole measured run, fresh-out-of-box stretch included (not the steady figure)" in words
    assert "Warning: 0% never reached steady state" in words


def test_two_inputs_are_overlaid_and_compared(sim_json, sim_fifo_json, timed_json, tmp_path):
    out = tmp_path / "rep"
    write_report([sim_json, sim_fifo_json, timed_json], out)
    page = check_page(out)
    words = _text(page)
    # the title names the inputs; two of the same drive are told apart by their file
    assert (
        "report: sim 1 GB greedy (sim-greedy.json) vs sim 1 GB fifo vs "
        "sim 1 GB greedy (sim-timed.json)"
    ) in words
    assert "The fifo model agrees within" in words
    rows = read_csv(out / "report-files" / "phases.csv")
    assert {r["source"] for r in rows} == {
        "sim 1 GB greedy (sim-greedy.json)",
        "sim 1 GB fifo",
        "sim 1 GB greedy (sim-timed.json)",
    }
    assert "WAF at 0% / 10% / 20% / 30% OP: " in words
    # what differs between the inputs is said
    assert "The inputs differ in GC policy" in words
    # one WAF-vs-OP figure holds all three sources
    assert "waf-vs-op" in figure_keys(out)


def test_missing_and_foreign_inputs_are_refused_with_the_path(tmp_path):
    res = overprov("report", str(tmp_path / "nope"), "--out", str(tmp_path / "o"))
    assert res.returncode == 2
    assert "nope: no such file or folder" in res.stderr
    other = tmp_path / "other.json"
    other.write_text('{"hello": 1}')
    with pytest.raises(ConfigError, match="not an `overprov simulate --json` file"):
        write_report([other], tmp_path / "o")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ConfigError, match="neither a profile folder"):
        write_report([empty], tmp_path / "o")
    res = overprov("report", str(other), "--pe-cycles", "100", "--nand", "tlc")
    assert res.returncode == 2 and "give --pe-cycles or --nand, not both" in res.stderr


def test_a_refused_report_is_refused_before_matplotlib_is_imported(sim_json, tmp_path):
    """A missing input, or --pe-cycles beside --nand, is refused before the report's modules
    (matplotlib: a second of CPU) are imported; the report's builder does import it."""
    code = (
        "import sys; from overprov import cli; rc = cli.main(sys.argv[1:]); "
        "before = 'matplotlib' in sys.modules; import overprov.report.build; "
        "print(rc, before, 'matplotlib' in sys.modules)"
    )
    out = str(tmp_path / "o")
    for argv, said in (
        (["report", str(tmp_path / "nope"), "--out", out], "nope: no such file or folder"),
        (["report", str(sim_json), "--pe-cycles", "100", "--nand", "tlc", "--out", out],
         "give --pe-cycles or --nand, not both"),
    ):  # fmt: skip
        res = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True,
                             text=True, timeout=120, check=False)  # fmt: skip
        assert said in res.stderr, res.stderr
        assert res.stdout.split() == ["2", "False", "True"], (res.stdout, res.stderr)
        assert not (tmp_path / "o").exists()


def test_real_timed_simulation(timed_real_json, tmp_path):
    """The timed simulator's own output (consumer TLC preset): the steady figures, window and
    latency on the page are the simulator's."""
    out = tmp_path / "rep"
    write_report([timed_real_json], out, target_iops=30_000)
    page = check_page(out)
    keys = figure_keys(out)
    assert {"iops-vs-op", "latency-vs-op", "waf-vs-op", "phase-cost"} <= keys
    for prefix in ("iops-time-", "write-saturation-", "latency-sim-", "waf-intervals-"):
        assert len([k for k in keys if k.startswith(prefix)]) == 1, (prefix, keys)
    runs = json.loads(timed_real_json.read_text())["runs"]
    rows = read_csv(out / "report-files" / "phases.csv")
    for row, run in zip(rows, runs, strict=True):
        t = run["timed"]
        assert float(row["steady_iops"]) == pytest.approx(t["steady_iops"], rel=1e-6)
        a, b = t["steady_window"]
        window = t["intervals"][a : b + 1]
        assert float(row["iops_min"]) == pytest.approx(min(i["iops"] for i in window), rel=1e-6)
        assert float(row["iops_max"]) == pytest.approx(max(i["iops"] for i in window), rel=1e-6)
        p99 = sorted(i["latency_us"]["p99"] for i in window)[len(window) // 2]
        assert float(row["lat_p99_us"]) == pytest.approx(p99, rel=1e-6)  # as simulate prints it
    words = _text(page)
    best = next(r for r in runs if r["timed"]["steady_iops"] >= 30_000)
    op = best["config"]["geometry"]["extra_op_percent"]
    assert f"{op:g}% extra OP sustains {best['timed']['steady_iops']:,.0f} IOPS" in words
    fob = [float(r["fob_iops"]) for r in rows if r["fob_iops"]]
    assert fob == pytest.approx([r["timed"]["fob_iops"] for r in runs if r["timed"]["fob_iops"]])
