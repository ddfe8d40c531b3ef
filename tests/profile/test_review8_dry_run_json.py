"""``profile --dry-run --json -`` printed the plan's text on stdout, where ``--json -`` promises
a JSON document, and ``--dry-run --json FILE`` (profile, qualify) left FILE unwritten without a
word. A dry run writes nothing, no document either: the combination is refused (exit 2) before
anything is identified, and no file is made."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("command", ["profile", "qualify"])
@pytest.mark.parametrize("json_to", ["-", "plan.json"])
def test_a_dry_run_refuses_json(command, json_to, overprov_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, out, err = overprov_cli(command, "t.img", "--size", "16MiB", "--dry-run", "--json", json_to)
    assert rc == 2, out + err
    assert out == ""
    assert f"--json {json_to}: a dry run writes nothing, no JSON document either" in err
    assert list(tmp_path.iterdir()) == []
