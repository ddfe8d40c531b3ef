"""One case of bench/foreign/results/mqfixed/RULE.md: calibrate's plan case (IOPS+WAF 0+40,
FOB) on an MQSim truth, asked at the plan's levels (0,10,20,30,40) or at 0,20,40 alone, with the
flags of EVALUATE_FLAGS (bench/foreign/evaluate.py, ``flags_prelude``), written as the
scoreboard writes a case (bench/foreign/results/scoreboard/run.py) with the prediction's source
beside it (where the line moved IOPS and, on the flag's arm, what its gate read).

    PYTHONPATH=python python bench/foreign/results/mqfixed/arms.py ARM LEVELS TRUTH.json

ARM: the cases' folder here (e.g. ``fresh-on-plan``); LEVELS: ``plan`` or ``0,20,40``.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOREIGN = HERE.parents[1]
sys.path.insert(0, str(FOREIGN))
import evaluate  # noqa: E402
from common import load_script  # noqa: E402

SCOREBOARD = load_script("scoreboard_run", HERE.parent / "scoreboard" / "run.py")


def one(arm: str, levels: str, truth: Path) -> Path:
    if levels != "plan":
        evaluate.LEVELS = tuple(int(x) for x in levels.split(","))
    doc = json.loads(truth.read_text())
    curve = evaluate.truth_curve(doc, 32)
    case = SCOREBOARD.CASES[SCOREBOARD.PLAN]  # the MQSim truths here have no QD4 figure
    cmd = evaluate.command(doc, curve, case, 1)
    with tempfile.TemporaryDirectory() as tmp:
        res = evaluate.run_case(cmd, curve, case, Path(tmp))
        pred = Path(tmp) / "prediction.json"
        source = json.loads(pred.read_text())["prediction_source"] if pred.exists() else None
    res["summary"] = SCOREBOARD.summary(res)
    folder = truth.parent.relative_to(FOREIGN.parent.parent).as_posix()
    res |= {"family": "MQSim", "truth": f"{folder}/{truth.name}", "prediction_source": source}
    tag = folder.removeprefix(SCOREBOARD.R).strip("/").replace("/", "_")
    out = HERE / arm / f"MQSim--{tag}--{truth.stem}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1) + "\n")
    return out


if __name__ == "__main__":
    one(sys.argv[1], sys.argv[2], Path(sys.argv[3]).resolve())
