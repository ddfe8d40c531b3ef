"""The independent FTL simulators' measured curves (bench/foreign/results/*.json, written by
bench/foreign/) as drives of the leave-one-out bench (bench/corpus_bench.py).

A curve with IOPS is read at one queue depth (QD32): steady IOPS and WAF at each extra-OP level
and the 0% level's fresh-out-of-box IOPS. A curve that says ``measures: ["waf"]`` (a simulator
that counts page writes only, sssl-ftlsim) is read at the one queue depth it holds, its steady
WAF figures alone: held out level by level like the others, each predicted from the other
levels' WAF as a user would give them (``--waf-points``; docs/calibrate-validation.md, "All
held-out cases together, WAF-only truths included").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: The relative sd of a foreign simulator's settled figure (every foreign figure alike).
FOREIGN_REL_SD = 0.02
#: The steady figures read from a level, by whether the file is WAF-only.
KEYS = {False: (("iops", "steady_iops"), ("waf", "steady_waf")), True: (("waf", "steady_waf"),)}


def _figure(kind: str, x: float, value: float, steady: bool = True) -> dict[str, Any]:
    return {"kind": kind, "extra_op_percent": x, "value": value, "rel_sd": FOREIGN_REL_SD,
            "read_from": "table", "steady": steady}  # fmt: skip


def is_waf_only(doc: dict[str, Any]) -> bool:
    """A results file of a simulator that counts page writes only: WAF, no IOPS."""
    return doc.get("measures") == ["waf"]


def foreign_drives(folder: Path, qd: int = 32) -> list[dict[str, Any]]:
    """Each results file of ``folder`` that holds a curve (two levels or more) as a drive:
    figures at ``qd``, or a WAF-only file's WAF figures at its own queue depth."""
    drives = []
    for path in sorted(folder.glob("*.json")):
        doc = json.loads(path.read_text())
        if not isinstance(doc, dict):  # evaluation.json: calibrate's predictions, not a curve
            continue
        waf_only = is_waf_only(doc)
        levels = doc.get("levels", [])
        own_qd = {r.get("queue_depth") for r in levels}
        at = own_qd.pop() if waf_only and len(own_qd) == 1 else qd
        rows = [r for r in levels if r.get("queue_depth") == at]
        # one level (a longer run of one case) is not a curve: nothing to hold it out from
        if len({r["extra_op_percent"] for r in rows}) < 2 or "advertised_bytes" not in doc:
            continue
        figs: list[dict[str, Any]] = []
        for r in rows:
            x = r["extra_op_percent"]
            for kind, key in KEYS[waf_only]:
                if r.get(key):
                    figs.append(_figure(kind, x, r[key]))
            if not waf_only and x == 0 and r.get("fob_iops"):
                figs.append(_figure("fob_iops", 0, r["fob_iops"], steady=False))
        name = doc.get("simulator", path.stem)
        drives.append({
            "id": path.stem,
            "name": f"{name}, {doc['drive']} (foreign FTL)" if waf_only and doc.get("drive")
            else f"{name} (foreign FTL)",
            "advertised_bytes": doc["advertised_bytes"],
            "raw_nand_bytes": doc.get("physical_bytes"),
            "workload": "uniform", "qd": at, "figure": figs, "foreign": True,
            "waf_only": waf_only, "family": name,
            "file": str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path),
        })  # fmt: skip
    return drives
