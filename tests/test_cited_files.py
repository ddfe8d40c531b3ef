"""Every file the product names — in code, help, output and docs — is in the repository.

Scans python/, docs/, README.md, ARCHITECTURE.md, bench/ and crates/ for names of documents
(``*.md``) and data or config files (``*.toml`` with a directory part) and resolves each
against the repository root, the package, and the citing file's folder. "DOMAIN.md" and
"../shared" (team notes outside the repository) are never to be cited.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ["python", "docs", "README.md", "ARCHITECTURE.md", "bench", "crates"]
SUFFIXES = {".py", ".rs", ".md", ".toml", ".txt", ".html", ".sh", ""}
CITED = re.compile(r"(?<![\w/.-])((?:\.\./|[\w.-]+/)*[\w.-]+\.md|(?:[\w.-]+/)+[\w.-]+\.toml)\b")
NEVER = re.compile(r"DOMAIN\.md|\.\./shared")
# names that are patterns or other projects' files, not citations of ours
NOT_CITATIONS = {"FILE.md", "NAME.md"}
# files overprov writes (into the user's output folder), named in help and docs as examples
WRITTEN_BY_OVERPROV = {"twin.toml"}


def _files():
    for entry in SCANNED:
        path = ROOT / entry
        if path.is_file():
            yield path
        elif path.is_dir():
            for f in sorted(path.rglob("*")):
                if f.is_file() and f.suffix in SUFFIXES and "target" not in f.parts:
                    yield f


def _exists(name: str, citing: Path) -> bool:
    bases = [ROOT, ROOT / "python", ROOT / "python" / "overprov", ROOT / "docs", citing.parent]
    return any((base / name).exists() for base in bases)


def missing_citations() -> list[str]:
    out = []
    for f in _files():
        try:
            text = f.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        rel = f.relative_to(ROOT)
        for n, line in enumerate(text.splitlines(), 1):
            if NEVER.search(line):
                out.append(f"{rel}:{n}: cites team notes outside the repository: {line.strip()}")
                continue
            for m in CITED.finditer(line):
                name = m.group(1)
                if name in NOT_CITATIONS or name.rsplit("/", 1)[-1] in WRITTEN_BY_OVERPROV:
                    continue
                if _exists(name, f):
                    continue
                out.append(f"{rel}:{n}: {name} is not in the repository")
    return out


def test_the_scan_finds_a_missing_file(tmp_path):
    assert CITED.findall("see docs/nope.md and overprov/data/x.toml, not v1.2") == [
        "docs/nope.md",
        "overprov/data/x.toml",
    ]
    assert not _exists("docs/nope.md", ROOT / "README.md")
    assert _exists("docs/concepts.md", ROOT / "README.md")
    assert _exists("data/presets.toml", ROOT / "python" / "overprov" / "presets.py")


def test_every_cited_file_exists():
    missing = missing_citations()
    assert not missing, "\n".join(missing)


# Readers of the repository cannot look up a tracker's numbers or a past working session, and a
# figure measured "on this machine" names no hardware: say the thing itself, and name hardware
# and date beside a figure.
UNCITABLE = re.compile(
    r"\b[Ii]ssues? #?\d+\b|\b(?:earlier|previous|this) session\b|\bthis \d+-core machine\b"
)


def uncitable_references() -> list[str]:
    out = []
    for f in [*_files(), *sorted((ROOT / "tests").rglob("*.py"))]:
        try:
            text = f.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if UNCITABLE.search(line) and f != Path(__file__).resolve():
                out.append(f"{f.relative_to(ROOT)}:{n}: {line.strip()}")
    return out


def test_the_uncitable_scan_finds_tracker_numbers_and_sessions():
    # written in pieces, so this file itself holds none of the words it looks for
    for line in ("as issue" + " 14 found", "Issues" + " 2 and", "an earlier" + " session",
                 "this 2-core" + " machine"):  # fmt: skip
        assert UNCITABLE.search(line), line
    for line in ("no issue here", "a 2-core x86_64 VM, 2026-11-23", "the session cookie"):
        assert not UNCITABLE.search(line), line


def test_no_tracker_numbers_or_session_talk():
    found = uncitable_references()
    assert not found, "\n".join(found)
