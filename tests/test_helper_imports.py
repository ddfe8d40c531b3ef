"""How the tests import their helpers. pytest puts each test folder on ``sys.path`` (most of
its folders hold no ``__init__.py``), so a module is found by its bare name: ``from conftest
import X`` names whichever folder's conftest.py was imported first (a subset run in another
order failed to collect, docs/testing.md), and two helper files of one name in two folders
would be one module. Helpers shared by a folder's tests live in a module of a name of their
own (tests/report/report_cli.py, tests/exporter/exporter_helpers.py)."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
    return names


def test_no_test_file_imports_a_conftest():
    importers = [
        str(p.relative_to(TESTS)) for p in sorted(TESTS.rglob("*.py"))
        if "conftest" in _imported_modules(p)
    ]  # fmt: skip
    assert importers == [], importers


def test_every_helper_module_name_is_its_own():
    by_name: dict[str, list[str]] = defaultdict(list)
    for p in sorted(TESTS.rglob("*.py")):
        if p.name not in ("conftest.py", "__init__.py"):
            by_name[p.stem].append(str(p.relative_to(TESTS)))
    assert {n: ps for n, ps in by_name.items() if len(ps) > 1} == {}
