"""The SLC-cache write cliff predicted from a write-saturation series (calibrate/cliff.py).

For each drive: its *measured* series is 4 KiB random writes at QD32 on the filled drive
(calibrate's workload, in the state its fill leaves); the cache's size is fitted to it with
the drive's other figures known (calibrate's twin supplies them for a real drive) and the
SLC program time fitted to the plateau; the fitted drive then predicts the cliff under a QD8
70:30 read/write mix, compared with the drive's own series under that mix (time to the cliff,
IOPS lost).

The measured series runs from a purged drive (calibrate's FOB segment, run on past the cliff):
there the whole cache is free. The mix is predicted from a purged and from a filled drive.

Drives: generated ones (``overprov.calibrate.validation.drive``) each given an SLC cache of a
held-out size (a share of its capacity, and an SLC program time drawn from the family's range)
and a 4 MiB write buffer (a buffer is not scaled with the drive, and at a few GiB of NAND its
own drop would come before the cache's);
each seed also once with a static region (0.5% of capacity) in a 2% cache whose dynamic part
lives on unwritten capacity (``timing.slc.dynamic_space = "unwritten"``): its cache is fitted
from purged (the whole cache) and its static region from filled (the same QD32 writes on the
filled drive), and the mix predicted with both; the consumer-tlc-sata preset; and
docs/drives/consumer-1tb-sata-turbowrite.toml (the preset with the 1 TB 860 EVO's 6 GB default
TurboWrite region and 36 GB region on unwritten capacity, as Samsung documents them).

    PYTHONPATH=python python bench/cliff_bench.py [--seeds 1-6] [--shares 0.005,0.015,0.03]
        [--static-share 0.005] [--physical 8GiB] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

from calibrate_bench import seeds_arg  # bench/ is on the path when run as a script
from overprov import presets
from overprov.calibrate import cliff, validation
from overprov.units import parse_size_bytes

ROOT = Path(__file__).resolve().parent.parent
MIX = {"qd": 8, "read_percent": 70}
TURBOWRITE = ROOT / "docs/drives/consumer-1tb-sata-turbowrite.toml"


def _seconds(drive: dict, scale: float, qd: int, read_percent: int, precondition: str) -> float:
    """Long enough to write a purged drive's largest possible cache (a third of it) 1.5 times
    over, or a filled drive's free space 1.3 times."""
    probe = cliff.simulate_series(
        drive, scale, qd=qd, read_percent=read_percent, seconds=5.0 / scale,
        interval_s=1.0 / scale, precondition=precondition,
    )  # fmt: skip
    write_rate = statistics.median(probe.write_iops) * 4096
    spare = presets.physical_bytes(drive) - drive["advertised_bytes"]
    cache = drive["config"]["timing"]["slc"]["max_bytes"]
    room = (
        1.5 * min(cache * 1.5, drive["advertised_bytes"] / 3)
        if precondition == "none"
        else 1.3 * spare
    )
    return room / max(write_rate, 1.0)


def _fit(truth: dict, twin: dict, scale: float, state: str) -> cliff.CacheFit:
    t_meas = _seconds(truth, scale, 32, 0, state)
    # a filled drive's series runs until its spare is written, and its static region fills in
    # a small part of that: finer intervals (a real drive's fio log is per second)
    n = 60 if state == "none" else 300
    measured = cliff.simulate_series(
        truth, scale, qd=32, seconds=t_meas, interval_s=t_meas / n, precondition=state
    )
    return cliff.fit_cache(measured, twin, scale, precondition=state)


def one(name: str, truth: dict, scale: float, *, static: bool = False) -> dict:
    """``static``: the drive has a static region, fitted from its filled series as well."""
    twin = cliff.with_cache(truth, 1e9, 200.0)  # size and SLC program time unknown
    row: dict = {"drive": name}
    try:
        fit = _fit(truth, twin, scale, "none")
        static_fit = _fit(truth, twin, scale, "sequential") if static else None
    except Exception as exc:  # noqa: BLE001 - reported in the row, the bench goes on
        row["error"] = str(exc)
        print(f"{name}: {exc}", file=sys.stderr, flush=True)
        return row
    if static_fit is not None:
        row["fitted_static_bytes"] = static_fit.cache_bytes
    row.update(
        measured=fit.measured.to_dict(),
        fitted_cache_bytes=fit.cache_bytes,
        fitted_slc_program_us=fit.slc_program_us,
        true_slc_program_us=truth["config"]["timing"]["slc"]["program_us"],
    )
    for state in ("none", "sequential"):
        t_mix = _seconds(truth, scale, MIX["qd"], MIX["read_percent"], state)
        # a static region on a filled drive fills in a small part of the series: finer intervals
        n = 300 if static and state == "sequential" else 60
        true = cliff.find_cliff(
            cliff.simulate_series(
                truth, scale, **MIX, seconds=t_mix, interval_s=t_mix / n, precondition=state
            )
        )
        pred = cliff.predict(
            twin, fit, scale, **MIX, seconds=t_mix, interval_s=t_mix / n, precondition=state,
            static_fit=static_fit,
        )  # fmt: skip
        row[state] = {
            "true": true.to_dict() if true else None,
            "predicted": pred.to_dict() if pred else None,
            **cliff.errors(pred, true),
        }
    print(f"{name}: {json.dumps(row)}", file=sys.stderr, flush=True)
    return row


def pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:+.0f}%"


def markdown(rows: list[dict]) -> str:
    out = [
        "| drive | cache true → fitted | SLC µs true → fitted | state | QD8 70:30 truth: "
        "cliff at, IOPS lost | predicted | time error | lost error |",
        "|---|---|---|---|---|---|---|---|",
    ]

    def fmt(c: dict | None) -> str:
        return "none" if not c else f"{c['time_s']:,.0f} s, {c['lost_iops']:,.0f}"

    for r in rows:
        cache = f"{r.get('true_cache_bytes', 0) / 1e9:.2f} → " + (
            f"{r['fitted_cache_bytes'] / 1e9:.2f} GB" if r.get("fitted_cache_bytes") else "—"
        )
        if r.get("true_static_bytes"):
            cache += f"; static {r['true_static_bytes'] / 1e9:.2f} → " + (
                f"{r['fitted_static_bytes'] / 1e9:.2f} GB" if r.get("fitted_static_bytes") else "—"
            )
        if "error" in r:
            out.append(f"| {r['drive']} | {cache} | — | — | {r['error']} | — | — | — |")
            continue
        slc = f"{r['true_slc_program_us']:.0f} → {r['fitted_slc_program_us']:.0f}"
        for state, label in (("none", "purged"), ("sequential", "filled")):
            c = r[state]
            out.append(
                f"| {r['drive']} | {cache} | {slc} | {label} | {fmt(c['true'])} | "
                f"{fmt(c['predicted'])} | {pct(c['time_error'])} | {pct(c['lost_error'])} |"
            )
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seeds_arg, default=seeds_arg("1-4"))
    ap.add_argument("--shares", default="0.005,0.015,0.03")
    ap.add_argument("--physical", default="8GiB")
    ap.add_argument("--presets", action=argparse.BooleanOptionalAction, default=True)
    ap.add_argument(
        "--static-share", type=float, default=0.005,
        help="each seed's drive with a static region of this share in a 2%% cache (0: none)",
    )  # fmt: skip
    ap.add_argument("--out", type=Path, default=ROOT / "target/bench/cliff_bench.json")
    args = ap.parse_args()
    physical = parse_size_bytes(args.physical, "--physical")
    rows = []
    if args.presets:
        d = presets.get("consumer-tlc-sata")
        sc = min(1.0, physical / presets.physical_bytes(d))
        for name, drive in (
            ("consumer-tlc-sata", d),
            ("consumer-1tb-sata-turbowrite.toml", presets.get(str(TURBOWRITE))),
        ):
            row = one(name, drive, sc)
            row["true_cache_bytes"] = drive["config"]["timing"]["slc"]["max_bytes"]
            row["true_static_bytes"] = drive["config"]["timing"]["slc"].get("static_bytes", 0)
            rows.append(row)
    shares = [float(x) for x in args.shares.split(",")]
    for seed in args.seeds:
        d = validation.drive(seed)
        rng = random.Random(seed * 7919)
        for share in shares:
            truth = cliff.with_cache(
                d, d["advertised_bytes"] * share, round(rng.uniform(150.0, 250.0), 1)
            )
            # a write buffer is not scaled with the drive: at a few GiB of NAND its own drop
            # (tens of MiB) would come first and hide the cache's, so it is made small
            truth["config"]["timing"]["buffer"]["bytes"] = 4 * 2**20
            sc = float(validation.scale_for(truth, physical))
            row = one(f"generated {seed}, cache {100 * share:g}%", truth, sc)
            row["true_cache_bytes"] = d["advertised_bytes"] * share
            rows.append(row)
        if args.static_share:
            share, region = 0.02, args.static_share
            truth = cliff.with_cache(
                d, d["advertised_bytes"] * share, round(rng.uniform(150.0, 250.0), 1),
                static_bytes=d["advertised_bytes"] * region,
            )  # fmt: skip
            truth["config"]["timing"]["buffer"]["bytes"] = 4 * 2**20
            sc = float(validation.scale_for(truth, physical))
            name = f"generated {seed}, cache 2%, static {100 * region:g}%"
            row = one(name, truth, sc, static=True)
            row["true_cache_bytes"] = d["advertised_bytes"] * share
            row["true_static_bytes"] = d["advertised_bytes"] * region
            rows.append(row)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, indent=1) + "\n")
    print(markdown(rows))
    errs = [
        (r[st]["time_error"], r[st]["lost_error"])
        for r in rows
        for st in ("none", "sequential")
        if st in r and r[st]["time_error"] is not None
    ]
    if errs:
        within = sum(abs(a) <= 0.25 and abs(b) <= 0.25 for a, b in errs)
        med_t = statistics.median(abs(a) for a, _ in errs)
        med_l = statistics.median(abs(b) for _, b in errs)
        print(
            f"\n{within} of {len(errs)} within 25% on both figures; median |time error| "
            f"{100 * med_t:.0f}%, median |lost error| {100 * med_l:.0f}%"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
