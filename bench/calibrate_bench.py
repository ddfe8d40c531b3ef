"""Benchmark of ``overprov calibrate`` on drives it has never seen, and on published figures.

For each seed: a generated drive file (overprov.calibrate.validation.drive), simulated at
--physical of NAND; calibrate it through the Target protocol within the default budget; measure
its truth at 0-40% extra OP the long way; compare. Then the published figures through --points.

    PYTHONPATH=python python bench/calibrate_bench.py [--seeds 1-12] [--physical 4GiB]
        [--record-model-error]   # write python/overprov/calibrate/model_form_error.json

Prints markdown tables (for bench/README.md) and writes target/bench/calibrate_bench.json.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate import validation
from overprov.units import parse_size_bytes

ROOT = Path(__file__).resolve().parent.parent


def seeds_arg(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def generated(seeds: list[int], physical: float, folder: Path) -> list[dict]:
    rows = []
    for seed in seeds:
        d = validation.drive(seed)
        c = validation.compare(seed, physical, folder)
        cfg = d["config"]
        rows.append({
            "seed": seed,
            "native_op": d["physical_bytes"] / d["advertised_bytes"] - 1,
            "policy": cfg["ftl"]["policy"],
            "slc": "slc" in cfg["timing"],
            **c.as_dict(),
        })  # fmt: skip
        print(
            f"seed {seed}: median {100 * c.median_abs_rel_error:.1f}% worst "
            f"{100 * c.worst_abs_rel_error:.1f}% twin {100 * c.twin_worst_rel_error:.1f}% "
            f"cost {c.calibrate_drive_writes:.2f}/{c.truth_drive_writes:.2f} dw, {c.wall_s:.1f} s",
            file=sys.stderr,
            flush=True,
        )
    return rows


def published(folder: Path) -> list[dict]:
    """Published figures a user could hold: fit on some, predict the others."""
    cases = [
        {
            "name": "Samsung 850 Pro 512 GB, fio 4k randwrite QD32",
            "fitted": "20%: 25,000 IOPS; 512 GB on 512 GiB of NAND",
            "points": [fitmod.Point(20, 25000, 0.05)],
            "native_op": 2**39 / 512e9 - 1,
            "held_out": (40.0, "iops", 50000.0),
        },
        {
            "name": "Samsung 850 Pro 512 GB, fio 4k randwrite QD32",
            "fitted": "40%: 50,000 IOPS; 512 GB on 512 GiB of NAND",
            "points": [fitmod.Point(40, 50000, 0.05)],
            "native_op": 2**39 / 512e9 - 1,
            "held_out": (20.0, "iops", 25000.0),
        },
        {
            "name": "PNY 128 GB vs 120 GB, JESD219A from secure erase",
            "fitted": "128 GB (0% extra): WAF 2.85",
            "points": [fitmod.Point(0, None, 0.05, 2.85, 0.05)],
            "native_op": None,
            "held_out": (6.25, "waf", 1.87),
        },
    ]
    out = []
    for i, case in enumerate(cases):
        x, what, value = case["held_out"]
        pred = predmod.predict(
            case["points"], [x], folder / f"published-{i}", native_op=case["native_op"],
            source=case["name"],
        )  # fmt: skip
        row = pred["levels"][0]
        got = row["steady_iops"] if what == "iops" else row["waf"]
        out.append({
            "name": case["name"],
            "fitted": case["fitted"],
            "held_out": f"{x:g}%: {what.upper()} {value:,g}",
            "predicted": got,
            "rel_error": got / value - 1.0,
            "interval": [row["steady_iops_low"], row["steady_iops_high"]] if what == "iops"
            else [row["waf_low"], row["waf_high"]],
        })  # fmt: skip
    return out


def markdown(rows: list[dict], pub: list[dict]) -> str:
    lines = [
        "| seed | native OP | GC | SLC | median error | worst error | in 80% band | twin vs "
        "its points | calibrate dw | truth dw | share | calibrate h (full size) | truth h "
        "(full size) | wall s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        inside = sum(1 for x in r["rows"] if x["in_interval"])
        lines.append(
            f"| {r['seed']} | {100 * r['native_op']:.1f}% | {r['policy']} | "
            f"{'yes' if r['slc'] else 'no'} | {100 * r['median_abs_rel_error']:.1f}% | "
            f"{100 * r['worst_abs_rel_error']:.1f}% | {inside}/{len(r['rows'])} | "
            f"{100 * r['twin_worst_rel_error']:.1f}% | {r['calibrate_drive_writes']:.2f} | "
            f"{r['truth_drive_writes']:.2f} | "
            f"{100 * r['calibrate_drive_writes'] / r['truth_drive_writes']:.0f}% | "
            f"{r['calibrate_io_hours_full_size']:.1f} | {r['truth_io_hours_full_size']:.1f} | "
            f"{r['wall_s']:.1f} |"
        )
    errs = [abs(x["rel_error"]) for r in rows for x in r["rows"]]
    lines.append("")
    lines.append(
        f"All levels of all drives ({len(errs)}): median error {100 * statistics.median(errs):.1f}%"
        f", worst {100 * max(errs):.1f}%; median of the per-drive medians "
        f"{100 * statistics.median(r['median_abs_rel_error'] for r in rows):.1f}%."
    )
    lines += ["", "| published figure | fitted | held out | predicted | error | 80% interval |",
              "|---|---|---|---|---|---|"]  # fmt: skip
    for p in pub:
        lo, hi = p["interval"]
        fmt = "{:,.0f}" if p["predicted"] > 100 else "{:.2f}"
        lines.append(
            f"| {p['name']} | {p['fitted']} | {p['held_out']} | {fmt.format(p['predicted'])} | "
            f"{100 * p['rel_error']:+.0f}% | {fmt.format(lo)}–{fmt.format(hi)} |"
        )
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seeds_arg, default=seeds_arg("1-12"))
    ap.add_argument("--physical", default="4GiB", help="NAND of each simulated drive")
    ap.add_argument("--record-model-error", action="store_true")
    args = ap.parse_args()
    physical = parse_size_bytes(args.physical, "--physical")
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="overprov-calbench-") as tmp:
        rows = generated(args.seeds, physical, Path(tmp))
        pub = published(Path(tmp))
    logs = [math.log(1 + x["rel_error"]) for r in rows for x in r["rows"]]
    rel_sd = math.sqrt(statistics.fmean(v * v for v in logs))
    real_sd = math.sqrt(statistics.fmean(math.log(1 + p["rel_error"]) ** 2 for p in pub))
    doc = {
        "date": datetime.now(UTC).date().isoformat(),
        "physical": args.physical,
        "seeds": args.seeds,
        "drives": rows,
        "published": pub,
        "model_form_rel_sd": rel_sd,
        "model_form_real_rel_sd": real_sd,
        "wall_s": time.monotonic() - t0,
    }
    out = ROOT / "target" / "bench" / "calibrate_bench.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=2) + "\n")
    print(markdown(rows, pub))
    print(f"\nmodel-form error (rms of log(predicted/true)): generated drives {rel_sd:.4f}, "
          f"published figures {real_sd:.4f}")  # fmt: skip
    if args.record_model_error:
        path = ROOT / "python" / "overprov" / "calibrate" / "model_form_error.json"
        path.write_text(json.dumps({
            "rel_sd": rel_sd,
            "real_rel_sd": real_sd,
            "source": f"bench/calibrate_bench.py, {len(rows)} generated drives (seeds "
                      f"{args.seeds[0]}-{args.seeds[-1]}) at {args.physical}, {doc['date']}",
            "levels": "0-40% extra OP",
            "published": [f"{p['name']}: fitted {p['fitted']}, held out {p['held_out']}, "
                          f"error {100 * p['rel_error']:+.0f}%" for p in pub],
        }, indent=2) + "\n")  # fmt: skip
        print(f"recorded {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
