"""plan --trace on a trace of a moment (7 records, 0.76 ms: tests/data's alibaba head) took
its rate to 12.52 TB/day without a word: the plan now warns, on stdout and in the JSON
(trace.daily_writes_warning), that the rate is an extrapolation."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from overprov.json_schemas import validate_document
from overprov.plan.trace import MIN_RATE_RECORDS, MIN_RATE_SPAN_S, short_trace_warning

HEAD = Path(__file__).resolve().parents[1] / "data" / "traces" / "alibaba-block-head.csv"
SMALL = ("--preset", "consumer-tlc-sata", "--scale", "1/256", "--extra-op", "0", "--jobs", "1")


def test_a_trace_of_a_moment_is_said_to_be_an_extrapolation(overprov_cli, tmp_path):
    out_json = tmp_path / "plan.json"
    rc, out, err = overprov_cli("plan", "--trace", str(HEAD), *SMALL, "--json", str(out_json))
    assert rc == 0, err
    doc = json.loads(out_json.read_text())
    validate_document(doc, doc["schema"], "plan --trace")
    warning = doc["trace"]["daily_writes_warning"]
    assert warning.startswith("the trace spans 0.000763 s and 7 records (under 60 s or 1,000")
    assert "extrapolation" in warning and "--daily-writes" in warning
    rc, out, err = overprov_cli("plan", "--trace", str(HEAD), *SMALL)
    assert rc == 0, err
    assert "written in 0.000763 s = 12.52 TB/day" in out
    assert f"warning: {warning}" in out


def _summary(span_s: float, records: int) -> dict:
    return {"first_time_ns": 0, "last_time_ns": int(span_s * 1e9), "records": records,
            "write": {"bytes": 4096 * records}}  # fmt: skip


def test_the_limits():
    args = argparse.Namespace(daily_writes=None, trace_device=None)
    assert short_trace_warning(args, _summary(MIN_RATE_SPAN_S, MIN_RATE_RECORDS)) is None
    assert short_trace_warning(args, _summary(MIN_RATE_SPAN_S - 1, 10**6)) is not None
    assert short_trace_warning(args, _summary(86_400, MIN_RATE_RECORDS - 1)) is not None
    given = argparse.Namespace(daily_writes=1e12, trace_device=None)  # the rate is the user's
    assert short_trace_warning(given, _summary(1, 7)) is None
