"""``report --json``: a small document (schema ``overprov.report/1``) beside the HTML page —
the inputs as read, the files written, and the answer found for each input (the recommended
OP and why, or why there is none). The page remains the report; this is for scripts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from overprov.report.build import BuiltReport
from overprov.report.files import FILES_DIR
from overprov.report.model import Source


def _op_fields(op_percent: float | None, axis: str) -> dict[str, float | None]:
    """An OP level in the units its axis names: extra OP in percent, or total ρ as a fraction."""
    if axis == "rho":
        return {"extra_op_percent": None, "rho": None if op_percent is None else op_percent / 100}
    return {"extra_op_percent": op_percent, "rho": None}


def _answer(source: Source, rec: dict[str, Any] | None, card: Any) -> dict[str, Any]:
    method: str | None = None
    op: float | None = None
    target = steady = None
    reason = None
    axis = source.op_axis
    if source.has_iops and rec:
        method, op = rec.get("method"), rec.get("extra_op_percent")
        target, steady, reason = rec.get("target_iops"), rec.get("steady_iops"), rec.get("reason")
    elif source.kind == "calibrate":
        pred = source.prediction.recommendation if source.prediction else None
        op, axis = (pred.extra_op_percent if pred else None), "extra"
        method = "prediction" if pred else None
        reason = pred.text if pred else None
    elif source.kind == "plan":
        from overprov.report.section_plan import answer

        op, axis = answer(source.plan), "extra"
        method = "plan" if op is not None else None
    return {
        "input": source.label,
        "recommended": op is not None,
        "method": method,
        **_op_fields(op, axis),
        "target_iops": target,
        "steady_iops": steady,
        "reason": reason,
        "headline": card.headline,
        "simulated": source.simulated,
    }


def report_document(built: BuiltReport) -> dict[str, Any]:
    """The body of the ``overprov.report/1`` document (``outputs.document`` adds the envelope)."""
    return {
        "report_html": str(built.path),
        "files_dir": str(built.path.parent / FILES_DIR),
        "files": list(built.files),
        "inputs": [
            {
                "path": str(Path(s.path)),
                "kind": s.kind,
                "label": s.label,
                "simulated": s.simulated,
                "op_axis": "rho" if s.op_axis == "rho" else "extra_op_percent",
                "phases": len(s.phases),
            }
            for s in built.sources
        ],
        "answers": [
            _answer(s, built.recs.get(s.label), card)
            for s, card in zip(built.sources, built.cards, strict=True)
        ],
        "checks": [c.as_json() for c in built.checks],
    }
