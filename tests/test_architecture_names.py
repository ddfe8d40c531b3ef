"""What ARCHITECTURE.md names is in the code: every file it names (``x.py``, ``dir/x.rs``), every
``module.name`` and ``Class.attribute`` of the package it names (in backquotes, and along the walk
of ``calibrate --extra-op``), every Rust ``module::Type``; every top-level module of the package
is named (the low layer a newcomer has to know); and the core's layers import only the layers
the page puts below them."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest
from package_trees import SCAN_GROUP, module_tree

pytestmark = pytest.mark.xdist_group(SCAN_GROUP)  # one worker parses the package

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "ARCHITECTURE.md"
PACKAGE = ROOT / "python" / "overprov"
CRATES = ROOT / "crates"
CORE_SRC = CRATES / "overprov-sim" / "src"
# names in the walk that are a local variable or a config field, not a module
NOT_MODULES = {"args", "reading", "geometry"}
FILE_SUFFIXES = {"py", "rs", "json", "toml", "md", "html"}


def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def quoted(text: str) -> set[str]:
    return set(re.findall(r"`([^`\n]+)`", text))


def walk_block(text: str) -> str:
    start = text.index("### The walk")
    return text[start : text.index("\n## ", start)]


@cache
def py_files() -> list[Path]:
    return sorted([*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.pyi")])  # the core's stub too


@cache
def rs_files() -> list[Path]:
    return sorted(p for p in CRATES.rglob("*.rs") if "target" not in p.parts)


def tree(path: Path) -> ast.Module:
    return module_tree(path)


def defines(body: list[ast.stmt], name: str) -> bool:
    for n in body:
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and n.name == name:
            return True
        targets = n.targets if isinstance(n, ast.Assign) else [getattr(n, "target", None)]
        if isinstance(n, ast.Assign | ast.AnnAssign) and any(
            isinstance(t, ast.Name) and t.id == name for t in targets
        ):
            return True
        if isinstance(n, ast.ImportFrom) and any((a.asname or a.name) == name for a in n.names):
            return True
    return False


@cache
def all_classes() -> dict[str, list[ast.ClassDef]]:
    out: dict[str, list[ast.ClassDef]] = {}
    for p in py_files():
        for n in ast.walk(tree(p)):
            if isinstance(n, ast.ClassDef):
                out.setdefault(n.name, []).append(n)
    return out


def classes(name: str) -> list[ast.ClassDef]:
    return all_classes().get(name, [])


@cache
def rs_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def resolves(owner: str, name: str) -> bool:
    """``owner.name``: a module of the package (by file name) defining ``name``, a class of the
    package with that member, or a Rust type or the binding's class with that field or method."""
    modules = [p for p in py_files() if p.stem == owner]
    if modules:
        return any(defines(tree(p).body, name) for p in modules)
    found = classes(owner)
    if found:
        return any(defines(c.body, name) for c in found)
    rust = rf"\b(?:struct|enum) {re.escape(owner)}\b"
    member = rf"\b(?:pub )?(?:fn )?{re.escape(name)}\b\s*[(:]"
    return any(re.search(rust, text := rs_text(p)) and re.search(member, text) for p in rs_files())


def dotted_names(text: str) -> set[tuple[str, str]]:
    names = set(
        re.findall(r"^([A-Za-z_]\w*)\.([A-Za-z_]\w*)(?:\(\))?$", "\n".join(quoted(text)), re.M)
    )
    names |= set(re.findall(r"\b([A-Za-z_]\w*)\.([A-Za-z_]\w*)\b", walk_block(text)))
    return {
        (owner, name)
        for owner, name in names
        if name not in FILE_SUFFIXES and owner not in NOT_MODULES
    }


def file_named(name: str) -> bool:
    if (ROOT / name).exists():
        return True
    files = py_files() if name.endswith(".py") else rs_files()
    return any(p.as_posix().endswith("/" + name) for p in files)


def test_the_scans_find_names():
    text = "`engine.check` `nope.py` `a/b.rs`\n### The walk\nfit.fit ─► twin.py\n## Layout\n"
    assert dotted_names(text) == {("engine", "check"), ("fit", "fit")}
    assert resolves("engine", "check") and resolves("TwinReading", "level_of")
    assert resolves("Simulator", "totals") and resolves("_core", "choices")  # the binding
    assert resolves("RoundRequest", "idle_seconds")  # a Rust struct's field
    assert not resolves("engine", "no_such_function")
    assert not file_named("nope.py") and file_named("calibrate/answer.py")


def test_every_file_the_page_names_exists():
    named = [t for t in quoted(page()) if re.fullmatch(r"[\w/]+\.(?:py|rs)", t)]
    assert named
    assert sorted(t for t in named if not file_named(t)) == []


def test_every_dotted_name_the_page_gives_is_in_the_code():
    names = dotted_names(page())
    assert len(names) > 30
    assert sorted(f"{o}.{n}" for o, n in names if not resolves(o, n)) == []


def test_every_rust_path_the_page_gives_is_in_the_core():
    paths = set(re.findall(r"`(\w+)::(\w+)`", page()))
    assert paths
    missing = []
    for module, name in sorted(paths):
        files = [CORE_SRC / f"{module}.rs", *sorted((CORE_SRC / module).glob("*.rs"))]
        decl = re.compile(rf"pub (?:struct|enum|fn|trait|type) {name}\b")
        if not any(f.is_file() and decl.search(f.read_text(encoding="utf-8")) for f in files):
            missing.append(f"{module}::{name}")
    assert missing == []


def test_every_top_level_module_is_named():
    text = page()
    modules = sorted(p.name for p in PACKAGE.glob("*.py") if not p.name.startswith("__"))
    assert sorted(m for m in modules if not re.search(rf"\b{re.escape(m)}\b", text)) == []


def core_layers(text: str) -> list[list[str]]:
    """The core's layers as the page lists them, top first: ``a`` → ``b``, ``c`` → ..."""
    line = re.search(r"each using only those below it \(([^)]*)\)", text.replace("\n", " "))
    assert line, "the core's layers are not listed"
    return [re.findall(r"`(\w+)`", part) for part in line[1].split("→")]


def crate_imports(module: str) -> set[str]:
    """The top-level modules of the core ``module`` uses (``crate::x`` outside comments)."""
    files = [CORE_SRC / f"{module}.rs", *sorted((CORE_SRC / module).rglob("*.rs"))]
    used: set[str] = set()
    for f in files:
        if f.is_file():
            for line in f.read_text(encoding="utf-8").splitlines():
                if not line.lstrip().startswith("//"):
                    used |= set(re.findall(r"\bcrate::(\w+)", line))
    return used - {module}


def test_the_core_layers_import_only_those_below():
    layers = core_layers(page())
    assert layers[0] == ["host"] and layers[-1] == ["geometry"]
    order = {m: i for i, layer in enumerate(layers) for m in layer}
    upward = sorted(
        f"{m} -> {d}"
        for m, i in order.items()
        for d in crate_imports(m)
        if d in order and order[d] <= i and d != m
    )
    assert upward == []


def _exits(tree: ast.Module) -> list[int]:
    """Lines that end the process (``sys.exit``, ``os._exit``, ``raise SystemExit``), or a
    ``run``/``main`` that returns a non-zero exit code, outside ``if __name__ == "__main__":``."""
    out = []
    for stmt in tree.body:
        if isinstance(stmt, ast.If) and "__main__" in ast.unparse(stmt.test):
            continue
        for n in ast.walk(stmt):
            text = ast.unparse(n) if isinstance(n, ast.Call | ast.Raise) else ""
            ends = re.match(r"(sys\.exit|os\._exit|exit)\(", text) or "SystemExit" in text
            if ends and isinstance(n, ast.Call | ast.Raise):
                out.append(n.lineno)
            if isinstance(n, ast.FunctionDef) and n.name in ("run", "main"):
                out += [
                    r.lineno
                    for r in ast.walk(n)
                    if isinstance(r, ast.Return)
                    and isinstance(r.value, ast.Constant)
                    and type(r.value.value) is int
                    and r.value.value != 0
                ]
    return sorted(set(out))


def test_the_exit_scan_finds_exits():
    tree = ast.parse(
        "import sys\ndef a():\n    sys.exit(2)\ndef b():\n    raise SystemExit(1)\n"
        "def run(args):\n    return 3\ndef count():\n    return 1\n"
        "if __name__ == '__main__':\n    sys.exit(a())\n"
    )
    assert _exits(tree) == [3, 5, 7]


def test_only_the_cli_turns_errors_into_exit_codes():
    """Library code raises (``overprov.errors``); ``cli.py`` alone exits, and a command's
    ``run`` returns 0 (a script's ``__main__`` block aside)."""
    entry = {PACKAGE / "cli.py", PACKAGE / "__main__.py"}
    found = [
        f"{p.relative_to(PACKAGE)}:{line}"
        for p in py_files()
        if p.suffix == ".py" and p not in entry
        for line in _exits(tree(p))
    ]
    assert found == []


def test_the_layout_names_every_page_and_script():
    """The layout's docs/ and scripts/ entries list every page and script the repository has."""
    layout = page()[page().index("## Layout") :]
    pages = sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    scripts = sorted(p.name for p in (ROOT / "scripts").iterdir() if p.is_file())
    assert pages and scripts
    unnamed = [n for n in pages + scripts if not re.search(rf"(?<![\w-]){re.escape(n)}\b", layout)]
    assert unnamed == []


def layout_entry(text: str, folder: str) -> str:
    """The layout's lines for ``python/overprov/<folder>/``: its line and those continuing it."""
    layout = text[text.index("\npython/overprov/", text.index("## Layout")) :]
    start = layout.index(f"\n  {folder}/ ")
    lines = layout[start + 1 :].splitlines()
    entry = [lines[0]]
    for line in lines[1:]:
        if not line.startswith(" " * 10):  # the next entry, or the block's end
            break
        entry.append(line)
    return "\n".join(entry)


def test_the_layout_names_every_module_of_each_package():
    """Each package's layout entry names each of its modules (``load_*``: all load_ modules)."""
    text = page()
    unnamed = []
    for init in sorted(PACKAGE.glob("*/__init__.py")):
        folder = init.parent
        entry = layout_entry(text, folder.name)
        prefixes = re.findall(r"\b(\w+_)\*", entry)
        for module in sorted(folder.glob("*.py")):
            stem = module.stem
            if stem == "__init__" or re.search(rf"\b{stem}\b", entry):
                continue
            if not any(stem.startswith(p) for p in prefixes):
                unnamed.append(f"{folder.name}/{module.name}")
    assert unnamed == []


def test_the_layout_names_every_file_of_the_core():
    """The core's layout entry names each source file (a GC policy and a trace format are one
    file each under gc/ and trace/, named by the rule, not one by one)."""
    layout = page()[page().index("## Layout") :]
    block = layout[layout.index("crates/overprov-sim/src/") : layout.index("crates/overprov-py/")]
    unnamed = [
        p.relative_to(CORE_SRC).as_posix()
        for p in sorted(CORE_SRC.rglob("*.rs"))
        if p.name not in ("mod.rs", "lib.rs")
        and p.relative_to(CORE_SRC).parts[:2] not in (("ftl", "gc"), ("workload", "trace"))
        and not re.search(rf"\b{re.escape(p.stem)}\b", block)
    ]
    assert unnamed == []
