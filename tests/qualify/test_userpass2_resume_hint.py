"""userpass2: qualify's Ctrl-C message said "continue with: overprov qualify --resume q2",
but the resume asks for the confirmation again (resume.py: not stored): the hint now carries
the flags the run was given."""

from __future__ import annotations

import argparse
from pathlib import Path

from overprov.qualify.cli import interrupted_text


def test_the_resume_hint_carries_the_confirmation():
    args = argparse.Namespace(
        tests=["cache", "consistency"],
        json=None,
        confirm=["/dev/loop9"],
        allow_hdd=True,
    )
    text = interrupted_text(args, Path("q2"), ["consistency"], 0)
    assert text.endswith(
        "continue with: overprov qualify --resume q2 "
        "--i-understand-this-destroys-data /dev/loop9 --allow-hdd"
    )


def test_without_a_confirmation_the_hint_is_unchanged():
    args = argparse.Namespace(tests=["cache", "consistency"], json=None, confirm=[])
    text = interrupted_text(args, Path("q2"), ["consistency"], 0)
    assert text.endswith("continue with: overprov qualify --resume q2")
