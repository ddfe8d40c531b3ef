"""The endurance table of the report: TBW, DWPD and the endurance gain per OP level, from a
rating (``--rated-tbw``, a SMART snapshot) or P/E cycles (``--pe-cycles``, ``--nand``); and the
facts of SMART snapshots given to the report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from overprov import endurance, models
from overprov.report.findings import Options
from overprov.report.model import Source, op_text
from overprov.units import human_bytes


@dataclass
class EnduranceTable:
    source: str
    basis: str
    notes: list[str]
    columns: list[str]
    rows: list[list[str]]
    raw: list[dict[str, Any]]


def _smart_budget(options: Options) -> tuple[float, str] | None:
    """Host bytes of the rated endurance implied by a SMART snapshot: host writes so far ×
    100 / percentage used (only when wear is at least 1%)."""
    for rep in options.smart:
        used = rep.endurance.percentage_used
        if used and used >= 1 and rep.host_bytes:
            implied = rep.host_bytes * 100.0 / used
            model = rep.snapshot.model or "the drive"
            return implied, (
                f"SMART of {model}: {human_bytes(rep.host_bytes)} written for {used:g}% of "
                f"the rated endurance used, so about {human_bytes(implied)} in all"
            )
    return None


def endurance_tables(sources: Sequence[Source], options: Options) -> list[EnduranceTable]:
    out = []
    for s in sources:
        table = (
            _sim_endurance(s, options) if s.kind == "simulate" else _profile_endurance(s, options)
        )
        if table is not None:
            out.append(table)
    return out


def _profile_endurance(s: Source, options: Options) -> EnduranceTable | None:
    rated = options.rated_tbw if options.rated_tbw is not None else s.rated_tbw
    rated_bytes = rated * 1e12 if rated else None
    basis_extra = ""
    smart = _smart_budget(options) if rated_bytes is None else None
    if smart is not None:
        rated_bytes, basis_extra = smart
    pe = options.pe_cycles
    nand = options.nand
    if rated_bytes is None and pe is None and nand is None:
        return None
    cap = s.drive_bytes or s.capacity_bytes
    if not cap:
        return None
    ops = tuple(p.op_percent / 100.0 for p in s.phases if s.op_axis == "extra")
    if not ops:
        return None
    pl = endurance.build_plan(
        capacity_bytes=cap,
        rated_tbw_bytes=rated_bytes,
        pe_cycles=None if rated_bytes is not None else pe,
        nand=None if rated_bytes is not None or pe is not None else nand,
        service_years=options.years,
        op_levels=ops,
    )
    iops = {p.op_percent: p for p in s.phases}
    rows, raw = [], []
    for r in pl.rows:
        p = iops.get(round(r.extra_op * 100, 9)) or iops.get(r.extra_op * 100)
        fig = p.iops_figure if p else None
        rows.append(
            [
                f"{100 * r.extra_op:g}%",
                f"{100 * r.rho:.1f}%",
                human_bytes(r.user_bytes),
                f"{r.waf:.2f}",
                human_bytes(r.tbw_bytes),
                f"{r.dwpd:.2f}",
                "—" if fig is None else f"{fig:,.0f}" + ("" if p and p.steady else " (not steady)"),
            ]
        )
        raw.append(
            {
                "extra_op_percent": 100 * r.extra_op,
                "rho": r.rho,
                "user_bytes": r.user_bytes,
                "waf": r.waf,
                "waf_source": "model",
                "tbw_bytes": r.tbw_bytes,
                "dwpd": r.dwpd,
                "iops": fig,
            }
        )
    notes = list(pl.notes)
    notes.append(
        f"WAF per OP from the {pl.model}, ρ with the drive's {100 * pl.native_op:.2f}% native "
        "OP; a real drive's WAF depends on its firmware and your workload"
    )
    basis = pl.endurance_source + (f" ({basis_extra})" if basis_extra else "")
    return EnduranceTable(
        source=s.label,
        basis=f"per drive of {human_bytes(cap)}; {basis}; DWPD over {options.years:g} years",
        notes=notes,
        columns=["extra OP", "ρ", "user capacity", "WAF (model)", "TBW", "DWPD", "steady IOPS"],
        rows=rows,
        raw=raw,
    )


def _sim_endurance(s: Source, options: Options) -> EnduranceTable | None:
    pts = [p for p in s.phases if p.waf and p.user_bytes and p.physical_bytes]
    if not pts:
        return None
    pe = options.pe_cycles
    nand = options.nand
    basis = ""
    if pe is None and nand is not None:
        if nand not in models.PE_CYCLES:
            return None
        pe = float(models.PE_CYCLES[nand][0])
        typical = models.PE_CYCLES[nand][1]
        basis = f"{nand.upper()} at an assumed {pe:,.0f} P/E cycles (typical {typical})"
    elif pe is not None:
        basis = f"{pe:,.0f} rated P/E cycles"
    ref = pts[0].waf or 1.0
    columns = ["OP", "ρ", "user capacity", "WAF (simulated)", "endurance vs lowest OP"]
    if pe is not None:
        columns += ["TBW", "DWPD"]
    columns.append("erases per block per drive write")
    rows, raw = [], []
    for p in pts:
        waf = p.waf or 1.0
        row = [
            op_text(p.op_percent, s.op_axis),
            f"{100 * (p.rho or 0):.1f}%",
            human_bytes(p.user_bytes),
            f"{waf:.3f}",
            f"{ref / waf:.2f}×",
        ]
        entry: dict[str, Any] = {
            "op_percent": p.op_percent,
            "rho": p.rho,
            "user_bytes": p.user_bytes,
            "waf": waf,
            "waf_source": "simulated",
            "endurance_vs_lowest_op": ref / waf,
        }
        if pe is not None:
            tbw = models.tbw_bytes(p.physical_bytes or 0.0, pe, waf)
            d = models.dwpd(tbw, p.user_bytes or 1.0, options.years)
            row += [human_bytes(tbw), f"{d:.2f}"]
            entry.update(tbw_bytes=tbw, dwpd=d)
        per_dw = None
        if p.erase and p.measured_drive_writes:
            # erases per block per drive write ≈ WAF × U / T; the mean includes warm-up
            per_dw = waf * (p.user_bytes or 0.0) / (p.physical_bytes or 1.0)
        row.append("—" if per_dw is None else f"{per_dw:.2f}")
        entry["erases_per_block_per_drive_write"] = per_dw
        rows.append(row)
        raw.append(entry)
    windows = sorted({p.waf_window.split(":")[0] for p in pts if p.waf_window})
    notes = [
        "endurance vs lowest OP = lowest OP's WAF / this WAF: the same NAND absorbs that many "
        "times the host writes"
        + (f"; WAF over each run's {' / '.join(windows)}" if windows else ""),
        "erases per block per drive write = WAF × U / T (each host drive write of U bytes costs "
        "WAF × U bytes of NAND programs over T bytes of NAND)",
    ]
    if pe is None:
        notes.append(
            "no P/E rating given: pass --pe-cycles N or --nand tlc to `overprov report` for TBW "
            "and DWPD"
        )
    else:
        notes.append(
            f"TBW = physical NAND × P/E / WAF; DWPD over {options.years:g} years of the user "
            "capacity"
        )
    return EnduranceTable(
        source=s.label,
        basis=basis or "relative: simulated WAF only",
        notes=notes,
        columns=columns,
        rows=rows,
        raw=raw,
    )


def smart_facts(options: Options) -> list[tuple[str, str]]:
    """Lines about the SMART snapshots given to the report."""
    out = []
    for rep in options.smart:
        snap = rep.snapshot
        name = " ".join(x for x in (snap.model, snap.serial and f"({snap.serial})") if x) or "drive"
        bits = []
        if rep.waf is not None:
            bits.append(f"lifetime WAF {rep.waf:.2f} ({rep.waf_formula})")
        elif rep.waf_estimate is not None:
            bits.append(f"WAF ≈ {rep.waf_estimate:.2f} (estimate from the average erase count)")
        if rep.host_bytes is not None:
            bits.append(f"{human_bytes(rep.host_bytes)} host writes")
        if rep.drive_writes_per_day is not None:
            bits.append(f"{rep.drive_writes_per_day:.2f} drive writes per day so far")
        bits.append(f"days left: {rep.endurance.explanation}")
        out.append((name, "; ".join(bits)))
    return out
