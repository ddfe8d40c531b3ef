"""The GC-reserve reading offered to typed figures without an onset, with the interval the hull of
the readings that reproduce the figures (``reserve_hull.OFFERED``), judged by
bench/intervals/RULE-hullres.md.

``gen NAME...``: a fresh generated drive of :data:`FRESH` as a truth file
(``iops_only_guard.generate``, the form of tcmd-bound2's generated truths) into
``bench/intervals/hullres/generated/``. ``run --arm on|off TRUTH[::CASE]...``: calibrate's
command for the case (default :data:`PLAN_CASE`, as ``tcmd_bound_rule.run`` gives it:
``evaluate.command`` on the truth's QD32 curve and its QD4 figure) with the flag set in its
process, into ``bench/intervals/hullres/runs/<stem>--<case>--<arm>.json`` with its CPU seconds.
``judge``: the rule's criteria, ``bench/intervals/hullres/verdict.{md,json}``.

    PYTHONPATH=python python bench/intervals/hullres_judge.py gen NAME...
    PYTHONPATH=python python bench/intervals/hullres_judge.py run --arm on TRUTH[::CASE]...
    PYTHONPATH=python python bench/intervals/hullres_judge.py judge
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "foreign"))
import evaluate  # noqa: E402  (bench/foreign/)
import iops_only_guard  # noqa: E402  (bench/foreign/)
import tally  # noqa: E402  (bench/intervals/; puts bench/ and bench/foreign/ on the path)

ROOT = tally.ROOT
OUT = HERE / "hullres"
RUNS = OUT / "runs"
GEN = OUT / "generated"
PLAN_CASE = "IOPS+WAF 0+40 QD32 + 40 QD4, FOB"
#: the rule's fresh drives (bench/intervals/RULE-hullres.md), as ``iops_only_guard.GENERATED``:
#: name -> (a reserve's spare factor and floor WAF, or a greedy drive's native OP; t_page µs;
#: t_cmd µs). None of these parameters was used by a generated drive before.
FRESH: dict[str, tuple[dict[str, float], float, float]] = {
    "gen-R5-reserve-sf090-floor9": ({"spare_factor": 0.90, "floor_waf": 9.0}, 4.5, 2.0),
    "gen-R6-reserve-sf082-floor5.5": ({"spare_factor": 0.82, "floor_waf": 5.5}, 6.5, 1.0),
    "gen-R7-reserve-sf076-floor4.5": ({"spare_factor": 0.76, "floor_waf": 4.5}, 5.5, 3.0),
    "gen-R8-reserve-sf086-floor8": ({"spare_factor": 0.86, "floor_waf": 8.0}, 3.5, 1.5),
    "gen-N5-greedy-op013": ({"native_op": 0.13}, 5.5, 2.5),
    "gen-N6-greedy-op024": ({"native_op": 0.24}, 4.5, 1.5),
}
#: ``overprov`` with the flag set first in its process
FLAG_MAIN = (
    "import sys; from overprov.calibrate import reserve_hull; reserve_hull.OFFERED = {on}; "
    "from overprov.cli import main; sys.exit(main(sys.argv[1:]))"
)


def gen(args: argparse.Namespace) -> int:
    GEN.mkdir(parents=True, exist_ok=True)
    iops_only_guard.GENERATED.update(FRESH)
    for name in args.names:
        doc = iops_only_guard.generate(name)
        (GEN / f"{name}.json").write_text(json.dumps(doc, indent=1) + "\n")
        print(f"{name}: {doc['cpu_s']:.1f} CPU s", flush=True)
    return 0


def stem_of(truth: Path) -> str:
    return f"{truth.parent.name}-{truth.stem}"


def run_one(truth: Path, case_name: str, arm: str) -> Path:
    """calibrate's command for ``case_name`` on ``truth`` with the flag ``arm`` (on, off)."""
    doc = json.loads(truth.read_text())
    curve = evaluate.truth_curve(doc, 32)
    case = next(c for c in evaluate.CASES if c[0] == case_name)
    others = [r for r in doc["levels"] if r["queue_depth"] != 32]
    cmd = evaluate.command(doc, curve, case, 1, others)
    cmd = [sys.executable, "-c", FLAG_MAIN.format(on=arm == "on"), *cmd[3:]]
    before, t0 = os.times(), time.time()
    with tempfile.TemporaryDirectory() as tmp:
        res = evaluate.run_case(cmd, curve, case, Path(tmp))
    after = os.times()
    kept = {
        "truth": str(truth.resolve().relative_to(ROOT)),
        "case": case_name,
        "reserve_hull": arm,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t0)),
        "cpu_s": (after.children_user - before.children_user)
        + (after.children_system - before.children_system),
        "result": res,
    }
    RUNS.mkdir(parents=True, exist_ok=True)
    name = "".join(ch for ch in case_name if ch.isalnum())
    path = RUNS / f"{stem_of(truth)}--{name}--{arm}.json"
    path.write_text(json.dumps(kept, indent=1) + "\n")
    print(f"{path.name}: {kept['cpu_s']:.1f} CPU s", flush=True)
    return path


def run(args: argparse.Namespace) -> int:
    for spec in args.truths:
        truth, _, case = spec.partition("::")
        run_one(ROOT / truth, case or PLAN_CASE, args.arm)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("names", nargs="+", choices=sorted(FRESH))
    g.set_defaults(func=gen)
    r = sub.add_parser("run")
    r.add_argument("--arm", choices=("on", "off"), required=True)
    r.add_argument("truths", nargs="+")
    r.set_defaults(func=run)
    args = ap.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
