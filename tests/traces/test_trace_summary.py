"""The binding's trace summary on the repository's real samples (tests/data/traces; their README
gives origin and terms): format detected, counts and bytes equal fio's own JSON totals for the
run that wrote the log, and a bad line is a ConfigError naming file and line."""

import json
from pathlib import Path

import pytest
from overprov import _core
from overprov.errors import ConfigError

DATA = Path(__file__).resolve().parents[1] / "data" / "traces"


def summary(path, **kw):
    return json.loads(_core.trace_summary(str(path), **kw))


@pytest.mark.parametrize("name", ["fio-randrw", "fio-trimwrite"])
def test_fio_iolog_summary_equals_fios_own_totals(name):
    s = summary(DATA / f"{name}.iolog")
    fio = json.loads((DATA / f"{name}.summary.json").read_text())
    assert s["format"] == "fio-iolog"
    for op in ("read", "write", "trim"):
        assert s[op] == {"requests": fio[op]["total_ios"], "bytes": fio[op]["io_bytes"]}
    assert s["records"] == sum(fio[op]["total_ios"] for op in ("read", "write", "trim"))


def test_format_override_and_bad_lines(tmp_path):
    assert "blkparse" in _core.trace_formats()
    bad = tmp_path / "t.csv"
    bad.write_text("time_ns,op,offset_bytes,len_bytes,device\n0,W,0,4096,0\n5,Q,0,1,0\n")
    with pytest.raises(ConfigError, match=r"t\.csv:3: csv trace: op"):
        summary(bad)
    s = summary(bad, skip_bad_lines=True)
    assert (s["records"], s["bad_lines"], s["write"]["bytes"]) == (1, 1, 4096)
    assert ":3:" in s["first_bad_line"]
    with pytest.raises(ConfigError, match="unknown trace format"):
        summary(bad, format="nope")
    with pytest.raises(ConfigError, match=r":1: mqsim trace"):
        summary(DATA / "overprov-trimwrite.csv", format="mqsim")
