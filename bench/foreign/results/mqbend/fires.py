"""Where ``bend_between.fires`` speaks, from the figures each case typed: the command of every
case file in a scoreboard folder (``cases``), or the plan case's figures of truth files
(``truths``: IOPS+WAF at 0% and 40% QD32 and the FOB, as bench/foreign/evaluate.py types them).
A line a case: the lowest level's WAF, its IOPS over the FOB–highest line's, fires or not, and
(for a case file) whether it met calibrate's targets. ``lines`` (DIAGNOSIS.md's table): for every
case file, also the case's IOPS error at 10% and the line's IOPS at 10, 20 and 30% (at the
truth's own WAF there) over the truth's, sorted by how far the lowest level lies above the line.

From the repository's root, with PYTHONPATH=python:

    python bench/foreign/results/mqbend/fires.py cases bench/foreign/results/scoreboard/cases-mix
        (> bench/foreign/results/mqbend/fires-72.txt)
    python bench/foreign/results/mqbend/fires.py truths T.json ...
        (> bench/foreign/results/mqbend/fires-stored-truths.txt)
    python bench/foreign/results/mqbend/fires.py lines bench/foreign/results/scoreboard/cases-mix
        (> bench/foreign/results/mqbend/lines-72.md)
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOREIGN = HERE.parents[1]
sys.path.insert(0, str(FOREIGN))
import evaluate  # noqa: E402
from overprov.calibrate import bend_between  # noqa: E402
from overprov.calibrate.cli import user_points  # noqa: E402


def _arg(command: str, name: str) -> str | None:
    m = re.search(rf"{name} (\S+)", command)
    return m.group(1) if m else None


def from_command(command: str) -> tuple[list, float | None]:
    """The typed points and the FOB of a case's calibrate command."""
    fob = _arg(command, "--fob-iops")
    return user_points(_arg(command, "--points"), _arg(command, "--waf-points")), (
        float(fob) if fob else None
    )


def plan_command(doc: dict) -> list[str]:
    """The calibrate command of a truth's plan case without a QD4 figure (evaluate.py's)."""
    case = {c[0]: c for c in evaluate.CASES}["IOPS+WAF 0+40, FOB"]
    return evaluate.command(doc, evaluate.truth_curve(doc, 32), case, 1)


def line(name: str, points: list, fob: float | None, met: object = "") -> str:
    got = bend_between.above_line(points, fob)
    if got is None:
        return f"{name}: no two levels with IOPS and WAF and a FOB; fires False{met}"
    fired = bend_between.fires(points, fob)
    return f"{name}: lowest WAF {got[0]:.2f}, above the line {got[1]:.3f}; fires {fired}{met}"


def lines(folder: Path) -> list[str]:
    """DIAGNOSIS.md's table: a row a case file with typed figures, by the lowest level's ratio."""
    rows = []
    for f in sorted(folder.glob("*.json")):
        res = json.loads(f.read_text())
        if "levels" not in res:
            continue
        points, fob = from_command(res["command"])
        got = bend_between.above_line(points, fob)
        high = max((p for p in points if p.iops and p.has_steady_waf and p.queue_depth is None),
                   key=lambda p: p.extra_op_percent)  # fmt: skip
        by = {lv["extra_op_percent"]: lv for lv in res["levels"]}
        line_err = [bend_between.line_iops(fob, high, by[x]["waf_true"]) / by[x]["iops_true"] - 1
                    for x in (10, 20, 30)]  # fmt: skip
        rows.append((got[1], f"| {f.stem} | {got[0]:.1f} | {got[1]:.2f} | "
                     f"{'yes' if res['summary']['met'] else 'no'} | {by[10]['iops_err']:+.1%} | "
                     + " / ".join(f"{e:+.1%}" for e in line_err) + " |"))  # fmt: skip
    head = ["| case | lowest WAF | IOPS over the line's | met | case's IOPS error at 10% "
            "| the line's at 10 / 20 / 30% |", "|---|---|---|---|---|---|"]  # fmt: skip
    return head + [r for _, r in sorted(rows)]


def main(argv: list[str]) -> int:
    if argv[0] == "lines":
        print("\n".join(lines(Path(argv[1]))))
    elif argv[0] == "cases":
        for f in sorted(Path(argv[1]).glob("*.json")):
            res = json.loads(f.read_text())
            if "command" not in res or isinstance(res["command"], list):
                print(f"{f.name}: refused or no command; fires not judged")
                continue
            met = (res.get("summary") or {}).get("met")
            print(line(f.name, *from_command(res["command"]), met=f"; met {met}"))
    else:
        for path in argv[1:]:
            cmd = " ".join(plan_command(json.loads(Path(path).read_text())))
            print(line(path, *from_command(cmd)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
