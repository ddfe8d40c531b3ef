"""Shared parts of the foreign-FTL drivers: the settling rule, provenance, the results file, and
the loader of a sibling results script (:func:`load_script`).

A driver runs an already-built simulator binary given by path; nothing here builds one.
"""

from __future__ import annotations

import importlib.util
import json
import platform
import shlex
import statistics
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

WINDOW_ROUNDS = 8  # calibrate's settling rule: the last 8 rounds agree within +-3%
WINDOW_TOLERANCE = 0.03


def settle(series: list[dict], keys: tuple[str, ...] = ("iops", "waf")) -> dict:
    """The steady window of a per-interval series: the last WINDOW_ROUNDS intervals.

    Returns the window's bounds, the mean of each key over it, and whether every key's values
    stay within +-WINDOW_TOLERANCE of their mean (range) and their first-half/second-half
    means differ by less than that (trend) -- calibrate's rule (docs/calibrate.md).
    """
    if len(series) < WINDOW_ROUNDS:
        raise ValueError(f"series has {len(series)} intervals, the window needs {WINDOW_ROUNDS}")
    window = series[-WINDOW_ROUNDS:]
    out: dict = {"first_index": len(series) - WINDOW_ROUNDS, "rounds": WINDOW_ROUNDS}
    settled = True
    for key in keys:
        vals = [r[key] for r in window if r.get(key) is not None]
        if len(vals) < 2:
            continue
        mean = statistics.fmean(vals)
        half = len(vals) // 2
        spread = (max(vals) - min(vals)) / 2 / mean
        trend = abs(statistics.fmean(vals[half:]) - statistics.fmean(vals[:half])) / mean
        out[f"{key}_mean"] = mean
        out[f"{key}_half_range"] = spread
        out[f"{key}_trend"] = trend
        settled = settled and spread <= WINDOW_TOLERANCE and trend <= WINDOW_TOLERANCE
    out["settled"] = settled
    return out


def steady_window(series: list[dict], window: dict) -> dict:
    """A level's `steady_window` record: the span writes the window covers (from the end of the
    interval before it), whether it settled, and the rule's figures (`settle`'s result)."""
    return {
        "span_writes": [
            series[window["first_index"] - 1]["span_writes"],
            series[-1]["span_writes"],
        ],
        "settled": window["settled"],
        "rule": window,
    }


def report_rounds(rows: list[dict], span: int, fill_reports: int, per_round: int) -> list[dict]:
    """Rounds of the random writes from a harness's cumulative reports (`requests`, `t_ns`,
    `programs`, `erases`; the first `fill_reports` the fill's): `per_round` reports each. A
    row's count is the requests completed when it was printed, at or just past its report."""
    out = []
    start = rows[fill_reports - 1]
    after = rows[fill_reports - 1 :]
    for k in range(per_round, len(after), per_round):
        a, b = after[k - per_round], after[k]
        host = b["requests"] - a["requests"]
        out.append({
            "span_writes": (b["requests"] - start["requests"]) / span,
            "t_s": b["t_ns"] / 1e9,
            "iops": host / ((b["t_ns"] - a["t_ns"]) / 1e9),
            "waf": (b["programs"] - a["programs"]) / host,
            "gc_runs": b["erases"] - a["erases"],
        })  # fmt: skip
    return out


def fob_of(rows: list[dict], span: int) -> dict:
    """The first report (part of the fill, from empty): its IOPS, span writes and erases."""
    first = rows[0]
    return {
        "iops": first["requests"] / (first["t_ns"] / 1e9),
        "span_writes": first["requests"] / span,
        "gc_runs": first["erases"],
    }


def level_record(
    extra_op_percent: int,
    queue_depth: int,
    span_pages: int,
    drive_writes: float,
    series: list[dict],
    fob_iops: float,
    fob: dict,
    *,
    wall_s: float,
    runs: dict | None = None,
    harness: dict | None = None,
) -> dict:
    """A driver's record of one level: its steady IOPS and WAF, the means over `settle`'s
    window of the per-interval `series`, the FOB (`fob`: its span writes and GC runs), the
    window (`steady_window`) and the series itself; then the driver's own raw counters (`runs`),
    the wall time and the harness's command and geometry (`harness`) where it has them."""
    window = settle(series)
    out = {
        "extra_op_percent": extra_op_percent,
        "queue_depth": queue_depth,
        "span_pages": span_pages,
        "drive_writes": drive_writes,
        "steady_iops": window["iops_mean"],
        "steady_waf": window["waf_mean"],
        "fob_iops": fob_iops,
        "fob": fob,
        "steady_window": steady_window(series, window),
        "series": series,
    }
    if runs is not None:
        out["runs"] = runs
    out["wall_s"] = wall_s
    if harness is not None:
        out["harness"] = harness
    return out


def report_level_record(extra_op_percent: int, queue_depth: int, span_pages: int,
                        rows: list[dict], fill_reports: int, per_round: int, *, wall_s: float,
                        command: str, drive: dict, simulator: str) -> dict:  # fmt: skip
    """`level_record` from a harness's cumulative reports (`report_rounds`' rows): the FOB its
    first report (which must erase nothing: raises), the rounds after the fill, and the
    harness's command, drive and fill (requests, simulated s, erases) beside them."""
    fob = fob_of(rows, span_pages)
    if fob["gc_runs"]:
        raise RuntimeError(f"{simulator} erased blocks in the FOB part at {extra_op_percent}%")
    series = report_rounds(rows, span_pages, fill_reports, per_round)
    fill_end = rows[fill_reports - 1]
    return level_record(
        extra_op_percent, queue_depth, span_pages, series[-1]["span_writes"], series,
        fob["iops"], {"span_writes": fob["span_writes"], "gc_runs": fob["gc_runs"]},
        wall_s=wall_s,
        harness={"command": command, "drive": drive,
                 "fill": {"requests": span_pages, "t_s": fill_end["t_ns"] / 1e9,
                          "erases": fill_end["erases"]}},
    )  # fmt: skip


def git_commit(binary: Path) -> str | None:
    """The commit of the checkout the binary was built in, when it sits in one."""
    try:
        res = subprocess.run(
            ["git", "-C", str(binary.resolve().parent), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return res.stdout.strip()


def hardware() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {platform.machine()}, simulated time (host speed does not change the figures)"


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def write_results(path: Path, doc: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n")


def cases(extra_op: str, qd: int, qd_sweep: str) -> list[tuple[int, int]]:
    """(extra OP %, QD) cases: every level of `extra_op` at `qd`, then QDS@OPS of `qd_sweep`."""
    out = [(int(x), qd) for x in extra_op.split(",")]
    if qd_sweep:
        qds, _, ops = qd_sweep.partition("@")
        out += [(int(o), int(q)) for o in ops.split(",") for q in qds.split(",")]
    return out


def run_cases(doc: dict, cases_: list[tuple[int, int]], measure, out: Path) -> None:
    """Measure each case with `measure(op, qd)`, print a line and rewrite `out` after each."""
    for op, qd in cases_:
        row = measure(op, qd)
        doc["levels"].append(row)
        print(
            f"OP {op}% QD{qd}: steady {row['steady_iops']:.0f} IOPS WAF {row['steady_waf']:.3f}"
            f" FOB {row['fob_iops']:.0f} settled {row['steady_window']['settled']}"
            f" ({row['wall_s']:.0f} s)",
            flush=True,
        )
        write_results(out, doc)


def run_waf_levels(doc: dict, extra_op: str, measure, label: str, out: Path) -> None:
    """The WAF-only drivers' loop: measure each level of `extra_op` with `measure(op)`, print
    a line starting with `label` and rewrite `out` after each."""
    for x in (int(v) for v in extra_op.split(",")):
        row = measure(x)
        doc["levels"].append(row)
        print(
            f"{label} OP {x}%: steady WAF {row['steady_waf']:.3f} "
            f"settled {row['steady_window']['settled']} ({row['wall_s']:.1f} s)",
            flush=True,
        )
        write_results(out, doc)


def provenance(binary: Path, script: str, argv: list[str]) -> dict:
    """Where a results document comes from: the binary's commit, when, on what, how."""
    return {
        "commit": git_commit(binary),
        "date": now(),
        "hardware": hardware(),
        "command": f"python bench/foreign/{script} " + shlex.join(argv),
    }


def add_arguments(ap, *, qd_sweep: str, drive_writes: float, out: Path) -> None:
    """The options every driver takes."""
    ap.add_argument("--binary", type=Path, required=True, help="the simulator, built elsewhere")
    ap.add_argument("--work", type=Path, required=True, help="folder for its runs")
    ap.add_argument("--extra-op", default="0,10,20,30,40")
    ap.add_argument("--qd", type=int, default=32)
    ap.add_argument("--qd-sweep", default=qd_sweep, help="QDS@OPS: more queue depths")
    ap.add_argument("--drive-writes", type=float, default=drive_writes)
    ap.add_argument("--out", type=Path, default=out)
    ap.add_argument("--patch", default=None, help="what was patched in it, in words")


def load_script(name: str, path: str | Path) -> ModuleType:
    """The script at ``path`` (a results folder's ``judge.py``, ``verdict.py``, ...: no package,
    so loaded by path) run as a module named ``name`` and returned, not left in ``sys.modules``;
    the caller reads its names or patches its globals. While it runs it is registered under
    ``name`` (a ``@dataclass`` under postponed annotations looks its module up there), and
    whatever held that name before is put back after."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    before = sys.modules.get(name)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    finally:
        if before is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = before
    return module
