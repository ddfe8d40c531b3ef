"""What sets the width of calibrate's 80% intervals on FEMU end to end, and what MQSim's misses
are (a diagnosis; nothing is changed).

Reads the pooled tally's rows with the re-predicted cases (``bench/intervals/tally-now/
rows-now.jsonl``, written by ``tally.py --now``) and, for FEMU end to end, each case's
``prediction.json`` beside them. Per case, in log width ln(high / low) at the held-out levels:

- **kept**: the readings the interval spans (``readings``; none listed: the one reading);
- **form**: 2 · z80 · the model-form sd calibrate used (``uncertainty.model_form_for`` on the
  case's points: 0.82 × hypot(0.02, R), R the *greedy* surrogate's residual on them);
- **refit**: the rest of the width, sqrt(total² − form²) (0 for the GC-reserve reading, which
  has no bootstrap: ``gc_reserve.no_bootstrap``);
- **own R**: the kept reserve reading's own residual on the same figures
  (``uncertainty.surrogate_residual_sd``, ``evidence.n_parameters``, the onset from empty as a
  figure), on the figures as measured and as ``discard_transient`` tolerates them (its
  evidence's residuals), and the form sd that residual would give at the recorded scale.

MQSim: per family and fit, the misses by figure and by side (the signed log error's sign).

    PYTHONPATH=python python bench/intervals/femu_width_terms.py [--out widthfemu/width-terms.md]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path
from typing import Any

from overprov.calibrate import evidence, gc_reserve, uncertainty
from overprov.calibrate import fit as fitmod

HERE = Path(__file__).resolve().parent
NOW = HERE / "tally-now"
Z80 = uncertainty.Z80
FEMU_E2E = "FEMU, end to end"
MQSIM = ("MQSim", "MQSim, GC checks retried")


def points_of(pred: dict[str, Any]) -> list[fitmod.Point]:
    """The points a stored prediction was fitted to (its workload's queue depth)."""
    return [
        fitmod.Point(q["extra_op_percent"], q["iops"], q["iops_rel_sd"], q["waf"],
                     q["waf_rel_sd"], q["fresh"], q["queue_depth"])
        for q in pred["fit"]["points"]
    ]  # fmt: skip


def reserve_residuals(pts: list[fitmod.Point], onset: float, rel_sd: float) -> dict[str, float]:
    """The greedy reserve reading's own residual sd on ``pts`` as measured and as
    ``discard_transient`` tolerates them (``checked_points``), the onset a figure."""
    form = gc_reserve.ReserveForm(fitmod.waf_at, rel_sd, onset=onset)
    s = form.fit(pts)
    n_par = evidence.n_parameters(s, form)
    e = math.log(gc_reserve.onset_spare_factor(s) / onset)
    return {
        "as_measured": uncertainty.surrogate_residual_sd(s, pts, n_par, (e,)),
        "as_tolerated": uncertainty.surrogate_residual_sd(s, form.checked_points(pts), n_par, (e,)),
    }


def femu_cases(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    recorded = uncertainty.recorded_model_form(False)
    rel_sd = recorded.rel_sd if recorded else 0.0
    for case in sorted({r["case"] for r in rows if r["family"] == FEMU_E2E}):
        folder = NOW / "femu" / case
        pred = json.loads((folder / "prediction.json").read_text())
        onset = json.loads((folder / "run.json").read_text())["onset_spare_factor"]
        pts = points_of(pred)
        form = uncertainty.model_form_for(pts, simulated=False)
        kept = sorted(k for k, v in pred.get("readings", {}).items() if v.get("weight", 0) > 0)
        mine = [r for r in rows if r["family"] == FEMU_E2E and r["case"] == case]
        total = statistics.median(math.log(r["high"] / r["low"]) for r in mine)
        m = form.at(None)
        c = {
            "case": case, "kept": kept or ["the one reading"], "n": len(mine),
            "inside": sum(r["inside"] for r in mine) / len(mine),
            "median_width": statistics.median(r["width"] for r in mine),
            "median_abs_log_error": statistics.median(
                abs(math.log(r["predicted"] / r["true"])) for r in mine),
            "worst_abs_log_error": max(abs(math.log(r["predicted"] / r["true"])) for r in mine),
            "greedy_residual": form.residual_sd, "form_sd": m, "total": total,
            "form": 2 * Z80 * m, "refit": math.sqrt(max(total**2 - (2 * Z80 * m) ** 2, 0.0)),
        }  # fmt: skip
        if kept == ["gc_reserve"]:
            own = reserve_residuals(pts, onset, rel_sd)
            c |= {f"own_{k}": v for k, v in own.items()}
            c["own_form_sd"] = form.residual_scale * math.hypot(form.floor, own["as_measured"])
        out.append(c)
    return out


def mqsim_misses(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for fam in MQSIM:
        for block in ("corpus", "plan"):
            for waf in (True, False):
                rs = [r for r in rows if r["family"] == fam and r["block"] == block
                      and r["has_waf"] == waf and not r["stale"]]  # fmt: skip
                if not rs:
                    continue
                for kind in ("iops", "waf"):
                    ks = [r for r in rs if r["kind"] == kind]
                    errs = [math.log(r["predicted"] / r["true"]) for r in ks]
                    miss = [e for r, e in zip(ks, errs, strict=True) if not r["inside"]]
                    out.append({
                        "family": fam, "block": block, "waf_figure": waf, "kind": kind,
                        "n": len(ks), "inside": sum(r["inside"] for r in ks) / len(ks),
                        "median_log_error": statistics.median(errs),
                        "misses_high": sum(e > 0 for e in miss),
                        "misses_low": sum(e < 0 for e in miss),
                        "median_half_width": statistics.median(
                            math.log(r["high"] / r["low"]) / 2 for r in ks),
                    })  # fmt: skip
    return out


def f3(v: float | None) -> str:
    return "–" if v is None else f"{v:.3f}"


def markdown(femu: list[dict[str, Any]], mq: list[dict[str, Any]]) -> str:
    lines = [
        "| case | kept | n | inside | median width | median \\|log error\\| | worst | greedy R "
        "| form sd | form (log width) | refit | own R as measured | as tolerated | own form sd |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for c in femu:
        lines.append(
            f"| {c['case']} | {', '.join(c['kept'])} | {c['n']} | {100 * c['inside']:.0f}% | "
            f"{100 * c['median_width']:.0f}% | {f3(c['median_abs_log_error'])} | "
            f"{f3(c['worst_abs_log_error'])} | {f3(c['greedy_residual'])} | {f3(c['form_sd'])} | "
            f"{f3(c['form'])} | {f3(c['refit'])} | {f3(c.get('own_as_measured'))} | "
            f"{f3(c.get('own_as_tolerated'))} | {f3(c.get('own_form_sd'))} |"
        )
    lines += [
        "",
        "| family | block | WAF figure | figure | n | inside | median log error | misses high "
        "| misses low | median half width (log) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for m in mq:
        lines.append(
            f"| {m['family']} | {m['block']} | {'yes' if m['waf_figure'] else 'no'} | "
            f"{m['kind']} | {m['n']} | {100 * m['inside']:.0f}% | {m['median_log_error']:+.3f} | "
            f"{m['misses_high']} | {m['misses_low']} | {m['median_half_width']:.3f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="a markdown file for the tables (and .json beside)")
    args = ap.parse_args(argv)
    rows = [json.loads(line) for line in (NOW / "rows-now.jsonl").read_text().splitlines()]
    femu, mq = femu_cases(rows), mqsim_misses(rows)
    text = markdown(femu, mq)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
        args.out.with_suffix(".json").write_text(
            json.dumps({"femu_end_to_end": femu, "mqsim": mq}, indent=1) + "\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
