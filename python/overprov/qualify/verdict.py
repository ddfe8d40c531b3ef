"""A test's verdict, the qualify document (``overprov.qualify/1``) and its JSON Schema."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from overprov import __version__

SCHEMA = "overprov.qualify/1"
SCHEMA_FILE = Path(__file__).with_name("qualify.schema.json")

PASS, FAIL, INCONCLUSIVE, INFO = "pass", "fail", "inconclusive", "info"
"""``info``: the test locates something (the write cliff) and judges nothing."""
VERDICTS = (PASS, FAIL, INCONCLUSIVE, INFO)


@dataclass
class Verdict:
    """One test's outcome: a word, a sentence saying why, and the figures it rests on."""

    test: str
    verdict: str
    finding: str
    """The sentence a reader acts on, with the deciding figures in it."""
    figures: dict[str, Any] = field(default_factory=dict)
    method: str = ""
    """How the figures were produced (fio rounds on the target, or simulated runs)."""

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict: {self.verdict!r} is not one of {', '.join(VERDICTS)}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def summary(verdicts: list[Verdict]) -> dict[str, Any]:
    """Counts per verdict and one line: failed tests first."""
    counts = {v: sum(1 for x in verdicts if x.verdict == v) for v in VERDICTS}
    failed = [x.test for x in verdicts if x.verdict == FAIL]
    if failed:
        line = "not fit: failed " + ", ".join(failed)
    elif counts[INCONCLUSIVE]:
        line = "no test failed; inconclusive: " + ", ".join(
            x.test for x in verdicts if x.verdict == INCONCLUSIVE
        )
    else:
        line = "every test passed"
    return {"counts": counts, "failed": failed, "line": line}


def document(
    target: dict[str, Any],
    settings: dict[str, Any],
    verdicts: list[Verdict],
    command: list[str],
    pending: list[str] | None = None,
) -> dict[str, Any]:
    """The ``--json`` document; ``pending`` names the tests not yet run (a document kept while
    the run goes on: ``qualify.json`` is rewritten as each test finishes)."""
    doc = {
        "schema": SCHEMA,
        "overprov_version": __version__,
        "command": list(command),
        "target": target,
        "settings": settings,
        "tests": [v.to_dict() for v in verdicts],
        "summary": summary(verdicts),
    }
    if pending:
        doc["pending"] = list(pending)
    return doc


def json_schema() -> dict[str, Any]:
    return json.loads(SCHEMA_FILE.read_text())
