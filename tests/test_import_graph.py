"""The package's modules import one another without cycles, its folders too (a sub-package is
one node, the top-level modules the low layer below them all), and ARCHITECTURE.md's layer graph
is the code's.

The graph is built from the source by scripts/import_graph.py (ast), counting every import, at
module level or inside a function: a deferred import hides a cycle from Python but not from a
reader.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("import_graph", ROOT / "scripts" / "import_graph.py")
import_graph_script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(import_graph_script)

# Cycles that another change removes (prune the list as it lands): none left.
KNOWN_CYCLES: set[frozenset[str]] = set()


@pytest.fixture(scope="module")
def import_graph() -> dict[str, set[str]]:
    """The module graph, parsed once for the module's tests (each parse of the package's
    sources took 1.3-1.5 CPU s; seven tests parsed it again, docs/testing.md, "Round 6")."""
    return import_graph_script.module_graph()


@pytest.fixture(scope="module")
def layer_graph() -> dict[str, set[str]]:
    return import_graph_script.layer_graph()


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_graph_sees_the_imports(import_graph):
    g = import_graph
    assert "overprov.engine" in g["overprov.simulate.cli"]
    assert "overprov.errors" in g["overprov.engine"]
    assert "overprov.report.findings" in g["overprov.report.build"]  # `from pkg import mod`


def test_cycles_are_found():
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(g) == [["a", "b", "c"]]


def test_no_import_cycles(import_graph):
    found = {frozenset(c) for c in cycles(import_graph)}
    assert found - KNOWN_CYCLES == set(), f"import cycles: {sorted(map(sorted, found))}"


GRAPH_START = "<!-- import graph: scripts/import_graph.py -->"
GRAPH_END = "<!-- end of import graph -->"


def architecture_graph() -> str:
    text = (ROOT / "ARCHITECTURE.md").read_text()
    start = text.index(GRAPH_START) + len(GRAPH_START)
    block = text[start : text.index(GRAPH_END, start)].strip()
    return block.removeprefix("```").removesuffix("```").strip("\n") + "\n"


def test_the_layer_graph_folds_modules_into_layers(layer_graph):
    layer_of = import_graph_script.layer_of
    assert layer_of("overprov.report.build") == "report/"
    assert layer_of("overprov.simulate.cli") == "simulate/"
    assert layer_of("overprov.engine") == "overprov"
    assert layer_of("overprov._core") == "_core"
    assert layer_of("overprov.units") == "overprov"
    g = layer_graph
    assert "_core" in g["overprov"]
    assert "overprov" in g["profile/"]


def test_cycles_of_the_layer_graph_are_found():
    g = {"overprov": set(), "a/": {"overprov", "b/"}, "b/": {"overprov", "a/"}}
    assert cycles(g) == [["a/", "b/"]]


def test_no_folder_cycles(layer_graph):
    """A package that imports another stands above it: what two packages share (results.json's
    format, measurement.json's, fio's output) lies in the low layer below both."""
    found = cycles(layer_graph)
    assert found == [], f"folder cycles: {found}"


def test_the_low_layer_imports_no_package(import_graph):
    """The top-level modules (engine, sweep, presets, units, inputs, outputs, errors, ...) stand
    below every sub-package: they import the core and one another, never a package's module."""
    g = import_graph
    layer_of = import_graph_script.layer_of
    upward = sorted(
        f"{m} -> {d}"
        for m, deps in g.items()
        if layer_of(m) == "overprov"
        for d in deps
        if layer_of(d).endswith("/")
    )
    assert upward == []


def test_only_the_low_layer_imports_the_core(layer_graph):
    g = layer_graph
    assert [node for node, deps in g.items() if "_core" in deps] == ["overprov"]


def test_architecture_shows_the_import_graph_of_the_code(layer_graph):
    shown = architecture_graph()
    actual = import_graph_script.text(layer_graph)
    assert shown == actual, (
        "ARCHITECTURE.md's import graph is not the code's; paste the output of "
        "`python scripts/import_graph.py` between its markers:\n" + actual
    )
