"""Would weighing the GC designs on their WAF figures put the weight on the right design?
(bench/foreign/results/wafweights)

    PYTHONPATH=python python bench/foreign/results/wafweights/diagnose.py > diagnose.log

For each of the scoreboard's 72 seen plan cases (bench/foreign/results/scoreboard/cases-final),
calibrate's command is run up to its weighing (``spare_readings.weigh``: the surrogate's fits,
no twin) and stopped there. Each reading's weight within its spare class is computed twice:
today's (``evidence.WAF_WEIGHTS`` off) and with the flag on. Each reading's surrogate WAF at
the case's levels is kept, and the weighted geometric mean of them is compared with the
truth's QD32 WAF at every level (the held-out 10-30% included): worst |log error| in %. This
is the surrogate's WAF, not the twin's (the scoreboard's figures are the twins').
CPU seconds (bench/cpu_clock.py) at the end.
"""

from __future__ import annotations

import json
import math
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT / "bench"))
from cpu_clock import cpu_s  # noqa: E402
from overprov import cli  # noqa: E402
from overprov.calibrate import evidence, spare_readings  # noqa: E402

CASES = ROOT / "bench/foreign/results/scoreboard/cases-final"


class Stop(Exception):
    """Raised once the readings are weighed: no twin is simulated."""


def weighed(command: str) -> dict:
    """The case's evidences, with the WAF terms and each reading's surrogate WAF by level."""
    got: dict = {}
    assess = evidence.assess

    def keep(form, points, *a, **k):  # noqa: ANN001, ANN002, ANN003
        ev = assess(form, points, *a, **k)
        s = form.fit(points)
        ev["_waf"] = {x: s.waf(x) for x in (0.0, 10.0, 20.0, 30.0, 40.0)}
        return ev

    weigh = spare_readings.weigh

    def stop(fig, curves=None):  # noqa: ANN001
        got["ev"] = weigh(fig, curves)[0]
        raise Stop

    evidence.assess, spare_readings.weigh = keep, stop
    evidence.WAF_WEIGHTS = True
    try:
        cli.main(shlex.split(command)[1:])
    except Stop:
        pass
    finally:
        evidence.assess, spare_readings.weigh = assess, weigh
        evidence.WAF_WEIGHTS = False
    return got.get("ev", {})


def shared(ev: dict, on: bool) -> dict:
    evidence.WAF_WEIGHTS = on
    try:
        within = spare_readings.class_weights(ev)
        share, _ = spare_readings.raw_share(ev, within)
        return spare_readings.shared_weights(within, share)
    finally:
        evidence.WAF_WEIGHTS = False


def worst(ev: dict, w: dict, truth: dict) -> float:
    errs = []
    for x, t in truth.items():
        got = spare_readings.weighted_geomean([ev[r]["_waf"][x] for r in ev], [w[r] for r in ev])
        errs.append(abs(math.log(got / t)))
    return 100 * max(errs)


def main() -> None:
    t0 = cpu_s()
    changed = 0
    for f in sorted(CASES.glob("*.json")):
        doc = json.loads(f.read_text())
        truth = {float(r["extra_op_percent"]): r["waf_true"] for r in doc.get("levels", [])
                 if r.get("waf_true")}  # fmt: skip
        try:
            ev = weighed(doc["command"])
        except Exception as exc:  # noqa: BLE001  a case calibrate refuses
            print(f"{f.stem}: not weighed ({type(exc).__name__}: {str(exc)[:80]})")
            continue
        if not ev:
            print(f"{f.stem}: not weighed (no typed readings)")
            continue
        off, on = shared(ev, False), shared(ev, True)
        nwaf = min(e.get("n_waf_figures", 0) for e in ev.values())
        moved = max(abs(off[r] - on[r]) for r in ev)
        changed += moved > 1e-3
        top = {k: max(w, key=w.get).key for k, w in (("off", off), ("on", on))}
        line = f"{f.stem}: WAF figures {nwaf}; heaviest off {top['off']} on {top['on']}"
        if truth:
            line += f"; surrogate WAF worst off {worst(ev, off, truth):.2f}% on"
            line += f" {worst(ev, on, truth):.2f}%"
        print(line)
        if moved > 1e-3:
            for r in ev:
                wx = ", ".join(f"{x:g}:{ev[r]['_waf'][x]:.3f}" for x in truth)
                chi2 = f"chi2 {ev[r]['chi2']:.2f} waf_chi2 {ev[r]['waf_chi2']:.2f}"
                print(f"    {r.key:34s} off {off[r]:.3f} on {on[r]:.3f}  {chi2}  WAF {wx}")
            print("    truth " + ", ".join(f"{x:g}:{t:.3f}" for x, t in truth.items()))
    print(f"\n{changed} cases whose weights change; CPU {cpu_s() - t0:.1f} s")


if __name__ == "__main__":
    main()
