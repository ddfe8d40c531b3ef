"""``smart --all --json`` (overprov.smart-fleet/1) with drives in it: a sysfs-shaped tree with
two SSDs, a stand-in smartctl that prints a saved ``smartctl -j -a`` output for one and fails
for the other, and a document that validates against smart-fleet.schema.json."""

from __future__ import annotations

import functools
import json
import os
import stat
from pathlib import Path

import pytest
from overprov.errors import InputError
from overprov.json_schemas import validate_document
from overprov.smart import command, fleet

from .commands import SMART_FILE


def _disk(root: Path, name: str, sectors: int) -> None:
    d = root / name
    (d / "queue").mkdir(parents=True)
    (d / "queue" / "rotational").write_text("0\n")
    (d / "size").write_text(f"{sectors}\n")
    (d / "device").mkdir()
    (d / "device" / "model").write_text("INTEL SSDPE2KX080T8\n")


@pytest.fixture
def two_ssds(tmp_path, monkeypatch):
    sys_block = tmp_path / "sys-block"
    _disk(sys_block, "nvme0n1", 15_628_053_168)
    _disk(sys_block, "sdz", 1_000_000)
    smartctl = tmp_path / "smartctl"
    # the saved output for the NVMe drive; for sdz, what smartctl prints when it cannot open it
    smartctl.write_text(
        "#!/bin/sh\n"
        f'case "$3" in */nvme0n1) cat "{SMART_FILE}" ;; '
        '*) echo \'{"smartctl": {"exit_status": 2, "messages": [{"string": "No such device"}]}}\' '
        ";; esac\n"
    )
    smartctl.chmod(smartctl.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setattr(command, "fleet", functools.partial(fleet.fleet, sys_block=sys_block))
    return str(smartctl)


def test_smart_all_json_with_drives_validates(overprov_cli, two_ssds):
    rc, out, err = overprov_cli(
        "smart", "--all", "--smartctl", two_ssds, "--nvme", os.devnull, "--json", "-"
    )
    assert rc == 0, err
    doc = json.loads(out)
    validate_document(doc, doc["schema"], "smart --all")
    assert doc["schema"] == "overprov.smart-fleet/1" and doc["kind"] == "fleet"
    nvme, sdz = doc["drives"]
    assert nvme["device"] == "/dev/nvme0n1" and nvme["size_bytes"] == 15_628_053_168 * 512
    assert nvme["report"]["kind"] == "lifetime" and "error" not in nvme
    assert nvme["report"]["snapshot"]["source"] == "/dev/nvme0n1"
    assert "error" in sdz and "No such device" in sdz["error"] and "report" not in sdz
    # the table goes to stderr when stdout carries the JSON
    assert "/dev/nvme0n1" in err and "cannot read" in err


def test_smart_fleet_schema_refuses_what_smart_never_writes(overprov_cli, two_ssds):
    rc, out, _ = overprov_cli(
        "smart", "--all", "--smartctl", two_ssds, "--nvme", os.devnull, "--json", "-"
    )
    doc = json.loads(out)
    bad = json.loads(out)
    bad["drives"][0]["report"]["waf"] = -1.0  # checked through smart.schema.json's rule
    with pytest.raises(InputError, match=r"drives\[0\]\.report\.waf"):
        validate_document(bad, doc["schema"], "edited")
    bad = json.loads(out)
    bad["drives"][1]["report"] = bad["drives"][0]["report"]  # a row has a report or an error
    with pytest.raises(InputError, match="smart-fleet schema"):
        validate_document(bad, doc["schema"], "edited")
