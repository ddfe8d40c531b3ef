"""SSD-iq's write-amplification campaigns as steady IOPS figures, one per (drive, workload) run.

The rule is pre-registered in docs/calibrate-validation.md ("SSD-iq's other drives and
workloads"): each drive of a campaign (Haas, Lee, Bonnet, Leis, "SSD-iq: Uncovering the Hidden
Side of SSD Performance", PVLDB 2025; logs in github.com/gabriel-haas/ssdiq-pub) is sanitized,
filled sequentially over its whole range, then written with 4 KiB random writes under one
workload (iob's ``uniform``, ``zipf-shuffle`` of exponent θ, ``zones-shuffle "sA fA sB fB"``);
a run's figure is its window's IOPS by bench/corpus_steady_window.py's committed rule (the last
5 of 20 rounds of equal host writes, SNIA PTS's steady-state criterion), read from the four
threads' statistics (the run logs with the media-bytes counter are not in the snapshot).

    PYTHONPATH=python python bench/corpus_workload_runs.py --repo GITDIR [--toml FILE]

prints every run's figure and its steady-state test; ``--toml`` writes the figures as the rows
bench/corpus_workloads.py predicts (bench/corpus/workload-figures.toml).
"""

from __future__ import annotations

import argparse
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from corpus_steady_window import SSDIQ_COMMIT, git_show, thread_runs, window_figure

#: Campaign → (folder, the statistics file of thread {i} of drive {d}, its drives' iob names).
CAMPAIGNS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "finalwa14": (
        "paper/finalwa14",
        "iob-stats-id{i}-{d}-finalwa14rozipf.csv",
        ("h0", "i1", "k4", "k5", "m0", "mp0", "s0", "wd"),
    ),
    "finalwa03c": ("paper/finalwa03c", "iob-stats-id{i}-{d}-finalwa03.csv", ("mp0",)),
    "finalwa05b": (
        "paper/finalwa05b",
        "iob-stats-id{i}-{d}-finalwa05.csv",
        ("h0", "k4", "k5", "m0", "mp0"),
    ),
}
THREADS = 4
#: iob's device names (paper/paper.R, paper/devices.csv) → (corpus id, name).
DRIVES: dict[str, tuple[str, str]] = {
    "mp0": ("micron-7450-max-800", "Micron 7450 MAX 800 GB"),
    "m0": ("micron-7450-pro-960", "Micron 7450 PRO 960 GB"),
    "h0": ("sk-hynix-pe8110-960", "SK Hynix PE8110 960 GB"),
    "s0": ("samsung-pm9a3-960", "Samsung PM9A3 960 GB"),
    "wd": ("wd-dc-960", "WD data-centre NVMe 960 GB (devices.csv: 'WD DC ??')"),
    "i1": ("solidigm-d7-p5520-1920", "Solidigm D7-P5520 1.92 TB"),
    "k4": ("kioxia-cm7-r-3840-k4", "Kioxia CM7-R 3.84 TB (k4)"),
    "k5": ("kioxia-cm7-r-3840-k5", "Kioxia CM7-R 3.84 TB (k5)"),
}


@dataclass(frozen=True)
class RunFigure:
    """One run's window IOPS and its steady-state test."""

    drive: str  # iob's device name
    campaign: str
    pattern: str
    details: str
    range_gib: float
    iops: float
    steady: bool
    range_share: float
    slope_share: float
    drive_writes: float  # host writes of the run over its range

    @property
    def label(self) -> str:
        return workload_label(self.pattern, self.details)


def zones_of(details: str) -> list[tuple[float, float]]:
    """ "s0.6 f0.4 s0.4 f0.6" → [(0.6, 0.4), (0.4, 0.6)]: (space share, write share) per zone."""
    words = details.split()
    if len(words) % 2 or not all(w[0] == "sf"[i % 2] for i, w in enumerate(words)):
        raise ValueError(f"zones {details!r}: expected pairs 'sA fA'")
    return [(float(words[i][1:]), float(words[i + 1][1:])) for i in range(0, len(words), 2)]


def workload_label(pattern: str, details: str) -> str:
    """A run's workload in paper.R's words: uniform, zipf θ, zones-ro s (the never-written
    share), zones sA/fA."""
    if pattern == "uniform":
        return "uniform"
    if pattern.startswith("zipf"):
        return f"zipf {float(details):g}"
    zones = zones_of(details)
    if any(f == 0 for _, f in zones):
        return f"zones-ro {next(s for s, f in zones if f == 0):g}"
    s, f = zones[0]
    return f"zones {s:g}/{f:g}"


def workload_kind(label: str) -> str:
    return label.split()[0]


def overprov_workload(pattern: str, details: str) -> dict[str, Any]:
    """The run's workload as ``overprov simulate``'s (``--zipf-theta``, ``--zones A/S:..``,
    ``--zones-scattered``). iob's ``zones-shuffle`` lays each zone's pages over the span in a
    random order (bench/foreign/skewed_addresses.py draws them so), so its zones are scattered
    (``zones_scattered``); ``zones`` lays them in order, as the core does by default."""
    if pattern == "uniform":
        return {"pattern": "uniform"}
    if pattern.startswith("zipf"):
        return {"pattern": "zipf", "zipf_theta": float(details)}
    if pattern.startswith("zones"):
        w: dict[str, Any] = {
            "pattern": "zoned",
            "zones": [
                {"access_percent": round(100 * f, 6), "space_percent": round(100 * s, 6)}
                for s, f in zones_of(details)
            ],
        }
        if pattern == "zones-shuffle":
            w["zones_scattered"] = True
        return w
    raise ValueError(f"pattern {pattern!r}: not one calibrate can express")


def _random_writes(row: dict[str, str]) -> bool:
    return not row["pattern"].startswith("sequential")


def with_header(texts: list[str]) -> list[str]:
    """The threads' statistics, each with a header: some of ``finalwa14``'s thread-0 files begin
    with their first data row; they take the header of another thread of the same drive (the
    same iob build: the same columns)."""
    header = next(t.splitlines()[0] for t in texts if t.startswith("hash,"))
    width = header.count(",")
    out = []
    for t in texts:
        if not t.startswith("hash,"):
            if t.splitlines()[0].count(",") < width:  # a quoted field holds no comma here
                raise ValueError("a headerless statistics file with other columns")
            t = header + "\n" + t
        out.append(t)
    return out


def campaign_figures(repo: Path, campaign: str) -> list[RunFigure]:
    folder, name, drives = CAMPAIGNS[campaign]
    out = []
    for d in drives:
        texts = with_header(
            [git_show(repo, f"{folder}/{name.format(i=i, d=d)}") for i in range(THREADS)]
        )
        for (_run, size), row, samples in thread_runs(texts, _random_writes):
            fig = window_figure(samples, "iops")
            out.append(
                RunFigure(
                    d, campaign, row["pattern"], row.get("patternDetails", ""), size,
                    fig.value, fig.steady, fig.range_share, fig.slope_share,
                    samples[-1].host_bytes / (size * 2**30),
                )
            )  # fmt: skip
    return out


def merged(figures: list[RunFigure]) -> dict[tuple[str, str], list[RunFigure]]:
    """The runs by (drive, workload label), every campaign's."""
    out: dict[tuple[str, str], list[RunFigure]] = {}
    for f in figures:
        out.setdefault((f.drive, f.label), []).append(f)
    return out


def figure_value(runs: list[RunFigure]) -> float | None:
    """The mean of the steady runs' figures (None: no run shown steady)."""
    steady = [r.iops for r in runs if r.steady]
    return statistics.fmean(steady) if steady else None


def report(figures: list[RunFigure]) -> str:
    lines = ["| drive | campaign | workload | range GiB | drive writes | IOPS | rounds' range | "
             "excursion | steady |", "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for f in figures:
        lines.append(
            f"| {f.drive} | {f.campaign} | {f.label} | {f.range_gib:g} | {f.drive_writes:.2f} "
            f"| {f.iops:,.0f} | {100 * f.range_share:.1f}% | {100 * f.slope_share:.1f}% | "
            f"{'yes' if f.steady else 'NO'} |"
        )
    return "\n".join(lines)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def toml_rows(figures: list[RunFigure]) -> str:
    """The figures as [[figure]] rows: one per (drive, workload), its runs listed."""
    out = [
        "# SSD-iq's write-amplification campaigns (github.com/gabriel-haas/ssdiq-pub at "
        f"{SSDIQ_COMMIT}):",
        "# steady IOPS per (drive, workload) at the whole range (0% extra OP), computed by",
        "# bench/corpus_workload_runs.py under the rule pre-registered in",
        '# docs/calibrate-validation.md ("SSD-iq\'s other drives and workloads"). Derived',
        "# numbers; the repository's files are not copied. value: the mean of the steady runs",
        "# (steady_state false: no run shown steady, the mean of the runs).",
        "# bench/corpus_workloads.py predicts the 7450s' from their uniform rows (published.toml).",
        "",
    ]
    for (drive, label), runs in merged(figures).items():
        r0 = runs[0]
        value = figure_value(runs)
        shown = value is not None
        value = value if shown else statistics.fmean(r.iops for r in runs)
        cid, name = DRIVES[drive]
        wl = overprov_workload(r0.pattern, r0.details)
        out += [
            "[[figure]]",
            f"drive = {_quote(cid)}",
            f"name = {_quote(name)}",
            f"iob_device = {_quote(drive)}",
            f"workload = {_quote(label)}",
            f"kind = {_quote(workload_kind(label))}",
            f"overprov_workload = {_quote(repr(wl))}",
            "extra_op_percent = 0",
            f"range_gib = {r0.range_gib:g}",
            f"value = {round(value)}",
            f"steady_state = {'true' if shown else 'false'}",
            "rel_sd = 0.05",
            'read_from = "data"',
            "runs = [",
        ]
        for r in runs:
            folder, name_fmt, _ = CAMPAIGNS[r.campaign]
            path = f"{folder}/{name_fmt.format(i='{0..3}', d=drive)}"
            out.append(
                f"  {{ campaign = {_quote(r.campaign)}, pattern = {_quote(r.pattern)}, "
                f"details = {_quote(r.details)}, iops = {round(r.iops)}, steady = "
                f"{'true' if r.steady else 'false'}, rounds_range = {r.range_share:.4f}, "
                f"excursion = {r.slope_share:.4f}, drive_writes = {r.drive_writes:.2f}, "
                f"source = {_quote(path)} }},"
            )
        out += ["]", ""]
    return "\n".join(out)


def all_figures(repo: Path) -> list[RunFigure]:
    return [f for c in CAMPAIGNS for f in campaign_figures(repo, c)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", type=Path, required=True, help="git directory of ssdiq-pub")
    ap.add_argument("--toml", type=Path, default=None, help="write the figures' rows here")
    args = ap.parse_args()
    figures = all_figures(args.repo)
    print(report(figures))
    if args.toml is not None:
        args.toml.write_text(toml_rows(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
