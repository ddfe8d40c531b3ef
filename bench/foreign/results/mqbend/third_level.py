"""What a typed figure at a third level gives with today's code: each MQSim truth's plan case
("IOPS+WAF 0+40, FOB", bench/foreign/results/scoreboard/run.py) with IOPS and WAF at one more
level typed beside them (or at the levels named, "20+40": the deep 0% left out), run through
bench/foreign/evaluate.py's ``evaluate_case``; one JSON a truth in OUTDIR and a line a run with
its CPU seconds (bench/cpu_clock.py) in ``runs.log``.

    PYTHONPATH=python python bench/foreign/results/mqbend/third_level.py 20+40 OUTDIR T.json ...
    PYTHONPATH=python python bench/foreign/results/mqbend/third_level.py table OUTDIR
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOREIGN = HERE.parents[1]
sys.path.insert(0, str(FOREIGN.parent))
sys.path.insert(0, str(FOREIGN))
sys.path.insert(0, str(FOREIGN / "results" / "scoreboard"))
import evaluate  # noqa: E402
from cpu_clock import cpu_s  # noqa: E402
from run import summary  # noqa: E402  (bench/foreign/results/scoreboard/run.py)


def case_with(spec: str) -> tuple:
    """The case typing IOPS and WAF at the levels ``spec`` names ("0+20+40") and the FOB."""
    levels = tuple(sorted(int(x) for x in spec.split("+")))
    return (f"IOPS+WAF {'+'.join(map(str, levels))}, FOB", levels, levels, True, False)


def run(spec: str, out_dir: Path, truths: list[str]) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    case = case_with(spec)
    with (HERE / "runs.log").open("a") as log:
        for path in truths:
            doc = json.loads(Path(path).read_text())
            curve = evaluate.truth_curve(doc, 32)
            c0 = cpu_s()
            res = evaluate.evaluate_case(doc, curve, case, 1)
            if "levels" in res:
                res["summary"] = summary(res)
            res["truth"] = path
            stem = Path(path).stem
            (out_dir / f"{stem}.json").write_text(json.dumps(res, indent=1) + "\n")
            log.write(f"{case[0]}: {path}: CPU {cpu_s() - c0:.1f}\n")
            log.flush()


def table(out_dir: Path) -> str:
    """IOPS and WAF error at every level, the targets, a row a truth."""
    lines = ["| truth | case | IOPS error 0 / 10 / 20 / 30 / 40% | WAF worst | targets met |",
             "|---|---|---|---|---|"]  # fmt: skip
    for f in sorted(out_dir.glob("*.json")):
        res = json.loads(f.read_text())
        if "levels" not in res:
            lines.append(f"| {res['truth']} | {res['case']} | refused: {res['error']} | | no |")
            continue
        errs = " / ".join(f"{lv['iops_err']:+.1%}" for lv in res["levels"])
        s = res["summary"]
        lines.append(f"| {res['truth']} | {res['case']} | {errs} | {s['waf_worst']:.1%} "
                     f"| {'yes' if s['met'] else 'no'} |")  # fmt: skip
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if argv[0] == "table":
        print(table(Path(argv[1])))
        return 0
    run(argv[0], Path(argv[1]), argv[2:])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
