"""README.md's command table lists every command of ``overprov`` (``completion`` in the text
below it), and every option its rows give is an option of that command."""

from __future__ import annotations

import re
from pathlib import Path

from .test_docs_cli import commands, options

README = Path(__file__).resolve().parents[2] / "README.md"


def rows() -> list[str]:
    text = README.read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.startswith("| `overprov ")]


def test_every_command_is_in_the_table():
    listed = {c for row in rows() for c in re.findall(r"`overprov ([a-z-]+)", row)}
    text = README.read_text(encoding="utf-8")
    missing = sorted(set(commands()) - listed - {"completion"})
    assert missing == []
    assert "`overprov completion bash`" in text
    assert listed <= set(commands())


def test_every_option_a_row_gives_is_its_commands():
    cmds = commands()
    wrong = []
    for row in rows():
        command = re.match(r"\| `overprov ([a-z-]+)", row)[1]
        first_cell = row.split(" | ")[0]
        wrong += [
            f"{command} {o}"
            for o in re.findall(r"(?<![\w-])(--[a-z][\w-]*)", first_cell)
            if o not in options(cmds[command])
        ]
    assert wrong == []
