"""userpass2: ``overprov drive``'s help said "show a drive (preset or drive file)" though the
command is ``drive show``, and ``drive show consumer-tlc-sata@4GiB`` was refused while profile,
qualify and plan take NAME@SCALE. The help names ``drive show`` and @SCALE is accepted."""

from __future__ import annotations

import json
from pathlib import Path

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


def test_a_drive_file_whose_path_holds_an_at(overprov_cli, tmp_path):
    """review8: ``drive show ~/drives@lab/x.toml`` split at the first "@" and failed."""
    from overprov import drive_cli

    folder = tmp_path / "drives@lab"
    folder.mkdir()
    drive = folder / "x.toml"
    drive.write_text((Path(__file__).parents[1] / "docs/drives/pny-128.toml").read_text())
    assert drive_cli.split_scale(str(drive)) == (str(drive), None)
    assert drive_cli.split_scale(f"{drive}@4GiB") == (str(drive), "4GiB")
    assert drive_cli.split_scale("consumer-tlc-sata@1/8") == ("consumer-tlc-sata", "1/8")
    assert drive_cli.split_scale("consumer-tlc-sata") == ("consumer-tlc-sata", None)
    rc, out, err = overprov_cli("drive", "show", str(drive))
    assert rc == 0, err
    assert out.startswith(f"drive {drive} (drive file)")
    rc, out, err = overprov_cli("drive", "show", f"{drive}@4GiB")
    assert rc == 0, err
    assert "scaled (@4GiB" in out
