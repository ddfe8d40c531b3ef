"""A level's steady figure from a published per-interval measurement log (bench/corpus/).

The rule is pre-registered in docs/calibrate-validation.md ("A real drive's logged WAF and IOPS
at several spares"): a run's random-write phase is cut into :data:`ROUNDS` rounds of equal host
writes; the measurement window is its last :data:`WINDOW_ROUNDS` rounds; the figure is the
window's (WAF: media bytes written over host bytes written; IOPS: host writes over its
seconds); it is shown steady when the window's rounds meet the SNIA Solid State Storage
Performance Test Specification's criterion: their range within 20% of their mean and the
least-squares line's excursion over the window within 10% of it.

Read here: SSD-iq's over-provisioning runs (Haas, Lee, Bonnet, Leis, PVLDB 2025), whose logs
are published in github.com/gabriel-haas/ssdiq-pub (``paper/finalop02b/``): the Micron 7450
MAX's ``iob-log-mp0op02.csv`` (per second: host writes, IOPS, the OCP log's physical media
bytes written) and the 7450 PRO's ``iob-stats-id{0..3}-m0op02.csv`` (per thread, every 10 s:
host write rate). The logs are read from a copy of that repository (``--repo``: its git
directory; nothing of it is kept here):

    PYTHONPATH=python python bench/corpus_steady_window.py --repo GITDIR

prints each level's figures and whether each is shown steady.
"""

from __future__ import annotations

import argparse
import csv
import io
import statistics
import subprocess
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from overprov.calibrate.twin_steady import round_edges as twin_round_edges
from overprov.calibrate.twin_steady import snia_shares

#: Rounds of equal host writes a run is cut into, and the last ones that make the window.
ROUNDS = 20
WINDOW_ROUNDS = 5
#: The repository's commit the corpus rows cite, and its over-provisioning runs' files.
SSDIQ_COMMIT = "8a0a3f4"
OP_FOLDER = "paper/finalop02b"
MAX_LOG = f"{OP_FOLDER}/iob-log-mp0op02.csv"
PRO_STATS = tuple(f"{OP_FOLDER}/iob-stats-id{i}-m0op02.csv" for i in range(4))
BLOCK_BYTES = 4096


@dataclass(frozen=True)
class Sample:
    """Cumulative counts at one moment of a run."""

    time_s: float
    host_bytes: float
    media_bytes: float | None  # None: the log has no media counter


@dataclass(frozen=True)
class Figure:
    """A window's figure and its rounds' values."""

    value: float
    rounds: tuple[float, ...]
    steady: bool
    range_share: float
    slope_share: float


def round_edges(samples: Sequence[Sample], rounds: int = ROUNDS) -> list[Sample]:
    """The first sample at or past each multiple of 1/``rounds`` of the run's host writes (the
    run's first sample first): ``twin_steady.round_edges`` on the samples' host bytes."""
    return [samples[i] for i in twin_round_edges([s.host_bytes for s in samples], rounds)]


def waf_between(a: Sample, b: Sample) -> float:
    if a.media_bytes is None or b.media_bytes is None:
        raise ValueError("the log has no media bytes written: no WAF")
    return (b.media_bytes - a.media_bytes) / (b.host_bytes - a.host_bytes)


def iops_between(a: Sample, b: Sample) -> float:
    return (b.host_bytes - a.host_bytes) / BLOCK_BYTES / (b.time_s - a.time_s)


def window_figure(samples: Sequence[Sample], kind: str) -> Figure:
    """The window's ``kind`` ("waf" or "iops") figure of one run, with the steady-state test."""
    between = {"waf": waf_between, "iops": iops_between}[kind]
    edges = round_edges(samples)
    window = edges[-WINDOW_ROUNDS - 1 :]
    rounds = tuple(between(a, b) for a, b in zip(window, window[1:], strict=False))
    steady, range_share, slope_share = snia_shares(rounds)
    return Figure(between(window[0], window[-1]), rounds, steady, range_share, slope_share)


def read_max_log(text: str) -> dict[tuple[str, float], list[Sample]]:
    """The uniform-write runs of an iob log, by (run, test range in GiB)."""
    runs: dict[tuple[str, float], list[Sample]] = {}
    for r in csv.DictReader(io.StringIO(text)):
        if r["pattern"] != "uniform":
            continue
        key = (r["hash"], float(r["filesizeGib"]))
        runs.setdefault(key, []).append(
            Sample(
                float(r["time"]),
                float(r["writesTotal"]) * float(r["bs"]),
                float(r["physicalMediaUnitsWrittenBytes"]),
            )
        )
    return runs


def exact_sizes(text: str) -> dict[float, float]:
    """An iob log's test ranges in GiB as its runs name them (whole GiB) and as written
    (``usedfilesize``), sequential fills included."""
    return {
        float(r["filesizeGib"]): float(r["usedfilesize"]) for r in csv.DictReader(io.StringIO(text))
    }


def is_uniform_row(row: dict[str, str]) -> bool:
    return row["pattern"] == "uniform"


def read_thread_stats(
    texts: Iterable[str], keep: Callable[[dict[str, str]], bool] = is_uniform_row
) -> dict[tuple[str, float], list[Sample]]:
    """The runs of iob's per-thread statistics (a write rate every interval) whose rows ``keep``
    selects (default: the uniform-write runs), summed over the threads and integrated into
    cumulative host bytes, by (run, range in GiB). A thread's run is keyed by its start time to
    the second, the threads' within seconds of one another: the runs are taken in order of start
    and matched by their place."""
    return {key: samples for key, _row, samples in thread_runs(texts, keep)}


def thread_runs(
    texts: Iterable[str], keep: Callable[[dict[str, str]], bool] = is_uniform_row
) -> list[tuple[tuple[str, float], dict[str, str], list[Sample]]]:
    """:func:`read_thread_stats`'s runs in order of start, each with thread 0's first row (its
    pattern and details)."""
    per_thread: list[dict[tuple[str, float], dict[float, tuple[float, float]]]] = []
    firsts: list[list[dict[str, str]]] = []
    for text in texts:
        runs: dict[tuple[str, float], dict[float, tuple[float, float]]] = {}
        first: list[dict[str, str]] = []
        for r in csv.DictReader(io.StringIO(text)):
            if not keep(r):
                continue
            key = (r["hash"], float(r["filesizeGib"]))
            if key not in runs:
                first.append(r)
            runs.setdefault(key, {})[float(r["time"])] = (float(r["timeDiff"]), float(r["writes"]))
        per_thread.append(runs)
        firsts.append(first)
    out = []
    for place, key in enumerate(per_thread[0]):
        threads = [list(t.values())[place] for t in per_thread]
        what = {(f[place]["filesizeGib"], f[place]["pattern"], f[place].get("patternDetails"))
                for f in firsts}  # fmt: skip
        if len(what) != 1:
            raise ValueError(f"threads disagree on run {place}'s range or pattern: {what}")
        times = sorted(set.intersection(*(set(t) for t in threads)))
        host, samples = 0.0, [Sample(0.0, 0.0, None)]
        for t in times:
            host += sum(th[t][0] * th[t][1] for th in threads) * BLOCK_BYTES
            samples.append(Sample(t, host, None))
        out.append((key, firsts[0][place], samples))
    return out


def level_figures(
    runs: dict[tuple[str, float], list[Sample]], kinds: Sequence[str]
) -> dict[float, dict[str, list[Figure]]]:
    """Each test range's figures (one per run at that range), by range in GiB."""
    out: dict[float, dict[str, list[Figure]]] = {}
    for (_run, size), samples in sorted(runs.items()):
        for kind in kinds:
            out.setdefault(size, {}).setdefault(kind, []).append(window_figure(samples, kind))
    return out


def git_show(repo: Path, path: str, commit: str = SSDIQ_COMMIT) -> str:
    return subprocess.run(
        ["git", f"--git-dir={repo}", "show", f"{commit}:{path}"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip


def report(
    name: str,
    sizes: dict[float, float],
    capacity: float,
    levels: dict[float, dict[str, list[Figure]]],
) -> str:
    """Each level's figures: the test range (whole GiB as named, and as written), its extra OP
    (the share of the drive's whole range, ``capacity`` as named, left unwritten), the figure
    (the mean of the level's runs) and each run's steady-state test."""
    full = sizes[capacity]
    lines = [f"{name} (whole range {full:.3f} GiB)"]
    for size in sorted(levels, reverse=True):
        op = 100 * (1 - sizes[size] / full)
        for kind, figs in levels[size].items():
            value = statistics.fmean(f.value for f in figs)
            runs = "; ".join(
                f"{f.value:.4g} (range {100 * f.range_share:.1f}%, slope "
                f"{100 * f.slope_share:.1f}%, {'steady' if f.steady else 'NOT steady'})"
                for f in figs
            )
            lines.append(
                f"  {sizes[size]:8.3f} GiB  extra OP {op:7.4f}%  {kind:4s} {value:.5g}  [{runs}]"
            )
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", type=Path, required=True, help="git directory of ssdiq-pub")
    args = ap.parse_args()
    log = git_show(args.repo, MAX_LOG)
    sizes = exact_sizes(log)  # the PRO's runs ran beside the MAX's, at the same ranges
    max_levels = level_figures(read_max_log(log), ("waf", "iops"))
    pro_levels = level_figures(
        read_thread_stats(git_show(args.repo, p) for p in PRO_STATS), ("iops",)
    )
    print(report("Micron 7450 MAX 800 GB", sizes, max(max_levels), max_levels))
    print(report("Micron 7450 PRO 960 GB", sizes, max(pro_levels), pro_levels))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
