"""simulate --json FILE refuses a FILE that is the results of a run's --out folder (it replaced
ws/simulate.json of 'simulate --out ws' without a word, which --out itself refuses); a
simulate.json that --json wrote alone is overwritten, as any overprov --json document is."""

from __future__ import annotations

import pytest
from overprov.errors import OutputError
from overprov.outputs import check_json_output

SMALL = ("simulate", "--advertised", "64M", "--pages-per-block", "64", "--extra-op", "0",
         "--warmup", "1", "--drive-writes", "0.5", "--no-progress")  # fmt: skip
HEAD = b'{\n  "schema": "overprov.simulate/1",\n  "command": ["overprov", "simulate", '
BY_OUT = HEAD + b'"--out", "ws"]\n}\n'
BY_JSON = HEAD + b'"--json", "simulate.json"]\n}\n'


def test_json_onto_a_run_folders_document_is_refused(tmp_path, overprov_cli):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "simulate.json").write_bytes(BY_OUT)
    (ws / "report.html").write_text("<p>Generated 2026-11-29 19:00 UTC by overprov 0.1</p>")
    rc, out, err = overprov_cli(*SMALL, "--json", str(ws / "simulate.json"))
    assert rc == 2, (out, err)
    assert "is a simulation's results (simulate.json in the run folder" in err
    assert "choose another file, or remove this one first" in err
    assert (ws / "simulate.json").read_bytes() == BY_OUT  # not a byte written


@pytest.mark.parametrize(
    ("doc", "marker", "refused"),
    [(BY_OUT, None, False), (BY_JSON, "report.html", True), (BY_JSON, "profile.log", True),
     (BY_JSON, None, False)],
)  # fmt: skip
def test_what_makes_a_run_folder(tmp_path, doc, marker, refused):
    (tmp_path / "simulate.json").write_bytes(doc)
    if marker:
        (tmp_path / marker).write_text("")
    if refused:
        with pytest.raises(OutputError, match="run folder"):
            check_json_output(tmp_path / "simulate.json")
    else:
        check_json_output(tmp_path / "simulate.json")  # --json's own earlier output
    other = tmp_path / "elsewhere.json"
    other.write_bytes(doc)
    check_json_output(other)  # only the run's document name is guarded
