"""docs/apply.md against the code: its `overprov capacity` example runs, its methods are
``apply --method``'s, its HPA example's sector count is the IDEMA count, the RAID levels and
the discard check's sample are the code's, and the error it names exists."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from overprov import capacity, errors
from overprov.apply import base, mdraid
from overprov.apply.auto import METHODS

DOC = Path(__file__).resolve().parents[2] / "docs" / "apply.md"


def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def examples(command: str) -> list[list[str]]:
    """The page's example lines of ``overprov COMMAND``, as argv (comments dropped)."""
    block = doc().split("```")[1]
    return [
        shlex.split(line.split("#")[0])[1:]
        for line in block.splitlines()
        if line.startswith(f"overprov {command} ")
    ]


def test_the_capacity_example_runs(overprov_cli):
    found = examples("capacity")
    assert found
    for argv in found:
        rc, out, err = overprov_cli(*argv)
        assert rc == 0, f"{argv}: {err}"
        assert "IDEMA LBA count" in out and "total OP" in out


def test_the_methods_are_apply_methods():
    table = doc()[doc().index("| method |") :].split("\n\n")[0].splitlines()[2:]
    documented = {re.match(r"\| `([\w-]+)`", row)[1] for row in table}
    assert documented | {"auto"} == set(METHODS)


def test_the_hpa_example_is_the_idema_count():
    count = int(re.search(r"a 400 GB one with HPA: `-Np(\d+)`", doc())[1])
    assert count == capacity.idema_lba_count(400)


def test_the_raid_levels_and_the_discard_sample():
    text = " ".join(doc().split())
    assert "RAID 1/4/5/6/10: `mdadm --create … --size=<KiB>`" in text
    assert "RAID 0/linear (which ignore `--size`)" in text
    assert set(mdraid.MIN_MEMBERS) == {"0", "linear", "1", "4", "5", "6", "10"}
    assert {"0", "linear"} == mdraid.PARTITION_LEVELS
    assert base.sample_zeros.__defaults__ == (16,) and "16 blocks of the area" in text
    assert issubclass(base.VerificationError, errors.RunError)  # exit 1, cli.py


def test_the_help_lists_every_raid_level_apply_takes():
    """``apply --help`` lists the md levels ``apply`` builds (it left out linear)."""
    from .test_docs_cli import commands

    action = next(a for a in commands()["apply"]._actions if "--raid-level" in a.option_strings)
    listed = set(re.findall(r"\b(\d+|linear)\b", action.help))
    assert listed == set(mdraid.MIN_MEMBERS)
