"""Twin runs kept across processes: every ``twin_runs.simulate_levels`` call of a bench process
reads and adds to one memo saved in a file, so a run made by an earlier process is not made
again (a config and its seed give the same figures every time: ``twin_runs.simulate_levels``).

    PYTHONPATH=python python bench/twin_runs_memo.py --check FILE [--n 6]

``--check`` runs ``n`` of the file's configs again (spread over it) and says whether each gives
the stored level to the last digit: that the core which ran them and the one running now agree.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import pickle
import sys
from pathlib import Path
from typing import Any

from overprov import sweep
from overprov.calibrate import twin_runs

STEADY_TAG = " until steady"


def load(path: Path) -> twin_runs.Runs:
    return pickle.loads(path.read_bytes()) if path.exists() else {}


def save(path: Path, runs: twin_runs.Runs) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_bytes(pickle.dumps(runs))
    tmp.replace(path)


def keep_runs(path: Path) -> twin_runs.Runs:
    """From now on in this process, every ``twin_runs.simulate_levels`` call uses one memo, read
    from ``path`` and saved there after each call that ran something new (the caller's own memo
    is left aside: the one memo holds all it would)."""
    runs = load(path)
    original = twin_runs.simulate_levels

    def simulate_levels(*args: Any, memo: Any = None, **kwargs: Any) -> Any:
        n = len(runs)
        m = original(*args, memo=runs, **kwargs)
        if len(runs) > n:
            save(path, runs)
        return m

    twin_runs.simulate_levels = simulate_levels
    return runs


def check(path: Path, n: int) -> list[dict[str, Any]]:
    """``n`` of the stored runs (spread over the file; not those run until steady) run again."""
    runs = load(path)
    keys = [k for k in runs if not k[1].endswith(STEADY_TAG)]
    picked = keys[:: max(1, len(keys) // n)][:n]
    out = []
    for x, text in picked:
        (rep,) = sweep.run_points([json.loads(text)], jobs=1, label="twin", progress=False)
        again = dataclasses.asdict(twin_runs._level(x, rep))
        stored = dataclasses.asdict(runs[x, text][0])
        out.append({"extra_op_percent": x, "same": again == stored,
                    "waf": (stored.get("waf"), again.get("waf"))})  # fmt: skip
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", type=Path, required=True, help="a memo file")
    ap.add_argument("--n", type=int, default=6)
    args = ap.parse_args()
    got = check(args.check, args.n)
    for g in got:
        print(json.dumps(g))
    print(f"{sum(g['same'] for g in got)} of {len(got)} the same", file=sys.stderr)
    return 0 if all(g["same"] for g in got) else 1


if __name__ == "__main__":
    raise SystemExit(main())
