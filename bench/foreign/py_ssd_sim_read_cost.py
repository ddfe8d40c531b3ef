"""What a read costs the host queue in the twin of py_ssd_sim's drive: a closed loop at a queue
depth over the core's request-level drive (``overprov.engine.device``), 4 KiB random writes
mixed with reads of written pages, of never-written pages, or of any page, each command's
queue time logged as bench/foreign/py_ssd_sim_cliff.py logs the simulator's.

    PYTHONPATH=python python bench/foreign/py_ssd_sim_read_cost.py \
        --fit bench/results/cliff-foreign3/evaluation-a-qd8-70-30.json \
        [--qd 8] [--read-percent 30] [--read-pages any|written|unwritten] \
        [--seconds 0.12] [--interval-ms 20] [--seed 1] [--read-slot-us US] \
        [--link-booking in-order|gaps] [--twin-nand average|one-shot] [--late-from-ms MS] \
        [--out FILE.json]

The drive is bench/foreign/py_ssd_sim_twin.py's (8 dies) with the cache fitted in ``--fit``
(an evaluation of bench/foreign/py_ssd_sim_cliff_eval.py: its ``fit``), from empty, as
``cliff.predict`` simulates it. The host keeps ``--qd`` commands outstanding: each is issued
when the earliest outstanding one completes (the core's closed loop, ``timing.host``), a read
with probability ``--read-percent`` %, its address uniform over the 1 GiB span (``any``), over
the pages written so far (``written``: in the core a write maps its page when it is issued), or
over those never written (``unwritten``: the core answers them without NAND, after its
per-command overhead and the link's transfer). A command's queue time is its completion less
its issue, the slot time it holds. The core's request-level drive differs from its closed-loop
run in one way: before each request it may fold the SLC cache while every die is idle (the
open loop's idle work); ``slc_folded_bytes`` says whether it did.

``--link-booking``, ``--twin-nand``: the twin's host link and NAND as
bench/foreign/py_ssd_sim_cliff_eval.py sets them. Reads of never-written pages are logged with
no queue time (``read_slot.request_loop``'s ``unwritten_apart``), as the simulator's driver logs
those its host answers, so ``queue_time``'s read figures are of written pages in both;
``--late-from-ms``: ``queue_time_late``, the same from that time on (past the cliff).

``--read-slot-us``: a what-if, not a model of any drive: a read of a written page is not
submitted to the drive but holds its queue slot for this long (no die, no link booked), to see
how much of the writes' loss a read's slot time alone explains.

Prints one JSON object: the interval series (``times_s``, ``iops``, ``write_iops``) and
``queue_time`` (bench/foreign/py_ssd_sim_cliff.py's ``latency``: mean write and read queue
time, read percentiles, the rates).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

from overprov.calibrate import cliff, read_slot

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from py_ssd_sim_cliff import emit, late, latency, series  # noqa: E402
from py_ssd_sim_twin import twin  # noqa: E402


def fitted_twin(
    fit_path: pathlib.Path, link_booking: str | None = None, twin_nand: str = "average"
) -> dict:
    """The twin with the cache of a stored fit (cache bytes, SLC and TLC program times), its
    link booked as ``link_booking`` (None: the core's default) and its NAND as ``twin_nand``."""
    fit = json.loads(fit_path.read_text())["fit"]
    drive = twin(8, one_shot=twin_nand == "one-shot")
    if link_booking is not None:
        drive["config"]["timing"]["host"]["link_booking"] = link_booking
    return cliff.with_cache(
        drive, fit["cache_bytes"], fit["slc_program_us"], tlc_program_us=fit["tlc_program_us"]
    )


def closed_loop(
    drive: dict, *, qd: int, read_percent: int, read_pages: str, seconds: float, seed: int,
    read_slot_us: float | None = None, unwritten_apart: bool = False,
) -> tuple[list[tuple[int, int, int | None]], dict]:  # fmt: skip
    """The completions ((time ns, 1 if a write, queue time ns)) of ``seconds`` of the closed
    loop (``overprov.calibrate.read_slot.request_loop``), and the drive's timed report."""
    cfg = cliff._config(  # noqa: SLF001 - the cliff twin's own configuration of a run
        drive, 1.0, qd=qd, read_percent=0, seconds=seconds, interval_s=seconds,
        precondition="none",
    )  # fmt: skip
    slot_ns = None if read_slot_us is None else int(read_slot_us * 1e3)
    return read_slot.request_loop(
        cfg, qd=qd, read_percent=read_percent, end_ns=int(seconds * 1e9),
        read_slot_ns=slot_ns, read_pages=read_pages, seed=seed, unwritten_apart=unwritten_apart,
    )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--fit", required=True, type=pathlib.Path)
    p.add_argument("--qd", type=int, default=8)
    p.add_argument("--read-percent", type=int, default=30)
    p.add_argument("--read-pages", choices=("any", "written", "unwritten"), default="any")
    p.add_argument("--seconds", type=float, default=0.12)
    p.add_argument("--interval-ms", type=float, default=20.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--read-slot-us", type=float)
    p.add_argument("--link-booking", choices=("in-order", "gaps"))
    p.add_argument("--twin-nand", choices=("average", "one-shot"), default="average")
    p.add_argument("--late-from-ms", type=float)
    p.add_argument("--out", type=pathlib.Path)
    args = p.parse_args(argv)
    events, report = closed_loop(
        fitted_twin(args.fit, args.link_booking, args.twin_nand), qd=args.qd,
        read_percent=args.read_percent, read_pages=args.read_pages, seconds=args.seconds,
        seed=args.seed, read_slot_us=args.read_slot_us, unwritten_apart=True,
    )  # fmt: skip
    result = {
        "drive": "bench/foreign/py_ssd_sim_twin.py with the cache of " + str(args.fit),
        "qd": args.qd,
        "read_percent": args.read_percent,
        "read_pages": args.read_pages,
        "read_slot_us": args.read_slot_us,
        "seconds": args.seconds,
        "seed": args.seed,
        "interval_ms": args.interval_ms,
        "completed": len(events),
        "writes": sum(e[1] for e in events),
        "slc_folded_bytes": report.get("slc_folded_bytes"),
        "link_booking": args.link_booking,
        "twin_nand": args.twin_nand,
        "queue_time": latency(events, args.interval_ms),
        **late(events, args.interval_ms, args.late_from_ms),
        **series(events, args.interval_ms),
    }
    emit(result, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
