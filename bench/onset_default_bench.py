"""Whether the graded plan should date the onset of garbage collection from empty by default
(``plan.ONSET_FROM_EMPTY``): each drive calibrated twice through calibrate's own path, with the
flag off and on, and both predictions compared with the drive's truth at 0-40% extra OP.

A drive is a generated validation drive (``validation.drive``, SEED at --physical of NAND) or a
variant of the emulated block device's test drive (tests/emulate/small-drive.toml, 15 MB in 128
erase blocks of 32 pages, its write buffer cut to 32 KiB as tests/emulate/test_real_path.py
does): ``tiny`` as it is, ``tiny-adv=BYTES`` with that advertised capacity (more native OP),
``tiny-dN`` with d-choices (d = N) victims. The calibration is the CLI's: ``design`` for
--budget, the measurement, and ``answer.predict`` with the model-form error the CLI passes
(``uncertainty.model_form_for``), and the CLI's plausibility checks (``plausibility.py``: a
calibration they refuse gives no answer; recorded as ``refused``). Truth: ``validation.truth``
(each level the long way).

    PYTHONPATH=python python bench/onset_default_bench.py --drives 5,tiny,tiny-d4 \
        [--physical 2GiB] [--budget 2dw] [--partial FILE]

``--reserve-weights MEASUREMENT_JSON...`` prints the readings calibrate offers on stored
measurements with their weights; ``--compare NEW STORED`` compares two
``bench/gc_reserve_bench.py`` outputs' plan cases (the FEMU condition of the second rule).

Prints one markdown row per drive and figure, and a summary; ``--partial`` appends each drive's
record (JSON) as it finishes. The rule it was written for:
bench/foreign/results/onset-default/RULE.md, then bench/foreign/results/onset-default2/RULE.md
(the floor test held to an onset from empty below 1, ``gc_reserve.ONSET_RESERVE_BELOW``), then
bench/foreign/results/onset-default3/RULE.md (``--flags off`` runs one arm, e.g. on an earlier
commit's code; ``--judge BASE NEW`` judges NEW's arms against BASE's flag-off arm), then
bench/foreign/results/onset-default4/RULE.md (``--flags base,carry,carry+flag`` also sets
``graded_run.CARRY_GRADED_SURPLUS``, ``--sim-seed 1,2,3`` runs each drive at several seeds,
``--judge-seeds FILE`` judges the arms against the base arm's spread over the seeds), then
bench/foreign/results/onset-default5/RULE.md (the ``flag`` arm: the onset from empty without
the carry; drives whose collector holds a GC reserve, ``reserve-…`` and ``nofloor-…``,
:func:`reserve_drive`; ``--judge-femu VERDICT_JSON`` judges FEMU cases' arms against base).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

from cpu_clock import cpu_s
from overprov.calibrate import (
    answer,
    graded_run,
    plausibility,
    reserve_reading,
    twin,
    uncertainty,
    validation,
)
from overprov.calibrate import fit as fitmod
from overprov.calibrate import plan as planmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.measure import measure
from overprov.calibrate.twin import to_toml
from overprov.measurement_file import load
from overprov.profile.sim_target import SimTarget
from overprov.units import parse_size_bytes

ROOT = Path(__file__).resolve().parent.parent
SMALL_DRIVE = ROOT / "tests" / "emulate" / "small-drive.toml"
LEVELS = [0.0, 10.0, 20.0, 30.0, 40.0]
FLAGS = ("off", "on")
#: Each arm's (``plan.ONSET_FROM_EMPTY``, ``graded_run.CARRY_GRADED_SURPLUS``); None: the
#: module's own default.
ARMS: dict[str, tuple[bool, bool | None]] = {
    "off": (False, None),
    "on": (True, None),
    "base": (False, False),
    "carry": (False, True),
    "carry+flag": (True, True),
    "flag": (True, False),
}


def tiny_drive(name: str) -> dict[str, Any]:
    """A variant of the test drive (module docstring)."""
    text = SMALL_DRIVE.read_text().replace("\nbytes = 262144\n", "\nbytes = 32768\n")
    d = tomllib.loads(text)
    if name.startswith("tiny-adv="):
        d["advertised_bytes"] = int(name.split("=", 1)[1])
    elif name.startswith("tiny-d") and name[6:].isdigit():
        d.setdefault("config", {})["ftl"] = {"policy": "d-choices", "d_choices": int(name[6:])}
    elif name != "tiny":
        raise SystemExit(f"unknown drive {name!r}")
    return d


def reserve_drive(name: str) -> dict[str, Any]:
    """A 2 GiB drive whose collector holds a GC reserve, no write buffer, its controller
    ``twin.drive_dict``'s (t_cmd, t_page in µs): ``reserve-SF-FLOOR-TPAGE-TCMD`` with a victim
    floor (``twin.reserve_collector(SF, FLOOR)``, the drive of
    tests/calibrate/test_reserve_reading.py and bench/floor_graded_bench.py), or
    ``nofloor-RHO0-RESERVE-TPAGE-TCMD``: native spare RHO0 of which RESERVE (both shares of the
    advertised capacity, RESERVE < RHO0) is held free, every victim qualifying (no floor)."""
    kind, *numbers = name.split("-")
    try:
        a, b, t_page, t_cmd = map(float, numbers)
    except ValueError:
        raise SystemExit(f"unknown drive {name!r}") from None
    if kind == "reserve":
        rho0, collector = twin.reserve_collector(a, b)
    elif kind == "nofloor" and 0 < b < a:
        rho0, collector = a, twin.GcReserve(b, 8.0)  # its floor keys dropped below
    else:
        raise SystemExit(f"unknown drive {name!r}")
    truth = twin.TwinParameters(
        advertised_bytes=2**31, native_op=rho0, t_page_us=t_page, t_cmd_us=t_cmd,
        uncertainty={}, source=name, gc_reserve=collector, buffer_bytes=0,
    )  # fmt: skip
    d = twin.drive_dict(truth)
    if kind == "nofloor":
        del d["config"]["ftl"]["gc_victim_min_invalid_fraction"]
        del d["config"]["ftl"]["gc_forced_free_blocks"]
    return d


def spec_of(name: str, physical: float, folder: Path) -> str:
    if name.startswith(("tiny", "reserve-", "nofloor-")):
        path = folder / f"{name.replace('=', '-')}.toml"
        made = tiny_drive(name) if name.startswith("tiny") else reserve_drive(name)
        path.write_text(to_toml(made) + "\n")
        return f"sim:{path}@1"
    seed = int(name)
    path = validation.write_drive(seed, folder)
    return f"sim:{path}@{validation.scale_for(validation.drive(seed), physical)}"


def the_budget(t: SimTarget, budget: str | None) -> planmod.Budget:
    """``budget``, or calibrate's default for target ``t`` (``plan.default_budget``)."""
    if budget is not None:
        return planmod.parse_budget(budget)
    chosen, _ = planmod.default_budget(
        write_counters=True, buffer_bytes=t.buffer_bytes, capacity_bytes=t.capacity_bytes
    )
    return chosen


def calibrated(
    spec: str, budget: str | None, onset: bool, seed: int = 1, carry: bool | None = None
) -> dict[str, Any]:
    """The CLI's calibration of ``spec`` with ``plan.ONSET_FROM_EMPTY`` = ``onset`` (and
    ``graded_run.CARRY_GRADED_SURPLUS`` = ``carry`` unless None); ``seed``: the simulated
    drive's random-write seed (``SimTarget``'s; 1, its default)."""
    saved = planmod.ONSET_FROM_EMPTY, graded_run.CARRY_GRADED_SURPLUS
    planmod.ONSET_FROM_EMPTY = onset
    if carry is not None:
        graded_run.CARRY_GRADED_SURPLUS = carry
    try:
        cpu0 = cpu_s()
        with SimTarget(spec, seed=seed) as t:
            plan = planmod.design(LEVELS, the_budget(t, budget))
            m = measure(t, plan)
        points = predmod.points_from(m)
        fig = predmod.PredictionInput(
            points, LEVELS, fob_iops=m.fob_iops, measurement=m, source="onset_default_bench",
            advertised_bytes=int(m.capacity_bytes / m.scale_factor),
            model_form=uncertainty.model_form_for(points, True),
        )  # fmt: skip
        qd = fig.points  # the workload's queue depth, as the CLI checks them
        refused = plausibility.input_problems(qd)
        refused += [w for w in [plausibility.surrogate_misses_its_points(
            fitmod.fit(qd, fob_iops=m.fob_iops), qd)] if w]  # fmt: skip
        pred = answer.predict(fig)
        refused += plausibility.prediction_problems(pred)
    finally:
        planmod.ONSET_FROM_EMPTY, graded_run.CARRY_GRADED_SURPLUS = saved
    return {
        "plan": plan.text(),
        "budget": plan.budget.text(),
        "drive_writes": m.drive_writes,
        "onset": m.onset_spare_factor,
        "carry": graded_run.CARRY_GRADED_SURPLUS if carry is None else carry,
        "onset_source": m.onset_source,
        "measured": {
            lv.extra_op_percent: (lv.steady_iops, lv.waf)
            for lv in m.levels
            if lv.queue_depth is None
        },
        "predicted": {lv.extra_op_percent: (lv.steady_iops, lv.waf) for lv in pred.levels},
        "readings": {r.key: r.weight for r in pred.readings or []},
        "refused": refused,
        "levels_measured": [(lv.extra_op_percent, lv.queue_depth) for lv in m.levels],
        "source_tail": pred.prediction_source[-400:],
        "cpu_s": cpu_s() - cpu0,
    }


def run_drive(
    name: str,
    physical: float,
    budget: str | None,
    folder: Path,
    flags: tuple[str, ...] = FLAGS,
    seed: int = 1,
    truths: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``name`` calibrated in each arm of ``flags`` (:data:`ARMS`) and compared with its truth
    (kept in ``truths`` by spec, when given, for the drive's other seeds)."""
    spec = spec_of(name, physical, folder)
    runs = {k: calibrated(spec, budget, ARMS[k][0], seed, ARMS[k][1]) for k in flags}
    cpu0 = cpu_s()
    truths = {} if truths is None else truths
    if spec not in truths:
        true = validation.truth(spec, LEVELS)
        truths[spec] = {lv.extra_op_percent: (lv.steady_iops, lv.waf) for lv in true.levels}
    truth = truths[spec]
    errors: dict[str, dict[str, float]] = {key: {} for key in runs}
    for key, c in runs.items():
        for x in LEVELS:
            for i, figure in enumerate(("iops", "waf")):
                errors[key][f"{figure}@{x:g}"] = c["predicted"][x][i] / truth[x][i] - 1.0
    return {
        "drive": name,
        "spec": spec,
        "seed": seed,
        **runs,
        "truth": truth,
        "truth_cpu_s": cpu_s() - cpu0,
        "errors": errors,
    }


#: The judged arms' figures (bench/foreign/results/onset-default3/RULE.md): a figure more than
#: this many points worse than the baseline's fails condition 3, a median this much above fails 4.
WORSE_POINTS_MAX = 5.0
MEDIAN_POINTS_MAX = 0.5


def judge(base: list[dict[str, Any]], new: list[dict[str, Any]], key: str) -> list[str]:
    """Conditions 1-4 of bench/foreign/results/onset-default3/RULE.md for arm ``key`` of the
    ``new`` records against the ``base`` records' flag-off arm (the default before it), drive
    by drive in the same order: lines to print, the last one the verdict."""
    if [r["drive"] for r in base] != [r["drive"] for r in new]:
        raise SystemExit("the two record files hold different drives")
    out, failed, a_all, b_all = [], [], [], []
    for rb, rn in zip(base, new, strict=True):
        a, b = rb["off"], rn[key]
        ea, eb = rb["errors"]["off"], rn["errors"][key]
        lost = not a["refused"] and bool(b["refused"])
        levels = {(x, qd) for x, qd in map(tuple, b["levels_measured"])}
        cost_ok = round(b["drive_writes"], 2) <= 2.00 and len(levels) >= 3
        worse = {f: 100 * (abs(eb[f]) - abs(ea[f])) for f in ea}
        over = {f: round(v, 1) for f, v in worse.items() if v > WORSE_POINTS_MAX}
        a_all += [abs(v) for v in ea.values()]
        b_all += [abs(v) for v in eb.values()]
        out.append(
            f"{rn['drive']}: median {100 * statistics.median(map(abs, ea.values())):.1f} → "
            f"{100 * statistics.median(map(abs, eb.values())):.1f}%, worst "
            f"{100 * max(map(abs, ea.values())):.1f} → {100 * max(map(abs, eb.values())):.1f}%; "
            f"drive writes {a['drive_writes']:.4f} → {b['drive_writes']:.4f}, levels "
            f"{len(a['levels_measured'])} → {len(levels)}; over {WORSE_POINTS_MAX:g} points "
            f"worse: {over or 'none'}; refused {bool(a['refused'])} → {bool(b['refused'])}"
        )
        if lost:
            failed.append(f"1 ({rn['drive']})")
        if not cost_ok:
            failed.append(f"2 ({rn['drive']})")
        if over:
            failed.append(f"3 ({rn['drive']})")
    return out + overall(
        f"{key} against the baseline's off", [100 * x for x in a_all], [100 * x for x in b_all],
        MEDIAN_POINTS_MAX, failed,
    )  # fmt: skip


def overall(
    label: str, base_pc: list[float], arm_pc: list[float], rise_max: float, failed: list[str]
) -> list[str]:
    """Condition 4 of either rule (the median |error|, in %, may rise by ``rise_max`` points)
    and the verdict line, given the conditions ``failed`` so far."""
    rise = statistics.median(arm_pc) - statistics.median(base_pc)
    failed = failed + (["4"] if rise > rise_max else [])
    return [
        f"{label}: median |error| over {len(base_pc)} figures {statistics.median(base_pc):.2f}%"
        f" → {statistics.median(arm_pc):.2f}% ({rise:+.2f} points)",
        f"{label}: " + ("conditions 1-4 hold" if not failed else "fails " + ", ".join(failed)),
    ]


#: bench/foreign/results/onset-default4/RULE.md: an arm's median |error| over the seeds may
#: exceed the base arm's by max(this, the base arm's own spread over the seeds) points, figure
#: by figure; its median over every figure and seed the base arm's by SEEDS_MEDIAN_POINTS_MAX.
SEEDS_WORSE_POINTS_MIN = 2.0
SEEDS_MEDIAN_POINTS_MAX = 0.3


def meets_cost(run: dict[str, Any]) -> bool:
    """0%, 40% and the QD4 probe measured within 2.00 drive writes (read to two decimals)."""
    levels = {(x, qd) for x, qd in map(tuple, run["levels_measured"])}
    return round(run["drive_writes"], 2) <= 2.00 and len(levels) >= 3


def judge_over_seeds(records: list[dict[str, Any]], base: str = "base") -> list[str]:
    """Conditions 1-4 of bench/foreign/results/onset-default4/RULE.md for every arm of
    ``records`` (one a drive and seed) against arm ``base``: lines to print, one verdict line
    an arm last."""
    drives = list(dict.fromkeys(r["drive"] for r in records))
    arms = [k for k in ARMS if k in records[0] and k != base]
    out = []
    for key in arms:
        failed, a_all, b_all = [], [], []
        for drive in drives:
            recs = [r for r in records if r["drive"] == drive]
            seeds = [r["seed"] for r in recs]
            lost = [s for r, s in zip(recs, seeds, strict=True)
                    if not r[base]["refused"] and r[key]["refused"]]  # fmt: skip
            cost = [s for r, s in zip(recs, seeds, strict=True)
                    if meets_cost(r[base]) and not meets_cost(r[key])]  # fmt: skip
            over = {}
            for fig in recs[0]["errors"][base]:
                ea = [100 * abs(r["errors"][base][fig]) for r in recs]
                eb = [100 * abs(r["errors"][key][fig]) for r in recs]
                allowed = max(SEEDS_WORSE_POINTS_MIN, max(ea) - min(ea))
                if statistics.median(eb) - statistics.median(ea) > allowed:
                    over[fig] = (round(statistics.median(ea), 1), round(statistics.median(eb), 1),
                                 round(allowed, 1))  # fmt: skip
                a_all += ea
                b_all += eb
            out.append(
                f"{key} {drive} (seeds {seeds}): drive writes "
                f"{[round(r[base]['drive_writes'], 3) for r in recs]} → "
                f"{[round(r[key]['drive_writes'], 3) for r in recs]}, levels "
                f"{[len(r[base]['levels_measured']) for r in recs]} → "
                f"{[len(r[key]['levels_measured']) for r in recs]}; lost at seeds {lost or '-'}; "
                f"cost missed at seeds {cost or '-'}; figures over their allowance "
                f"(base median, arm median, allowed points): {over or 'none'}"
            )
            failed += [f"{c} ({drive})" for c, bad in (("1", lost), ("2", cost), ("3", over))
                       if bad]  # fmt: skip
        out += overall(f"{key} against {base}", a_all, b_all, SEEDS_MEDIAN_POINTS_MAX, failed)
    return out


def judge_femu(verdict: dict[str, Any], base: str = "base") -> list[str]:
    """Conditions 1-3 of bench/foreign/results/onset-default5/RULE.md on FEMU cases
    (``femu_end_to_end.py verdict``'s output, each case labelled ``NAME:ARM@SEED``, SEED the
    harness's random-write seed): each arm against arm ``base`` of the same drive as
    :func:`judge_over_seeds` judges the simulated drives, figure by figure over the seeds."""
    cases: dict[tuple[str, str], dict[int, dict[str, Any]]] = {}
    for c in verdict["cases"]:
        arm, _, seed = c["onset_from_empty"].partition("@")
        cases.setdefault((c["drive"], arm), {})[int(seed or 1)] = c
    out = []
    for (drive, arm), runs in cases.items():
        if arm == base:
            continue
        b = cases[(drive, base)]
        seeds = sorted(set(b) & set(runs))
        lost = [s for s in seeds if "refused" not in b[s] and "refused" in runs[s]]
        cost = [s for s in seeds if b[s]["passes"].get("cost") and "refused" not in runs[s]
                and not runs[s]["passes"].get("cost")]  # fmt: skip
        answered = [s for s in seeds if "refused" not in b[s] and "refused" not in runs[s]]
        over = {}
        for i, lv in enumerate(b[answered[0]]["levels"] if answered else []):
            for fig in ("iops", "waf"):
                ea = [100 * abs(b[s]["levels"][i][f"{fig}_error"]) for s in answered]
                eb = [100 * abs(runs[s]["levels"][i][f"{fig}_error"]) for s in answered]
                allowed = max(SEEDS_WORSE_POINTS_MIN, max(ea) - min(ea))
                if statistics.median(eb) - statistics.median(ea) > allowed:
                    over[f"{fig}@{lv['extra_op_percent']:g}"] = (
                        round(statistics.median(ea), 1), round(statistics.median(eb), 1),
                        round(allowed, 1))  # fmt: skip
        failed = [c for c, bad in (("1", lost), ("2", cost), ("3", over)) if bad]
        out.append(
            f"{arm} {drive} (seeds {seeds}): drive writes "
            f"{[round(b[s]['drive_writes'], 3) for s in seeds]} → "
            f"{[round(runs[s]['drive_writes'], 3) for s in seeds]}; lost at seeds {lost or '-'}; "
            f"cost missed at seeds {cost or '-'}; figures over their allowance (base median, arm "
            f"median, allowed points): {over or 'none'}; "
            + ("conditions 1-3 hold" if not failed else "fails " + ", ".join(failed))
        )
    return out


def rows(record: dict[str, Any]) -> list[str]:
    """One markdown row a figure: the drive, its seed, the figure and each arm's |error|."""
    e = record["errors"]
    return [f"| {record['drive']} | {record.get('seed', 1)} | {fig} | "
            + " | ".join(f"{key} {100 * abs(e[key][fig]):.1f}%" for key in e) + " |"
            for fig in next(iter(e.values()))]  # fmt: skip


def reserve_weights(path: Path) -> list[tuple[str, str, float]]:
    """The readings ``reserve_reading.offered`` gives a stored measurement (as the CLI reads
    it) and their weights: (spare, design, weight)."""
    m = load(path)
    points = predmod.points_from(m)
    fig = predmod.PredictionInput(
        points, LEVELS, fob_iops=m.fob_iops, measurement=m, source="onset_default_bench",
        advertised_bytes=int(m.capacity_bytes / m.scale_factor),
        model_form=uncertainty.model_form_for(points, m.kind == "sim"),
    )  # fmt: skip
    central = fitmod.fit(fig.points, fob_iops=m.fob_iops)
    evs = reserve_reading.offered(fig, predmod.TwinReading(), central)
    w = reserve_reading.weights(evs) if evs else {}
    return [(r.spare, r.design, w[r]) for r in evs]


def compare_plan_cases(new: Path, stored: Path) -> str:
    """``bench/gc_reserve_bench.py`` plan cases of ``new`` against ``stored``: each case's
    reserve weight, and the largest rise in a figure's |error| with the reserve reading."""
    a = [c for c in json.loads(new.read_text())["cases"] if c["kind"] == "plan"]
    b = [c for c in json.loads(stored.read_text())["cases"] if c["kind"] == "plan"]
    if [c["drive"] for c in a] != [c["drive"] for c in b]:
        raise SystemExit(f"{new} and {stored} hold different cases")
    out, rise, n = [], 0.0, 0
    for ca, cb in zip(a, b, strict=True):
        for ra, rb in zip(ca["rows"], cb["rows"], strict=True):
            rise = max(rise, abs(ra["with_reserve_error"]) - abs(rb["with_reserve_error"]))
            n += 1
        out.append(f"{ca['drive']}: onset {ca['onset']:.4f}, reserve weight "
                   f"{ca['reserve_weight']:.3g} (stored {cb['reserve_weight']:.3g})")  # fmt: skip
    out.append(f"{stored}: {n} figures, largest |error| rise {100 * rise:+.4f} points")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--drives", help="comma-separated: seeds and tiny variants")
    ap.add_argument(
        "--reserve-weights",
        type=Path,
        nargs="+",
        metavar="MEASUREMENT_JSON",
        help="print the readings offered on stored measurements, and stop",
    )
    for name, metavar, text in (  # two files each, and stop
        ("--compare", ("NEW", "STORED"), "compare two bench/gc_reserve_bench.py outputs' plan "
         "cases"),
        ("--judge", ("BASE_JSONL", "NEW_JSONL"), "conditions 1-4 of "
         "bench/foreign/results/onset-default3/RULE.md for NEW's arms against BASE's off"),
    ):  # fmt: skip
        ap.add_argument(name, type=Path, nargs=2, metavar=metavar, help=f"{text}, and stop")
    ap.add_argument("--physical", default="2GiB", help="NAND of each generated drive")
    ap.add_argument("--budget", default=None, help="calibrate's --budget (default: its own)")
    ap.add_argument("--partial", type=Path, default=None)
    ap.add_argument("--flags", default="off,on", help=f"the arms, of {', '.join(ARMS)}")
    ap.add_argument(
        "--sim-seed", default="1", help="the simulated drives' random-write seed(s), e.g. 1,2,3"
    )
    ap.add_argument("--judge-seeds", type=Path, metavar="JSONL", help=(
        "the arms against the base arm's spread over the seeds "
        "(bench/foreign/results/onset-default4/RULE.md), and stop"))  # fmt: skip
    ap.add_argument("--judge-femu", type=Path, metavar="VERDICT_JSON", help=(
        "FEMU cases' arms against base over the seeds "
        "(bench/foreign/results/onset-default5/RULE.md), and stop"))  # fmt: skip
    args = ap.parse_args()
    if args.judge_femu:
        print("\n".join(judge_femu(json.loads(args.judge_femu.read_text()))))
        return
    if args.judge_seeds:
        print("\n".join(judge_over_seeds([json.loads(x) for x in args.judge_seeds.open()])))
        return
    if args.judge:
        base, new = ([json.loads(line) for line in p.open()] for p in args.judge)
        for key in [k for k in FLAGS if k in new[0]]:
            print("\n".join(judge(base, new, key)))
        return
    if args.reserve_weights:
        for path in args.reserve_weights:
            got = ", ".join(f"{sp} {d} {w:.3g}" for sp, d, w in reserve_weights(path))
            print(f"{path}: onset {load(path).onset_spare_factor:.4f}: {got or 'no onset'}")
        return
    if args.compare:
        print(compare_plan_cases(*args.compare))
        return
    if not args.drives:
        ap.error("--drives is needed")
    physical = float(parse_size_bytes(args.physical, "--physical"))
    folder = Path(tempfile.mkdtemp(prefix="onset-default-"))
    flags = tuple(args.flags.split(","))
    if unknown := set(flags) - set(ARMS):
        ap.error(f"unknown arm(s) {sorted(unknown)}")
    print("| drive | seed | figure | " + " | ".join(f"{k} |error|" for k in flags) + " |")
    print("|---" * (3 + len(flags)) + "|")
    records, truths = [], {}
    for name in args.drives.split(","):
        for seed in [int(x) for x in args.sim_seed.split(",")]:
            t0 = time.monotonic()
            rec = run_drive(name.strip(), physical, args.budget, folder, flags, seed, truths)
            rec["wall_s"] = time.monotonic() - t0
            records.append(rec)
            if args.partial is not None:
                with args.partial.open("a") as f:
                    f.write(json.dumps(rec) + "\n")
            print("\n".join(rows(rec)), flush=True)
    if not {"off", "on"} <= set(records[0]):
        return
    on = [abs(v) for r in records for v in r["errors"]["on"].values()]
    off = [abs(v) for r in records for v in r["errors"]["off"].values()]
    worse = max(abs(r["errors"]["on"][k]) - abs(r["errors"]["off"][k])
                for r in records for k in r["errors"]["on"])  # fmt: skip
    print(f"\nmedian |error| off {100 * statistics.median(off):.2f}%, on "
          f"{100 * statistics.median(on):.2f}%; worst off {100 * max(off):.1f}%, on "
          f"{100 * max(on):.1f}%; largest rise on − off {100 * worse:+.1f} points")  # fmt: skip
    for r in records:
        print(f"{r['drive']}: drive writes off {r['off']['drive_writes']:.3f}, on "
              f"{r['on']['drive_writes']:.3f}; onset on {r['on']['onset']} "
              f"({r['on']['onset_source']}); readings on {r['on']['readings']}; refused off "
              f"{r['off']['refused']}, on {r['on']['refused']}; levels on "
              f"{r['on']['levels_measured']}; CPU s off "
              f"{r['off']['cpu_s']:.1f}, on {r['on']['cpu_s']:.1f}, truth "
              f"{r['truth_cpu_s']:.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
