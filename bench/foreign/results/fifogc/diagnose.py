"""Why no uniform reading, FIFO or not, meets Dhara's WAF target: a diagnosis after
bench/foreign/results/fifogc/verdict.md (judges nothing; every drive here is seen).

For each Dhara truth (bench/foreign/results/newftl2/dhara-[a-e].json,
bench/foreign/results/fifogc/dhara-[f-i].json) the capped form the reserve readings use
(``gc_reserve.py``: WAF(x) = min(W_floor, c · curve(s / (1 − x) − 1))) read from the two typed
figures only as calibrate's "WAF 0+40" case has them: W_floor the WAF at 0%, the spare factor s
solved so that the form gives the WAF at 40%, and predicted at 10, 20, 30%; curve greedy's
(``fit.waf_at``) or FIFO's (``fifo_gc.curve``), c a constant WAF factor: 1 (calibrate's form
today) or the drive's WAF over its first quarter span write from empty (its FOB WAF: no page
copied there, so the checkpoint pages alone, 16/15 at 4 KiB). Milliseconds; nothing simulated.

    PYTHONPATH=python python bench/foreign/results/fifogc/diagnose.py > .../diagnose.txt
"""

from __future__ import annotations

import json
from pathlib import Path

from overprov.calibrate import fifo_gc
from overprov.calibrate import fit as fitmod

HERE = Path(__file__).resolve().parent
TRUTHS = [
    *sorted((HERE.parent / "newftl2").glob("dhara-?.json")),
    *sorted(HERE.glob("dhara-?.json")),
]
TARGET = 0.05
CURVES = {"greedy": fitmod.waf_at, "fifo": fifo_gc.curve}


def spare_for(waf: float, x: float, c: float, curve) -> float:
    """The spare factor s at which c · curve(s/(1 − x) − 1) = ``waf`` (bisection)."""
    lo, hi = 0.5, 1.0 + fitmod.RHO_MAX
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if c * curve(max(mid / (1 - x) - 1, fitmod.RHO_MIN)) > waf:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def main() -> None:
    met: dict[str, int] = {}
    for path in TRUTHS:
        doc = json.loads(path.read_text())
        truth = {lv["extra_op_percent"]: lv["steady_waf"] for lv in doc["levels"]}
        fob = [lv["fob"]["waf"] for lv in doc["levels"] if lv.get("fob")]
        c_fob = sum(fob) / len(fob)
        cfg = doc["config"]
        print(f"\n{path.parent.name}/{path.stem}: {cfg['blocks']} x {cfg['pages_per_block']}, "
              f"gc_ratio {cfg['gc_ratio']}; FOB WAF {c_fob:.4f}; truth "
              + ", ".join(f"{x:g}%: {w:.3f}" for x, w in truth.items()))  # fmt: skip
        for name, curve in CURVES.items():
            for label, c in (("c = 1", 1.0), ("c = FOB WAF", c_fob)):
                s = spare_for(truth[40], 0.4, c, curve)
                errs = {}
                for x in (10, 20, 30):
                    pred = min(truth[0], c * curve(max(s / (1 - x / 100) - 1, fitmod.RHO_MIN)))
                    errs[x] = pred / truth[x] - 1
                ok = all(abs(e) <= TARGET for e in errs.values())
                key = f"{name}, {label}"
                met[key] = met.get(key, 0) + ok
                cells = ", ".join(f"{x}% {e:+.1%}" for x, e in errs.items())
                print(f"  {key:20s} s {s:.4f}: {cells}{' met' if ok else ''}")
    print(f"\nwithin {TARGET:.0%} at 10, 20, 30% (0% and 40% exact by construction), of "
          f"{len(TRUTHS)} drives:")  # fmt: skip
    for k, n in met.items():
        print(f"  {k}: {n}")


if __name__ == "__main__":
    main()
