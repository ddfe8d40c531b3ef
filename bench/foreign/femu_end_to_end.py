"""A FEMU drive measured end to end by calibrate's own plan, and its prediction judged.

    PYTHONPATH=python python bench/foreign/femu_end_to_end.py measure --binary HARNESS \
        --out DIR [--onset-from-empty] [femu.py's drive options]
    PYTHONPATH=python python bench/foreign/femu_end_to_end.py verdict --truth NAME=TRUTH.json \
        ... --case NAME:FLAG=DIR ... [--out FILE]
    PYTHONPATH=python python bench/foreign/femu_end_to_end.py refit --case DIR --truth TRUTH.json \
        --out DIR2
    PYTHONPATH=python python bench/foreign/femu_end_to_end.py measure ... --run-on 1.0
    PYTHONPATH=python python bench/foreign/femu_end_to_end.py repredict --case DIR --out DIR2 \
        [--truth TRUTH.json] [--spare-from-onset]

``measure``: the drive (femu.py's options: ``--nchs``, ``--luns-per-ch``, ``--blks-per-pl``,
``--namespace-mb``, ``--program-ns``, ``--gc-thres-pcent``, ``--gc-thres-pcent-high``) behind
calibrate's Target protocol (``femu_target.FemuTarget``) is measured by calibrate's own code as
``overprov calibrate TARGET`` measures a target (``calibrate/cli.py``, ``measure_target``): the
default budget for a target with write counters (``plan.default_budget``), the plan
``plan.design`` makes for the levels 0–40%, ``calibrate.measure.measure`` running it round by
round, the measurement written by ``measurement_file.save`` after every round into
``DIR/measurement.json``. ``--onset-from-empty`` sets ``plan.ONSET_FROM_EMPTY`` in this process
first; without it the script measures with it **off**, while calibrate's own default is on, so
pass it to measure as ``overprov calibrate`` does (kept so for the stored runs' commands),
``--carry`` / ``--no-carry`` ``graded_run.CARRY_GRADED_SURPLUS``
on / off (the graded pass's carry; on by default since
bench/foreign/results/rescurve/verdict.md), ``--seed`` the harness's random-write seed
(``femu.SEED``, 1). Then ``overprov calibrate --from DIR --out DIR/fit --json
DIR/prediction.json`` predicts 0–40% from that file; ``DIR/run.json`` keeps the CPU seconds and
the commands.

``verdict``: each case's prediction against FEMU's steady truth at QD32 (a ``femu.py`` results
file, each level from empty), by the pre-registered rule
(``bench/foreign/results/femu-end-to-end/RULE.md``): IOPS median / worst |error| over 0–40%,
WAF worst |error|, the measurement's drive writes, the 10% level's errors and the 80%
intervals' coverage.

``--spare-from-onset`` (``measure``, ``repredict``): the prediction made with
``discard_transient.SPARE_FROM_ONSET`` on in calibrate's process (its rule:
bench/foreign/results/onset-tolerant/RULE.md). ``repredict``: a stored case's measurement
predicted again with the code as it is, judged against ``--truth`` if given.

``--through-cycle`` (``measure``, ``repredict``): the prediction made with
``burst_cycle.READ_THROUGH_CYCLE`` on in calibrate's process (the first level read through the
collector's burst cycle; its rule: bench/foreign/results/femu0/RULE.md; on by default since
bench/foreign/results/femu0/verdict.md, so the option now changes nothing).
``--discard-iops`` (``measure``, ``repredict``): with ``discard_iops.CARRY`` on (a later
level's IOPS read in the transient after its discard carried to the reading's WAF; its rule:
bench/foreign/results/femu40/RULE.md). ``--reserve-gate`` (``measure``, ``repredict``): with
``plausibility.RESERVE_READING_GATE`` on (the gate before any twin passes a reserve reading that
explains the figures; its rule: bench/foreign/results/gate14/RULE.md). ``--run-on-levels``,
``--run-on-step``: ``--run-on`` after the levels named (each into ``run_on-LEVEL.json``), every
step of that many drive writes. ``--chunk-sizing`` (``measure``): ``femu_target.CHUNK_SIZING``
(how a timed round's chunks are sized; default ``grown``, the harness's bug fix of
bench/foreign/results/femufix/status.md); ``--no-round-rate`` is ``last-chunk`` (every FEMU
end-to-end run stored before it), ``--round-rate`` ``round-rate`` (femularge's arms,
bench/foreign/results/femularge/RULE.md), ``deadline`` a round that stops at its simulated
end (a harness with the ``until`` phase: bench/foreign/results/femudeadline/status.md).
``--no-through-cycle`` (``measure``, ``repredict``):
``burst_cycle.READ_THROUGH_CYCLE`` off in calibrate's process (the first level read plain).
``--late-start`` (``measure``, ``repredict``): with ``burst_start.LATE_START`` on (a later
level read over bursts started past its first round; its rule: bench/results/burststart/RULE.md).
``--plain-without-cycle`` (``measure``, ``repredict``): with
``cycle_evidence.READ_PLAIN_WITHOUT_CYCLE`` on (a first level whose rounds show no burst cycle
read plain; its rule: bench/foreign/results/femuwin/RULE.md).
``--spare-near-onset`` (``measure``, ``repredict``): with ``spare_near_onset.SPARE_NEAR_ONSET``
on (the reserve reading's spare fitted near the onset where the onset's is not offered; its
rule: bench/results/reservespare/RULE.md). ``--only-where-none-pinned`` (with it): with
``spare_near_onset.ONLY_WHERE_NONE_PINNED`` on (its rule: bench/results/reservenarrow/RULE.md).

``refit`` (a diagnosis, not a case of the rule): the case's ``measurement.json`` with its QD32
levels' IOPS and WAF replaced by the truth's, everything else kept (the QD4 probe, the FOB, the
onset), predicted again the same way and judged as ``verdict`` judges: what the prediction is
when the plan's own figures are right.

``measure --run-on DW`` (a diagnosis, not a case): after the plan's highest level at QD32,
DW drive writes more of uniform random writes over its span, the WAF and IOPS of every 0.05
(``run_on.json``): how far from FEMU's steady state the plan read that level. Nothing is
predicted (the QD4 probe after it runs on a drive those writes changed).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import femu  # noqa: E402
import femu_target  # noqa: E402
from overprov import measurement_file  # noqa: E402
from overprov.calibrate import graded_run  # noqa: E402
from overprov.calibrate import plan as planmod  # noqa: E402
from overprov.calibrate.measure import measure, write_counters  # noqa: E402

LEVELS = [0.0, 10.0, 20.0, 30.0, 40.0]
#: ``--run-on``'s step (drive writes of the namespace)
RUN_ON_STEP = 0.05
#: the targets for a foreign FTL measured by calibrate's own plan (bench/README.md)
IOPS_MEDIAN_MAX = 0.10
IOPS_WORST_MAX = 0.20
WAF_WORST_MAX = 0.05
DRIVE_WRITES_MAX = 2.0


def drive_of(args: argparse.Namespace) -> tuple[dict[str, int], int]:
    """The FTL's parameters (``femu.command``'s ``drive``) and the namespace (MiB)."""
    geometry = femu.GEOMETRY | {k: getattr(args, k) for k in femu.DRIVE_GEOMETRY}
    drive = {k: getattr(args, k) for k in femu.GC_THRESHOLDS} | {
        k: geometry[k] for k in femu.DRIVE_GEOMETRY
    }
    drive |= femu.TIMINGS_NS | {"pg_wr_lat": args.program_ns}
    drive.pop("ch_xfer_lat")
    return drive, args.namespace_mb


def run_measure(args: argparse.Namespace) -> dict:
    """``measure`` (module docstring)."""
    planmod.ONSET_FROM_EMPTY = args.onset_from_empty
    if args.carry is not None:
        graded_run.CARRY_GRADED_SURPLUS = args.carry
    femu.SEED = args.seed  # the harness's random writes (femu.command passes it)
    femu_target.CHUNK_SIZING = args.chunk_sizing
    drive, ns_mb = drive_of(args)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    target = femu_target.FemuTarget(args.binary, drive, ns_mb, out.name)
    log = (out / "progress.log").open("w")

    def say(line: str) -> None:
        print(line, file=log, flush=True)

    t0 = os.times()
    target.open()
    try:
        counters = write_counters(target) is not None
        budget, why = planmod.default_budget(
            write_counters=counters, capacity_bytes=target.capacity_bytes
        )
        plan = planmod.design(list(LEVELS), budget, write_counters=counters)
        say(f"plan: {plan.text()}; budget {budget.text()}" + (f" ({why})" if why else ""))
        path = out / measurement_file.NAME
        after = None
        if args.run_on:

            def after(runner: object, seg: object) -> None:
                level = getattr(seg, "extra_op_percent", 0)
                if getattr(seg, "queue_depth", 1) is None and (
                    level in args.run_on_levels if args.run_on_levels else level > 0
                ):
                    name = f"run_on-{level:g}.json" if args.run_on_levels else "run_on.json"
                    run_on(target, level, args.run_on, out / name, args.run_on_step)

        m = measure(target, plan, say, journal=lambda kept: measurement_file.save(kept, path),
                    after_level=after)  # fmt: skip
    finally:
        target.close()
    t1 = os.times()
    if args.run_on:  # a diagnosis, not a case: nothing predicted
        if not args.run_on_levels:
            return {"run_on": json.loads((out / "run_on.json").read_text())}
        return {p.name: json.loads(p.read_text()) for p in sorted(out.glob("run_on-*.json"))}
    cmd, res, cpu_predict = predict(
        out, args.spare_from_onset, args.through_cycle, args.discard_iops, args.reserve_gate,
        args.plain_without_cycle, args.late_start, args.spare_near_onset,
        args.only_where_none_pinned,
    )  # fmt: skip
    doc = {
        "drive": drive,
        "namespace_mb": ns_mb,
        "onset_from_empty": args.onset_from_empty,
        "spare_from_onset": args.spare_from_onset,
        "through_cycle": args.through_cycle,
        "discard_iops": args.discard_iops,
        "reserve_gate": args.reserve_gate,
        "plain_without_cycle": args.plain_without_cycle,
        "late_start": args.late_start,
        "spare_near_onset": args.spare_near_onset,
        "only_where_none_pinned": args.only_where_none_pinned,
        "chunk_sizing": femu_target.CHUNK_SIZING,
        "carry": graded_run.CARRY_GRADED_SURPLUS,
        "seed": femu.SEED,
        "plan": plan.text(),
        "measured_drive_writes": m.drive_writes,
        "levels_measured": [[lv.extra_op_percent, lv.queue_depth] for lv in m.levels],
        "stop_reason": m.stop_reason,
        "onset_spare_factor": m.onset_spare_factor,
        "harness": " ".join(target.command()[1:]),
        "calibrate": "overprov " + " ".join(cmd[3:]),
        "calibrate_exit": res.returncode,
        "cpu_s_measure": (t1.user - t0.user) + (t1.system - t0.system) + target.cpu_s,
        "cpu_s_predict": cpu_predict,
        "timed_rounds": [list(r) for r in target.timed_rounds],  # label, seconds asked, run
        "timed_rounds_issued_s": target.timed_issued_s,  # each to its last write submitted
    }
    (out / "run.json").write_text(json.dumps(doc, indent=1) + "\n")
    return doc


def run_on(
    target: femu_target.FemuTarget,
    level: float,
    drive_writes: float,
    path: Path,
    step_drive_writes: float = RUN_ON_STEP,
) -> None:
    """``--run-on`` (a diagnosis): after the plan's ``level`` at QD32, uniform random 4 KiB
    writes at QD32 over its span for ``drive_writes`` more, the WAF and IOPS of every
    ``step_drive_writes`` of them kept in ``path``."""
    span = int(target.namespace_pages * (1 - level / 100.0))
    step = round(step_drive_writes * target.namespace_pages)
    rows = []
    at = target.phase("qd 32")
    for k in range(1, round(drive_writes / step_drive_writes) + 1):
        now = target.phase(f"rand 0 {span} {step}")
        host = now.host_pages - at.host_pages
        rows.append({"drive_writes_after_level": k * step_drive_writes,
                     "waf": (now.nand_pages - at.nand_pages) / host,
                     "iops": host / ((now.t_ns - at.t_ns) / 1e9)})  # fmt: skip
        at = now
    path.write_text(json.dumps({"extra_op_percent": level, "rows": rows}, indent=1) + "\n")


#: ``overprov`` with ``discard_transient.SPARE_FROM_ONSET`` set first (``--spare-from-onset``)
SPARE_FROM_ONSET_MAIN = (
    "import sys; from overprov.calibrate import discard_transient; "
    "discard_transient.SPARE_FROM_ONSET = True; from overprov.cli import main; "
    "sys.exit(main(sys.argv[1:]))"
)
#: set first in that process with ``--through-cycle`` (``burst_cycle.READ_THROUGH_CYCLE``)
THROUGH_CYCLE_SET = (
    "from overprov.calibrate import burst_cycle; burst_cycle.READ_THROUGH_CYCLE = True; "
)
#: set first in that process with ``--no-through-cycle`` (the first level read plain)
PLAIN_ZERO_SET = THROUGH_CYCLE_SET.replace("= True", "= False")
#: set first in that process with ``--discard-iops`` (``discard_iops.CARRY``)
DISCARD_IOPS_SET = "from overprov.calibrate import discard_iops; discard_iops.CARRY = True; "
#: set first in that process with ``--reserve-gate`` (``plausibility.RESERVE_READING_GATE``)
RESERVE_GATE_SET = (
    "from overprov.calibrate import plausibility; plausibility.RESERVE_READING_GATE = True; "
)
#: set first in that process with ``--plain-without-cycle``
PLAIN_WITHOUT_CYCLE_SET = (
    "from overprov.calibrate import cycle_evidence; "
    "cycle_evidence.READ_PLAIN_WITHOUT_CYCLE = True; "
)
#: set first in that process with ``--late-start`` (``burst_start.LATE_START``)
LATE_START_SET = "from overprov.calibrate import burst_start; burst_start.LATE_START = True; "
#: set first in that process with ``--spare-near-onset`` (``spare_near_onset.SPARE_NEAR_ONSET``)
SPARE_NEAR_ONSET_SET = (
    "from overprov.calibrate import spare_near_onset; spare_near_onset.SPARE_NEAR_ONSET = True; "
)
#: set first in that process with ``--only-where-none-pinned``
ONLY_WHERE_NONE_PINNED_SET = "spare_near_onset.ONLY_WHERE_NONE_PINNED = True; "


def predict(
    folder: Path,
    spare_from_onset: bool = False,
    through_cycle: bool | None = None,
    discard_iops: bool = False,
    reserve_gate: bool = False,
    plain_without_cycle: bool = False,
    late_start: bool = False,
    spare_near_onset: bool = False,
    only_where_none_pinned: bool = False,
) -> tuple[list[str], subprocess.CompletedProcess, float]:
    """``overprov calibrate --from folder`` into ``folder/fit`` and ``folder/prediction.json``:
    its command, its result and its CPU seconds; ``spare_from_onset``: with
    ``discard_transient.SPARE_FROM_ONSET`` on in its process; ``through_cycle``: with
    ``burst_cycle.READ_THROUGH_CYCLE`` on; ``discard_iops``: with ``discard_iops.CARRY`` on;
    ``reserve_gate``: with ``plausibility.RESERVE_READING_GATE`` on; ``plain_without_cycle``:
    with ``cycle_evidence.READ_PLAIN_WITHOUT_CYCLE`` on; ``late_start``: with
    ``burst_start.LATE_START`` on; ``spare_near_onset``: with
    ``spare_near_onset.SPARE_NEAR_ONSET`` on; ``only_where_none_pinned`` (with it):
    ``spare_near_onset.ONLY_WHERE_NONE_PINNED`` on."""
    main = SPARE_FROM_ONSET_MAIN if spare_from_onset else SPARE_FROM_ONSET_MAIN.replace(
        "discard_transient.SPARE_FROM_ONSET = True; ", "")  # fmt: skip
    sets = {True: THROUGH_CYCLE_SET, False: PLAIN_ZERO_SET, None: ""}[through_cycle]
    sets += DISCARD_IOPS_SET if discard_iops else ""
    sets += RESERVE_GATE_SET if reserve_gate else ""
    sets += PLAIN_WITHOUT_CYCLE_SET if plain_without_cycle else ""
    sets += LATE_START_SET if late_start else ""
    sets += SPARE_NEAR_ONSET_SET if spare_near_onset else ""
    sets += ONLY_WHERE_NONE_PINNED_SET if spare_near_onset and only_where_none_pinned else ""
    head = ["-c", sets + main]
    if not (spare_from_onset or sets):
        head = ["-m", "overprov"]
    cmd = [sys.executable, *head, "calibrate", "--from", str(folder), "--out",
           str(folder / "fit"), "--json", str(folder / "prediction.json"), "--jobs", "1",
           "--no-progress", "--extra-op", ",".join(f"{x:g}" for x in LEVELS)]  # fmt: skip
    t0 = os.times()
    res = subprocess.run(cmd, capture_output=True, text=True)
    t1 = os.times()
    (folder / "calibrate.out").write_text(res.stdout + res.stderr)
    cpu = (t1.children_user - t0.children_user) + (t1.children_system - t0.children_system)
    return cmd, res, cpu


def run_refit(args: argparse.Namespace) -> dict:
    """``refit`` (diagnosis, not a case): the case's measurement with its QD32 levels' IOPS and
    WAF replaced by the truth's (the QD4 probe, the FOB and the onset kept), predicted again."""
    curve = truth_curve(json.loads(args.truth.read_text()))
    m = measurement_file.load(args.case / measurement_file.NAME)
    for lv in m.levels:
        if lv.queue_depth is None:
            lv.steady_iops = curve[lv.extra_op_percent]["steady_iops"]
            lv.waf = curve[lv.extra_op_percent]["steady_waf"]
    args.out.mkdir(parents=True, exist_ok=True)
    measurement_file.save(m, args.out / measurement_file.NAME)
    cmd, res, cpu = predict(args.out)
    doc = {"case": str(args.case), "truth": str(args.truth), "calibrate_exit": res.returncode,
           "calibrate": "overprov " + " ".join(cmd[3:]), "cpu_s_predict": cpu,
           "measured_drive_writes": m.drive_writes, "onset_spare_factor": m.onset_spare_factor,
           "levels_measured": [[lv.extra_op_percent, lv.queue_depth] for lv in m.levels],
           "cpu_s_measure": 0.0}  # fmt: skip
    (args.out / "run.json").write_text(json.dumps(doc, indent=1) + "\n")
    return judge(json.loads(args.truth.read_text()), args.out)


def run_repredict(args: argparse.Namespace) -> dict:
    """``repredict``: a case's measurement (and run.json) copied to ``--out`` and predicted
    again with the code as it is, ``--spare-from-onset`` as asked; judged if ``--truth``."""
    args.out.mkdir(parents=True, exist_ok=True)
    measurement_file.save(measurement_file.load(args.case / measurement_file.NAME),
                          args.out / measurement_file.NAME)  # fmt: skip
    cmd, res, cpu = predict(args.out, args.spare_from_onset, args.through_cycle, args.discard_iops,
                            args.reserve_gate, args.plain_without_cycle,
                            args.late_start, args.spare_near_onset,
                            args.only_where_none_pinned)  # fmt: skip
    doc = json.loads((args.case / "run.json").read_text()) | {
        "repredicted_from": str(args.case), "spare_from_onset": args.spare_from_onset,
        "through_cycle": args.through_cycle, "discard_iops": args.discard_iops,
        "reserve_gate": args.reserve_gate, "plain_without_cycle": args.plain_without_cycle,
        "late_start": args.late_start, "spare_near_onset": args.spare_near_onset,
        "only_where_none_pinned": args.only_where_none_pinned,
        "calibrate": "overprov " + " ".join(cmd[3:]), "calibrate_exit": res.returncode,
        "cpu_s_measure": 0.0, "cpu_s_predict": cpu,
    }  # fmt: skip
    (args.out / "run.json").write_text(json.dumps(doc, indent=1) + "\n")
    return judge(json.loads(args.truth.read_text()), args.out) if args.truth else doc


def truth_curve(doc: dict) -> dict[float, dict]:
    """{level: femu.py's QD32 record} of a results file."""
    return {float(r["extra_op_percent"]): r for r in doc["levels"] if r["queue_depth"] == 32}


def judge(truth: dict, folder: Path) -> dict:
    """One case: its prediction's errors against ``truth`` (a femu.py results document)."""
    run = json.loads((folder / "run.json").read_text())
    row = {"case": str(folder), "drive_writes": run["measured_drive_writes"],
           "levels_measured": run["levels_measured"], "onset": run["onset_spare_factor"],
           "cpu_s": run["cpu_s_measure"] + run["cpu_s_predict"]}  # fmt: skip
    curve = truth_curve(truth)
    m = measurement_file.load(folder / measurement_file.NAME)
    row["measured"] = [
        {"extra_op_percent": lv.extra_op_percent, "queue_depth": lv.queue_depth,
         "iops": lv.steady_iops, "waf": lv.waf, "settled": lv.settled}
        | ({"iops_error": lv.steady_iops / curve[lv.extra_op_percent]["steady_iops"] - 1,
            "waf_error": (lv.waf / curve[lv.extra_op_percent]["steady_waf"] - 1)
            if lv.waf else None}
           if lv.queue_depth is None else {})
        for lv in m.levels
    ]  # fmt: skip
    if run["calibrate_exit"] != 0 or not (folder / "prediction.json").exists():
        tail = (folder / "calibrate.out").read_text().strip().splitlines()[-1:]
        return row | {"refused": tail[0] if tail else f"exit {run['calibrate_exit']}"}
    pred = json.loads((folder / "prediction.json").read_text())
    levels, inside, widths = [], [], []
    for p in pred["levels"]:
        x = float(p["extra_op_percent"])
        t = curve[x]
        lv = {"extra_op_percent": x,
              "iops": p["steady_iops"], "iops_truth": t["steady_iops"],
              "iops_error": p["steady_iops"] / t["steady_iops"] - 1,
              "waf": p["waf"], "waf_truth": t["steady_waf"],
              "waf_error": p["waf"] / t["steady_waf"] - 1}  # fmt: skip
        for key, lo, hi, true in (("iops", "steady_iops_low", "steady_iops_high",
                                   t["steady_iops"]),
                                  ("waf", "waf_low", "waf_high", t["steady_waf"])):  # fmt: skip
            if p.get(lo) is not None and p.get(hi) is not None:
                lv[f"{key}_inside"] = p[lo] <= true <= p[hi]
                inside.append(lv[f"{key}_inside"])
                widths.append(p[hi] / p[lo])
        levels.append(lv)
    iops = [abs(lv["iops_error"]) for lv in levels]
    waf = [abs(lv["waf_error"]) for lv in levels]
    ten = next(lv for lv in levels if lv["extra_op_percent"] == 10.0)
    row |= {
        "levels": levels,
        "iops_median": statistics.median(iops),
        "iops_worst": max(iops),
        "waf_worst": max(waf),
        "waf_median": statistics.median(waf),
        "ten_percent": {"iops_error": ten["iops_error"], "waf_error": ten["waf_error"]},
        "inside": sum(inside),
        "intervals": len(inside),
        "median_width_ratio": statistics.median(widths) if widths else None,
        "readings": {
            k: round(v.get("weight", 0.0), 3) for k, v in (pred.get("readings") or {}).items()
        },  # fmt: skip
    }
    planned = {(0.0, None), (40.0, None)}
    measured = {(float(x), q) for x, q in run["levels_measured"]}
    row["passes"] = {
        "iops": row["iops_median"] <= IOPS_MEDIAN_MAX and row["iops_worst"] <= IOPS_WORST_MAX,
        "waf": row["waf_worst"] <= WAF_WORST_MAX,
        "cost": row["drive_writes"] <= DRIVE_WRITES_MAX and planned <= measured,
    }
    return row


def run_verdict(args: argparse.Namespace) -> dict:
    truths = {}
    for item in args.truth:
        name, _, path = item.partition("=")
        truths[name] = json.loads(Path(path).read_text())
    rows = []
    for item in args.case:
        key, _, folder = item.partition("=")
        name, _, flag = key.partition(":")
        rows.append({"drive": name, "onset_from_empty": flag} | judge(truths[name], Path(folder)))
    out = {"cases": rows}
    for flag in sorted({r["onset_from_empty"] for r in rows}):
        mine = [r for r in rows if r["onset_from_empty"] == flag]
        ok = [r for r in mine if "refused" not in r]
        inside = sum(r["inside"] for r in ok)
        n = sum(r["intervals"] for r in ok)
        out[flag] = {
            "passes": len(ok) == len(mine) and all(all(r["passes"].values()) for r in ok),
            "coverage": inside / n if n else None,
            "coverage_of": n,
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    m = sub.add_parser("measure", help="calibrate's plan on one FEMU drive, then its prediction")
    m.add_argument("--binary", type=Path, required=True, help="femu-bbssd-harness")
    m.add_argument("--out", type=Path, required=True, help="the case's folder")
    m.add_argument("--onset-from-empty", action="store_true",
                   help="set plan.ONSET_FROM_EMPTY (calibrate's default; else off)")  # fmt: skip
    m.add_argument("--spare-from-onset", action="store_true",
                   help="predict with discard_transient.SPARE_FROM_ONSET on")  # fmt: skip
    m.add_argument(
        "--carry",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="set graded_run.CARRY_GRADED_SURPLUS on or off (default: the code's)",
    )
    m.add_argument("--seed", type=int, default=femu.SEED, help="the harness's random-write seed")
    m.add_argument("--chunk-sizing", choices=femu_target.CHUNK_SIZINGS,
                   default=femu_target.CHUNK_SIZING,
                   help="set femu_target.CHUNK_SIZING (default: the code's, grown)")  # fmt: skip
    m.add_argument("--round-rate", dest="chunk_sizing", action="store_const", const="round-rate",
                   help="--chunk-sizing round-rate (femularge's runs)")  # fmt: skip
    m.add_argument("--no-round-rate", dest="chunk_sizing", action="store_const",
                   const="last-chunk",
                   help="--chunk-sizing last-chunk (every run stored before femufix)")  # fmt: skip
    for name, value in (femu.GC_THRESHOLDS | {k: femu.GEOMETRY[k] for k in femu.DRIVE_GEOMETRY}
                        ).items():  # fmt: skip
        m.add_argument("--" + name.replace("_", "-"), type=int, default=value)
    m.add_argument("--namespace-mb", type=int, required=True)
    m.add_argument("--program-ns", type=int, default=femu.TIMINGS_NS["pg_wr_lat"])
    m.add_argument(
        "--run-on",
        type=float,
        default=0.0,
        help="diagnosis, not a case: after the highest level at QD32, this many drive writes "
        "more of uniform random writes over its span (run_on.json); nothing predicted",
    )
    m.add_argument(
        "--run-on-levels",
        type=lambda text: [float(x) for x in text.split(",")],
        default=None,
        help="with --run-on: after these QD32 levels (e.g. 0,40; each into run_on-LEVEL.json) "
        "instead of after every level above 0 (run_on.json)",
    )
    m.add_argument("--run-on-step", type=float, default=RUN_ON_STEP,
                   help="with --run-on: the drive writes each row covers")  # fmt: skip
    v = sub.add_parser("verdict", help="the cases' predictions against the truths")
    v.add_argument("--truth", action="append", required=True, help="NAME=femu.py results")
    v.add_argument("--case", action="append", required=True, help="NAME:on|off=DIR")
    v.add_argument("--out", type=Path, default=None)
    r = sub.add_parser("refit", help="diagnosis: a case refitted with the truth's QD32 figures")
    r.add_argument("--case", type=Path, required=True, help="a measure folder")
    r.add_argument("--truth", type=Path, required=True, help="its femu.py results file")
    r.add_argument("--out", type=Path, required=True, help="the refit's folder")
    p = sub.add_parser("repredict", help="a case's measurement predicted again")
    p.add_argument("--case", type=Path, required=True, help="a measure folder")
    p.add_argument("--out", type=Path, required=True, help="the new case's folder")
    p.add_argument("--truth", type=Path, default=None, help="its femu.py results file")
    p.add_argument("--spare-from-onset", action="store_true",
                   help="with discard_transient.SPARE_FROM_ONSET on")  # fmt: skip
    for sp in (m, p):
        sp.add_argument("--through-cycle", action=argparse.BooleanOptionalAction, default=None,
                        help="predict with burst_cycle.READ_THROUGH_CYCLE on (or off: the "
                        "first level read plain; default: the code's)")  # fmt: skip
        sp.add_argument("--discard-iops", action="store_true",
                        help="predict with discard_iops.CARRY on")  # fmt: skip
        sp.add_argument("--reserve-gate", action="store_true",
                        help="predict with plausibility.RESERVE_READING_GATE on")  # fmt: skip
        sp.add_argument("--plain-without-cycle", action="store_true",
                        help="predict with cycle_evidence.READ_PLAIN_WITHOUT_CYCLE on")  # fmt: skip
        sp.add_argument("--late-start", action="store_true",
                        help="predict with burst_start.LATE_START on")  # fmt: skip
        sp.add_argument("--spare-near-onset", action="store_true",
                        help="predict with spare_near_onset.SPARE_NEAR_ONSET on")  # fmt: skip
        sp.add_argument("--only-where-none-pinned", action="store_true",
                        help="with --spare-near-onset: spare_near_onset.ONLY_WHERE_NONE_PINNED "
                        "on")  # fmt: skip
    args = ap.parse_args(argv)
    run = {"measure": run_measure, "verdict": run_verdict, "refit": run_refit,
           "repredict": run_repredict}[args.what]  # fmt: skip
    doc = run(args)
    text = json.dumps(doc, indent=1) + "\n"
    if getattr(args, "out", None) and args.what == "verdict":
        args.out.write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
