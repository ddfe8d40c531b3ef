"""userpass2: ``plan --trace`` on the shipped traces showed WAF 1.000 at every level and
"0.0 % extra OP" without a word that the trace writes megabytes of a drive simulated at
gigabytes: the plan now warns (stdout and JSON trace.footprint_warning). An empty trace file
was refused as "format not recognised": it is now called empty."""

from __future__ import annotations

import json
from pathlib import Path

from overprov.json_schemas import validate_document
from overprov.plan.trace import MIN_FOOTPRINT_SHARE, footprint_warning

TPCC = Path(__file__).resolve().parents[1] / "data" / "traces" / "mqsim-tpcc-small.trace"
SMALL = ("--preset", "consumer-tlc-sata", "--scale", "1/256", "--extra-op", "0", "--jobs", "1")


def test_a_trace_of_megabytes_on_a_drive_of_gigabytes_is_warned_of(overprov_cli, tmp_path):
    out_json = tmp_path / "plan.json"
    rc, out, err = overprov_cli("plan", "--trace", str(TPCC), *SMALL, "--json", str(out_json))
    assert rc in (0, 3), err
    doc = json.loads(out_json.read_text())
    validate_document(doc, doc["schema"], "plan --trace")
    warning = doc["trace"]["footprint_warning"]
    assert warning.startswith("the trace touches at most 23.4 MB (the bytes it writes per pass)")
    assert "WAF is about 1 whatever the OP" in warning
    rc, out, err = overprov_cli("plan", "--trace", str(TPCC), *SMALL)
    assert f"warning: {warning}" in out


def test_the_share():
    summary = {"write": {"bytes": 10}}
    assert footprint_warning(summary, int(10 / MIN_FOOTPRINT_SHARE)) is None
    assert "(9.09%, under 10%)" in footprint_warning(summary, 110)
    assert footprint_warning({"write": {"bytes": 0}}, 100) is None


def test_an_empty_trace_is_called_empty(overprov_cli, tmp_path):
    for text in ("", "\n\n  \n"):
        empty = tmp_path / "empty.trace"
        empty.write_text(text)
        rc, out, err = overprov_cli("plan", "--trace", str(empty), *SMALL)
        assert rc != 0
        assert f"--trace {empty}: empty trace (no records)" in err
        assert "not recognised" not in err
