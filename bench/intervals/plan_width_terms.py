"""Which term sets the width of calibrate's 80% intervals on a foreign FTL's plan cases: the
refit spread of the figures' stated noise, the model-form error, or the span of several
readings (a diagnosis; nothing is changed).

For each held-out figure of ``bench/intervals/tally.py``'s plan cases of the families asked
(calibrate run on typed figures: ``--points``, ``--waf-points``, ``--fob-iops``), its figures are
rebuilt as calibrate reads them (``cli.user_points``: each typed figure at
``cli.USER_POINT_REL_SD``, 5%) and, in log width ln(high / low):

- **refit**: the greedy surrogate's bootstrap band at the level (``uncertainty.bootstrap``, 100
  refits, the figures redrawn from their 5%), and the same with the figures at 2%;
- **form**: 2 · z80 · the model-form sd calibrate adds there (``uncertainty.model_sd_at``), and
  how much of it the IOPS-only term (``model_form_error.json``'s ``iops_only``) is;
- **span**: the stored interval's log width less hypot(refit, form): what the other readings
  (or a reading's own curve, not the greedy one) add.

    PYTHONPATH=python python bench/intervals/plan_width_terms.py --families WiscSim,SSDsim
"""

from __future__ import annotations

import argparse
import math
import re
import statistics
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import tally  # noqa: E402  (bench/intervals/)
from overprov.calibrate import cli, gc_designs, uncertainty  # noqa: E402
from overprov.calibrate import fit as fitmod  # noqa: E402
from overprov.errors import ConfigError  # noqa: E402

Z80 = uncertainty.Z80
#: the figures' noise of the counterfactual refit (a foreign truth's settled figures: 2%)
NOISE_2PCT = 0.02


def points_of(command: str) -> list[fitmod.Point]:
    """The figures a calibrate command types, as calibrate reads them."""

    def arg(name: str) -> str | None:
        m = re.search(rf"--{name} (\S+)", command)
        return m.group(1) if m else None

    pts = cli.user_points(arg("points"), arg("waf-points"))
    fob = arg("fob-iops")
    if fob is not None:
        pts.append(fitmod.Point(0.0, float(fob), cli.USER_POINT_REL_SD, fresh=True))
    return pts


def at_noise(pts: list[fitmod.Point], sd: float) -> list[fitmod.Point]:
    return [replace(p, iops_rel_sd=sd, waf_rel_sd=sd) for p in pts]


def refit_width(pts: list[fitmod.Point], level: float, kind: str) -> float | None:
    main = [p for p in pts if p.queue_depth is None]
    try:
        b = uncertainty.bootstrap(main, [level])
    except ConfigError:
        return None
    lo, hi = b[kind][level]
    return math.log(hi / lo)


def terms(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    cache: dict[str, Any] = {}
    out = []
    for r in rows:
        cmd = r["command"]
        if cmd not in cache:
            pts = points_of(cmd)
            form = uncertainty.model_form_for(pts, simulated=False)
            cache[cmd] = (pts, form, {})
        pts, form, memo = cache[cmd]
        x = float(r["level"])
        key = (x, r["kind"])
        if key not in memo:
            sd = uncertainty.model_sd_at(pts, [x])[x] or 0.0
            base = math.sqrt(max(sd**2 - (form.iops_only_sd or 0.0) ** 2, 0.0))
            memo[key] = {
                "refit": refit_width(pts, x, r["kind"]),
                "refit_2pct": refit_width(at_noise(pts, NOISE_2PCT), x, r["kind"]),
                "form": 2 * Z80 * sd,
                "form_without_iops_only": 2 * Z80 * base,
                "residual_sd": form.residual_sd,
            }
        t = dict(memo[key])
        total = math.log(r["high"] / r["low"])
        t.update(
            family=r["family"], has_waf=r["has_waf"], total=total, inside=r["inside"],
            log_error=abs(math.log(r["predicted"] / r["true"])), width=r["width"],
            span=max(0.0, total - math.hypot(t["refit"] or 0.0, t["form"])),
        )  # fmt: skip
        out.append(t)
    return out


def med(ts: list[dict[str, Any]], k: str) -> str:
    vals = [t[k] for t in ts if t[k] is not None]
    return f"{statistics.median(vals):.3f}" if vals else "–"


def table(ts: list[dict[str, Any]]) -> str:
    lines = [
        "| cases | n | median \\|log error\\| | median R | refit (5%) | refit (2%) | form | "
        "form without the IOPS-only term | span | total (log) | dominant (cases) | inside | "
        "median width |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    groups: dict[str, list[dict[str, Any]]] = {}
    for t in ts:
        fit = "IOPS and WAF figures" if t["has_waf"] else "IOPS figures only"
        groups.setdefault(f"{t['family']}, {fit}", []).append(t)
    for g, gs in sorted(groups.items()):
        dom: dict[str, int] = {}
        for t in gs:
            k = max(("refit", "form", "span"), key=lambda n: t[n] or 0.0)
            dom[k] = dom.get(k, 0) + 1
        lines.append(
            f"| {g} | {len(gs)} | {med(gs, 'log_error')} | {med(gs, 'residual_sd')} | "
            f"{med(gs, 'refit')} | {med(gs, 'refit_2pct')} | {med(gs, 'form')} | "
            f"{med(gs, 'form_without_iops_only')} | {med(gs, 'span')} | {med(gs, 'total')} | "
            + ", ".join(f"{k} {n}" for k, n in sorted(dom.items(), key=lambda kv: -kv[1]))
            + f" | {tally.pct(sum(t['inside'] for t in gs) / len(gs))} | "
            f"{tally.pct(statistics.median(t['width'] for t in gs))} |"
        )
    return "\n".join(lines)


def residual_by_design(rows: list[dict[str, Any]]) -> str:
    """Per fit with a WAF figure: the residual sd R the form error uses (the greedy surrogate's,
    ``uncertainty.fit_residual_sd``) beside each d-choices design's on the same figures."""
    designs = [f"d-choices-{d}" for d in gc_designs.D_GRID]
    lines = ["| family | truth | case | R, greedy (used) | " + " | ".join(designs) + " |",
             "|---|---|---|---|" + "---|" * len(designs)]  # fmt: skip
    seen = set()
    for r in rows:
        key = (r["family"], r["truth"], r["case"])
        if not r["has_waf"] or key in seen:
            continue
        seen.add(key)
        pts = [p for p in points_of(r["command"]) if p.queue_depth is None]
        rs = [uncertainty.fit_residual_sd(pts)]
        rs += [uncertainty.fit_residual_sd(pts, curve=gc_designs.curve(d)) for d in designs]
        cells = " | ".join("–" if v is None else f"{v:.3f}" for v in rs)
        lines.append(f"| {r['family']} | {r['truth']} | {r['case']} | {cells} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--families", default="WiscSim,SSDsim", help="tally.py family names")
    args = ap.parse_args(argv)
    fams = set(args.families.split(","))
    rows = [r for r in tally.plan_rows() if r["family"] in fams and r.get("command")]
    print(table(terms(rows)))
    print()
    print(residual_by_design(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
