"""A replayed trace is reported as the trace it is: the page quotes the WAF of the measured passes
that ``overprov simulate --trace`` printed, describes the trace (file, format, read/write mix,
footprint, passes, fold), carries the folding note the CLI printed, and compares it with no
analytic model (the models describe uniform random writes; the word does not appear).

The trace: the real fio iolog sample tests/data/traces/fio-randrw.iolog (a fio randrw job, 28% of
its requests reads), replayed in simulated time on a 32 MiB drive it does not fit (so it folds
and garbage collection runs), one warm-up pass and three measured passes.
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest
from overprov.workload_text import describe_synthetic, describe_workload, is_uniform, workload_of

DATA = Path(__file__).resolve().parents[1] / "data" / "traces"
TRACE = DATA / "fio-randrw.iolog"


def _text(page: str) -> str:
    page = re.sub(r"<(script|style)[^>]*>.*?</\1>", "", page, flags=re.S)
    page = re.sub(r"<svg.*?</svg>", "", page, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", page)))


@pytest.fixture(scope="module")
def trace_run(trace_replay: Path) -> tuple[dict, str, str]:
    """(simulate.json, the CLI's stdout, the page's text) of one timed trace replay
    (conftest.trace_replay: made once per run, the browser test renders its page too)."""
    doc = json.loads((trace_replay / "simulate.json").read_text())
    stdout = (trace_replay.parent / "stdout.txt").read_text()
    return doc, stdout, _text((trace_replay / "report.html").read_text())


def test_the_core_reports_the_trace_as_the_workload(trace_run):
    doc, _, _ = trace_run
    for run in doc["runs"]:
        w = run["workload"]
        assert w["kind"] == "trace" and w["format"] == "fio-iolog"
        assert (w["passes"], w["warmup_passes"]) == (4, 1)
        assert w["folded"] is True and w["user_bytes"] == run["geometry"]["user_bytes"]
        assert w["read"]["requests"] > 0 and w["write"]["requests"] > 0
        # the synthetic settings a trace run leaves at their defaults are not what ran
        assert run["config"]["workload"]["pattern"] == "uniform"
        assert not is_uniform(run)
        assert describe_workload(run).startswith(f"trace {TRACE}")


def test_the_page_quotes_the_measured_passes_waf_the_cli_printed(trace_run):
    doc, stdout, page = trace_run
    printed = [float(x) for x in re.findall(r"^\s+-\s+[\d.]+\s+[\d.]+ MB\s+([\d.]+)", stdout, re.M)]
    measured = [run["measured"]["waf"] for run in doc["runs"]]
    assert printed == pytest.approx(measured, abs=5e-4)
    assert measured[0] > 1.5  # garbage collection ran: the figure is not the trivial 1.00
    for waf in measured:
        assert f"{waf:.3f}" in page
    assert "measured passes: 3 after 1 warm-up pass(es)" in page


def test_the_page_describes_the_trace_and_never_the_uniform_model(trace_run):
    _, stdout, page = trace_run
    assert "niform" not in page
    assert "model WAF" not in page and "analytic models for" not in page
    assert "fio-randrw.iolog (fio-iolog)" in page and "reads 28%, writes 72% of requests" in page
    assert "1 warm-up + 3 measured pass(es) of the trace, modulo fold" in page
    assert "open loop at the trace's arrival times" in page
    # the folding note the CLI printed is on the page, in the same words
    note = re.search(r"note: (the trace reaches .*? to keep it)", stdout).group(1)
    assert note in page


def test_a_synthetic_workload_keeps_its_description():
    w = {"pattern": "hot-cold", "hot_access_percent": 80, "hot_space_percent": 20}
    assert describe_synthetic(w) == "hot/cold random writes (80% of writes to 20% of the span)"
    run = {"config": {"workload": {"pattern": "uniform", "request_bytes": 4096}}}
    run["geometry"] = {"page_size_bytes": 4096}
    assert workload_of(run)["kind"] == "synthetic" and is_uniform(run)
    assert describe_workload(run) == "uniform random writes, 4 KiB requests"
