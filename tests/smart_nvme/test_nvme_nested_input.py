"""Deeply nested JSON given to ``smart --nvme-log``, ``smart-nvme --nvme-log`` and
``--smart-log`` is refused as bad input (exit 2, the file named), not an internal error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from overprov import cli

DATA = Path(__file__).resolve().parents[1] / "data" / "nvme-vendor"


def nested(tmp: Path, depth: int, kind: str) -> Path:
    path = tmp / f"deep-{kind}-{depth}.json"
    if kind == "array":
        path.write_text("[" * depth + "]" * depth)
    else:
        path.write_text('{"a": ' * depth + "1" + "}" * depth)
    return path


@pytest.mark.parametrize("depth", [100, 100_000])  # over the depth bound; over the parser's
@pytest.mark.parametrize("kind", ["array", "object"])
@pytest.mark.parametrize("command", [["smart", "--nvme-log"], ["smart-nvme", "--nvme-log"]])
def test_nested_nvme_log_refused(tmp_path, capsys, command, kind, depth):
    path = nested(tmp_path, depth, kind)
    assert cli.main([*command, str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and re.search(r"nested (more than|too deeply)", err), err


def test_nested_smart_log_refused(tmp_path, capsys):
    path = nested(tmp_path, 100_000, "object")
    log = DATA / "autoval-ssd-ocp-smart-add-log.json"
    assert cli.main(["smart-nvme", "--nvme-log", str(log), "--smart-log", str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and re.search(r"nested (more than|too deeply)", err), err
