"""``overprov calibrate --cliff`` end to end on generated drives with held-out caches
(bench/results/cliffplan/RULE.md; with ``--probes-in-prediction``, the step's read probes
in the prediction: bench/results/cliffread/RULE.md; ``cliffcheck_verdicts``: the counts of
bench/results/cliffcheck/RULE.md, and of bench/results/clifflift/RULE.md, whose conditions
are the same).

For each seed and cache share: the truth drive (``validation.drive(seed)`` with the cache, its
SLC program time drawn from 150-250 µs, a 4 MiB write buffer) written as a drive file and
calibrated through the CLI (``calibrate sim:FILE@SCALE --cliff --extra-op 0,20``: calibrate's
own twin, its own cliff step); its ``prediction.json``'s ``cliff`` compared with the truth's
QD8 70%-read cliff from purged and from filled (bench/cliff_bench.py's truth).

    PYTHONPATH=python python bench/cliffplan_eval.py [--seeds 202-205] [--shares 0.01,0.03]
        [--physical 4GiB] [--also-workloads "qd8,read0;qd32,read0"]
        [--out bench/results/cliffplan/runs.json] [--probes-in-prediction]

``--also-workloads``: not judged, each run's step refitted in-process under other workloads
(twin.toml's drive, the measurement's series) beside the truth's cliff from purged.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from calibrate_bench import seeds_arg  # bench/ is on the path when run as a script
from cliff_bench import MIX, _seconds
from cpu_clock import cpu_s
from overprov.calibrate import cliff, cliff_series, cliff_slot, validation
from overprov.calibrate import twin as twinmod
from overprov.units import parse_size_bytes

ROOT = Path(__file__).resolve().parent.parent
#: the rule's bounds (bench/results/cliffplan/RULE.md)
WITHIN, FAR, DECLINED_MAX, SHARE_MIN = 0.25, 0.50, 1 / 3, 0.80


#: the truths' write buffer (bytes), unless ``--buffers`` names another for a case
BUFFER_BYTES = 4 * 2**20


def truth_drive(
    seed: int, share: float, rng: random.Random, buffer_bytes: int = BUFFER_BYTES
) -> dict:
    d = validation.drive(seed)
    truth = cliff.with_cache(d, d["advertised_bytes"] * share, round(rng.uniform(150.0, 250.0), 1))
    truth["config"]["timing"]["buffer"]["bytes"] = buffer_bytes
    return truth


def buffers_arg(path: str) -> dict[tuple[int, float], int]:
    """``--buffers``: a JSON file whose ``chosen`` rows give ``seed``, ``share`` and
    ``buffer_bytes`` (bench/results/cliffbuffer/select_drives.py's drives.json)."""
    rows = json.loads(Path(path).read_text())["chosen"]
    return {(int(r["seed"]), float(r["share"])): int(r["buffer_bytes"]) for r in rows}


def written_truth(
    seed: int, share: float, work: Path, buffer_bytes: int = BUFFER_BYTES
) -> tuple[dict, str, Path]:
    """One case's truth drawn as :func:`main` draws it (each seed's 1% case, then its 3% one,
    from ``random.Random(seed * 7919)``), its scale at 4 GiB of NAND, and its drive file
    written under ``work`` (for scripts that run single cases)."""
    rng = random.Random(seed * 7919)
    if share != 0.01:
        truth_drive(seed, 0.01, rng)
    truth = truth_drive(seed, share, rng, buffer_bytes)
    scale = validation.scale_for(truth, 4 * 2**30)
    path = work / f"drive-{seed}-{share:g}.toml"
    path.write_text(twinmod.to_toml(truth) + "\n")
    return truth, scale, path


def single_cases(case, args: list[str]) -> int:  # noqa: ANN001 - (seed, share, work) → row
    """Each ``SEED:SHARE`` of ``args`` run by ``case`` (its rows printed as JSON with the CPU
    seconds they took, bench/cpu_clock.py), in a temporary folder: the single-case scripts'
    main."""
    t0 = cpu_s()
    with tempfile.TemporaryDirectory() as tmp:
        cases = [c.split(":") for c in args]
        rows = [case(int(seed), float(share), Path(tmp)) for seed, share in cases]
    print(json.dumps({"rows": rows, "cpu_s": round(cpu_s() - t0, 1)}, indent=1))
    return 0


def calibrated_again(
    seed: int, share: float, work: Path, buffer_bytes: int = BUFFER_BYTES
) -> tuple[dict, dict, float, dict]:
    """One case (:func:`written_truth`) calibrated as ``--probes-in-prediction`` runs it
    (:func:`calibrate`) under ``work``: its step's measurement (measurement.json's ``cliff``),
    twin.toml's drive, the twin's scale factor and the prediction's ``cliff`` (for the
    single-case scripts that remake a prediction in-process)."""
    import tomllib

    from overprov import measurement_file

    _, scale, path = written_truth(seed, share, work, buffer_bytes)
    out = work / f"out-{seed}-{share:g}"
    pred = calibrate(path, scale, out, probes=True)
    doc = dict(measurement_file.load(out / "measurement.json").cliff or {})
    drive = tomllib.loads((out / "twin.toml").read_text())
    tw_scale = twinmod.sim_scale(
        drive["advertised_bytes"], drive["physical_bytes"] / drive["advertised_bytes"] - 1
    )
    return doc, drive, tw_scale, pred


def truth_cliff(truth: dict, scale: float, state: str) -> cliff.Cliff | None:
    t = _seconds(truth, scale, MIX["qd"], MIX["read_percent"], state)
    return cliff.find_cliff(
        cliff.simulate_series(truth, scale, **MIX, seconds=t, interval_s=t / 60, precondition=state)
    )


#: the CLI with ``cliff_prediction.PROBES_IN_PREDICTION`` set in its process
_CLI_WITH_PROBES = (
    "import sys; from overprov.calibrate import cliff_prediction as c; "
    "c.PROBES_IN_PREDICTION = True; from overprov.cli import main; "
    "raise SystemExit(main(sys.argv[1:]))"
)


#: set in calibrate's process too with ``--past-buffer-step`` (bench/results/cliffbuffer/RULE.md)
_PAST_BUFFER_STEP = (
    "from overprov.calibrate import cliff_series; cliff_series.PAST_BUFFER_STEP = True; "
)


#: set in calibrate's process too with ``--slot-from-load`` (bench/results/cliffslot/RULE.md)
_SLOT_FROM_LOAD = "from overprov.calibrate import cliff_slot; cliff_slot.SLOT_FROM_LOAD = True; "


#: the same with ``cliff_mix.MIX_CAPPED`` off (bench/results/clifflift/RULE.md's form)
_CLI_WITH_PROBES_UNCAPPED = _CLI_WITH_PROBES.replace(
    "c.PROBES_IN_PREDICTION = True; ",
    "c.PROBES_IN_PREDICTION = True; from overprov.calibrate import cliff_mix; "
    "cliff_mix.MIX_CAPPED = False; ",
)


def calibrate(
    path: Path, scale: str, out: Path, probes: bool = False, mix_capped: bool = True
) -> dict:
    """The CLI run (with ``probes``, the read probes in the prediction: its flag set in the
    calibrate process, and with ``mix_capped`` False ``cliff_mix.MIX_CAPPED`` off there); its
    prediction's ``cliff`` (or the error it ended with)."""
    with_probes = _CLI_WITH_PROBES if mix_capped else _CLI_WITH_PROBES_UNCAPPED
    if cliff_series.PAST_BUFFER_STEP:
        with_probes = _PAST_BUFFER_STEP + with_probes
    if cliff_slot.SLOT_FROM_LOAD:
        with_probes = _SLOT_FROM_LOAD + with_probes
    cli = ["-c", with_probes] if probes else ["-m", "overprov"]
    cmd = [sys.executable, *cli, "calibrate", f"sim:{path}@{scale}", "--cliff",
           "--extra-op", "0,20", "--no-progress", "--out", str(out)]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    run = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if run.returncode != 0:
        return {"error": f"exit {run.returncode}: {run.stderr.strip()[-400:]}"}
    return json.loads((out / "prediction.json").read_text())["cliff"]


def also(out: Path, truth: dict, scale: float, workload: str) -> dict:
    """The run's step refitted and predicted under ``workload`` (twin.toml's drive, its
    measurement's series), with the truth's cliff under it from purged (not judged, but by
    bench/results/cliffcheck/RULE.md's writes-alone condition); where the run had
    ``PROBES_IN_PREDICTION`` set, the same refit without it beside (``default_path``)."""
    import tomllib

    from overprov import measurement_file
    from overprov.calibrate import cliff_prediction, cliff_step

    m = measurement_file.load(out / "measurement.json")
    doc = dict(m.cliff or {})
    wl = cliff_step.parse_workload(workload)
    doc["plan"] = {**doc["plan"], "workload": {"qd": wl.qd, "read_percent": wl.read_percent}}
    drive = tomllib.loads((out / "twin.toml").read_text())
    tw_scale = twinmod.sim_scale(
        drive["advertised_bytes"], drive["physical_bytes"] / drive["advertised_bytes"] - 1
    )
    flag = cliff_prediction.PROBES_IN_PREDICTION
    pred = cliff_prediction.predict(doc, drive, tw_scale)
    default = None
    if flag:
        cliff_prediction.PROBES_IN_PREDICTION = False
        try:
            default = cliff_prediction.predict(doc, drive, tw_scale)
        finally:
            cliff_prediction.PROBES_IN_PREDICTION = flag
    t = _seconds(truth, scale, wl.qd, wl.read_percent, "none")
    true = cliff.find_cliff(
        cliff.simulate_series(
            truth,
            scale,
            qd=wl.qd,
            read_percent=wl.read_percent,
            seconds=t,
            interval_s=t / 60,
            precondition="none",
        )  # fmt: skip
    )
    row = {"workload": workload, "true": true.to_dict() if true else None,
           **_judged(pred, true)}  # fmt: skip
    if default is not None:
        row["default_path"] = _judged(default, true)
    return row


def _judged(pred: dict, true: cliff.Cliff | None) -> dict:
    """A refit's prediction from purged (or why declined) and its errors against ``true``."""
    got = pred.get("purged") or {}
    p = cliff.Cliff(**{k: got[k] for k in ("time_s", "host_write_bytes_before", "iops_before",
                                           "iops_after")}) if "time_s" in got else None  # fmt: skip
    if not got and pred.get("declined"):
        got = {"declined": pred["declined"]}
    return {"predicted": got, **cliff.errors(p, true)}


def one(seed: int, share: float, rng: random.Random, physical: float, work: Path,
        also_workloads: list[str], probes: bool = False,
        buffer_bytes: int = BUFFER_BYTES) -> dict:  # fmt: skip
    truth = truth_drive(seed, share, rng, buffer_bytes)
    scale = validation.scale_for(truth, physical)
    path = work / f"drive-{seed}-{share:g}.toml"
    path.write_text(twinmod.to_toml(truth) + "\n")
    t0 = cpu_s()
    pred = calibrate(path, scale, work / f"out-{seed}-{share:g}", probes)
    row: dict = {
        "drive": f"generated {seed}, cache {100 * share:g}%", "scale": scale,
        "true_cache_bytes": truth["config"]["timing"]["slc"]["max_bytes"],
        "true_slc_program_us": truth["config"]["timing"]["slc"]["program_us"],
        "true_buffer_bytes": buffer_bytes,
        "calibrate_cpu_s": round(cpu_s() - t0, 2), "cliff": pred,
    }  # fmt: skip
    for state, key in (("none", "purged"), ("sequential", "filled")):
        true = truth_cliff(truth, float(scale), state)
        got = (pred.get(key) or {}) if "error" not in pred else {}
        p = (
            cliff.Cliff(**{k: got[k] for k in cliff.Cliff.__dataclass_fields__})
            if "time_s" in got
            else None
        )
        row[key] = {"true": true.to_dict() if true else None, **cliff.errors(p, true)}
    # every run whose step found a cache (a fit declined with the flag may be made without it)
    if "error" not in pred and not str(pred.get("declined") or "").startswith("no step"):
        out = work / f"out-{seed}-{share:g}"
        row["also"] = [also(out, truth, float(scale), w) for w in also_workloads]
    print(json.dumps(row), file=sys.stderr, flush=True)
    return row


def verdict(rows: list[dict], key: str) -> dict:
    cases = [r for r in rows if r[key]["true"] is not None]
    predicted = [r for r in cases if r[key]["time_error"] is not None]
    within = [r for r in predicted
              if max(abs(r[key]["time_error"]), abs(r[key]["lost_error"])) <= WITHIN]  # fmt: skip
    far = [r for r in predicted if max(abs(r[key]["time_error"]), abs(r[key]["lost_error"])) > FAR]
    declined = len(cases) - len(predicted)
    met = (
        bool(predicted) and len(within) >= SHARE_MIN * len(predicted) and not far
        and declined <= DECLINED_MAX * len(cases)
    )  # fmt: skip
    return {"cases": len(cases), "predicted": len(predicted), "within_25": len(within),
            "over_50": len(far), "declined": declined, "met": met}  # fmt: skip


#: bench/results/cliffcheck/RULE.md's bounds: at least this share of the cases with a truth
#: cliff predicted, and of those at least this share within :data:`WITHIN` in both figures
CHECK_PREDICTED_MIN, CHECK_WITHIN_MIN = 2 / 3, 2 / 3


def _within(e: dict, bound: float) -> bool:
    return e["time_error"] is not None and max(abs(e["time_error"]), abs(e["lost_error"])) <= bound


def check_verdict(rows: list[dict], key: str) -> dict:
    """bench/results/cliffcheck/RULE.md's verdict on ``key`` (purged or filled), with the
    count over 50% that decides the summary's warning."""
    cases = [r for r in rows if r[key]["true"] is not None]
    predicted = [r for r in cases if r[key]["time_error"] is not None]
    within = [r for r in predicted if _within(r[key], WITHIN)]
    far = [r for r in predicted if not _within(r[key], FAR)]
    met = (
        bool(cases) and len(predicted) >= CHECK_PREDICTED_MIN * len(cases)
        and len(within) >= CHECK_WITHIN_MIN * len(predicted)
    )  # fmt: skip
    return {"cases": len(cases), "predicted": len(predicted), "within_25": len(within),
            "over_50": len(far), "declined": len(cases) - len(predicted), "met": met}  # fmt: skip


def writes_verdict(rows: list[dict], workload: str = "qd8,read0") -> dict:
    """bench/results/cliffcheck/RULE.md's writes-alone condition (W2): each run's refit under
    ``workload`` with the flag against the same refit without it (``also``'s
    ``default_path``), on the cases whose truth has a cliff from purged: no case within 25%
    without the flag outside it with the flag, and as many within 25% with it at least."""
    also_rows = [a for r in rows for a in r.get("also", []) if a["workload"] == workload]
    pairs = [a for a in also_rows if a["true"] is not None and "default_path" in a]
    flag = sum(_within(a, WITHIN) for a in pairs)
    default = sum(_within(a["default_path"], WITHIN) for a in pairs)
    worse = sum(_within(a["default_path"], WITHIN) and not _within(a, WITHIN) for a in pairs)
    return {"workload": workload, "cases": len(pairs), "within_25_flag": flag,
            "within_25_default": default, "worse": worse,
            "met": worse == 0 and flag >= default}  # fmt: skip


def markdown(rows: list[dict]) -> str:
    out = [
        "| drive | true cache (GB) | fitted (GB) | purged: time, IOPS lost "
        "| filled: time, IOPS lost |",
        "|---|---:|---:|---|---|",
    ]
    for r in rows:
        fit = (r["cliff"] or {}).get("fit") or {}
        fitted = f"{fit['cache_bytes'] / 1e9:.2f}" if fit else "declined"
        cells = []
        for key in ("purged", "filled"):
            e = r[key]
            if e["true"] is None:
                cells.append("no truth cliff")
            elif e["time_error"] is None:
                why = (
                    (r["cliff"].get(key) or {}).get("declined")
                    or r["cliff"].get("declined")
                    or r["cliff"].get("error")
                )
                cells.append(f"declined ({str(why)[:60]})")
            else:
                cells.append(f"{100 * e['time_error']:+.1f}%, {100 * e['lost_error']:+.1f}%")
        cache = f"{r['true_cache_bytes'] / 1e9:.2f}"
        out.append(f"| {r['drive']} | {cache} | {fitted} | {cells[0]} | {cells[1]} |")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seeds_arg, default=seeds_arg("202-205"))
    ap.add_argument("--shares", default="0.01,0.03")
    ap.add_argument("--physical", default="4GiB")
    ap.add_argument(
        "--also-workloads", default="", help="not judged: refitted under these too (qdN,readP;...)"
    )
    ap.add_argument("--out", type=Path, default=ROOT / "bench/results/cliffplan/runs.json")
    ap.add_argument(
        "--probes-in-prediction", action="store_true",
        help="calibrate (and the --also-workloads refits) with cliff_prediction."
        "PROBES_IN_PREDICTION set (bench/results/cliffread/RULE.md)",
    )  # fmt: skip
    ap.add_argument(
        "--past-buffer-step", action="store_true",
        help="calibrate (and the refits) with cliff_series.PAST_BUFFER_STEP set "
        "(bench/results/cliffbuffer/RULE.md)",
    )  # fmt: skip
    ap.add_argument(
        "--buffers", type=buffers_arg, default={},
        help="a JSON file of the cases' write buffers (its 'chosen' rows: seed, share, "
        "buffer_bytes); a case it does not name keeps 4 MiB",
    )  # fmt: skip
    ap.add_argument(
        "--slot-from-load", action="store_true",
        help="calibrate (and the refits) with cliff_slot.SLOT_FROM_LOAD set "
        "(bench/results/cliffslot/RULE.md)",
    )  # fmt: skip
    args = ap.parse_args()
    cliff_series.PAST_BUFFER_STEP = args.past_buffer_step
    cliff_slot.SLOT_FROM_LOAD = args.slot_from_load
    if args.probes_in_prediction:
        from overprov.calibrate import cliff_prediction

        cliff_prediction.PROBES_IN_PREDICTION = True
    physical = float(parse_size_bytes(args.physical, "--physical"))
    shares = [float(x) for x in args.shares.split(",")]
    t0 = cpu_s()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in args.seeds:
            rng = random.Random(seed * 7919)
            for share in shares:
                also_wl = [w for w in args.also_workloads.split(";") if w]
                buffer = args.buffers.get((seed, share), BUFFER_BYTES)
                rows.append(one(seed, share, rng, physical, Path(tmp), also_wl,
                                args.probes_in_prediction, buffer))  # fmt: skip
    verdicts = {key: verdict(rows, key) for key in ("purged", "filled")}
    check = {key: check_verdict(rows, key) for key in ("purged", "filled")}
    if args.probes_in_prediction and "qd8,read0" in args.also_workloads.split(";"):
        check["writes"] = writes_verdict(rows)
    doc = {"rows": rows, "verdicts": verdicts, "cliffcheck_verdicts": check,
           "cpu_s": round(cpu_s() - t0, 1),
           "probes_in_prediction": args.probes_in_prediction,
           "past_buffer_step": args.past_buffer_step,
           "slot_from_load": args.slot_from_load}  # fmt: skip
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(markdown(rows))
    print(json.dumps(verdicts))
    print(json.dumps(check))
    print(f"CPU s: {doc['cpu_s']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
