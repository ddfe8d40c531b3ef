"""``overprov report plan.json``: a plan has a page of its own — the smallest extra OP that meets
its targets with the margin, the per-OP table (user capacity, ρ, WAF, TBW, DWPD, years; for a
trace its simulated IOPS and latency) under the answer, DWPD and WAF against OP, and where each
figure comes from.

The trace plan: the real fio iolog sample tests/data/traces/fio-randrw.iolog replayed on the
consumer TLC preset at 1 GiB of NAND (the smallest scale it allows), four levels, two measured
passes, with a DWPD target met between two simulated levels and an IOPS target.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from html import unescape
from pathlib import Path

import pytest
from overprov.json_schemas import validate_document
from report_checks import check_page
from report_cli import overprov


def _text(page: str) -> str:
    page = re.sub(r"<(script|style)[^>]*>.*?</\1>", "", page, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", page)))


def _cli(*argv: str, status: int = 0) -> str:
    from overprov import cli

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert cli.main(list(argv)) == status
    return buf.getvalue()


@pytest.fixture(scope="module")
def trace_plan(trace_plan_folder: Path) -> tuple[dict, dict, str]:
    """(plan.json, report --json, the page's text) of a trace plan (conftest.trace_plan_folder:
    made once per run, the browser test renders its page too)."""
    d = trace_plan_folder
    plan = json.loads((d / "plan.json").read_text())
    rep = json.loads((d / "rep.json").read_text())
    return plan, rep, _text(check_page(d / "rep"))


def test_a_trace_plan_has_a_page_with_its_answer_and_margin(trace_plan):
    plan, rep, text = trace_plan
    validate_document(rep, "overprov.report", "report --json")
    op = plan["target_dwpd_extra_op_percent"]
    assert op is not None and 10 < op < 20  # solved between two simulated levels
    (answer,) = rep["answers"]
    assert answer["method"] == "plan" and answer["recommended"]
    assert answer["extra_op_percent"] == op
    assert rep["inputs"][0]["kind"] == "plan" and rep["inputs"][0]["simulated"]
    row = next(r for r in plan["rows"] if r["extra_op_percent"] == op)
    # the headline: the level, its DWPD and the margin over the target
    assert answer["headline"].startswith(f"{op:g}% extra OP: {row['dwpd']:.2f} DWPD")
    assert "over the 0.7 DWPD over 5 years target" in answer["headline"]
    assert answer["headline"] in text
    assert "SIMULATED" in text and "scale 1/1,000" in text


def test_the_per_op_table_holds_every_row_of_the_plan(trace_plan):
    plan, _, text = trace_plan
    for r in plan["rows"]:
        assert f"{r['extra_op_percent']:g}%" in text
        assert f"{r['dwpd']:.2f}" in text and f"{100 * r['rho']:.1f}%" in text
    for lv in plan["trace"]["levels"]:
        assert f"{lv['iops']:,.0f}" in text  # the simulated IOPS of every level
    # the level between two simulated ones says it was interpolated
    assert "interpolated in 1/ρ" in text


def test_the_trace_is_described_and_never_called_uniform(trace_plan):
    plan, _, text = trace_plan
    assert plan["trace"]["workload"] in text
    assert plan["trace"]["daily_writes_source"] in text
    assert "uniform" not in text.lower()


def test_an_analytic_plan_and_an_unmet_target(tmp_path):
    """A plan from the model (no trace) has its page too, marked a model; a target no level
    meets is said so, with the best level's figure."""
    met, unmet = tmp_path / "met.json", tmp_path / "unmet.json"
    # plan exits 3 when a target is not met, and writes its plan all the same
    _cli("plan", "--capacity", "960GB", "--target-dwpd", "1", "--json", str(met))
    _cli("plan", "--capacity", "960GB", "--extra-op", "0,10", "--target-dwpd", "50",
         "--json", str(unmet), status=3)  # fmt: skip
    _cli("report", str(met), str(unmet), "--out", str(tmp_path / "rep"),
         "--json", str(tmp_path / "rep.json"))  # fmt: skip
    rep = json.loads((tmp_path / "rep.json").read_text())
    text = _text(check_page(tmp_path / "rep"))
    plan = json.loads(met.read_text())
    first, second = rep["answers"]
    assert first["extra_op_percent"] == plan["target_dwpd_extra_op_percent"] is not None
    assert not second["recommended"] and second["method"] is None
    assert second["headline"].startswith("No level up to 10% extra OP meets 50 DWPD")
    assert "plan (analytic model)" in text and "SIMULATED" not in text


def test_a_plan_that_fails_its_schema_is_refused_naming_the_field(tmp_path):
    bad = tmp_path / "plan.json"
    bad.write_text(json.dumps({"schema": "overprov.plan/1"}))
    res = overprov("report", str(bad), "--out", str(tmp_path / "no"))
    assert res.returncode == 2 and "plan schema" in res.stderr and str(bad) in res.stderr
