"""Task 1 of the cliffslot brief (bench/results/cliffslot/DIAGNOSIS.md): on seen 1% cases, the
truth's reads of written pages past its cliff under the workload (QD8 4 KiB random, 70% reads,
from purged) against the probe past the cliff's measured wait.

For each case the truth is drawn as ``bench/cliffplan_eval.py`` draws it (``written_truth``),
its cliff found as the rule judges it (``truth_cliff``), and its window past the cliff (1.15× its
time to the series' end) logged over the request-level drive by bench/results/cliffpast/
diagnose.py's ``windows`` (unchanged: before and past the cliff, each command kind's share and
mean wait, the dies' busy share). With ``--calibrate`` the case is
also calibrated as ``--probes-in-prediction`` runs it (``calibrated_again``) and its three
probes kept (for cases whose probes no stored run holds).

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffslot/truth_past.py \
        231:0.01 257:0.01 ... > bench/results/cliffslot/truth_past.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from cliff_bench import MIX, _seconds
from cliffplan_eval import calibrated_again, single_cases, truth_cliff, written_truth
from cpu_clock import cpu_s
from overprov.calibrate import cliff

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
past = load_script("cliffpast_diagnose", HERE.parent / "cliffpast" / "diagnose.py")

CALIBRATE = "--calibrate" in sys.argv


def case(seed: int, share: float, work: Path) -> dict[str, Any]:
    t0 = cpu_s()
    truth, scale, _ = written_truth(seed, share, work)
    s = float(scale)
    true = truth_cliff(truth, s, "none")
    row: dict[str, Any] = {"case": f"{seed} at {100 * share:g}%",
                           "truth_cliff": true.to_dict() if true else None,
                           "truth_nand": truth["config"]["timing"]["nand"],
                           "truth_slc": truth["config"]["timing"]["slc"]}  # fmt: skip
    if true is not None:
        t = _seconds(truth, s, MIX["qd"], MIX["read_percent"], "none")
        cfg = cliff._config(truth, s, qd=8, read_percent=70, seconds=t * s,  # noqa: SLF001
                            interval_s=t * s / 60, precondition="none")  # fmt: skip
        kw = {"qd": 8, "read_percent": 70, "end_ns": int(t * s * 1e9)}
        row["truth"] = past.windows(cfg, kw, true.time_s, s)
    if CALIBRATE:
        doc, _, _, pred = calibrated_again(seed, share, work)
        row["probes"] = doc.get("probes")
        row["series_rounds"] = [r["iops"] for r in doc.get("rounds", [])]
        row["prediction"] = pred
    row["cpu_s"] = round(cpu_s() - t0, 1)
    print(json.dumps(row, default=str), file=sys.stderr, flush=True)
    return row


if __name__ == "__main__":
    raise SystemExit(single_cases(case, [a for a in sys.argv[1:] if not a.startswith("--")]))
