"""A count in a message takes its noun in the singular for one and the plural otherwise
(``units.plural``: "1 round", "3 rounds"), never "round(s)"; checked on the function and over
the package's messages (f-strings that print a count before a noun written with "(s)")."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from overprov.units import plural
from package_trees import SCAN_GROUP, module_paths, module_tree

pytestmark = pytest.mark.xdist_group(SCAN_GROUP)  # one worker parses the package

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "overprov"
#: a replacement field, then a noun with "(s)": "{n} round(s)", "{len(x)} finished run(s)"
COUNT_WITH_S = re.compile(r"\}\s+[A-Za-z][A-Za-z -]*\(s\)")
#: files allowed a "(s)" after a count (none now)
KNOWN: set[str] = set()


@pytest.mark.parametrize(
    ("n", "word", "text"),
    [
        (1, "round", "1 round"),
        (3, "round", "3 rounds"),
        (0, "partition", "0 partitions"),
        (1234, "bad line", "1,234 bad lines"),
        (1.0, "power-on hour", "1 power-on hour"),
        (0.5, "power-on hour", "0.5 power-on hours"),
    ],
)
def test_plural(n, word, text):
    assert plural(n, word) == text


def _f_string_texts(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            yield (
                "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values),
                node.lineno,
            )


def test_no_message_counts_with_a_noun_in_s():
    found = []
    for path in module_paths():
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in KNOWN:
            continue
        for text, line in _f_string_texts(module_tree(path)):
            if COUNT_WITH_S.search(text):
                found.append(f"{rel}:{line}: {text}")
    assert not found, "\n".join(found)
