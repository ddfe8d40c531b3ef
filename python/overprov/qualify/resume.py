"""``qualify --resume DIR``: run the tests an interrupted qualification did not finish.

``DIR/qualify.json`` is rewritten as each test finishes and lists the tests still to run in
``pending`` (docs/qualify.md); a resumed run reads it, takes the stored run's command line
(its target and every setting: a resumed qualification keeps them, and refuses a flag that
would change one), runs the pending tests on the same target — checked as ``profile
--resume`` checks it: a file by device, inode and the run identifier written on it, a device
by its fingerprint (``Target.same_as``) — and writes the document again with the finished
tests kept, in their order, and the new ones after them."""

from __future__ import annotations

import argparse
import contextlib
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from overprov import inputs
from overprov.errors import ConfigError
from overprov.json_schemas import validate_document
from overprov.qualify.verdict import SCHEMA, Verdict

FILE = "qualify.json"

#: What a resumed run takes from its own command line; every other setting is the stored run's.
OWN = {"resume", "target", "confirm", "allow_hdd", "json", "no_report", "dry_run"}
_NOT_SETTINGS = {"func", "command", "command_line"}


@dataclass
class Stored:
    """An interrupted qualification, as its ``qualify.json`` keeps it."""

    folder: Path
    command: list[str]
    target: dict[str, Any]
    kept: list[Verdict]
    pending: list[str]


def load(folder: Path) -> Stored:
    """The interrupted qualification in ``folder``; ConfigError (naming the file, and the field
    for one that breaks the schema) when there is none to resume."""
    path = Path(folder) / FILE
    if not path.is_file():
        raise ConfigError(f"--resume: {path} does not exist (a qualification's --out keeps it)")
    doc = inputs.load_json(path, "qualify.json")
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise ConfigError(f"--resume: {path} is not a qualification (schema {SCHEMA})")
    validate_document(doc, SCHEMA, str(path))
    pending = list(doc.get("pending") or [])
    if not pending:
        raise ConfigError(
            f"--resume: {path}: every test of that qualification finished; nothing to resume "
            f"(overprov report {folder} draws it again)"
        )
    command = [str(c) for c in doc["command"]]
    if command[:2] != ["overprov", "qualify"] or "--resume" in command:
        raise ConfigError(f"--resume: {path}: command {command!r} is not a qualify run's")
    kept = [
        Verdict(t["test"], t["verdict"], t["finding"], t.get("figures") or {}, t.get("method", ""))
        for t in doc["tests"]
    ]
    return Stored(Path(folder), command, doc["target"], kept, pending)


def resumed_args(
    args: argparse.Namespace, parser: argparse.ArgumentParser, stored: Stored
) -> argparse.Namespace:
    """The stored run's arguments with its pending tests, this folder as --out, and what this
    command line gives of :data:`OWN` (the confirmations are asked again, not stored)."""
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            old = parser.parse_args(stored.command[2:])
    except SystemExit:
        raise ConfigError(
            f"--resume: {stored.folder / FILE}: its command {stored.command!r} does not parse"
        ) from None
    for dest, value in vars(args).items():
        if dest in OWN or dest in _NOT_SETTINGS or dest.startswith("_"):
            continue
        if value != parser.get_default(dest) and value != getattr(old, dest, None):
            raise ConfigError(
                f"--resume: --{dest.replace('_', '-')} differs from the stored qualification's "
                f"({getattr(old, dest, None)!r}); a resumed qualification keeps its settings"
            )
    if args.target is not None and args.target != old.target:
        raise ConfigError(
            f"--resume: the stored qualification is of {old.target!r}, not {args.target!r}"
        )
    old.tests = [t for t in old.tests if t in stored.pending]
    old.out = old.resume = stored.folder
    old.confirm = list(args.confirm)
    old.allow_hdd = args.allow_hdd or old.allow_hdd
    old.json, old.no_report, old.dry_run = args.json, args.no_report, False
    old.func, old.command_line = args.func, stored.command
    old.command = getattr(args, "command", "qualify")
    return old
