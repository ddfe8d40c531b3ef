"""docs/safety.md against the code: the functions it names exist where it says, the
fingerprint's fields are the table's, and the refusals it quotes are the code's words (a user
who searches for a message finds this page, and this page the code)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from overprov import blockdev, file_guard, file_location, fingerprint
from overprov.apply import base
from overprov.profile import fio_target

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "safety.md"
PACKAGE = ROOT / "python" / "overprov"


def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def code() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(PACKAGE.rglob("*.py")))


def test_the_functions_the_page_names():
    assert callable(blockdev.check_confirmed) and callable(blockdev.identify)
    assert callable(file_guard.check_file_target)
    assert callable(file_location.check_file_creatable)
    assert callable(base.Plan.execute)
    assert fio_target.FioTarget
    for name in ("blockdev.check_confirmed", "blockdev.identify", "Plan.execute",
                 "check_file_target", "file_location.check_file_creatable",
                 "fingerprint.Fingerprint"):  # fmt: skip
        assert f"`{name}`" in doc(), name


def test_the_fingerprint_fields_compared_are_the_tables():
    section = doc()[doc().index("## The device fingerprint") :]
    table = section[
        section.index("| field | from |") : section.index("\n\n", section.index("| field |"))
    ]
    documented = {
        f for row in table.splitlines()[2:] for f in re.findall(r"`(\w+)`", row.split("|")[1])
    }
    # the fields compared; the path is not ("the name ... is not compared")
    assert documented == set(fingerprint.IDENTITY_FIELDS)
    assert documented < {f.name for f in dataclasses.fields(fingerprint.Fingerprint)}
    assert "path" not in fingerprint.IDENTITY_FIELDS and "is not compared" in doc()


#: what the page quotes, as the code writes it (the page's ``X``, ``/dev/X``, ``...`` elided)
QUOTED = [
    "refusing to write to",
    "would destroy data (allowed only if you confirm exactly this device)",
    "was not confirmed: writing to it destroys all data on it",
    "name this exact device to confirm",
    "is busy: the kernel has it in use",
    "that device is not part of this plan",
    "it backs loop device",
    "has it open for writing",
    "lock on it",
    "overprov does not create files in /dev",
    "it is not the device that was identified",
    "--resume: not the target of",
    "run identifier in its first",
    "no serial number and no WWN",
    "re-identified: ",
]


def test_the_messages_the_page_quotes_are_the_codes():
    text, source = " ".join(doc().split()), code()
    missing_in_doc = [q for q in QUOTED if q not in text]
    missing_in_code = [q for q in QUOTED if q not in source]
    assert missing_in_doc == [] and missing_in_code == []
