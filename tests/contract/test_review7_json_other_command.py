"""--json FILE never replaces another command's results: 'status /dev/sdb --json sim.json'
(or 'capacity ... --json sim.json') replaced a simulate document — hours of a sweep — with its
own, exit 0, because any overprov document was taken as overprov's to overwrite. A command's
own document is written again (a rerun), and so is an empty file or a new name."""

from __future__ import annotations

import hashlib

import pytest

SIM_DOC = (
    b'{\n  "schema": "overprov.simulate/1",\n  "overprov_version": "0.1.0",\n  "runs": []\n}\n'
)


@pytest.mark.parametrize(
    "argv",
    [["capacity", "1TB", "--extra-op", "20"], ["plan", "--capacity", "1TB", "--nand", "tlc"],
     ["drive", "show", "consumer-tlc-sata"]],
    ids=["capacity", "plan", "drive"],
)  # fmt: skip
def test_another_command_s_document_is_not_replaced(argv, tmp_path, overprov_cli):
    out = tmp_path / "sim.json"
    out.write_bytes(SIM_DOC)
    rc, stdout, err = overprov_cli(*argv, "--json", str(out))
    assert rc == 2, (stdout, err)
    assert f"--json {out} is an overprov.simulate document, another command's results" in err
    assert hashlib.sha256(out.read_bytes()).digest() == hashlib.sha256(SIM_DOC).digest()


def test_the_command_s_own_document_is_written_again(tmp_path, overprov_cli):
    out = tmp_path / "cap.json"
    for _ in range(2):
        rc, _, err = overprov_cli("capacity", "1TB", "--extra-op", "20", "--json", str(out))
        assert rc == 0, err
    assert b'"schema": "overprov.capacity/' in out.read_bytes()


def test_smart_s_documents_are_smart_s(tmp_path):
    """smart writes three kinds (one drive, the fleet of --all, an NVMe log): each is its own
    to replace, and smart-nvme's is smart's too (the same report)."""
    import argparse

    from overprov.outputs import refuse_aliasing

    for kind in ("smart", "smart-fleet", "smart-nvme"):
        path = tmp_path / f"{kind}.json"
        path.write_text(f'{{"schema": "overprov.{kind}/1"}}')
        refuse_aliasing(argparse.Namespace(command="smart", json=str(path)))
    refuse_aliasing(
        argparse.Namespace(command="smart-nvme", json=str(tmp_path / "smart-nvme.json"))
    )
