"""README.md's command table lists every command of ``overprov`` (``completion`` in the text
below it), and every option its rows give is an option of that command."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from overprov import cli

README = Path(__file__).resolve().parents[2] / "README.md"


def commands() -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return dict(sub.choices)


def rows() -> list[str]:
    text = README.read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.startswith("| `overprov ")]


def options(parser: argparse.ArgumentParser) -> set[str]:
    out: set[str] = set()
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            for p in a.choices.values():
                out |= options(p)
        out |= set(a.option_strings)
    return out


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
