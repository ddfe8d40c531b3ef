"""Seeded mutations of structured inputs (JSON documents, TOML tables) and of raw text.

Each parser's fuzz test takes real inputs from tests/data (or made by the real tool), mutates
them with a ``random.Random(seed)``, and feeds them to the command. The number of cases per
parser is ``OVERPROV_FUZZ_CASES`` (default below); the seed is ``OVERPROV_FUZZ_SEED``.
"""

from __future__ import annotations

import contextlib
import copy
import io
import os
import random
import signal
from collections.abc import Iterator
from typing import Any

DEFAULT_CASES = 300
SEED = int(os.environ.get("OVERPROV_FUZZ_SEED", "13"))
#: a case that takes longer than this is a hang
CASE_TIMEOUT_S = 20


def case_count(default: int = DEFAULT_CASES) -> int:
    return int(os.environ.get("OVERPROV_FUZZ_CASES", default))


EVIL_VALUES: list[Any] = [
    None, True, False, 0, -1, -(2**63), 2**64, 10**30, 1e308, -1e308, 1e-320, 0.5, -0.5,
    "", "x", "-1", "nan", "inf", "1e999", "🙂", "\u0000", [], {}, [1, 2], {"a": 1},
    "512GB", "4k", "-4096", 4096, 3.999,
]  # fmt: skip


def _paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:20]):
            out.extend(_paths(v, (*prefix, i)))
    return out


def _get(doc: Any, path: tuple) -> Any:
    for p in path:
        doc = doc[p]
    return doc


def mutate_doc(doc: Any, rng: random.Random, toml: bool = False) -> Any:
    """One to three mutations of a parsed document: a value replaced (by an evil value, a
    negative or huge number, another type), a key deleted or renamed, a container emptied,
    nested deeply, or a list where a table was."""
    doc = copy.deepcopy(doc)
    for _ in range(rng.randint(1, 3)):
        paths = _paths(doc)
        path = rng.choice(paths)
        if not path:
            continue
        parent, key = _get(doc, path[:-1]), path[-1]
        old = parent[key]
        op = rng.randrange(8)
        if op == 0:
            new = rng.choice(EVIL_VALUES)
        elif op == 1 and isinstance(old, int | float) and not isinstance(old, bool):
            new = rng.choice([-old, old * 10 ** rng.randint(3, 30), -abs(old) - 1, old + 0.5])
        elif op == 2 and isinstance(parent, dict):
            del parent[key]
            continue
        elif op == 3 and isinstance(parent, dict):
            parent[rng.choice(["bogus", key + "_x", key.upper(), ""])] = parent.pop(key)
            continue
        elif op == 4:
            new = type(old)() if isinstance(old, dict | list) else [old, old]
        elif op == 5:
            new: Any = old
            for _ in range(rng.choice([2, 50, 200])):
                new = [new] if rng.random() < 0.5 else {"a": new}
        elif op == 6 and isinstance(old, dict):
            new = list(old.values())
        else:
            new = rng.choice([str(old), [old], {"v": old}, None])
        if toml and new is None:
            new = "null"  # TOML has no null
        parent[key] = new
    return doc


def mutate_text(text: str, rng: random.Random) -> str:
    """Byte-level damage: truncation, a deleted or repeated span, random bytes spliced in."""
    data = text.encode("utf-8", "surrogatepass")
    op = rng.randrange(5)
    n = len(data)
    a, b = sorted(rng.randrange(n + 1) for _ in range(2)) if n else (0, 0)
    if op == 0:
        data = data[:a]
    elif op == 1:
        data = data[:a] + data[b:]
    elif op == 2:
        data = data[:a] + data[a:b] * rng.randint(2, 5) + data[b:]
    elif op == 3:
        data = data[:a] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 16))) + data[a:]
    else:
        data = (
            data[:a] + rng.choice([b"\xff\xfe", b"\x00", b"NaN", b"-Infinity", b"]]]"]) + data[b:]
        )
    return data.decode("utf-8", "replace") if rng.random() < 0.5 else data.decode("latin-1")


class Hang(Exception):
    pass


@contextlib.contextmanager
def deadline(seconds: float = CASE_TIMEOUT_S) -> Iterator[None]:
    """A case hangs when it spends ``seconds`` of CPU time (a loop that does not end) or six
    times that on the wall clock (a wait that does not end). CPU time, not the wall clock, is
    the main limit: on a loaded machine a sound case can take many times its CPU time."""

    def on_alarm(signum: int, frame: Any) -> None:
        clock = "CPU" if signum == signal.SIGPROF else "wall-clock"
        limit = seconds if signum == signal.SIGPROF else 6 * seconds
        raise Hang(f"no answer in {limit:g} s of {clock} time")

    old_prof = signal.signal(signal.SIGPROF, on_alarm)
    old_real = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, 6 * seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, old_prof)
        signal.signal(signal.SIGALRM, old_real)


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``overprov ARGV`` in-process through the real ``cli.main``: (exit code, out, err)."""
    from overprov import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), deadline():
        try:
            rc = cli.main(argv)
        except SystemExit as exc:
            rc = exc.code if isinstance(exc.code, int) else 2
    return rc, out.getvalue(), err.getvalue()


def assert_clean(rc: int, err: str, case: str) -> None:
    """Pass: a result (0, or 3: ran without the answer) or a clean one-line error (1, 2)."""
    assert rc in (0, 1, 2, 3), f"{case}: exit {rc}: {err[-800:]}"
    assert "Traceback" not in err and "internal error" not in err, f"{case}: {err[-800:]}"
    if rc in (1, 2):
        last = [line for line in err.splitlines() if line.startswith("overprov ")]
        assert last, f"{case}: no 'overprov <command>:' line: {err[-800:]}"


def _toml_key(key: Any) -> str:
    key = str(key)
    if key and all(c.isalnum() or c in "_-" for c in key):
        return key
    return '"' + key.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return '"' + "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}"
                             for c in value) + '"'  # fmt: skip
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value if v is not None) + "]"
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(
                f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items() if v is not None
            )
            + "}"
        )
    return '""'


def to_toml(doc: dict[str, Any]) -> str:
    """A document as TOML: top-level tables as [sections], deeper ones inline."""
    lines = [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in doc.items()
             if not isinstance(v, dict) and v is not None]  # fmt: skip
    for k, v in doc.items():
        if isinstance(v, dict):
            lines.append(f"\n[{_toml_key(k)}]")
            lines.extend(f"{_toml_key(kk)} = {_toml_value(vv)}" for kk, vv in v.items()
                         if vv is not None)  # fmt: skip
    return "\n".join(lines) + "\n"
