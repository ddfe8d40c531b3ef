"""The import graph of the Python package, read from the source (ast).

Every import counts, at module level or inside a function: a deferred import hides a cycle
from Python but not from a reader. Two views:

- ``module_graph()``: module → the package's modules it imports (tests/test_import_graph.py
  looks for cycles in it);
- ``layer_graph()``: the same folded to layers — each sub-package (``profile/``, ``report/``,
  ...) is one node, the top-level modules are ``overprov``, the low layer every package stands
  on, and the core ``_core`` stays apart (only ``engine`` imports it). ARCHITECTURE.md holds
  its text; a test compares the two and finds no cycle in either::

    python scripts/import_graph.py          # the layer graph as ARCHITECTURE.md shows it
    python scripts/import_graph.py --modules  # every module's imports
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1] / "python" / "overprov"
#: top-level modules shown as their own node in the layer graph
OWN_NODES = ("_core",)


def modules(package_dir: Path = PACKAGE_DIR) -> dict[str, Path]:
    """Dotted module name → source file (the compiled core ``_core`` by its stub or binary)."""
    out = {}
    for path in package_dir.rglob("*.py"):
        parts = list(path.relative_to(package_dir.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    out.setdefault(f"{package_dir.name}._core", package_dir / "_core.pyi")
    return out


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(mod: str, path: Path) -> list[str]:
    """The dotted names ``mod`` imports (relative imports resolved), as written."""
    is_pkg = path.name == "__init__.py"
    out: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = mod.split(".")
                pkg = pkg if is_pkg else pkg[:-1]
                pkg = pkg[: len(pkg) - (node.level - 1)]
                base = ".".join([*pkg, base] if base else pkg)
            # `from pkg import name` imports the submodule pkg.name when there is one
            out.extend(f"{base}.{a.name}" for a in node.names)
    return out


def module_graph(package_dir: Path = PACKAGE_DIR) -> dict[str, set[str]]:
    known = modules(package_dir)
    graph: dict[str, set[str]] = {m: set() for m in known}
    for mod, path in known.items():
        if path.suffix != ".py":
            continue
        for name in imports_of(mod, path):
            if not name.startswith(package_dir.name):
                continue
            dep = _resolve(name, known)
            if dep and dep != mod:
                graph[mod].add(dep)
    return graph


def layer_of(mod: str) -> str:
    """``profile/`` for a sub-package's module, ``_core`` for the core, and ``overprov`` for
    the other top-level modules (the low layer)."""
    parts = mod.split(".")
    if len(parts) == 1:
        return parts[0]
    if _is_package(parts[:2]):
        return parts[1] + "/"
    return parts[1] if parts[1] in OWN_NODES else parts[0]


def _is_package(parts: list[str]) -> bool:
    return (PACKAGE_DIR.parent.joinpath(*parts) / "__init__.py").exists()


def layer_graph(package_dir: Path = PACKAGE_DIR) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for mod, deps in module_graph(package_dir).items():
        node = layer_of(mod)
        out.setdefault(node, set())
        out[node].update(d for d in map(layer_of, deps) if d != node)
    return out


def text(graph: dict[str, set[str]]) -> str:
    """One line per node: ``node -> its imports`` (sorted; ``-> (nothing)`` for a leaf)."""
    width = max(map(len, graph))
    lines = []
    for node in sorted(graph):
        deps = ", ".join(sorted(graph[node])) or "(nothing)"
        lines.append(f"{node:<{width}} -> {deps}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modules", action="store_true", help="every module, not the layers")
    args = parser.parse_args()
    print(text(module_graph() if args.modules else layer_graph()), end="")


if __name__ == "__main__":
    main()
