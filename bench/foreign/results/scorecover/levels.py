"""Every level of the scoreboard's stored cases (bench/foreign/results/scoreboard/cases-final)
as one row per figure: the truth, calibrate's prediction and 80% interval, and what the
interval is made of that calibrate computes from the case's own figures without simulating
(the model-form relative sd today, ``uncertainty.model_sd_at``; the log spare distance from
the fitted levels, ``uncertainty.spare_distance`` with the case's fitted spare). No calibrate
run: ≈ 0 CPU s. Used by report.py and judge.py in this folder.
"""

from __future__ import annotations

import json
import math
import shlex
from dataclasses import dataclass
from pathlib import Path

from overprov.calibrate import cli, uncertainty
from overprov.calibrate import fit as fitmod

ROOT = Path(__file__).resolve().parents[4]
CASES = ROOT / "bench/foreign/results/scoreboard/cases-final"
FIGURES = ("iops", "waf")
LEVELS = (0, 10, 20, 30, 40)


@dataclass(frozen=True)
class Row:
    """One figure at one level of one case."""

    family: str
    case: str  # the case file's stem
    level: float
    figure: str  # "iops" or "waf"
    fitted: bool
    truth: float
    pred: float
    low: float
    high: float
    inside: bool
    model_sd: float | None  # today's model-form relative sd at this level
    distance: float | None  # log spare distance from the nearest fitted level

    @property
    def log_error(self) -> float:
        """ln(truth / prediction): > 0 when the truth lies above."""
        return math.log(self.truth / self.pred)

    @property
    def half_width(self) -> float:
        """The interval's log half-width on the truth's side of the prediction."""
        return (
            math.log(self.high / self.pred)
            if self.truth >= self.pred
            else math.log(self.pred / self.low)
        )

    @property
    def rel_width(self) -> float:
        """(high − low) / prediction."""
        return (self.high - self.low) / self.pred


def case_points(command: str) -> list[fitmod.Point]:
    """The figures a stored case's calibrate command was given, as calibrate reads them."""
    argv = shlex.split(command)

    def opt(name: str) -> str | None:
        return argv[argv.index(name) + 1] if name in argv else None

    points = cli.user_points(opt("--points"), opt("--waf-points"))
    fob = opt("--fob-iops")
    if fob is not None:
        points.append(fitmod.Point(0.0, float(fob), cli.USER_POINT_REL_SD, fresh=True))
    return points


def fitted_levels(points: list[fitmod.Point]) -> list[float]:
    """The levels calibrate calls fitted (``predict._Fitted.fitted_levels``)."""
    return sorted({p.extra_op_percent for p in points if not p.fresh and p.queue_depth is None})


def case_rows(doc: dict) -> list[Row]:
    """The rows of one stored case (none for a refused case)."""
    if "levels" not in doc:
        return []
    points = case_points(doc["command"])
    levels = [lv["extra_op_percent"] for lv in doc["levels"]]
    sd = uncertainty.model_sd_at(points, levels)
    fit = doc["fit"]
    fitted = fitted_levels(points)
    rows = []
    for lv in doc["levels"]:
        x = lv["extra_op_percent"]
        d = uncertainty.spare_distance(x, fitted, fit["native_op"], fit["spare_efficiency"])
        for f in FIGURES:
            if lv.get(f"{f}_pred") is None or lv.get(f"{f}_low") is None:
                continue
            rows.append(Row(
                doc["family"], doc["_stem"], x, f, bool(lv[f"fitted_{f}"]), lv[f"{f}_true"],
                lv[f"{f}_pred"], lv[f"{f}_low"], lv[f"{f}_high"], bool(lv[f"{f}_in_80"]),
                sd[x], d,
            ))  # fmt: skip
    return rows


def load(folder: Path = CASES) -> tuple[list[Row], list[str]]:
    """Every row of the stored cases, and the stems of the refused ones."""
    rows, refused = [], []
    for path in sorted(folder.glob("*.json")):
        doc = json.loads(path.read_text())
        doc["_stem"] = path.stem
        got = case_rows(doc)
        rows += got
        if not got:
            refused.append(path.stem)
    return rows, refused
