"""A plan (``overprov plan --json FILE``, schema ``overprov.plan/1``, docs/json.md) as one
:class:`Source` of kind "plan".

A plan has no measured phases: its rows (one per extra-OP level: user capacity, ρ, WAF, TBW,
DWPD, years) and, for ``plan --trace``, the simulated figures per level behind them are kept
whole (``Source.plan``) and drawn by a section of their own (``section_plan.py``). A trace plan
is simulated data (the trace replayed on a simulated drive) and marked SIMULATED as every
simulated source is; a plan from the analytic model is marked as a model.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

from overprov.report.model import Source, kv, read_document, sim_basis_of
from overprov.units import factor_text, human_bytes

PLAN_SCHEMA = "overprov.plan/1"


def trace_name(doc: dict) -> str | None:
    """The replayed trace's file name (``workload`` is "trace PATH"), or None."""
    workload = str(doc.get("workload") or "")
    if doc.get("trace") is None or not workload.startswith("trace "):
        return None
    return Path(workload.removeprefix("trace ")).name


def load_plan(path: Path) -> Source:
    """``path``: a plan JSON file. Raises ReportInputError for a file that is not one or fails
    the schema, naming the file and the field."""
    doc = read_document(path, PLAN_SCHEMA, "plan")
    trace = doc.get("trace")
    name = trace_name(doc)
    drive = str(trace["drive"]) if trace else None
    mtime = datetime.fromtimestamp(os.stat(path).st_mtime, tz=UTC)
    capacity = float(doc["capacity_bytes"])
    source = Source(
        kind="plan",
        path=path,
        label=f"plan {name}" if name else f"plan {human_bytes(capacity)}",
        title=f"overprov plan ({path.name})",
        status="complete",
        date=f"file written {mtime:%Y-%m-%d %H:%M} UTC",
        phases=[],
        identity=kv(
            [
                ("target", f"trace {name} on {drive}" if trace else "a drive to plan"),
                ("simulated drive", drive),
                ("advertised capacity", human_bytes(capacity)),
                ("native OP", f"{doc['native_op_percent']:.2f}%"),
                ("physical NAND", human_bytes(doc["physical_bytes"])),
            ]
        ),
        settings=kv(
            [
                ("workload", trace["workload"] if trace else doc.get("workload")),
                ("WAF from", doc.get("waf_source") or doc.get("model")),
                ("endurance", doc.get("endurance_source")),
                ("service life (years)", doc.get("service_years")),
                ("GC policy", doc.get("policy")),
                ("pages per block", doc.get("pages_per_block")),
                ("OP definition", doc.get("op_definition")),
            ]
        ),
        software={"overprov": str(doc["overprov_version"])},
        capacity_bytes=capacity,
        drive_bytes=capacity,
        policy=str(doc.get("policy")),
        workload=str(doc.get("workload") or ""),
        simulated=trace is not None,
        sim_drive=drive,
        sim_scale=factor_text(float(trace["scale"])) if trace else None,
        sim_basis=sim_basis_of(drive) if drive else None,
        comparison_keys={"method": "plan"},
    )
    source.plan = doc
    return source
