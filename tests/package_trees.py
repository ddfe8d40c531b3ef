"""The package's Python modules (python/overprov/**/*.py), each read and parsed once per test
process, for the repository scans that walk their syntax trees (tests/test_architecture.py,
tests/test_architecture_names.py, tests/test_layout.py, tests/test_plurals.py): each parsed the
whole package on its own, 1.2-1.6 CPU s a parse. The scans only read the trees. Their modules
are one ``xdist_group``, :data:`SCAN_GROUP`, so that one worker parses the package
(docs/testing.md, "Round 14")."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1] / "python" / "overprov"
SCAN_GROUP = "package-scan"


@cache
def module_paths() -> tuple[Path, ...]:
    """Every Python module of the package, sorted."""
    return tuple(sorted(PACKAGE_DIR.rglob("*.py")))


@cache
def module_tree(path: Path) -> ast.Module:
    """The syntax tree of ``path`` (a module of the package, or its ``.pyi`` stub)."""
    return ast.parse(path.read_text(encoding="utf-8"), str(path))
