"""Every file the product names — in code, help, output and docs — is in the repository.

Scans python/, docs/, README.md, ARCHITECTURE.md, bench/ and crates/ for names of documents
(``*.md``), data or config files (``*.toml`` with a directory part) and source files named with
their folder (``profile/steady.py``, ``timing/slc.rs``) and resolves each against the repository
root, the package, the citing file's folder (and for sources the test and crate folders).
"DOMAIN.md" and "../shared" (team notes outside the repository) are never to be cited.
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
# Source files named with a folder (`profile/steady.py`, `tests/safety/test_holes.py`,
# `timing/slc.rs`), resolved as above and against the test and crate folders too.
CITED_CODE = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)+[\w.-]+\.(?:py|rs))\b")
CODE_BASES = ["tests", "crates", "crates/overprov-sim", "crates/overprov-sim/src",
              "crates/overprov-sim-bench"]  # fmt: skip
# another project's files, named beside its address, and patterns
OTHER_PROJECTS = {"nvme/nvme_metrics.py", "tests/x/test_y.py",
                  # junhe/wiscsee's (bench/foreign/results/wiscgc/GC.md)
                  "wiscsim/dftldes.py", "wiscsim/ssdframework.py", "wiscsim/blkpool.py",
                  "wiscsim/devblockpool.py",
                  "utilities/utils.py"}  # fmt: skip


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
            for m in CITED_CODE.finditer(line):
                name = m.group(1)
                if name in OTHER_PROJECTS or _exists(name, f):
                    continue
                if not any((ROOT / base / name).exists() for base in CODE_BASES):
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
    r"\b[Ii]ssues? #?\d+\b"  # a tracker's numbers
    # the working sessions and helpers that wrote the repository
    r"|\b(?:[Ee]arlier|[Pp]revious|[Tt]his|[Oo]ur|[Ll]ast|[Ss]ame|[Oo]ne|[Oo]ther|busy) sessions?\b"
    r"|\bthe session before\b|\bsessions'|\bhelpers'|\bother helpers\b"
    # a change and its history rather than the thing itself
    r"|\b(?:before|after) this change\b|\bthis change (?:at|to|made|makes)\b|\bfixed since\b"
    r"|\bthis \d+-core machine\b|\b(?:this project's|our|my) machine\b"
    r"|\bthe issue's\b|\bthe issue (?:recorded|asks|says)\b"
)


def uncitable_references() -> list[str]:
    out = []
    for f in [*_files(), *sorted((ROOT / "tests").rglob("*.py"))]:
        try:
            text = f.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if f == Path(__file__).resolve():
            continue
        lines = text.splitlines()
        for n, line in enumerate(lines, 1):
            if UNCITABLE.search(line):
                out.append(f"{f.relative_to(ROOT)}:{n}: {line.strip()}")
            elif n < len(lines) and _across(line, lines[n]):
                out.append(f"{f.relative_to(ROOT)}:{n}: {line.strip()} {lines[n].strip()}")
    return out


_CONTINUATION = re.compile(r"^\s*(?:#+|//[/!]?|\*|>)?\s*")


def _across(line: str, following: str) -> bool:
    """A phrase broken over two lines (a comment's or a paragraph's), found in neither alone."""
    joined = f"{line.rstrip()} {_CONTINUATION.sub('', following)}"
    return bool(UNCITABLE.search(joined)) and not UNCITABLE.search(following)


def test_the_uncitable_scan_finds_tracker_numbers_and_sessions():
    # written in pieces, so this file itself holds none of the words it looks for
    for line in ("as issue" + " 14 found", "Issues" + " 2 and", "an earlier" + " session",
                 "this 2-core" + " machine", "while other" + " sessions ran",
                 "three other" + " helpers' jobs", "recorded the" + " session before",
                 "before this" + " change",
                 "and are fixed" + " since", "this project's" + " machine",
                 "at the issue" + "'s scale"):  # fmt: skip
        assert UNCITABLE.search(line), line
    assert _across("a pool cost 1.2 s on this", "    # 2-core" + " machine under load")
    assert not _across("a 2-core x86_64 VM,", "2026-11-27")
    for line in ("no issue here", "a 2-core x86_64 VM, 2026-11-23", "the session cookie",
                 "made once per session", "one Python session", "before deadbeef",
                 "a change to the config"):  # fmt: skip
        assert not UNCITABLE.search(line), line


def test_no_tracker_numbers_or_session_talk():
    found = uncitable_references()
    assert not found, "\n".join(found)


BENCH_RECORD = ROOT / "bench" / "README.md"
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")
HARDWARE = re.compile(r"\b\d+-core\b|\bx86_64\b|\baarch64\b|\bKVM\b")


def unnamed_benchmarks(text: str) -> list[str]:
    """The sections (``## ``) of a benchmark record whose tables of figures name no date or
    no hardware."""
    out = []
    for section in re.split(r"(?m)^(?=## )", text):
        if "|---" not in section or not section.startswith("## "):
            continue
        missing = [
            w for w, rx in (("date", DATE), ("hardware", HARDWARE)) if not rx.search(section)
        ]
        if missing:
            out.append(f"{section.splitlines()[0]}: no {' or '.join(missing)}")
    return out


def test_the_benchmark_scan_finds_a_figure_without_hardware_or_date():
    table = "| case | s |\n|---|---|\n| a | 1.0 |\n"
    assert unnamed_benchmarks(f"## A\n\n{table}") == ["## A: no date or hardware"]
    assert unnamed_benchmarks(f"## A, 2026-11-27\n\n{table}") == ["## A, 2026-11-27: no hardware"]
    assert unnamed_benchmarks(f"## A, 2026-11-27\n\non a 2-core x86_64 VM\n\n{table}") == []
    assert unnamed_benchmarks("## prose only\n\nno table here\n") == []


def test_every_benchmark_figure_names_hardware_and_date():
    found = unnamed_benchmarks(BENCH_RECORD.read_text(encoding="utf-8"))
    assert not found, "bench/README.md sections without hardware and date:\n" + "\n".join(found)


def test_the_code_scan_finds_a_missing_source_file():
    assert CITED_CODE.findall("see profile/steady.py, timing/slc.rs and x.py") == [
        "profile/steady.py",
        "timing/slc.rs",
    ]
