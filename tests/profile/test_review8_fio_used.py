"""Every public name of ``overprov/fio.py`` is used by the package: ``fio.remove_stale`` outlived
its one caller (a round's earlier, interrupted attempt is set aside into ``fio/interrupted/``,
``FioTarget._set_aside``, not deleted), and a helper nothing calls reads as if some path
deleted fio's partial output."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "overprov"


def _public_names(tree: ast.Module) -> list[str]:
    names = [
        n.name
        for n in tree.body
        if isinstance(n, ast.FunctionDef | ast.ClassDef) and not n.name.startswith("_")
    ]
    for n in tree.body:
        if isinstance(n, ast.Assign):
            names += [t.id for t in n.targets if isinstance(t, ast.Name)]
    return [n for n in names if not n.startswith("_")]


def test_every_public_name_of_fio_is_used():
    fio = PACKAGE / "fio.py"
    own = fio.read_text()
    others = "\n".join(p.read_text() for p in sorted(PACKAGE.rglob("*.py")) if p != fio)
    unused = [
        name
        for name in _public_names(ast.parse(own))
        if not re.search(rf"\b{name}\b", others) and len(re.findall(rf"\b{name}\b", own)) < 2
    ]
    assert unused == [], f"overprov/fio.py defines, and nothing uses: {unused}"
