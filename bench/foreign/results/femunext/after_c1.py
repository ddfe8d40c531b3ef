"""After C1 was judged (judged.txt), judging nothing: on each fresh drive, which reading the flags
chose and whether ``reserve_next`` went on past a set-aside twin. Surrogates only (no twin run):
each drive's typed figures (its off case's command, read back by
bench/intervals/hullgate/centre_diag.py's ``fig_of``) weighed as ``spare_readings.weigh`` weighs
them, off and with ``steep_pair.READ_AS_FLOOR``: whether ``steep_pair.gentlest_alone`` fires, and
every reading's weight and surrogate WAF error at 10-30% against the truth.

    PYTHONPATH=python python bench/foreign/results/femunext/after_c1.py > after_c1.txt
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from overprov.calibrate import spare_readings, steep_pair, uncertainty

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[3] / "bench/intervals/hullgate"))
from centre_diag import fig_of  # noqa: E402


def readings_text(fig, truth_waf: dict[float, float]) -> list[str]:
    evs, _ = spare_readings.weigh(fig)
    w = spare_readings.class_weights(evs)
    out = []
    for r in sorted(evs, key=lambda k: -w[k]):
        s = r.reserve.fit(fig.points) if r.reserve is not None else None
        errs = []
        for x in (10, 20, 30):
            if s is not None:
                errs.append(f"{x}%: {s.waf(x) / truth_waf[x] - 1:+.1%}")
        said = f"  surrogate WAF {', '.join(errs)}" if errs else ""
        out.append(f"  {r.key:26s} w={w[r]:.3g} chi2={evs[r]['chi2']:.1f}{said}")
    return out


def main() -> None:
    for line in (HERE / "drives.txt").read_text().splitlines():
        stem = line.split(" ")[0]
        doc = json.loads((HERE / "fresh" / f"{stem}.json").read_text())
        truth_waf = {lv["extra_op_percent"]: lv["steady_waf"] for lv in doc["levels"]
                     if lv["queue_depth"] == 32}  # fmt: skip
        off = json.loads((HERE / "fresh-off" / f"FEMU--femunext_fresh--{stem}.json").read_text())
        fig = fig_of("x " + off["command"].split(" calibrate ", 1)[1])
        fig.jobs, fig.progress = 1, False
        cv = uncertainty.weighing_rel_sd(fig.model_form)
        said = ", ".join(f"{x:g}%: {v:.3f}" for x, v in truth_waf.items())
        print(f"\n{stem}: truth WAF {said}")
        print(f"  gentlest_alone (steep_pair's test): {steep_pair.gentlest_alone(fig.points, cv)}")
        steep_pair.READ_AS_FLOOR = False
        print(" off:")
        print("\n".join(readings_text(fig, truth_waf)))
        steep_pair.READ_AS_FLOOR = True
        print(" READ_AS_FLOOR:")
        print("\n".join(readings_text(fig, truth_waf)))


if __name__ == "__main__":
    main()
