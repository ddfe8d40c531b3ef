"""userpass2: ``overprov drive``'s help said "show a drive (preset or drive file)" though the
command is ``drive show``, and ``drive show consumer-tlc-sata@4GiB`` was refused while profile,
qualify and plan take NAME@SCALE. The help names ``drive show`` and @SCALE is accepted."""

from __future__ import annotations

import json

import jsonschema
from overprov import presets
from overprov.cli import COMMANDS
from overprov.json_schemas import schema


def test_the_help_names_drive_show():
    assert COMMANDS["drive"][1].startswith("drive show NAME|FILE[@SCALE]")


def test_drive_show_takes_name_at_scale(overprov_cli, tmp_path):
    out = tmp_path / "d.json"
    rc, text, err = overprov_cli("drive", "show", "consumer-tlc-sata@4GiB", "--json", str(out))
    assert rc == 0, err
    assert "scaled (@4GiB: factor 0.004, as sim:consumer-tlc-sata@4GiB is simulated):" in text
    doc = json.loads(out.read_text())
    jsonschema.validate(doc, schema(doc["schema"]))
    sc = doc["scaled"]
    drive = presets.get("consumer-tlc-sata")
    assert sc["factor"] == presets.scale_factor(drive, "4GiB")
    assert abs(sc["nand_bytes"] - 4 * 2**30) < 0.01 * 4 * 2**30  # about the NAND asked for
    assert sc["user_bytes"] < sc["nand_bytes"]


def test_without_scale_nothing_scaled(overprov_cli, tmp_path):
    out = tmp_path / "d.json"
    rc, text, err = overprov_cli("drive", "show", "consumer-tlc-sata", "--json", str(out))
    assert rc == 0, err
    assert "scaled (" not in text and json.loads(out.read_text())["scaled"] is None
