"""The rules ARCHITECTURE.md states about the package, checked against its source (ast):

- only ``engine.py`` imports the Rust core ``_core`` (the one door to it);
- every JSON or TOML file read goes through ``inputs.py`` (bounded: size, UTF-8, depth, no
  NaN/inf) — files of the package's own data (``importlib.resources``) aside;
- every JSON document written goes through ``outputs.py`` (``json_text``/``write_json``: no
  NaN, one format), not a ``json.dumps`` handed to a writer of its own.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest
from package_trees import SCAN_GROUP, module_paths, module_tree
from test_import_graph import import_graph_script

pytestmark = pytest.mark.xdist_group(SCAN_GROUP)  # one worker parses the package

PACKAGE_DIR = import_graph_script.PACKAGE_DIR
READ_CALLS = {"read_text", "read_bytes", "read", "open"}
WRITE_CALLS = {"write_atomic", "write_stdout", "write_text", "write", "print"}
# Writes that do not yet go through outputs.py, each with why (prune as they land).
KNOWN_WRITES: set[str] = set()


@cache
def _sources() -> tuple[tuple[str, ast.Module], ...]:
    """Every module of the package, parsed once for the read and the write scans (which only
    read the trees)."""
    return tuple(
        (path.relative_to(PACKAGE_DIR).as_posix(), module_tree(path)) for path in module_paths()
    )


def _name(call: ast.Call) -> str:
    f = call.func
    if isinstance(f, ast.Attribute):
        base = f.value.id if isinstance(f.value, ast.Name) else ""
        return f"{base}.{f.attr}" if base else f.attr
    return f.id if isinstance(f, ast.Name) else ""


def _calls(node: ast.AST):
    return [n for n in ast.walk(node) if isinstance(n, ast.Call)]


def _assignments(node: ast.AST) -> dict[str, list[ast.AST]]:
    out: dict[str, list[ast.AST]] = {}
    for n in ast.walk(node):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Name):
                    out.setdefault(t.id, []).append(n.value)
    return out


def _reaches(expr: ast.AST, assigned: dict[str, list[ast.AST]]) -> list[ast.AST]:
    """``expr`` and the expressions assigned to the names it uses, transitively."""
    seen: list[ast.AST] = []
    todo = [expr]
    while todo:
        e = todo.pop()
        if any(e is s for s in seen):
            continue
        seen.append(e)
        for n in ast.walk(e):
            if isinstance(n, ast.Name):
                todo.extend(assigned.get(n.id, []))
    return seen


def _package_data(e: ast.AST) -> bool:
    return any(_name(c) == "resources.files" for c in _calls(e)) or any(
        isinstance(n, ast.Name) and n.id == "__file__" for n in ast.walk(e)
    )


def _reads_a_file(expr: ast.AST, assigned: dict[str, list[ast.AST]]) -> bool:
    """``expr`` reads a file (``.read_text()``, ``open()``, ...) that is not the package's own
    data (a path from ``importlib.resources`` or ``__file__``)."""
    reached = _reaches(expr, assigned)
    if any(_package_data(e) for e in reached):
        return False
    return any(_name(c).rpartition(".")[2] in READ_CALLS for e in reached for c in _calls(e))


def _functions(tree: ast.AST):
    yield tree
    yield from (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))


def raw_reads(sources) -> list[str]:
    """``json.load``/``tomllib.load`` of an open file, and ``json.loads``/``tomllib.loads`` of a
    file's text (directly or through names assigned in the function or the module)."""
    out = set()
    for rel, tree in sources:
        if rel == "inputs.py":
            continue
        module_names: dict[str, list[ast.AST]] = {}
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
                for k, v in _assignments(ast.Module(body=[stmt], type_ignores=[])).items():
                    module_names.setdefault(k, []).extend(v)
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                    module_names.setdefault(stmt.target.id, []).append(stmt.value)
        for func in _functions(tree):
            assigned = {**module_names, **_assignments(func)}
            for call in _calls(func):
                name = _name(call)
                if name in ("json.load", "tomllib.load"):
                    out.add(f"{rel}:{call.lineno}: {name} of an open file")
                elif (
                    name in ("json.loads", "tomllib.loads")
                    and call.args
                    and _reads_a_file(call.args[0], assigned)
                ):
                    out.add(f"{rel}:{call.lineno}: {name} of a file's text")
    return sorted(out)


def raw_writes(sources) -> list[str]:
    """A ``json.dumps`` handed straight to a writer, or ``json.dump`` to a file."""
    out = set()
    for rel, tree in sources:
        if rel == "outputs.py" or rel in KNOWN_WRITES:
            continue
        for call in _calls(tree):
            name = _name(call)
            if name == "json.dump":
                out.add(f"{rel}:{call.lineno}: json.dump to a file")
            elif name.rpartition(".")[2] in WRITE_CALLS:
                args = [*call.args, *(k.value for k in call.keywords)]
                if any(_name(c) == "json.dumps" for a in args for c in _calls(a)):
                    out.add(f"{rel}:{call.lineno}: json.dumps written by {name}")
    return sorted(out)


def _parse(text: str):
    return [("m.py", ast.parse(text))]


def test_the_read_scan_finds_raw_reads_and_leaves_package_data():
    found = raw_reads(
        _parse(
            "def a(p):\n    return json.loads(p.read_text())\n"
            "def b(p):\n    text = Path(p).read_text()\n    return tomllib.loads(text)\n"
            "def c(f):\n    return json.load(f)\n"
            "def d():\n    return json.loads(resources.files('x').joinpath('s').read_text())\n"
            "def e(proc):\n    return json.loads(proc.stdout)\n"
            "SCHEMA = Path(__file__).parent / 's.json'\n"
            "def f():\n    return json.loads(SCHEMA.read_text())\n"
            "def g():\n    res = resources.files('x').joinpath('s')\n"
            "    return json.loads(res.read_text())\n"
        )
    )
    assert found == [
        "m.py:2: json.loads of a file's text",
        "m.py:5: tomllib.loads of a file's text",
        "m.py:7: json.load of an open file",
    ]


def test_the_write_scan_finds_raw_writes():
    found = raw_writes(
        _parse(
            "write_atomic(p, json.dumps(doc) + '\\n')\n"
            "p.write_text(json.dumps(doc))\n"
            "json.dump(doc, f)\n"
            "write_atomic(p, outputs.json_text(doc))\n"
            "key = json.dumps(doc, sort_keys=True)\n"
        )
    )
    assert found == [
        "m.py:1: json.dumps written by write_atomic",
        "m.py:2: json.dumps written by p.write_text",
        "m.py:3: json.dump to a file",
    ]


def test_only_engine_imports_the_core():
    graph = import_graph_script.module_graph()
    importers = sorted(m for m, deps in graph.items() if "overprov._core" in deps)
    assert importers == ["overprov.engine"]


def test_every_json_and_toml_read_goes_through_inputs():
    found = raw_reads(_sources())
    assert not found, "read these through overprov.inputs:\n" + "\n".join(found)


def test_every_document_is_written_through_outputs():
    found = raw_writes(_sources())
    assert not found, "write these through overprov.outputs:\n" + "\n".join(found)


def test_the_known_writers_still_write_their_own():
    # an entry of KNOWN_WRITES that no longer needs to be there is removed from it
    for rel in KNOWN_WRITES:
        tree = ast.parse((PACKAGE_DIR / rel).read_text())
        assert any(_name(c) == "json.dumps" for c in _calls(tree)), rel
    assert all(Path(PACKAGE_DIR / rel).is_file() for rel in KNOWN_WRITES)
