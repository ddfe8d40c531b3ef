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
        [--static-share 0.005] [--physical 8GiB] [--tlc-factors 0.7,1.5]
        [--turbowrite-tlc-us 1000] [--no-fit-tlc] [--also-twin-tlc]
        [--fallback-read-percent 50] [--probe-bs 4096,32768] [--no-cache-fit]
        [--ceiling-fit] [--fine-step 0.05] [--no-hidden-cache-check] [--past-buffer]
        [--consumer-seeds 1-4] [--seeds-none] [--out FILE]

Where the 4 KiB series gives no fit: ``--probe-bs`` adds QD32 series of other request sizes
(a controller's per-command ceiling lifted), ``--ceiling-fit`` fits a step from a plateau at
a ceiling with the SLC program time bounded, ``--fine-step`` (default 0.05) looks for a step
under 10% in the same series, and ``--no-cache-fit`` takes a purged series with no step as the
twin without a cache (docs/calibrate-cliff.md, "The caches 4 KiB writes miss" and "Declined
cases: the sixth rule"), predicted only where no cache its series cannot see moves the
prediction. Each row records the host bytes every series wrote (``probe_write_bytes``); the
run is counted by ``bench/cliff_rule.py``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import statistics
import sys
from pathlib import Path

from calibrate_bench import seeds_arg  # bench/ is on the path when run as a script
from cliff_consumer import consumer_drive
from cliff_rule import declined_rule, declined_rule_line, reason
from overprov import presets
from overprov.calibrate import cliff, cliff_no_step, validation
from overprov.errors import ConfigError
from overprov.units import parse_size_bytes

ROOT = Path(__file__).resolve().parent.parent
MIX = {"qd": 8, "read_percent": 70}
TURBOWRITE = ROOT / "docs/drives/consumer-1tb-sata-turbowrite.toml"


def _seconds(
    drive: dict, scale: float, qd: int, read_percent: int, precondition: str, bs_bytes: int = 4096
) -> float:
    """Long enough to write a purged drive's largest possible cache (a third of it) 1.5 times
    over, or a filled drive's free space 1.3 times, at the write rate of a 5-s probe (its
    intervals' median; where that is under one write a second — a filled drive stalled by
    garbage collection in most of the probe, generated drive 116 — their mean: the median
    made a run of 1.6e10 s that never ended)."""
    probe = cliff.simulate_series(
        drive, scale, qd=qd, read_percent=read_percent, seconds=5.0 / scale,
        interval_s=1.0 / scale, precondition=precondition, bs_bytes=bs_bytes,
    )  # fmt: skip
    write_rate = statistics.median(probe.write_iops) * bs_bytes
    if write_rate < bs_bytes:
        write_rate = statistics.fmean(probe.write_iops) * bs_bytes
    spare = presets.physical_bytes(drive) - drive["advertised_bytes"]
    cache = drive["config"]["timing"]["slc"]["max_bytes"]
    room = (
        1.5 * min(cache * 1.5, drive["advertised_bytes"] / 3)
        if precondition == "none"
        else 1.3 * spare
    )
    return room / max(write_rate, 1.0)


#: whether fit_cache fits the TLC program time (``--no-fit-tlc``: the twin's kept, as before);
#: ``also_twin_tlc``: each accepted fit also predicted with the twin's TLC program time;
#: ``fallback_read_percent``: where the QD32 writes give no fit, one from a QD32 series with
#: this share of reads (0: none); ``probe_bs``: the request sizes of the QD32 write series
#: tried in turn (the first that gives a fit is kept), before the fallback
#: ``no_cache``: where no probe shows a step, the twin without a cache
#: (``cliff_no_step.fit_without_cache``); ``ceiling``: where no series identifies the SLC program
#: time, a step from a plateau at a ceiling fitted with it bounded (``fit_cache(ceiling=)``)
#: ``fine_step``: where no series shows a step of 10%, the same series searched for a step of
#: this share (0: not), fitted as a cache, and a fit without a cache only where none shows
#: one; ``hidden``: a fit without a cache predicted only where no cache it cannot see moves the
#: prediction (``cliff.predict``'s ``hidden_cache_shares``; ``--no-hidden-cache-check``: not
#: checked, as before 2026-11-28's sixth rule); ``past_buffer``: a step at the write buffer's fill
#: with a later one passed over (``fit_cache(past_buffer=)``)
FIT_TLC = {
    "on": True, "also_twin_tlc": False, "fallback_read_percent": 0, "probe_bs": [4096],
    "no_cache": False, "ceiling": False, "hidden": True, "fine_step": 0.05,
    "past_buffer": cliff.PAST_BUFFER,
}  # fmt: skip


def _measure(
    truth: dict, scale: float, state: str, read_percent: int, bs_bytes: int, row: dict
) -> cliff.Series:
    """One measured QD32 series; the host bytes it wrote (full size) added to the row's
    ``probe_write_bytes`` (what the measurement cost the drive)."""
    t_meas = _seconds(truth, scale, 32, read_percent, state, bs_bytes)
    # a filled drive's series runs until its spare is written, and its static region fills in
    # a small part of that: finer intervals, 300 or one a second if that is more (a real
    # drive's fio log is per second; a region filled in one or two intervals is not seen)
    n = 60 if state == "none" else max(300, math.ceil(t_meas))
    measured = cliff.simulate_series(
        truth, scale, qd=32, read_percent=read_percent, seconds=t_meas, interval_s=t_meas / n,
        precondition=state, bs_bytes=bs_bytes,
    )  # fmt: skip
    written = sum(w * t_meas / n * bs_bytes for w in measured.write_iops)
    row["probe_write_bytes"] = row.get("probe_write_bytes", 0.0) + written
    by = row.setdefault("probe_write_bytes_by", {})
    by[f"{state}/{bs_bytes}/{read_percent}"] = written
    return measured


def _fit(truth: dict, twin: dict, scale: float, state: str, row: dict) -> cliff.CacheFit:
    """The fit from QD32 writes of each probe size in turn; where none fits, with
    ``no_cache``, the twin without a cache from a series of them with no step (the largest
    size first); then, with a fallback set, from QD32 with reads (``row`` records which, and
    why the others failed). A filled drive's series is tried at the size the purged one
    fitted at first."""
    sizes = list(FIT_TLC["probe_bs"])
    if state != "none" and row.get("fit_bs_bytes") in sizes:
        sizes.remove(row["fit_bs_bytes"])
        sizes.insert(0, row["fit_bs_bytes"])
    exc: ConfigError | None = None
    flat: list[tuple[int, cliff.Series]] = []
    at_ceiling: list[tuple[int, cliff.Series]] = []
    errors = row.setdefault("probe_errors", {}).setdefault(state, {})
    for bs in sizes:
        measured = _measure(truth, scale, state, 0, bs, row)
        try:
            fit = cliff.fit_cache(
                measured,
                twin,
                scale,
                precondition=state,
                fit_tlc=FIT_TLC["on"],
                bs_bytes=bs,
                past_buffer=FIT_TLC["past_buffer"],
            )
        except ConfigError as e:
            exc = e
            errors[str(bs)] = str(e)
            if "no cliff before garbage collection" in str(e):
                flat.append((bs, measured))
            elif "no SLC program time" in str(e):
                at_ceiling.append((bs, measured))
            continue
        if bs != 4096:
            row["fit_bs_bytes"] = bs
        return fit
    # no series identified the SLC program time: a step from a plateau at a ceiling, with the
    # SLC program time bounded (the same series, no more writes)
    for bs, measured in at_ceiling if FIT_TLC["ceiling"] else []:
        try:
            fit = cliff.fit_cache(
                measured, twin, scale, precondition=state, fit_tlc=FIT_TLC["on"], bs_bytes=bs,
                ceiling=True, past_buffer=FIT_TLC["past_buffer"],
            )  # fmt: skip
        except ConfigError as e:
            exc = e
            errors[f"{bs} at a ceiling"] = str(e)
            continue
        row.setdefault("fit_at_ceiling", {})[state] = bs
        if bs != 4096:
            row["fit_bs_bytes"] = bs
        return fit
    # a step under 10% in a series without one (the same series, no more writes): a cache whose
    # SLC-mode programs write within 10% of the TLC rate
    fine = FIT_TLC["fine_step"]
    for bs, measured in flat if fine else []:
        for ceiling in (False, True) if FIT_TLC["ceiling"] else (False,):
            try:
                fit = cliff.fit_cache(
                    measured, twin, scale, precondition=state, fit_tlc=FIT_TLC["on"],
                    bs_bytes=bs, ceiling=ceiling, min_drop=fine,
                    past_buffer=FIT_TLC["past_buffer"],
                )  # fmt: skip
            except ConfigError as e:
                exc = e
                errors[f"{bs} step of {fine:g}" + (" at a ceiling" if ceiling else "")] = str(e)
                if "no SLC program time" in str(e):
                    continue
                break
            row.setdefault("fit_fine_step", {})[state] = bs
            if ceiling:
                row.setdefault("fit_at_ceiling", {})[state] = bs
            if bs != 4096:
                row["fit_bs_bytes"] = bs
            return fit
    # only a purged series: there the whole cache is free and the series is long enough to
    # write it (a filled one's grid can miss a static region that fills in an interval or two)
    if FIT_TLC["no_cache"] and state == "none":
        for bs, measured in sorted(flat, key=lambda f: -f[0]):
            try:
                fit = cliff_no_step.fit_without_cache(
                    measured,
                    twin,
                    scale,
                    precondition=state,
                    bs_bytes=bs,
                    min_drop=fine or 0.1,
                )
            except ConfigError as e:
                exc = e
                errors[f"{bs} without a cache"] = str(e)
                continue
            row["fit_bs_bytes"] = bs
            row["fit_no_cache"] = True
            return fit
    rp = FIT_TLC["fallback_read_percent"]
    if not rp:
        assert exc is not None
        raise exc
    row.setdefault("write_only_error", {})[state] = str(exc)
    row["fit_read_percent"] = rp
    return cliff.fit_cache(
        _measure(truth, scale, state, rp, 4096, row), twin, scale, precondition=state,
        fit_tlc=FIT_TLC["on"], read_percent=rp, past_buffer=FIT_TLC["past_buffer"],
    )  # fmt: skip


def one(
    name: str, truth: dict, scale: float, *, static: bool = False,
    twin_tlc_us: float | None = None,
) -> dict:  # fmt: skip
    """``static``: the drive has a static region, fitted from its filled series as well.
    ``twin_tlc_us``: the twin's TLC program time where it is not the truth's."""
    # size and SLC program time unknown; the TLC program time the drive's own (``twin_tlc_us``)
    # where the truth's was changed
    twin = cliff.with_cache(truth, 1e9, 200.0, tlc_program_us=twin_tlc_us)
    row: dict = {"drive": name, "advertised_bytes": truth["advertised_bytes"]}
    fit = static_fit = None
    try:
        fit = _fit(truth, twin, scale, "none", row)
    except Exception as exc:  # noqa: BLE001 - reported in the row, the bench goes on
        row["error"] = str(exc)
    # a purged series with no step gives no cache, and no static region to fit; a static
    # region not fitted leaves the filled drive unpredicted, the purged one predicted
    if static and fit is not None and fit.cache_bytes > 0:
        try:
            static_fit = _fit(truth, twin, scale, "sequential", row)
        except Exception as exc:  # noqa: BLE001 - reported in the row, the bench goes on
            row["filled_error"] = str(exc)
    if static_fit is not None:
        row["fitted_static_bytes"] = static_fit.cache_bytes
    if fit is not None:
        row.update(
            measured=fit.measured and fit.measured.to_dict(),
            fitted_cache_bytes=fit.cache_bytes,
            fitted_slc_program_us=fit.slc_program_us,
            true_slc_program_us=truth["config"]["timing"]["slc"]["program_us"],
            fitted_tlc_program_us=fit.tlc_program_us,
            true_tlc_program_us=truth["config"]["timing"]["nand"]["program_us"],
            twin_tlc_program_us=twin["config"]["timing"]["nand"]["program_us"],
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
        pred = None
        refused = None
        if fit is not None and not (state == "sequential" and "filled_error" in row):
            try:
                pred = cliff.predict(
                    twin, fit, scale, **MIX, seconds=t_mix, interval_s=t_mix / n,
                    precondition=state, static_fit=static_fit,
                    hidden_cache_shares=cliff.HIDDEN_CACHE_SHARES if FIT_TLC["hidden"] else (),
                )  # fmt: skip
            except ConfigError as exc:
                refused = str(exc)
        row[state] = {
            "true": true.to_dict() if true else None,
            "predicted": pred.to_dict() if pred else None,
            **cliff.errors(pred, true),
        }
        if refused:
            row[state]["refused"] = refused
        if fit is not None and FIT_TLC["also_twin_tlc"]:
            # the same cache, the level after from the twin's TLC program time (the fit before)
            twin_fit = dataclasses.replace(fit, tlc_program_us=None)
            twin_static = static_fit and dataclasses.replace(static_fit, tlc_program_us=None)
            p2 = cliff.predict(
                twin, twin_fit, scale, **MIX, seconds=t_mix, interval_s=t_mix / n,
                precondition=state, static_fit=twin_static,
            )  # fmt: skip
            row[state]["twin_tlc"] = {
                "predicted": p2.to_dict() if p2 else None,
                **cliff.errors(p2, true),
            }
    print(f"{name}: {json.dumps(row)}", file=sys.stderr, flush=True)
    return row


def pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:+.0f}%"


def markdown(rows: list[dict]) -> str:
    out = [
        "| drive | cache true → fitted | SLC µs true → fitted | TLC µs true (twin) → fitted "
        "| state | QD8 70:30 truth: cliff at, IOPS lost | predicted | time error | lost error |",
        "|---|---|---|---|---|---|---|---|---|",
    ]

    def fmt(c: dict | None) -> str:
        return "none" if not c else f"{c['time_s']:,.0f} s, {c['lost_iops']:,.0f}"

    for r in rows:
        cache = f"{r.get('true_cache_bytes', 0) / 1e9:.2f} → " + (
            f"{r['fitted_cache_bytes'] / 1e9:.2f} GB" if r.get("fitted_cache_bytes") else "—"
        )
        if r.get("fit_no_cache"):
            cache = cache[: -len("—")] + "no step: twin without a cache"
        if r.get("fit_fine_step", {}).get("none"):
            cache += " (a step under 10%)"
        if r.get("fit_read_percent"):
            cache += f" (QD32 {r['fit_read_percent']}% reads)"
        elif r.get("fit_bs_bytes"):
            cache += f" (QD32 {r['fit_bs_bytes'] // 1024} KiB writes)"
        if r.get("true_static_bytes"):
            cache += f"; static {r['true_static_bytes'] / 1e9:.2f} → " + (
                f"{r['fitted_static_bytes'] / 1e9:.2f} GB" if r.get("fitted_static_bytes") else "—"
            )
        if "error" in r:
            for state, label in (("none", "purged"), ("sequential", "filled")):
                out.append(
                    f"| {r['drive']} | {cache} | — | — | {label} | {fmt(r[state]['true'])} | "
                    f"{reason(r['error'])} | — | — |"
                )
            continue
        slc = f"{r['true_slc_program_us']:.0f} → " + (
            "—" if r.get("fit_no_cache") else f"{r['fitted_slc_program_us']:.0f}"
        )
        if r.get("fit_at_ceiling", {}).get("none"):
            slc += " (a ceiling: half the bound)"
        ftlc = r.get("fitted_tlc_program_us")
        tlc = f"{r['true_tlc_program_us']:.0f} ({r['twin_tlc_program_us']:.0f}) → " + (
            "twin's" if ftlc is None else f"{ftlc:.0f}"
        )
        for state, label in (("none", "purged"), ("sequential", "filled")):
            c = r[state]
            pred = fmt(c["predicted"])
            if state == "sequential" and "filled_error" in r:
                pred = "static region: " + reason(r["filled_error"])
            if c.get("refused"):
                pred = reason(c["refused"])
            out.append(
                f"| {r['drive']} | {cache} | {slc} | {tlc} | {label} | {fmt(c['true'])} | "
                f"{pred} | {pct(c['time_error'])} | {pct(c['lost_error'])} |"
            )
    return "\n".join(out)


def summary(rows: list[dict]) -> str:
    """Counted over the cases (drive, state) where the truth has a cliff: predicted within 25%
    in both figures, predicted outside, predicted without a cliff, fit refused or impossible;
    and the cases where only the prediction has one."""
    cases = [r[st] for r in rows for st in ("none", "sequential") if st in r]
    truth = [c for c in cases if c["true"]]
    ok = [c for c in truth if c["time_error"] is not None]
    within = [c for c in ok if abs(c["time_error"]) <= 0.25 and abs(c["lost_error"]) <= 0.25]
    with_truth = [(r, st, r[st]) for r in rows for st in ("none", "sequential") if st in r]
    with_truth = [(r, st, c) for r, st, c in with_truth if c["true"]]

    def unfitted(r: dict, st: str) -> bool:
        return "error" in r or (st == "sequential" and "filled_error" in r) or "refused" in r[st]

    no_pred = sum(1 for r, st, c in with_truth if not unfitted(r, st) and not c["predicted"])
    no_fit = sum(1 for r, st, _ in with_truth if unfitted(r, st))
    extra = sum(1 for c in cases if not c["true"] and c["predicted"])
    out = (
        f"{len(within)} of {len(truth)} cases whose truth has a cliff predicted within 25% on "
        f"both figures; {len(ok) - len(within)} predicted outside; {no_pred} predicted without "
        f"a cliff; {no_fit} not predicted (fit refused or no cliff in the QD32 series); "
        f"{extra} predicted where the truth has none"
    )
    cost = [
        r["probe_write_bytes"] / r["advertised_bytes"] for r in rows if "probe_write_bytes" in r
    ]
    if cost:
        out += (
            f"; measurement (every QD32 series run, purged and filled): median "
            f"{statistics.median(cost):.3f}, largest {max(cost):.3f} drive writes per drive"
        )
    if ok:
        med_t = statistics.median(abs(c["time_error"]) for c in ok)
        med_l = statistics.median(abs(c["lost_error"]) for c in ok)
        out += f"; median |time error| {100 * med_t:.0f}%, median |lost error| {100 * med_l:.0f}%"
    return out


def twin_tlc_summary(rows: list[dict]) -> str:
    """The accepted fits' predictions with the twin's TLC program time (``--also-twin-tlc``)."""
    alt = [
        r[st]["twin_tlc"]
        for r in rows
        for st in ("none", "sequential")
        if st in r and r[st]["true"] and "twin_tlc" in r[st]
    ]
    ok = [a for a in alt if a["time_error"] is not None]
    within = sum(abs(a["time_error"]) <= 0.25 and abs(a["lost_error"]) <= 0.25 for a in ok)
    lost = [a["lost_error"] for a in ok]
    span = f"IOPS lost {100 * min(lost):+.0f}% to {100 * max(lost):+.0f}%" if lost else ""
    return (
        f"with the twin's TLC program time: {within} of {len(alt)} within 25% on both figures, "
        f"{len(alt) - len(ok)} without a cliff; {span}"
    )


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
    ap.add_argument(
        "--tlc-factors", default="1,1",
        help="each generated truth's TLC program time: the drive's times a factor drawn from "
        "LOW,HIGH (the twin keeps the drive's; 1,1: the same)",
    )  # fmt: skip
    ap.add_argument(
        "--turbowrite-tlc-us", type=float, default=0.0,
        help="also docs/drives/consumer-1tb-sata-turbowrite.toml as a truth with this TLC "
        "program time (µs per flash page; the twin keeps the file's)",
    )  # fmt: skip
    ap.add_argument(
        "--fit-tlc", action=argparse.BooleanOptionalAction, default=True,
        help="fit the TLC program time to the level after the cliff (--no-fit-tlc: the twin's)",
    )  # fmt: skip
    ap.add_argument(
        "--also-twin-tlc", action="store_true",
        help="also predict each accepted fit with the twin's TLC program time (the errors "
        "the fit without the level after would have made)",
    )  # fmt: skip
    ap.add_argument(
        "--fallback-read-percent", type=int, default=0,
        help="where the QD32 writes give no fit, fit from a QD32 series with this share of "
        "reads (0: none)",
    )  # fmt: skip
    ap.add_argument(
        "--probe-bs", default="4096",
        help="request sizes (bytes) of the QD32 write series tried in turn before the fallback, "
        "e.g. 4096,32768",
    )  # fmt: skip
    ap.add_argument(
        "--no-cache-fit", action="store_true",
        help="where no probe series shows a step, predict with the twin without a cache "
        "(its TLC program time fitted to the series' level)",
    )  # fmt: skip
    ap.add_argument(
        "--ceiling-fit", action="store_true",
        help="where no probe series identifies the SLC program time, fit a step from a "
        "plateau at a ceiling with the SLC program time bounded (fit_cache(ceiling=True))",
    )  # fmt: skip
    ap.add_argument(
        "--fine-step", type=float, default=0.05,
        help="where no QD32 write series shows a step of 10%%, search the same series for one "
        "of this share before fitting without a cache (0: not, as the runs before the sixth "
        "rule, docs/calibrate-cliff.md)",
    )  # fmt: skip
    ap.add_argument(
        "--no-hidden-cache-check", action="store_true",
        help="predict a fit without a cache without checking it against caches the writes "
        "cannot see (cliff.HIDDEN_CACHE_SHARES)",
    )  # fmt: skip
    ap.add_argument(
        "--consumer-seeds", type=seeds_arg, default=[],
        help="also generated consumer SATA drives of these seeds (bench/cliff_consumer.py)",
    )  # fmt: skip
    ap.add_argument(
        "--past-buffer", action=argparse.BooleanOptionalAction, default=cliff.PAST_BUFFER,
        help="pass over a step at the write buffer's fill to a later one "
        "(cliff.fit_cache(past_buffer=))",
    )  # fmt: skip
    ap.add_argument(
        "--seeds-none", action="store_true", help="no generated drives of --seeds (e.g. only "
        "--consumer-seeds)",
    )  # fmt: skip
    ap.add_argument("--out", type=Path, default=ROOT / "target/bench/cliff_bench.json")
    args = ap.parse_args()
    physical = parse_size_bytes(args.physical, "--physical")
    FIT_TLC["on"] = args.fit_tlc
    FIT_TLC["also_twin_tlc"] = args.also_twin_tlc
    FIT_TLC["fallback_read_percent"] = args.fallback_read_percent
    FIT_TLC["probe_bs"] = [int(x) for x in args.probe_bs.split(",")]
    FIT_TLC["no_cache"] = args.no_cache_fit
    FIT_TLC["ceiling"] = args.ceiling_fit
    FIT_TLC["hidden"] = not args.no_hidden_cache_check
    FIT_TLC["fine_step"] = args.fine_step
    FIT_TLC["past_buffer"] = args.past_buffer
    rows = []
    if args.presets:
        d = presets.get("consumer-tlc-sata")
        sc = min(1.0, physical / presets.physical_bytes(d))
        for name, drive in (
            ("consumer-tlc-sata", d),
            ("consumer-1tb-sata-turbowrite.toml", presets.get(str(TURBOWRITE))),
        ):
            # a drive with a static region is fitted from filled too, as every such truth here
            row = one(name, drive, sc, static="static_bytes" in drive["config"]["timing"]["slc"])
            row["true_cache_bytes"] = drive["config"]["timing"]["slc"]["max_bytes"]
            row["true_static_bytes"] = drive["config"]["timing"]["slc"].get("static_bytes", 0)
            rows.append(row)
    if args.turbowrite_tlc_us:
        # the drive file as a truth whose writes past its cache are slower than the file says:
        # the twin is the file (its TLC program time), the cache's sizes and times unknown
        tw = presets.get(str(TURBOWRITE))
        slc = tw["config"]["timing"]["slc"]
        truth = cliff.with_cache(
            tw, slc["max_bytes"], slc["program_us"], static_bytes=slc["static_bytes"],
            tlc_program_us=args.turbowrite_tlc_us,
        )  # fmt: skip
        sc = min(1.0, physical / presets.physical_bytes(tw))
        name = f"consumer-1tb-sata-turbowrite.toml, TLC {args.turbowrite_tlc_us:g} µs"
        row = one(
            name, truth, sc, static=True, twin_tlc_us=tw["config"]["timing"]["nand"]["program_us"]
        )
        row["true_cache_bytes"] = slc["max_bytes"]
        row["true_static_bytes"] = slc["static_bytes"]
        rows.append(row)
    for seed in args.consumer_seeds:
        truth = consumer_drive(seed)
        slc = truth["config"]["timing"]["slc"]
        sc = float(validation.scale_for(truth, physical))
        twin_tlc = presets.get("consumer-tlc-sata")["config"]["timing"]["nand"]["program_us"]
        row = one(f"consumer {seed}", truth, sc, static="static_bytes" in slc, twin_tlc_us=twin_tlc)
        row["true_cache_bytes"] = slc["max_bytes"]
        row["true_static_bytes"] = slc.get("static_bytes", 0)
        rows.append(row)
    shares = [float(x) for x in args.shares.split(",")]
    f_lo, f_hi = (float(x) for x in args.tlc_factors.split(","))
    for seed in [] if args.seeds_none else args.seeds:
        d = validation.drive(seed)
        rng = random.Random(seed * 7919)
        # a generator of its own: the caches and SLC times drawn are those of the runs before
        tlc_rng = random.Random(seed * 104729)
        drive_tlc = d["config"]["timing"]["nand"]["program_us"]

        def tlc(rng: random.Random = tlc_rng, base: float = drive_tlc) -> dict:
            if (f_lo, f_hi) == (1.0, 1.0):
                return {}
            return {"tlc_program_us": round(base * rng.uniform(f_lo, f_hi), 1)}

        for share in shares:
            truth = cliff.with_cache(
                d, d["advertised_bytes"] * share, round(rng.uniform(150.0, 250.0), 1), **tlc()
            )
            # a write buffer is not scaled with the drive: at a few GiB of NAND its own drop
            # (tens of MiB) would come first and hide the cache's, so it is made small
            truth["config"]["timing"]["buffer"]["bytes"] = 4 * 2**20
            sc = float(validation.scale_for(truth, physical))
            row = one(f"generated {seed}, cache {100 * share:g}%", truth, sc, twin_tlc_us=drive_tlc)
            row["true_cache_bytes"] = d["advertised_bytes"] * share
            rows.append(row)
        if args.static_share:
            share, region = 0.02, args.static_share
            truth = cliff.with_cache(
                d, d["advertised_bytes"] * share, round(rng.uniform(150.0, 250.0), 1),
                static_bytes=d["advertised_bytes"] * region, **tlc(),
            )  # fmt: skip
            truth["config"]["timing"]["buffer"]["bytes"] = 4 * 2**20
            sc = float(validation.scale_for(truth, physical))
            name = f"generated {seed}, cache 2%, static {100 * region:g}%"
            row = one(name, truth, sc, static=True, twin_tlc_us=drive_tlc)
            row["true_cache_bytes"] = d["advertised_bytes"] * share
            row["true_static_bytes"] = d["advertised_bytes"] * region
            rows.append(row)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, indent=1) + "\n")
    print(markdown(rows))
    print("\n" + summary(rows))
    print(declined_rule_line(declined_rule(rows)))
    if args.also_twin_tlc:
        print(twin_tlc_summary(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
