"""README.md's command table lists every command of ``overprov`` (``completion`` in the text
below it), and every option its rows give is an option of a command the row names."""

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


def test_every_option_a_row_gives_is_one_of_its_commands():
    """An option a row names is an option of a command the row names (its own, or another it
    mentions: ``plan --simulate --placement fdp`` in simulate's ``--fdp`` row)."""
    cmds = commands()
    wrong = []
    for row in rows():
        named = set(re.findall(r"`(?:overprov )?([a-z][a-z-]*)(?: [^`]*)?`", row)) & set(cmds)
        allowed = set().union(*(options(cmds[c]) for c in named))
        wrong += [
            f"{sorted(named)}: {o}"
            for o in sorted(set(re.findall(r"(?<![\w-])(--[a-z][\w-]*)", row)))
            if o not in allowed
        ]
    assert wrong == []


def test_the_layout_names_every_package():
    """README's layout lists every sub-package of python/overprov."""
    text = README.read_text(encoding="utf-8")
    layout = text[text.index("## Layout") :]
    package = README.parent / "python" / "overprov"
    folders = sorted(p.name + "/" for p in package.iterdir() if (p / "__init__.py").is_file()) + [
        "data/"
    ]
    assert [f for f in folders if f not in layout] == []
