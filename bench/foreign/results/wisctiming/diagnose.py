"""Why does the greedy twin miss WiscSim's held-out IOPS once the WAF figures choose greedy
(evidence.WAF_WEIGHTS)? (bench/foreign/results/wisctiming)

    PYTHONPATH=python python bench/foreign/results/wisctiming/diagnose.py run E G > diagnose.log
    PYTHONPATH=python python bench/foreign/results/wisctiming/diagnose.py screen >> diagnose.log

``run``: calibrate on seen WiscSim cases as the scoreboard runs them (the command of
bench/foreign/results/scoreboard/cases-mix), with WAF_WEIGHTS on, and with it and
blocking_erase_form.ON: each reading's weight, the blocking-GC reading's weight and χ² against
the analytic reading's, its t_cmd/t_page, and per level (0-40%) the error in % against the
truth of the reading's IOPS (steady: as stated), its refined twin's, the blocking-GC
reading's and its WAF; the combined IOPS. ``screen``: surrogate level, no twin: for every
case of cases-mix whose blocking-GC reading was weighed, the analytic χ² of the heaviest
reading's design (effective spare) in the plain and the erase-cost form (t_erase read), the
stored blocking χ², and the blocking weight by evidence.weights of the two χ² and whether
each reproduces (the by-figure refinement left out). CPU seconds (bench/cpu_clock.py) at the
end of each part.
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
from overprov.calibrate import blocking_erase_form, erase_reading, evidence, gc_designs, uncertainty  # noqa: E402
from overprov.calibrate import closed_loop as loopmod  # noqa: E402
from overprov.calibrate import fit as F  # noqa: E402
from overprov.calibrate.cli import USER_POINT_REL_SD, user_points  # noqa: E402

R = ROOT / "bench/foreign/results/scoreboard/cases-mix"
CASES = {
    "A": "WiscSim--wiscsee--wiscsee-a", "B": "WiscSim--wiscsee--wiscsee-b",
    "C": "WiscSim--wiscsee3--wiscsee-c", "D": "WiscSim--wiscsee3--wiscsee-d",
    "E": "WiscSim--wiscsee3--wiscsee-e", "F": "WiscSim--wiscgc--wiscsee-f",
    "G": "WiscSim--wiscgc--wiscsee-g",
}  # fmt: skip
ARMS = {
    "WAF_WEIGHTS": "from overprov.calibrate import evidence; evidence.WAF_WEIGHTS = True; ",
    "WAF_WEIGHTS + blocking_erase_form.ON": (
        "from overprov.calibrate import evidence, blocking_erase_form; "
        "evidence.WAF_WEIGHTS = True; blocking_erase_form.ON = True; "
    ),
}


def calibrate(command: str, prelude: str) -> dict:
    args = shlex.split(command)[1:]  # "overprov calibrate ..."
    code = f"import sys; {prelude}from overprov.cli import main; sys.exit(main())"
    out = subprocess.run(
        ["nice", "-n", "10", sys.executable, "-c", code, *args],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return json.loads(out)


def pct(a: float | None, b: float) -> str:
    return f"{100 * (a / b - 1):+6.1f}" if a else "     -"


def run(names: list[str]) -> None:
    print("## 1. calibrate's readings on seen WiscSim, the IOPS per level (error in %)")
    for name in names:
        case = json.loads((R / f"{CASES[name]}.json").read_text())
        iops = {lv["extra_op_percent"]: lv["iops_true"] for lv in case["levels"]}
        waf = {lv["extra_op_percent"]: lv["waf_true"] for lv in case["levels"]}
        print(f"\n{name}: {case['command']}")
        print("  truth IOPS " + " ".join(f"{x}:{v:.0f}" for x, v in iops.items()))
        for arm, prelude in ARMS.items():
            doc = calibrate(case["command"], prelude)
            comb = " ".join(pct(lv["steady_iops"], iops[lv["extra_op_percent"]])
                            for lv in doc["levels"])  # fmt: skip
            print(f"  [{arm}] combined IOPS {comb}")
            for key, r in doc["readings"].items():
                g = r["fit"].get("gc_mechanism") or {}
                print(
                    f"    {key:34s} weight {r['weight']:.3f}; blocking-GC weight"
                    f" {g.get('weight', 0):.3f} (χ² {g.get('chi2', 0):.1f} against the analytic"
                    f" {g.get('analytic_chi2', 0):.1f}); t_cmd {r['fit']['t_cmd_us']:.1f}"
                    f" t_page {r['fit']['t_page_us']:.1f} µs"
                )
                for f in ("steady_iops", "twin_iops", "blocking_gc_iops"):
                    row = " ".join(pct(lv.get(f), iops[lv["extra_op_percent"]])
                                   for lv in r["levels"])  # fmt: skip
                    print(f"      {f:17s}{row}")
                row = " ".join(pct(lv["waf"], waf[lv["extra_op_percent"]]) for lv in r["levels"])
                print(f"      {'waf':17s}{row}")


def blocking_weight(analytic: dict, blocking: dict) -> float:
    """The blocking-GC reading's weight by ``evidence.weights`` of the two χ² and whether each
    reproduces its fitted figures (the by-figure refinement left out)."""
    rep = {"a": evidence.reproduced(analytic, untested=True), "b": blocking["rep"]}
    return evidence.weights({"a": analytic["chi2"], "b": blocking["chi2"]}, rep)["b"]


def screen() -> None:
    print("\n## 2. surrogate level over cases-mix: the blocking-GC weight, plain and erase form")
    cv_sd = uncertainty.weighing_rel_sd(None)  # typed figures: the recorded model-form sd
    for path in sorted(R.glob("*.json")):
        case = json.loads(path.read_text())
        g = case.get("gc_mechanism") or {}
        if "weight" not in g or "--points" not in case.get("command", ""):
            continue
        args = shlex.split(case["command"])
        opt = {a: args[i + 1] for i, a in enumerate(args[:-1]) if a.startswith("--")}
        points = user_points(opt.get("--points"), opt.get("--waf-points"))
        if "--fob-iops" in opt:
            points.append(F.Point(0.0, float(opt["--fob-iops"]), USER_POINT_REL_SD, fresh=True))
        steady, other = F.split_queue_depths(points, F.WORKLOAD_QD)
        top = max(case["readings"], key=lambda k: case["readings"][k])
        design = top.split(":")[1] if ":" in top else "greedy"
        curve = gc_designs.curve(design.removesuffix("+erase")) or F.waf_at
        form = evidence.ReadingForm(curve)
        if top.endswith("+erase"):  # an erase-cost twin: weighed in that form already
            form = erase_reading.erase_form(form)
        try:
            plain, _ = loopmod.assess(form, steady, cv_sd, other, F.WORKLOAD_QD)
            blocking_erase_form.ON = True
            erased, _ = blocking_erase_form.assess(form, steady, cv_sd, other, F.WORKLOAD_QD)
        except Exception as exc:  # noqa: BLE001 - a screen: report and go on
            print(f"{path.stem}: not screened ({type(exc).__name__}: {exc})")
            continue
        finally:
            blocking_erase_form.ON = False
        t_erase = blocking_erase_form.erase_us_per_page(form, steady)
        b = {"chi2": g["chi2"], "rep": bool(g.get("reproduces_fitted_figures"))}

        w_plain, w_erase = (blocking_weight(a, b) for a in (plain, erased))
        moved = "" if abs(w_plain - w_erase) < 0.05 else "  <- moves"
        print(
            f"{path.stem}: {top}; t_erase {t_erase:.1f} µs; analytic χ² plain {plain['chi2']:.1f}"
            f" erase {erased['chi2']:.1f}; blocking {b['chi2']:.1f} (reproduces {b['rep']});"
            f" stored weight {g['weight']:.3f}; blocking weight plain {w_plain:.3f}"
            f" erase {w_erase:.3f}{moved}"
        )


if __name__ == "__main__":
    part, names = (sys.argv[1:2] or ["screen"])[0], sys.argv[2:]
    c0 = cpu_s()
    run(names) if part == "run" else screen()
    print(f"(part {part}: {cpu_s() - c0:.1f} CPU s, this process; the calibrate runs' are theirs)")
