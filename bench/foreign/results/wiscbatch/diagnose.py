"""Is WiscSim's WAF-vs-OP curve at QD32 a batch collector's? (bench/foreign/results/wiscbatch)

    PYTHONPATH=python python bench/foreign/results/wiscbatch/diagnose.py > diagnose.log

1. Each stored WiscSim truth (A-G) read with one spare: the native spare each QD32 WAF figure
   implies under greedy's curve (``fit.waf_at``), d-choices 4 and 8 (``gc_designs``) and the
   batch design (``batch_gc.curve``), and the WAF at 40% each curve gives with the spare of 0%
   (a curve of the drive's shape implies one spare at every level).
2. The batch design's WAF ratio at one share (0.1) on drives of 256, 512 and 2,048 blocks.
3. calibrate on seen C, E, G, B as the scoreboard runs them (the case's command from
   bench/foreign/results/scoreboard/cases-final): each reading's weight and its residuals at
   the fitted 40% IOPS and WAF figures (log error; the figures' sd is 0.05).
CPU seconds of each part (bench/cpu_clock.py) at the end of it.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT / "bench"))
from cpu_clock import cpu_s  # noqa: E402
from overprov.calibrate import batch_gc, gc_designs  # noqa: E402
from overprov.calibrate import fit as F  # noqa: E402

R = ROOT / "bench/foreign/results"
TRUTHS = {
    "A": "wiscsee/wiscsee-a", "B": "wiscsee/wiscsee-b", "C": "wiscsee3/wiscsee-c",
    "D": "wiscsee3/wiscsee-d", "E": "wiscsee3/wiscsee-e", "F": "wiscgc/wiscsee-f",
    "G": "wiscgc/wiscsee-g",
}  # fmt: skip
CASES = {
    "C": "WiscSim--wiscsee3--wiscsee-c", "E": "WiscSim--wiscsee3--wiscsee-e",
    "G": "WiscSim--wiscgc--wiscsee-g", "B": "WiscSim--wiscsee--wiscsee-b",
}  # fmt: skip
CURVES = {
    "greedy": F.waf_at,
    "d-choices-4": gc_designs.DChoicesCurve(4),
    "d-choices-8": gc_designs.DChoicesCurve(8),
    "greedy-batch": batch_gc.curve,
}


def one_spare() -> None:
    print("## 1. the native spare each QD32 WAF implies, by curve; 40% from 0%'s spare")
    for name, stem in TRUTHS.items():
        doc = json.loads((R / f"{stem}.json").read_text())
        c = doc["config"]
        geo = c["geometry"]
        share = 2 * geo["channels"] / (geo["channels"] * geo["blocks_per_channel"])
        levels = [r for r in doc["levels"] if r["queue_depth"] == 32]
        wafs = " ".join(f"{r['extra_op_percent']}:{r['steady_waf']:.3f}" for r in levels)
        print(f"{name}: WAF {wafs}; batch share {share:.3f}")
        for cname, curve in CURVES.items():
            nat = [
                (1 + F.rho_for_waf(r["steady_waf"], curve)) * (1 - r["extra_op_percent"] / 100) - 1
                for r in levels
            ]
            at40 = curve(F.rho_eff(nat[0], 40)) / levels[-1]["steady_waf"] - 1
            spread = max(nat) - min(nat)
            print(
                f"  {cname:13s} spare {' '.join(f'{x:.3f}' for x in nat)} (spread {spread:.3f});"
                f" 40% from 0%'s spare {100 * at40:+.1f}%"
            )


def size_check() -> None:
    print("\n## 2. the batch's WAF ratio at share 0.1 by drive size (seed 1, 3 + 3 drive writes)")
    for rho in (0.05, 0.1, 0.3):
        row = []
        for blocks in (256, 512, 2048):
            q = batch_gc.simulated_waf(rho, 0.1, 1, blocks) / batch_gc.simulated_waf(
                rho, None, 1, blocks
            )
            row.append(f"{blocks} blocks {q:.4f}")
        print(f"rho {rho}: " + "; ".join(row))


def readings() -> None:
    print("\n## 3. calibrate's readings on seen C, E, G, B (today's defaults)")
    for name, stem in CASES.items():
        case = json.loads((R / f"scoreboard/cases-final/{stem}.json").read_text())
        cmd = shlex.split(case["command"])[1:]  # "overprov calibrate ..."
        out = subprocess.run(
            ["nice", "-n", "10", sys.executable, "-m", "overprov", *cmd],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        doc = json.loads(out)
        print(f"{name}: {case['command']}")
        rows = list(doc["readings"].items()) + list((doc.get("readings_set_aside") or {}).items())
        for key, r in rows:
            ev = r.get("evidence") or {}
            res = {
                (x["extra_op_percent"], x["figure"]): x["log_error"]
                for x in ev.get("residuals", [])
                if not x.get("fresh")
            }
            twin = [f"{lv['waf']:.3f}" for lv in r.get("levels", [])]
            print(
                f"  {key:32s} weight {r.get('weight', 0):.3f} chi2 {ev.get('chi2', 0):6.2f}"
                f" residual 40% IOPS {res.get((40.0, 'iops'), 0):+.3f} WAF"
                f" {res.get((40.0, 'waf'), 0):+.3f}, 0% WAF {res.get((0.0, 'waf'), 0):+.3f};"
                f" twin WAF {' '.join(twin) or '(not simulated)'}"
            )
        truth = [f"{lv['waf_true']:.3f}" for lv in case["levels"]]
        pred = [f"{lv['waf']:.3f}" for lv in doc["levels"]]
        print(f"  truth WAF {' '.join(truth)}; combined {' '.join(pred)}")


if __name__ == "__main__":
    parts = sys.argv[1:] or ["1", "2", "3"]
    for part, fn in (("1", one_spare), ("2", size_check), ("3", readings)):
        if part in parts:
            c0 = cpu_s()
            fn()
            print(f"(part {part}: {cpu_s() - c0:.1f} CPU s)", flush=True)
