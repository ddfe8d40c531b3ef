"""The report's PTS view of a queue-depth sweep: a PTS-style test header (on the page, so in
print too), latency against IOPS per OP level with the queue depths and the knee, and the table
and CSV behind it — each figure the one ``overprov.qd_sweep`` computes from the runs."""

from __future__ import annotations

import contextlib
import io
import json
import re
from html import unescape

import pytest
from overprov.qd_sweep import find_knee, sweep_levels
from overprov.report import build
from report_checks import check_page, figure_keys, read_csv


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    from overprov import cli

    tmp = tmp_path_factory.mktemp("pts-report")
    sim = tmp / "sweep.json"
    argv = [
        "simulate", "--preset", "consumer-tlc-sata", "--scale", "1/256", "--extra-op", "20",
        "--qd", "1,2,8,32", "--read-pct", "70", "--duration", "20s", "--no-progress",
        "--jobs", "1", "--json", str(sim),
    ]  # fmt: skip
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(argv) == 0
    out = tmp / "report"
    built = build.build([sim], out)
    return json.loads(sim.read_text()), out, built


def _text(page: str) -> str:
    page = re.sub(r"<(style|svg)[^>]*>.*?</\1>", "", page, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", page)))


def test_the_page_shows_the_header_the_knee_and_the_figure(swept):
    doc, out, _ = swept
    page = check_page(out)
    assert 'id="pts"' in page
    text = _text(page)
    for label in ("device", "capacity", "OP levels", "workload", "queue depth", "steady state"):
        assert f"{label} " in text, label
    assert "simulated: consumer-tlc-sata" in text and "1, 2, 8, 32 (closed loop" in text
    assert "70% reads" in text or "reads 70%" in text
    assert "SNIA PTS rule" in text
    assert (
        "The knee is the last QD before a step that adds < 10% IOPS while p99 grows > 50%" in text
    )
    assert "qd-sweep-sweep" in figure_keys(out)
    pts = sweep_levels(doc["runs"])[20.0]
    knee = find_knee(pts)
    assert (
        f"20%: QD{knee.qd} ({knee.iops:,.0f} IOPS" if knee else "20%: no knee up to QD32"
    ) in text


def test_the_csv_holds_the_sweep_figures(swept):
    doc, out, _ = swept
    rows = read_csv(out / "report-files" / "qd-sweep-sweep.csv")
    pts = sweep_levels(doc["runs"])[20.0]
    assert [int(r["qd"]) for r in rows] == [1, 2, 8, 32]
    for row, p in zip(rows, pts, strict=True):
        assert float(row["iops"]) == pytest.approx(p.iops)
        assert float(row["p99_us"]) == pytest.approx(p.p99_us)
    iops = [float(r["iops"]) for r in rows]
    assert iops[1] > iops[0]  # computed by the runs: more in flight, more IOPS


def test_a_single_depth_has_no_pts_section(tmp_path):
    from overprov import cli

    sim = tmp_path / "one.json"
    argv = [
        "simulate", "--preset", "consumer-tlc-sata", "--scale", "1/256", "--extra-op", "20",
        "--qd", "4", "--duration", "5s", "--no-progress", "--jobs", "1", "--json", str(sim),
    ]  # fmt: skip
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(argv) == 0
    doc = json.loads(sim.read_text())
    assert doc["runs"][0]["config"]["timing"]["host"]["queue_depth"] == 4
    assert sweep_levels(doc["runs"]) == {}
