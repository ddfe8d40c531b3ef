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
from pathlib import Path
from typing import Any

from overprov.calibrate import evidence, spare_readings, uncertainty
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.errors import ConfigError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus_bench import CORPUS, load, read_cases  # noqa: E402  (bench/)
from corpus_foreign import foreign_drives, point  # noqa: E402
from corpus_report import raw_pairs, raw_worse_markdown  # noqa: E402

RULES = ("pooled", "shared")
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
    share, _ = spare_readings.raw_share(evs, within)
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
                       "share": by_rule["shared"][1],
                       "without": _geomean([(figs[r], w) for r, w in without.items()])}  # fmt: skip
                for rule, (w, _) in by_rule.items():
                    row[rule] = _geomean([(figs[r], v) for r, v in w.items()])
                out.append(row)
    return out


def stored_new_rule(cases: list[dict[str, Any]], drives: list[dict[str, Any]]) -> list[dict]:
    """The new rule's figure per stored pair, rebuilt from the stored figures (module doc)."""
    shares = {}
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
            w, share = rule_weights(evs, "shared")
            shares[key] = ({r.key: v / share for r, v in w.items()
                            if r.spare == predmod.RAW and share}, share)  # fmt: skip
        within_raw, share = shares[key]
        parts = {p["reading"]: p["value"] for p in given["parts"]}
        got = [(parts[k], v) for k, v in within_raw.items() if k in parts]
        missing = sum(v for k, v in within_raw.items() if k not in parts and v > 0)
        raw_mean = _geomean(got)
        new = without["predicted"]
        if share and raw_mean:
            new = math.exp((1 - share) * math.log(new) + share * math.log(raw_mean))
        rows.append({"drive": d["id"], "kind": given["held_out"]["kind"], "extra_op_percent": x,
                     "truth": float(given["held_out"]["value"]), "without": without["predicted"],
                     "pooled": given["predicted"], "shared": new, "share": share,
                     "missing": missing})  # fmt: skip
    return rows


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
    lines = ["| drive | held out | without raw NAND | pooled (before) | shared (now) | raw share |",
             "|---|---|---|---|---|---|"]  # fmt: skip
    for r in rows:
        errs = []
        for rule in ("without", "pooled", "shared"):
            v = r.get(rule)
            errs.append("–" if v is None else f"{100 * (v / r['truth'] - 1):+.2f}%")
        share = "–" if r.get("share") is None else f"{r['share']:.3f}"
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
    ap.add_argument("--foreign-only", type=Path, nargs="*", default=None,
                    help="only these folders' foreign curves (no corpus)")  # fmt: skip
    ap.add_argument("--out", type=Path, default=None, help="the rows as JSON")
    args = ap.parse_args()
    if args.foreign_only is not None:
        drives = [d for f in args.foreign_only for d in foreign_drives(f)]
    else:
        drives = load(CORPUS) + foreign_drives(args.foreign)
    rows: list[dict[str, Any]] = []
    if args.stored is not None:
        cases = read_cases(args.stored)
        print(raw_worse_markdown(cases) + "\n")
        rows = stored_new_rule(cases, drives)
        print(markdown(rows))
    if args.surrogate:
        rows = surrogate_pairs(drives)
        print(markdown(rows))
    if args.out is not None:
        args.out.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
