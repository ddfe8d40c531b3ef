"""``calibrate --dry-run --json -`` printed the plan's text on stdout, where ``--json -`` promises
a JSON document (profile and qualify refuse the combination already). A dry run writes nothing,
no document either: refused (exit 2) with the same message, before anything is identified."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("json_to", ["-", "plan.json"])
def test_a_calibrate_dry_run_refuses_json(json_to, overprov_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, out, err = overprov_cli(
        "calibrate", "sim:enterprise-tlc-nvme@2GiB", "--dry-run", "--json", json_to
    )
    assert rc == 2, out + err
    assert out == ""
    assert f"--json {json_to}: a dry run writes nothing, no JSON document either" in err
    assert list(tmp_path.iterdir()) == []
