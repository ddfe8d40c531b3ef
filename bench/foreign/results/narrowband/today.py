"""Today's plan cases of the 72 stored foreign truths, as the brief of this folder names them:
bench/foreign/results/wisctiming/on/ (every case rerun with today's defaults) with the six MQSim
drives replaced by bench/foreign/results/mqgate/seen-on/ (bend_between.LINE_BETWEEN and its gate,
adopted since). No calibrate run.
"""

from __future__ import annotations

import json
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[1]
FOLDERS = (RESULTS / "wisctiming" / "on", RESULTS / "mqgate" / "seen-on")


def paths() -> dict[str, Path]:
    """stem → the case file today's arm reads (a later folder's file replaces an earlier's)."""
    out: dict[str, Path] = {}
    for folder in FOLDERS:
        out.update({p.stem: p for p in sorted(folder.glob("*.json"))})
    return out


def docs() -> dict[str, dict]:
    """stem → today's stored case, with ``_stem`` set as levels.load sets it."""
    out = {}
    for stem, p in paths().items():
        doc = json.loads(p.read_text())
        doc["_stem"] = stem
        out[stem] = doc
    return out
