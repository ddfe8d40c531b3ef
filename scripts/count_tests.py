"""Count what the test suite checks: pytest items, Python ``assert`` statements and
``pytest.raises`` blocks under tests/, Rust ``#[test]`` functions (proptest ones included) and
assertion macros under crates/. Used to show that a change to how the tests run removed no test
and no assertion::

    python scripts/count_tests.py            # a table
    python scripts/count_tests.py --json -   # the same as JSON

The pytest item count comes from ``pytest --collect-only -q`` run in a child process (set
PYTHONPATH so it imports the package under test); the rest is read from the source text.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RUST_ASSERT = re.compile(r"\b(?:prop_)?(?:debug_)?assert(?:_eq|_ne)?!\s*\(")


def python_counts(tests: Path) -> dict[str, int]:
    asserts = raises = files = 0
    for path in sorted(tests.rglob("*.py")):
        files += 1
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Assert):
                asserts += 1
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "raises"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "pytest"
            ):
                raises += 1
    return {"python_files": files, "python_asserts": asserts, "pytest_raises": raises}


def pytest_items(tests: Path) -> int:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            str(tests),
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
    )
    items = [ln for ln in proc.stdout.splitlines() if "::" in ln]
    if proc.returncode not in (0, 5) or not items:
        raise SystemExit(f"pytest --collect-only failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return len(items)


def rust_counts(crates: Path) -> dict[str, int]:
    tests = asserts = 0
    for path in sorted(crates.rglob("*.rs")):
        if "target" in path.parts:
            continue
        text = path.read_text()
        tests += text.count("#[test]")
        asserts += len(RUST_ASSERT.findall(text))
    return {"rust_tests": tests, "rust_asserts": asserts}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", metavar="FILE", help="write the counts as JSON ('-' for stdout)")
    ap.add_argument("--no-collect", action="store_true", help="skip the pytest item count")
    args = ap.parse_args(argv)
    counts: dict[str, int] = {}
    if not args.no_collect:
        counts["pytest_items"] = pytest_items(REPO / "tests")
    counts |= python_counts(REPO / "tests")
    counts |= rust_counts(REPO / "crates")
    if args.json:
        text = json.dumps(counts, indent=2) + "\n"
        if args.json == "-":
            sys.stdout.write(text)
        else:
            Path(args.json).write_text(text)
    else:
        for key, value in counts.items():
            print(f"{key:16} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
