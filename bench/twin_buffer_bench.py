"""The twin's write buffer and its p99 latency, checked on drives with buffers of held-out sizes.

calibrate's analytic twin carried a fixed 64 MiB volatile write buffer (not fitted from
anything measured), and its p99 wandered with how full that buffer ran (docs/calibrate-model.md,
"The twin's p99 latency"). This bench compares ways of choosing the twin's buffer by the p99
they predict on truths whose buffer the twin does not know.

For each truth buffer size: ``consumer-tlc-sata`` with ``timing.buffer.bytes`` set to it,
simulated at --scale (the buffer is not scaled); ``overprov calibrate`` on it (its default plan,
a subprocess); the truth's p99 at --levels swept as the twin is (``twin.simulate_levels``'
plan, lowest level first) with a latency window of :data:`LATENCY_DRIVE_WRITES` after each
level (the median of its rounds' p99s, and the range of its parts' medians); then the twin
(the analytic reading's fitted ρ₀, t_page and t_cmd from ``twin.toml``'s notes) under each
variant:

- ``fixed64_window``: the old twin, a 64 MiB buffer, p99 from the latency window;
- ``none``: no buffer, p99 from the level's window rounds (no latency window);
- ``both``: 64 MiB and none, each from the level's window rounds; stated as their geometric
  mean with the two as its range;
- ``fitted``: the buffer of :data:`GRID_MIB` whose twin best reproduces the truth's *measured*
  p99s at calibrate's measured QD32 levels (least squared log error), p99 from the level's
  window rounds.

    PYTHONPATH=python python bench/twin_buffer_bench.py [--buffers-mib 0,32,128]
        [--levels 10,20,30] [--scale 4GiB] [--out target/bench/twin_buffer_bench.json]
        [--generated 1,2,3]  # instead: the buffer's reading on generated drives only

Prints a markdown table (for bench/README.md) and writes the JSON rows. CPU seconds are this
process's and its children's (resource.getrusage), on whatever machine runs it.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

from cpu_clock import cpu_s
from overprov import presets
from overprov.calibrate import fit as fitmod
from overprov.calibrate import twin as twinmod
from overprov.calibrate import validation, write_buffer
from overprov.calibrate.measure import SegmentRunner, measure
from overprov.calibrate.plan import Budget, MeasurementPlan, Segment, segments_for
from overprov.profile.sim_target import SimTarget
from overprov.profile.targets import RoundSpec

ROOT = Path(__file__).resolve().parent.parent
MIB = 2**20
#: The truth's p99 at a level: from this much more writing (of its capacity) after the level's
#: IOPS and WAF settle, as the median of its rounds' p99s ...
LATENCY_DRIVE_WRITES = 2.0
#: ... with the lowest and highest median of this many consecutive parts of it.
LATENCY_PARTS = 4
#: The buffers the ``fitted`` variant chooses from (MiB).
GRID_MIB = (0, 4, 16, 64, 256)


def truth_drive(buffer_mib: int) -> dict[str, Any]:
    d = copy.deepcopy(presets.get("consumer-tlc-sata"))
    d["config"]["timing"]["buffer"]["bytes"] = buffer_mib * MIB
    d["description"] = f"consumer-tlc-sata with a {buffer_mib} MiB write buffer"
    return d


def latency_window(runner: SegmentRunner, seg: Segment, into: dict[float, dict]) -> None:
    """Write on at ``seg``'s level for :data:`LATENCY_DRIVE_WRITES` in the plan's rounds and
    keep in ``into`` the median of the rounds' p99s and the lowest and highest median of its
    :data:`LATENCY_PARTS` consecutive parts (calibrate's twin did this up to 2026-11-27)."""
    m, bs, x = runner.m, runner.plan.bs_bytes, seg.extra_op_percent
    span = int(m.capacity_bytes * (1 - x / 100.0)) // bs * bs
    p99s: list[float] = []
    written = 0.0
    while written < LATENCY_DRIVE_WRITES:
        iops = m.levels[-1].steady_iops
        seconds = runner.seconds_for(runner.plan.round_drive_writes, span, iops)
        spec = RoundSpec(f"op{x:g}-latency-r{len(p99s) + 1:03d}", "randwrite", bs,
                         runner.plan.qd, 1, span, seconds=seconds)  # fmt: skip
        r = runner.run(spec, x)
        written += r.bytes_written / m.capacity_bytes
        if r.p99_latency_us is not None:
            p99s.append(r.p99_latency_us)
    n = len(p99s)
    parts = [
        p99s[n * i // LATENCY_PARTS : n * (i + 1) // LATENCY_PARTS] for i in range(LATENCY_PARTS)
    ]
    medians = [statistics.median(q) for q in parts if q]
    into[x] = {"p99_us": statistics.median(p99s), "low_us": min(medians), "high_us": max(medians)}


def swept(drive: dict[str, Any], spec: str, levels: list[float], window: bool) -> dict[float, dict]:
    """``drive`` swept at ``levels`` as calibrate's twin is (lowest first), each level's p99 the
    median of its window rounds' or (``window``) of its latency window's."""
    plan = MeasurementPlan(budget=Budget(), segments=segments_for(levels))
    out: dict[float, dict] = {}
    after = (lambda runner, seg: latency_window(runner, seg, out)) if window else None
    with SimTarget(spec, seed=1, drive=drive) as target:
        m = measure(target, plan, after_level=after)
    for lv in m.levels:
        got = out.setdefault(lv.extra_op_percent, {"p99_us": lv.p99_latency_us})
        got["iops"] = lv.steady_iops
    return out


def truth_p99(drive: dict[str, Any], scale: str, levels: list[float]) -> dict[float, dict]:
    """The truth swept as the twin is, with a latency window after each level."""
    return swept(drive, f"sim:truth@{scale}", levels, window=True)


def calibrate(
    drive: dict[str, Any], scale: str, folder: Path
) -> tuple[twinmod.TwinParameters, dict]:
    """``overprov calibrate`` on the truth (default plan): its analytic twin and measurement."""
    path = folder / "truth.toml"
    path.write_text(twinmod.to_toml(drive) + "\n")
    out = folder / "cal"
    cmd = [sys.executable, "-m", "overprov", "calibrate", f"sim:{path}@{scale}", "--out", str(out)]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    twin = tomllib.loads((out / "twin.toml").read_text())
    notes = twin["notes"]["calibration"]
    params = twinmod.TwinParameters(
        advertised_bytes=int(drive["advertised_bytes"]),
        native_op=notes["native_op"],
        t_page_us=notes["t_page_us"],
        t_cmd_us=notes["t_cmd_us"],
        uncertainty={},
        source="twin_buffer_bench",
    )
    return params, json.loads((out / "measurement.json").read_text())


def fob_burst_bytes(measurement: dict) -> float:
    """What the FOB segment's first round wrote beyond the rate of the rounds after it (a write
    buffer filling at the host's speed shows as such a burst; 0 when none)."""
    fob = [r for r in measurement["rounds"] if r["label"].startswith("fob-")]
    if len(fob) < 2:
        return 0.0
    later = sum(r["iops"] * r["duration_s"] for r in fob[1:]) / sum(
        r["duration_s"] for r in fob[1:]
    )
    return max(0.0, (fob[0]["iops"] - later) * fob[0]["duration_s"] * measurement["bs_bytes"])


def sweep(
    p: twinmod.TwinParameters, levels: list[float], latency: bool = False
) -> dict[float, tuple[float, float | None, float | None]]:
    """The twin swept as calibrate sweeps it: each level's (p99, lowest, highest part)."""
    spec = f"sim:twin@{twinmod.sim_scale(twinmod.twin_advertised_bytes(p), p.native_op)}"
    got = swept(twinmod.drive_dict(p), spec, levels, window=latency)
    return {x: (g["p99_us"], g.get("low_us"), g.get("high_us")) for x, g in got.items()}


def fitted_buffer_mib(p: twinmod.TwinParameters, measured: dict[float, float]) -> tuple[int, dict]:
    """The grid buffer whose twin best reproduces the measured p99s (log error)."""
    scores = {}
    for mib in GRID_MIB:
        got = sweep(replace(p, buffer_bytes=mib * MIB), sorted(measured))
        scores[mib] = sum(math.log(got[x][0] / y) ** 2 for x, y in measured.items())
    return min(scores, key=scores.__getitem__), scores


def variants(p: twinmod.TwinParameters, measurement: dict, levels: list[float]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    t = cpu_s()
    got = sweep(replace(p, buffer_bytes=64 * MIB), levels, latency=True)
    out["fixed64_window"] = {"cpu_s": cpu_s() - t, "by_level": got}
    t = cpu_s()
    none = sweep(replace(p, buffer_bytes=0), levels)
    out["none"] = {"cpu_s": cpu_s() - t, "by_level": none}
    t = cpu_s()
    with64 = sweep(replace(p, buffer_bytes=64 * MIB), levels)
    both = {}
    for x in levels:
        a, b = with64[x][0], none[x][0]
        both[x] = (math.sqrt(a * b), min(a, b), max(a, b))
    out["both"] = {"cpu_s": cpu_s() - t + out["none"]["cpu_s"], "by_level": both}
    measured = {
        lv["extra_op_percent"]: lv["p99_latency_us"]
        for lv in measurement["levels"]
        if lv.get("queue_depth") is None and lv.get("p99_latency_us")
    }
    t0 = cpu_s()
    pts = [
        fitmod.Point(lv["extra_op_percent"], iops=lv["steady_iops"], queue_depth=lv["queue_depth"])
        for lv in measurement["levels"]
    ]
    main, other = fitmod.split_queue_depths(pts, measurement["qd"])
    buf = write_buffer.read(p, main, other)
    read_cpu = cpu_s() - t0
    for name, latency in (("identified", False), ("identified_window", True)):
        t = cpu_s()
        twin = replace(p, buffer_bytes=buf.buffer_bytes)
        got = sweep(twin, levels, latency=latency and buf.buffer_bytes > 0)
        out[name] = {"cpu_s": cpu_s() - t + read_cpu, "reading": buf.to_dict(), "by_level": got}
    t = cpu_s()
    mib, scores = fitted_buffer_mib(p, measured)
    got = sweep(replace(p, buffer_bytes=mib * MIB), levels)
    out["fitted"] = {
        "cpu_s": cpu_s() - t,
        "buffer_mib": mib,
        "scores": scores,
        "measured_p99_us": measured,
        "by_level": got,
    }
    return out


def generated_reads(seeds: list[int], scale: str) -> list[dict]:
    """``write_buffer``'s reading on generated drives (``validation.drive``, each with a
    buffer of its own), through calibrate's default plan: only whether a buffer is found."""
    rows = []
    for seed in seeds:
        d = validation.drive(seed)
        with tempfile.TemporaryDirectory() as tmp:
            cal = Path(tmp) / "cal"
            calibrate(d, scale, Path(tmp))
            read = json.loads((cal / "prediction.json").read_text())["fit"]["write_buffer"]
        buf = d["config"]["timing"].get("buffer", {}).get("bytes", 0)
        rows.append({"seed": seed, "truth_buffer_mib": buf / MIB, "read": read})
        print(
            f"| {seed} | {buf / MIB:g} MiB | {read['buffer_bytes'] // MIB} MiB | "
            f"{read['measured_qd_ratio']:.2f} | {read['twin_qd_ratio_buffered']:.2f} | "
            f"{read['twin_qd_ratio_unbuffered']:.2f} |",
            flush=True,
        )
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--buffers-mib", default="0,32,128")
    ap.add_argument("--levels", default="10,20,30")
    ap.add_argument("--scale", default="4GiB")
    ap.add_argument("--out", type=Path, default=ROOT / "target/bench/twin_buffer_bench.json")
    ap.add_argument("--generated", help="seeds of generated drives: the buffer's reading only")
    a = ap.parse_args()
    if a.generated:
        print(
            "| seed | truth's buffer | read | QD4 ÷ QD32 measured | twin, buffered | unbuffered |"
        )
        print("|---|---|---|---:|---:|---:|")
        rows = generated_reads([int(x) for x in a.generated.split(",")], a.scale)
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.with_name("twin_buffer_generated.json").write_text(json.dumps(rows, indent=1) + "\n")
        return 0
    levels = [float(x) for x in a.levels.split(",")]
    rows = []
    for mib in (int(x) for x in a.buffers_mib.split(",")):
        drive = truth_drive(mib)
        with tempfile.TemporaryDirectory() as tmp:
            t = cpu_s()
            p, measurement = calibrate(drive, a.scale, Path(tmp))
            cal_cpu = cpu_s() - t
        t = cpu_s()
        truth = truth_p99(drive, a.scale, levels)
        truth_cpu = cpu_s() - t
        row = {
            "truth_buffer_mib": mib,
            "twin": {"native_op": p.native_op, "t_page_us": p.t_page_us, "t_cmd_us": p.t_cmd_us},
            "fob_burst_bytes": fob_burst_bytes(measurement),
            "calibrate_cpu_s": cal_cpu,
            "truth_cpu_s": truth_cpu,
            "truth": truth,
            "variants": variants(p, measurement, levels),
        }
        rows.append(row)
        print(json.dumps({"truth_buffer_mib": mib, "done": time.strftime("%H:%M:%S")}), flush=True)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(rows, indent=1, default=str) + "\n")
    print(table(rows, levels))
    return 0


def table(rows: list[dict], levels: list[float]) -> str:
    names = list(rows[0]["variants"])
    head = "| truth buffer | level | truth p99 µs (range) | " + " | ".join(names) + " |"
    lines = [head, "|" + "---|" * (3 + len(names))]
    ratios: dict[str, list[float]] = {n: [] for n in names}
    inside: dict[str, list[bool]] = {n: [] for n in names}
    for r in rows:
        for x in levels:
            t = r["truth"][x]
            cells = []
            for n in names:
                v, lo, hi = r["variants"][n]["by_level"][x]
                ratios[n].append(v / t["p99_us"])
                cell = f"{v:,.0f} (×{v / t['p99_us']:.2f})"
                if lo is not None:
                    inside[n].append(lo <= t["p99_us"] <= hi)
                    cell += f" [{lo:,.0f}–{hi:,.0f}]"
                cells.append(cell)
            lines.append(
                f"| {r['truth_buffer_mib']} MiB | {x:g}% | {t['p99_us']:,.0f} "
                f"({t['low_us']:,.0f}–{t['high_us']:,.0f}) | " + " | ".join(cells) + " |"
            )
    lines.append("")
    for n in names:
        logs = [abs(math.log2(q)) for q in ratios[n]]
        within = sum(1 for q in logs if q <= 1.0)
        cov = f", truth inside the range {sum(inside[n])}/{len(inside[n])}" if inside[n] else ""
        cpu = statistics.fmean(r["variants"][n]["cpu_s"] for r in rows)
        lines.append(
            f"- {n}: within a factor of 2 in {within}/{len(logs)}, median |log2 ratio| "
            f"{statistics.median(logs):.2f}, worst ×{2 ** max(logs):.2f}{cov}; "
            f"twin CPU {cpu:.1f} s per truth (3 levels)"
        )
    for r in rows:
        f = r["variants"]["fitted"]
        b = r["variants"]["identified"]["reading"]
        lines.append(
            f"- truth {r['truth_buffer_mib']} MiB: identified {b['buffer_bytes'] // MIB} MiB "
            f"({b['reason']}); fitted to the measured p99s {f['buffer_mib']} MiB; "
            f"FOB burst {r['fob_burst_bytes'] / MIB:.1f} MiB"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
