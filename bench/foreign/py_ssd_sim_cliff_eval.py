"""The write cliff predicted on py_ssd_sim (an FTL with an SLC cache, not overprov's): fit the
cache from its QD32 write series, predict its QD8 70:30 cliff, judge by the registered rule.
Its cliff is the host's writes turning to TLC when the cache is full: py_ssd_sim's collection
never writes (bench/foreign/py_ssd_sim_cliff.py's docstring), so nothing is folded.

    PYTHONPATH=python python bench/foreign/py_ssd_sim_cliff_eval.py \
        --fit bench/results/cliff-foreign/fit-qd32-writes.json \
        --held-out bench/results/cliff-foreign2/a-qd8-70-30.json \
        [--out bench/results/cliff-foreign2/evaluation-a-qd8-70-30.json]
    PYTHONPATH=python python bench/foreign/py_ssd_sim_cliff_eval.py \
        --gate STORED.json RERUN.json [--out FILE.json]
    PYTHONPATH=python python bench/foreign/py_ssd_sim_cliff_eval.py \
        --fit bench/results/cliff-foreign/fit-qd32-writes.json --held-out HELD.json \
        --read-probe bench/results/cliff-foreign5/probe-sim-written-reads.json

``--link-booking gaps``: the twin's host link books each direction apart, each transfer in the
earliest gap at or after its data is ready (``timing.host.link_booking``: the core's
timing/link.rs; bench/results/cliff-foreign6/RULE.md); unset, the core's default.

``--twin-nand one-shot``: the twin's NAND programmed as the simulator programs it, three TLC
pages at once in 2,100 us, whole, no suspend (bench/foreign/py_ssd_sim_twin.py ``one_shot``;
bench/results/cliff-foreign7/RULE.md); unset (``average``), 700 us per page charged per unit.

``--read-probes BEFORE AFTER``: the prediction made with two probes measured on the simulator,
one before the cliff and one past it (``overprov.calibrate.read_probes.predict`` with its flag
on: the twin's link in gaps, its NAND per unit or one-shot as the probe past the cliff
selects, and reads of written pages holding the slot measured before the cliff until the host
has written the fitted cache; bench/results/cliff-foreign8/RULE.md).

``--read-probe``: the prediction made with reads of written pages holding a queue slot for
the probe's mean read queue time and booking nothing (``cliff.predict``'s ``read_slot_us``,
off by default: ``overprov.calibrate.read_slot``; bench/results/cliff-foreign5/RULE.md).

The two series are bench/foreign/py_ssd_sim_cliff.py's (the rule, the configuration and the
commands: bench/results/cliff-foreign/RULE.md, amended by bench/results/cliff-foreign2/RULE.md);
the twin is bench/foreign/py_ssd_sim_twin.py's, with the fit series' channel count. A held-out
run that ended with commands pending or a read returning other data than written has no truth.
``--gate`` checks that a re-run reproduces a stored series exactly (the second rule's gate).
Both series are read with no garbage collection flagged: the driver's 1 GiB span on 25 GiB of
TLC blocks never fills the ``user`` group, and the simulator's only collection in them is the
cache's fold, which starts at the cliff (flagging it would end the analysis there). The twin
is simulated at full size (scale 1: 26 GiB of NAND, cheap in overprov's core).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

from overprov.calibrate import cliff, read_probes
from overprov.errors import ConfigError

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from py_ssd_sim_twin import twin  # noqa: E402

#: the rule's bound on each relative error (bench/results/cliff-foreign/RULE.md)
BOUND = 0.25


def load(path: pathlib.Path) -> tuple[dict, cliff.Series]:
    run = json.loads(path.read_text())
    n = len(run["times_s"])
    return run, cliff.Series(
        times_s=run["times_s"], iops=run["iops"], write_iops=run["write_iops"],
        gc_started=[False] * n,
    )  # fmt: skip


#: what a re-run must reproduce of a stored series (bench/results/cliff-foreign2/RULE.md)
GATE_FIELDS = ("times_s", "iops", "write_iops", "completed", "writes")


def gate(stored_path: pathlib.Path, rerun_path: pathlib.Path) -> dict:
    stored = json.loads(stored_path.read_text())
    rerun = json.loads(rerun_path.read_text())
    differ = [k for k in GATE_FIELDS if stored[k] != rerun[k]]
    return {
        "stored": str(stored_path), "rerun": str(rerun_path), "differ": differ,
        "intervals": len(rerun["times_s"]), "reproduced": not differ,
    }  # fmt: skip


def truth_refused(run: dict) -> str | None:
    """Why a held-out run gives no truth (commands left pending, data returned wrong). A run
    that sorts its data-check failures counts only the wrong reads (``verify_wrong``), not
    those of a read overlapping a write to its page (bench/foreign/py_ssd_sim_cliff.py)."""
    pending = run.get("pending_commands", 0)
    wrong = run.get("verify_wrong", run.get("verify_errors", 0))
    if pending or wrong:
        return f"{pending} commands pending at the end, {wrong} reads returned other data"
    return None


def evaluate(
    fit_path: pathlib.Path,
    held_out_path: pathlib.Path,
    read_probe: pathlib.Path | None = None,
    link_booking: str | None = None,
    twin_nand: str = "average",
    probes: tuple[pathlib.Path, pathlib.Path] | None = None,
) -> dict:
    fit_run, fit_series = load(fit_path)
    held_run, held_series = load(held_out_path)
    channels = fit_run.get("channels", 8)
    if held_run.get("channels", 8) != channels:
        raise ValueError("the fit and held-out series are of different drives")
    drive = twin(channels, one_shot=twin_nand == "one-shot")
    if link_booking is not None:
        drive["config"]["timing"]["host"]["link_booking"] = link_booking
    out: dict = {
        "fit_series": str(fit_path),
        "held_out_series": str(held_out_path),
        "measured_cliff_qd32": None,
        "true": None,
        "fit": None,
        "predicted": None,
    }
    if link_booking is not None:
        out["link_booking"] = link_booking
    if twin_nand != "average":
        out["twin_nand"] = twin_nand
    measured = cliff.find_cliff(fit_series)
    out["measured_cliff_qd32"] = measured.to_dict() if measured else None
    refused = truth_refused(held_run)
    true = None if refused else cliff.find_cliff(held_series)
    out["true"] = true.to_dict() if true else None
    if refused:
        out["truth_refused"] = refused
    if probes is not None:
        return _with_probes(out, drive, fit_run, fit_series, held_run, held_series, probes, true)
    try:
        fit = cliff.fit_cache(fit_series, drive, 1.0, qd=fit_run["qd"], precondition="none")
    except ConfigError as exc:
        out["fit_refused"] = str(exc)
        fit = None
    if fit is not None:
        out["fit"] = _fit_summary(fit)
        interval_s = held_run["interval_ms"] / 1e3
        if read_probe is not None:
            slot_us = json.loads(read_probe.read_text())["queue_time"]["read_latency_us_mean"]
            out["read_probe"] = {"path": str(read_probe), "read_slot_us": slot_us}
        try:
            pred = cliff.predict(
                drive, fit, 1.0, qd=held_run["qd"], read_percent=held_run["read_percent"],
                seconds=held_series.times_s[-1], interval_s=interval_s, precondition="none",
                read_slot_us=None if read_probe is None else slot_us,
            )  # fmt: skip
        except ConfigError as exc:
            out["prediction_refused"] = str(exc)
            pred = None
        out["predicted"] = pred.to_dict() if pred else None
        out.update(cliff.errors(pred, true))
    return _judged(out)


def _judged(out: dict) -> dict:
    """``out`` with ``met``: both its errors within the rule's bound."""
    e_t, e_l = out.get("time_error"), out.get("lost_error")
    out["met"] = bool(
        e_t is not None and e_l is not None and abs(e_t) <= BOUND and abs(e_l) <= BOUND
    )
    return out


def _fit_summary(fit: cliff.CacheFit) -> dict:
    return {
        "cache_bytes": fit.cache_bytes,
        "slc_program_us": fit.slc_program_us,
        "tlc_program_us": fit.tlc_program_us,
        "slc_at_ceiling": fit.slc_at_ceiling,
    }


def _with_probes(
    out: dict, drive: dict, fit_run: dict, fit_series: cliff.Series, held_run: dict,
    held_series: cliff.Series, probes: tuple[pathlib.Path, pathlib.Path], true: cliff.Cliff | None,
) -> dict:  # fmt: skip
    """``evaluate``'s prediction with the two read probes (``read_probes.predict``)."""
    before, after = (read_probes.probe_reading(json.loads(p.read_text())) for p in probes)
    out["read_probes"] = {
        "before": str(probes[0]), "after": str(probes[1]),
        "before_read_us": before.read_us, "after_read_us": after.read_us,
    }  # fmt: skip
    try:
        pred, chosen = read_probes.predict(
            drive, fit_series, before, after, fit_qd=fit_run["qd"], qd=held_run["qd"],
            read_percent=held_run["read_percent"], seconds=held_series.times_s[-1],
            interval_s=held_run["interval_ms"] / 1e3, read_probes=True,
        )  # fmt: skip
    except ConfigError as exc:
        out["prediction_refused"] = str(exc)
        pred, chosen = None, None
    if chosen is not None:
        out["read_probes"].update(program=chosen.program, twin_read_us=chosen.twin_read_us)
        out["link_booking"] = read_probes.LINK_BOOKING
        out["fit"] = _fit_summary(chosen.fit)
    out["predicted"] = pred.to_dict() if pred else None
    out.update(cliff.errors(pred, true))
    return _judged(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--fit", type=pathlib.Path)
    p.add_argument("--held-out", type=pathlib.Path)
    p.add_argument("--gate", nargs=2, type=pathlib.Path, metavar=("STORED", "RERUN"))
    p.add_argument("--read-probe", type=pathlib.Path)
    p.add_argument("--link-booking", choices=("in-order", "gaps"))
    p.add_argument("--twin-nand", choices=("average", "one-shot"), default="average")
    p.add_argument("--read-probes", nargs=2, type=pathlib.Path, metavar=("BEFORE", "AFTER"))
    p.add_argument("--out", type=pathlib.Path)
    args = p.parse_args(argv)
    if args.gate:
        result = gate(*args.gate)
    elif args.fit and args.held_out:
        if args.read_probes and (
            args.read_probe or args.link_booking or args.twin_nand != "average"
        ):
            p.error("--read-probes sets the link and the NAND itself")
        result = evaluate(
            args.fit,
            args.held_out,
            args.read_probe,
            args.link_booking,
            args.twin_nand,
            args.read_probes,
        )
    else:
        p.error("--fit and --held-out, or --gate")
    text = json.dumps(result, indent=1)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
