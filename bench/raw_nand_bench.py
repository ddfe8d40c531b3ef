"""Does giving the raw NAND make a held-out prediction worse? The corpus bench's pairs (each
held-out figure predicted with the raw NAND given and without it) under calibrate's rule for
the raw-spare readings' weight (``spare_readings.raw_share``) and under the rule before it (the
raw-spare readings pooled with the effective ones, one likelihood each).

Two levels, both cheap (no twin is simulated):

- ``--surrogate``: every uniform drive whose raw NAND is known (the corpus, the foreign FTLs'
  curves under ``--foreign``, or only the folders given with ``--foreign-only``), each level
  held out in turn as ``bench/corpus_bench.py`` holds it out; each reading's figure at the
  held-out level is its surrogate's (the fit's inner model), combined as ``read_all`` weighs
  them under each rule (readings below ``SPAN_MIN_WEIGHT`` of the largest, in their class
  under the new rule, left out as they would be unsimulated).
- ``--stored CASES``: a corpus run's held-out cases (``bench/corpus/held-out-cases.jsonl``):
  the pairs as run (the rule before), the table of the pairs where the raw NAND made it worse
  with the readings that took the weight, and the new rule's figure rebuilt from them — the
  stored prediction without the raw NAND (the effective class's, figure for figure) moved
  toward the stored raw-spare twins' figures by the raw class's share, the shares from the
  surrogates' evidence now. A raw-spare reading the stored run did not simulate is left out of
  its class's mean and its weight reported (``missing``).

    PYTHONPATH=python python bench/raw_nand_bench.py --surrogate [--foreign-only DIR ...]
    PYTHONPATH=python python bench/raw_nand_bench.py --stored bench/corpus/held-out-cases.jsonl

docs/calibrate-validation.md, "The raw NAND as information (pre-registered rule)".
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from pathlib import Path
from typing import Any

from overprov.calibrate import evidence, spare_readings, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.errors import ConfigError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_bench import CORPUS, cases, interval, load, read_cases  # noqa: E402  (bench/)
from corpus_foreign import foreign_drives, point  # noqa: E402
from corpus_report import raw_pairs, raw_worse_markdown  # noqa: E402

#: The rules compared: the raw-spare readings pooled with the effective ones (before afaddbb),
#: the raw class's share for any leave-one-out preference (afaddbb's rule), and the share as
#: the code has it (``spare_readings.RAW_SHARE_MIN_DELTA``, or ``--min-delta``).
RULES = ("pooled", "any", "shared")
SPAN = spare_readings.SPAN_MIN_WEIGHT


def rule_weights(evs: dict, rule: str) -> tuple[dict, float | None]:
    """Each reading's weight under ``rule`` and the raw class's share (None: pooled) — readings
    the rule would leave unsimulated at 0."""
    if rule == "pooled":
        ok = {r: evidence.reproduces(e["residual_chi2"], e["n_figures"], e["n_parameters"])
              for r, e in evs.items()}  # fmt: skip
        w = evidence.weights({r: e["chi2"] for r, e in evs.items()}, ok)
        top = max(w.values())
        return {r: (v if v >= SPAN * top else 0.0) for r, v in w.items()}, None
    within = spare_readings.class_weights(evs)
    share, _ = spare_readings.raw_share(evs, within, 0.0 if rule == "any" else None)
    top = {s: max((v for r, v in within.items() if r.spare == s), default=0.0)
           for s in spare_readings.SPARES}  # fmt: skip
    within = {r: (v if v >= SPAN * top[r.spare] else 0.0) for r, v in within.items()}
    return spare_readings.shared_weights(within, share), share


def _geomean(pairs: list[tuple[float, float]]) -> float | None:
    got = [(v, w) for v, w in pairs if w > 0 and v and math.isfinite(v) and v > 0]
    total = sum(w for _, w in got)
    return math.exp(sum(w * math.log(v) for v, w in got) / total) if total > 0 else None


def label(d: dict[str, Any]) -> str:
    """A drive's id, with its folder for a foreign curve (three MQSim curves are all
    ``mqsim.json``, in patched/, fresh-2chips/ and gc-threshold/)."""
    return f"{Path(d['file']).parent.name}/{d['id']}" if d.get("foreign") else d["id"]


def surrogate_pairs(drives: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per held-out figure of each uniform drive with its raw NAND: the figure without the raw
    NAND and with it under each rule, at the surrogate level."""
    out = []
    for d in drives:
        raw = d.get("raw_nand_bytes")
        if d["workload"] != "uniform" or not raw:
            continue
        raw_op = raw / d["advertised_bytes"] - 1
        steady = [f for f in d["figure"] if f["kind"] in ("iops", "waf")]
        fob = [f for f in d["figure"] if f["kind"] == "fob_iops"]
        for x in sorted({float(f["extra_op_percent"]) for f in steady}):
            held = [f for f in steady if float(f["extra_op_percent"]) == x]
            rest = [f for f in steady if float(f["extra_op_percent"]) != x] + fob
            if not any(f["kind"] != "fob_iops" for f in rest):
                continue
            fig = predmod.PredictionInput(
                [point(f) for f in rest], [x], typed=True, raw_native_op=raw_op,
                model_form=uncertainty.NO_MODEL_FORM, progress=False,
            )  # fmt: skip
            try:
                evs, curves = spare_readings.weigh(fig)
            except ConfigError:
                continue
            fits = {r: r.form(curves[r.design] or fitmod.waf_at).fit(fig.points) for r in evs}
            eff = {r: e for r, e in evs.items() if r.spare == predmod.EFFECTIVE}
            if not eff:
                continue
            without, _ = rule_weights(eff, "shared")
            by_rule = {rule: rule_weights(evs, rule) for rule in RULES}
            for h in held:
                what = h["kind"]

                figs = {r: s.iops(x) if what == "iops" else s.waf(x) for r, s in fits.items()}
                row = {"drive": label(d), "family": d.get("family") or d["name"], "kind": what,
                       "extra_op_percent": x, "truth": float(h["value"]),
                       "share": by_rule["shared"][1], "share_any": by_rule["any"][1],
                       "without": _geomean([(figs[r], w) for r, w in without.items()])}  # fmt: skip
                for rule, (w, _) in by_rule.items():
                    row[rule] = _geomean([(figs[r], v) for r, v in w.items()])
                out.append(row)
    return out


def stored_new_rule(cases: list[dict[str, Any]], drives: list[dict[str, Any]]) -> list[dict]:
    """The shared rules' figures per stored pair, rebuilt from the stored figures (module
    doc)."""
    shares: dict[tuple, dict[str, tuple[dict, float]]] = {}
    by_id = {d["id"]: d for d in drives}
    rows = []
    for given, without in raw_pairs(cases):
        d = by_id.get(given["drive"])
        if d is None or d["workload"] != "uniform":
            continue
        x = float(given["held_out"]["extra_op_percent"])
        key = (d["id"], x)
        if key not in shares:
            rest = [point(f) for f in d["figure"]
                    if f["kind"] == "fob_iops" or float(f["extra_op_percent"]) != x]  # fmt: skip
            raw_op = d["raw_nand_bytes"] / d["advertised_bytes"] - 1
            fig = predmod.PredictionInput(
                rest, [x], typed=True, raw_native_op=raw_op,
                model_form=uncertainty.NO_MODEL_FORM, progress=False,
            )  # fmt: skip
            evs, _ = spare_readings.weigh(fig)
            shares[key] = {}
            for rule in ("any", "shared"):
                w, share = rule_weights(evs, rule)
                shares[key][rule] = ({r.key: v / share for r, v in w.items()
                                      if r.spare == predmod.RAW and share}, share)  # fmt: skip
        parts = {p["reading"]: p["value"] for p in given["parts"]}
        row = {"drive": d["id"], "kind": given["held_out"]["kind"], "extra_op_percent": x,
               "truth": float(given["held_out"]["value"]), "without": without["predicted"],
               "pooled": given["predicted"]}  # fmt: skip
        for rule, (within_raw, share) in shares[key].items():
            got = [(parts[k], v) for k, v in within_raw.items() if k in parts]
            raw_mean = _geomean(got)
            new = without["predicted"]
            if share and raw_mean:
                new = math.exp((1 - share) * math.log(new) + share * math.log(raw_mean))
            row[rule] = new
            row["share" if rule == "shared" else f"share_{rule}"] = share
            row["missing" if rule == "shared" else f"missing_{rule}"] = sum(
                v for k, v in within_raw.items() if k not in parts and v > 0
            )
        rows.append(row)
    return rows


def drives_of(path: Path) -> list[dict[str, Any]]:
    """The foreign curves of a results folder, or the one curve of a results file."""
    if path.is_dir():
        return foreign_drives(path)
    return [d for d in foreign_drives(path.parent) if Path(d["file"]).name == path.name]


def twin_pairs(
    drives: list[dict[str, Any]],
    surrogate: list[dict[str, Any]],
    folder: Path,
    jobs: int | None = 1,
    sink: Path | None = None,
    most: int | None = None,
) -> list[dict[str, Any]]:
    """Calibrate's own predictions (twins simulated, ``corpus_bench.cases``) of the held-out
    levels whose raw-class share differs between the "any" rule and the code's (``surrogate``:
    :func:`surrogate_pairs`' rows; the share is the surrogates' evidence, as ``read_all``
    computes it before any twin). Elsewhere the two rules give the same prediction, figure for
    figure. ``most``: at most this many levels, the first in the drives' order (levels
    ascending). Per held-out figure: the prediction without the raw NAND, with it under each rule,
    and each one's 80% interval with the recorded model-form error (``corpus_bench.interval``)."""
    order = {label(d): i for i, d in enumerate(drives)}
    differ = sorted({(r["drive"], r["extra_op_percent"]) for r in surrogate
                     if (r["share"] or 0.0) != (r["share_any"] or 0.0)},
                    key=lambda k: (order[k[0]], k[1]))[:most]  # fmt: skip
    todo = [d for d in drives if any(label(d) == k for k, _ in differ)]
    every = {(d["id"], float(f["extra_op_percent"]), g) for d in todo for f in d["figure"]
             for g in (True, False)}  # fmt: skip
    keep = {(d["id"], x) for d in todo for k, x in differ if label(d) == k}
    skip = frozenset(k for k in every if (k[0], k[1]) not in keep)
    got = {"shared": cases(todo, folder, jobs, sink, skip)}
    saved = spare_readings.RAW_SHARE_MIN_DELTA
    spare_readings.RAW_SHARE_MIN_DELTA = 0.0  # the "any" rule: the raw-NAND side again
    try:
        no_raw = frozenset((i, x, False) for i, x in keep)
        got["any"] = cases(todo, folder, jobs, sink, skip | no_raw)
    finally:
        spare_readings.RAW_SHARE_MIN_DELTA = saved
    mf = uncertainty.recorded_model_form(False) or uncertainty.NO_MODEL_FORM
    by: dict[tuple, dict[str, Any]] = {}
    for rule, made in got.items():
        for c in made:
            if "predicted" not in c:
                continue
            h = c["held_out"]
            key = (c["drive"], h["kind"], float(h["extra_op_percent"]))
            row = by.setdefault(
                key,
                {
                    "drive": c["drive"],
                    "kind": h["kind"],
                    "extra_op_percent": key[2],
                    "truth": float(h["value"]),
                },
            )
            side = rule if c["raw_nand_given"] else "without"
            lo, hi = interval(c["parts"], mf)
            row[side] = c["predicted"]
            row[f"inside_{side}"] = lo <= row["truth"] <= hi
            if c["raw_nand_given"]:
                raw = sum(p["weight"] for p in c["parts"] if p["reading"].startswith("raw"))
                row["share" if rule == "shared" else "share_any"] = raw / sum(
                    p["weight"] for p in c["parts"]
                )
    return list(by.values())


def tally(rows: list[dict[str, Any]], rule: str) -> tuple[int, int, int]:
    """(pairs, raw NAND no worse, strictly better) under ``rule``."""
    n = same = better = 0
    for r in rows:
        if r.get(rule) is None or r.get("without") is None:
            continue
        a = abs(math.log(r[rule] / r["truth"]))
        b = abs(math.log(r["without"] / r["truth"]))
        n += 1
        same += a <= b + 1e-9
        better += a < b - 1e-9
    return n, same, better


def markdown(rows: list[dict[str, Any]]) -> str:
    lines = ["| drive | held out | without raw NAND | pooled | any preference | shared (the "
             "code's) | raw share, any / shared |", "|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in rows:
        errs = []
        for rule in ("without", *RULES):
            v = r.get(rule)
            errs.append("–" if v is None else f"{100 * (v / r['truth'] - 1):+.2f}%")
        share = " / ".join("–" if r.get(k) is None else f"{r[k]:.3f}"
                           for k in ("share_any", "share"))  # fmt: skip
        lines.append(f"| {r['drive']} | {r['kind'].upper()} at {r['extra_op_percent']:g}% | "
                     + " | ".join(errs) + f" | {share} |")  # fmt: skip
    lines.append("")
    for rule in RULES:
        n, same, better = tally(rows, rule)
        lines.append(f"{rule}: raw NAND no worse in {same} of {n} pairs ({better} better)")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--surrogate", action="store_true")
    ap.add_argument("--stored", type=Path, default=None, help="a corpus run's held-out cases")
    ap.add_argument("--foreign", type=Path, default=Path(__file__).parent / "foreign" / "results")
    ap.add_argument(
        "--foreign-only",
        type=Path,
        nargs="*",
        default=None,
        help="only these folders' (or results files') foreign curves (no corpus)",
    )
    ap.add_argument("--twins", action="store_true",
                    help="with --surrogate: calibrate's own predictions where the rules' "
                    "shares differ")  # fmt: skip
    ap.add_argument("--twins-most", type=int, default=None, help="at most this many levels")
    ap.add_argument(
        "--min-delta",
        type=float,
        default=None,
        help="the leave-one-out preference the raw spare needs "
        '(spare_readings.RAW_SHARE_MIN_DELTA) for the "shared" rule',
    )
    ap.add_argument("--out", type=Path, default=None, help="the rows as JSON")
    args = ap.parse_args()
    if args.min_delta is not None:
        spare_readings.RAW_SHARE_MIN_DELTA = args.min_delta
    if args.foreign_only is not None:
        drives = [d for f in args.foreign_only for d in drives_of(f)]
    else:
        drives = load(CORPUS) + foreign_drives(args.foreign)
    rows: list[dict[str, Any]] = []
    if args.stored is not None:
        cases = read_cases(args.stored)
        print(raw_worse_markdown(cases) + "\n")
        rows = stored_new_rule(cases, drives)
        print(markdown(rows))
    twins: list[dict[str, Any]] = []
    if args.surrogate:
        rows = surrogate_pairs(drives)
        print(markdown(rows))
        if args.twins:
            with tempfile.TemporaryDirectory(prefix="overprov-raw-nand-") as tmp:
                twins = twin_pairs(drives, rows, Path(tmp), most=args.twins_most)
            print("\nCalibrate's predictions where the rules' shares differ:\n")
            print(markdown(twins))
            for side in ("without", "any", "shared"):
                inside = [r[f"inside_{side}"] for r in twins if f"inside_{side}" in r]
                print(f"{side}: {sum(inside)} of {len(inside)} inside the 80% interval")
    if args.out is not None:
        args.out.write_text(json.dumps({"pairs": rows, "twins": twins} if args.twins else rows,
                                       indent=1) + "\n")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
