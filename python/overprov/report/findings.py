"""What the figures say, in words and tables: recommendation, conclusion, endurance.

Every sentence is computed from the loaded data; nothing is a fixed example. The wording
follows the profile's own log ("steady", "NOT steady", "skipped") and the terms of docs/concepts.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from overprov import models
from overprov.emulate import host_share as shares
from overprov.report.model import WAF_RISE_LIMIT, Phase, Source, grouped, op_text
from overprov.units import human_bytes, human_seconds


@dataclass
class Options:
    """Report settings beyond the inputs (all optional)."""

    target_iops: float | None = None  # overrides the profiles' own target
    rated_tbw: float | None = None  # TB written per drive
    pe_cycles: float | None = None
    nand: str | None = None  # slc, mlc, tlc, qlc
    years: float = 5.0
    smart: list[Any] = field(default_factory=list)  # overprov.smart.LifetimeReport
    title: str | None = None


# ------------------------------------------------------------------------- recommendation


def recommendation(source: Source, target_iops: float | None) -> dict[str, Any] | None:
    """The source's recommendation: the profile's own when the target is unchanged, else the
    profile's rule (overprov.results.recommend) applied to its phases."""
    from overprov.results import recommend

    if not source.has_iops:
        return None
    target = target_iops if target_iops is not None else source.target_iops
    own = source.recommendation
    if own and own.get("target_iops") == target and source.kind == "profile":
        return own
    phases = [
        {
            "extra_op_percent": p.op_percent,
            "steady": p.steady,
            "steady_iops": p.steady_iops,
            "window_iops_mean": p.iops_mean,
        }
        for p in source.phases
    ]
    return recommend(phases, target)


def target_for(source: Source, options: Options) -> float | None:
    return options.target_iops if options.target_iops is not None else source.target_iops


# ------------------------------------------------------------------------------ conclusion


def _iops(v: float) -> str:
    return f"{v:,.0f}"


def _phase_at(source: Source, op: float | None) -> Phase | None:
    for p in source.phases:
        if p.op_percent == op:
            return p
    return None


def _base(source: Source) -> Phase | None:
    """The lowest OP level with an IOPS figure (the comparison point)."""
    for p in source.phases:
        if p.iops_figure is not None:
            return p
    return None


def iops_conclusion(source: Source, rec: dict[str, Any] | None) -> tuple[str, list[str]]:
    """(headline, further sentences) for a source with IOPS figures."""
    axis = source.op_axis
    extra = " extra OP" if axis == "extra" else ""
    base = _base(source)
    more: list[str] = []
    headline = ""
    op = rec.get("extra_op_percent") if rec else None
    chosen = _phase_at(source, op) if op is not None else None
    if chosen is not None and chosen.iops_figure is not None:
        headline = f"{op_text(op, axis)}{extra} sustains {_iops(chosen.iops_figure)} IOPS"
        if base is not None and base is not chosen and base.iops_figure:
            ratio = chosen.iops_figure / base.iops_figure
            base_note = "" if base.steady else ", not steady"
            headline += (
                f", {ratio:.1f}× the {op_text(base.op_percent, axis)} figure "
                f"({_iops(base.iops_figure)} IOPS{base_note})"
            )
        headline += "."
        if rec and rec.get("method") == "target":
            more.append(
                f"It is the smallest OP level that reached steady state at or above the target "
                f"of {_iops(rec['target_iops'])} IOPS."
            )
        elif rec and rec.get("method") == "knee":
            more.append(
                knee_words(source, op)
                or f"It is the knee of the curve: {grouped(str(rec.get('reason')))}."
            )
    else:
        why = grouped((rec or {}).get("reason") or "no phase reached steady state")
        miss = near_miss(source, (rec or {}).get("target_iops"))
        headline = miss or f"No OP level is recommended: {why}."
        if miss:
            more.append(f"No OP level tested meets the target: {why}.")
        steady = [p for p in source.phases if p.steady_iops is not None]
        if steady:
            best = max(steady, key=lambda p: p.steady_iops or 0.0)
            line = (
                f"Best steady figure: {_iops(best.steady_iops or 0)} IOPS at "
                f"{op_text(best.op_percent, axis)}{extra}"
            )
            if base is not None and base is not best and base.iops_figure:
                line += (
                    f", {(best.steady_iops or 0) / base.iops_figure:.1f}× the "
                    f"{op_text(base.op_percent, axis)} figure ({_iops(base.iops_figure)} IOPS"
                    + ("" if base.steady else ", not steady")
                    + ")"
                )
            more.append(line + ".")
    lat_phase = chosen or base
    if lat_phase is not None and lat_phase.latency is not None:
        p99 = lat_phase.latency.percentile(0.99)
        p999 = lat_phase.latency.percentile(0.999)
        if p99:
            at = op_text(lat_phase.op_percent, axis)
            text = f"At {at}, 99% of writes completed within {p99:,.0f} µs"
            if p999:
                text += f" and 99.9% within {p999:,.0f} µs"
            if base is not None and base is not lat_phase and base.latency is not None:
                b99 = base.latency.percentile(0.99)
                if b99:
                    text += f" ({b99:,.0f} µs p99 at {op_text(base.op_percent, axis)})"
            more.append(text + ".")
    not_steady = [p for p in source.phases if p.status == "not_steady"]
    skipped = [p for p in source.phases if p.status == "skipped"]
    if not_steady:
        more.append(
            (
                "Not steady (figures are the last window's mean): "
                if source.kind == "profile"
                else "Never steady (figures are the mean of the last fifth of the run): "
            )
            + ", ".join(
                f"{op_text(p.op_percent, axis)}"
                + (f" after {p.rounds} rounds" if source.kind == "profile" else "")
                for p in not_steady
            )
            + "."
        )
    if skipped:
        more.append(
            "Skipped: "
            + "; ".join(f"{op_text(p.op_percent, axis)} ({p.skip_reason})" for p in skipped)
            + "."
        )
    host_bound = [p for p in source.phases if shares.host_bound(p.host_share)]
    if host_bound:
        more.append(
            "Host-bound (the host held most of the requests' time, the emulated drive the rest: "
            "these IOPS are the host's, not the drive's; docs/emulate.md): "
            + ", ".join(
                f"{op_text(p.op_percent, axis)} (host {p.host_share or 0:.0%})" for p in host_bound
            )
            + "."
        )
    if source.kind == "profile" and source.total_bytes:
        fill = (source.capacity_bytes or 0) * source.members
        text = f"The profile wrote {human_bytes(source.total_bytes)}"
        if fill:
            text += f" ({source.total_bytes / fill:,.0f} fills of the {human_bytes(fill)} tested)"
        if source.io_seconds:
            text += f" in {human_seconds(source.io_seconds)} of I/O"
        more.append(text + ".")
    return headline, more


def near_miss(source: Source, target: float | None) -> str | None:
    """When no steady phase meets ``target``: the closest one and where to test next, e.g.
    "Closest: 40% → 28,433 IOPS, 95% of the 30,000 IOPS target; test 50–60% extra OP."."""
    steady = [p for p in source.phases if p.steady_iops is not None]
    if not target or not steady:
        return None
    best = max(steady, key=lambda p: p.steady_iops or 0.0)
    axis = source.op_axis
    text = (
        f"Closest: {op_text(best.op_percent, axis)} → {_iops(best.steady_iops or 0)} IOPS, "
        f"{100 * (best.steady_iops or 0) / target:.0f}% of the {_iops(target)} IOPS target"
    )
    ops = sorted(p.op_percent for p in source.phases)
    step = min((b - a for a, b in zip(ops, ops[1:], strict=False) if b > a), default=10.0)
    top = ops[-1]
    if best.op_percent == top and axis == "extra":
        # where the last two steady points' line reaches the target, rounded up to the grid
        below = [p for p in steady if p.op_percent < top]
        need = top + step
        if below:
            prev = below[-1]
            rise = (best.steady_iops or 0) - (prev.steady_iops or 0)
            if rise > 0:
                need = top + (target - (best.steady_iops or 0)) * (top - prev.op_percent) / rise
        grid = min(step, 10.0)
        lo = top + grid
        hi = max(lo + grid, grid * math.ceil(need / grid - 1e-9))
        hi = min(hi, 90.0)
        if lo < hi:
            text += f"; test {lo:g}–{hi:g}% extra OP"
        elif lo <= 90:
            text += f"; test {lo:g}% extra OP"
    else:
        text += (
            "; the best level is not the largest tested: rerun the levels above it with more rounds"
        )
    return text + "."


def knee_words(source: Source, op: float | None) -> str | None:
    """The knee in plain words: how much IOPS each step of OP buys before and after it."""
    steady = [p for p in source.phases if p.steady_iops is not None]
    at = [k for k, p in enumerate(steady) if p.op_percent == op]
    if not at or len(steady) < 3:
        return None
    k = at[0]
    axis = source.op_axis

    def gain(a: Phase, b: Phase) -> str:
        return (
            f"{op_text(a.op_percent, axis)} → {op_text(b.op_percent, axis)}: "
            f"{100 * ((b.steady_iops or 0) / (a.steady_iops or 1) - 1):+.0f}%"
        )

    if k == 0:
        return (
            f"It is the knee of the curve: IOPS hardly grow with more OP here "
            f"({gain(steady[0], steady[-1])} over the whole range), so the smallest level is "
            "enough."
        )
    text = (
        f"It is the knee of the curve: up to {op_text(op, axis)} each step of OP buys a lot "
        f"({gain(steady[k - 1], steady[k])})"
    )
    if k + 1 < len(steady):
        text += (
            f"; beyond it the gain shrinks ({gain(steady[k], steady[k + 1])}), so more OP costs "
            "capacity for less return"
        )
    return text + "."


#: WAF at the largest OP within this share of the smallest OP's is "not lowered" (the ratio
#: would print as 1.0×, and the words "cuts" and "less" would claim a gain not measured).
SAME_WAF = 0.005


def no_block_erased(pts: list[Phase]) -> bool:
    """Whether no run erased a block (erase counts all 0 at the end): garbage collection never
    ran, and the WAF says nothing of what OP does."""
    return all(p.erase is not None and not p.erase.get("max") for p in pts)


def waf_conclusion(source: Source) -> tuple[str, list[str]]:
    """(headline, further sentences) for a simulation's WAF figures."""
    pts = [p for p in source.phases if p.waf is not None]
    if not pts:
        return "The simulation holds no measured WAF.", []
    axis = source.op_axis
    lo, hi = pts[0], pts[-1]
    more: list[str] = []
    ratio = (lo.waf or 1.0) / (hi.waf or 1.0)
    if no_block_erased(pts):
        levels = (
            f"at every OP level ({op_text(lo.op_percent, axis)} to {op_text(hi.op_percent, axis)})"
            if len(pts) > 1
            else f"at {op_text(lo.op_percent, axis)}"
        )
        headline = (
            "No block was erased in any run: garbage collection never ran, so WAF is "
            f"{hi.waf:.2f} {levels} and shows nothing of what OP does; the workload wrote "
            "too little to use the spare area (more passes of a trace, --trace-repeat, or more "
            "--drive-writes)."
        )
    elif len(pts) == 1:
        headline = (
            f"At {op_text(lo.op_percent, axis)}{' extra OP' if axis == 'extra' else ''} "
            f"(ρ {100 * (lo.rho or 0):.1f}%) the simulated WAF is {lo.waf:.2f}."
        )
    elif ratio < 1 + SAME_WAF:
        headline = (
            f"{op_text(hi.op_percent, axis)}{' extra OP' if axis == 'extra' else ''} "
            f"(ρ {100 * (hi.rho or 0):.1f}%) leaves WAF at {hi.waf:.2f} ({lo.waf:.2f} at "
            f"{op_text(lo.op_percent, axis)}): more OP did not lower it here."
        )
    else:
        headline = (
            f"{op_text(hi.op_percent, axis)}{' extra OP' if axis == 'extra' else ''} "
            f"(ρ {100 * (hi.rho or 0):.1f}%) cuts WAF to {hi.waf:.2f}, {ratio:.1f}× less than "
            f"at {op_text(lo.op_percent, axis)} ({lo.waf:.2f}): about {ratio:.1f}× the "
            "endurance from the same NAND."
        )
        mids = pts[1:-1]
        if mids:
            more.append(
                "In between: "
                + ", ".join(f"{op_text(p.op_percent, axis)} WAF {p.waf:.2f}" for p in mids)
                + "."
            )
    windows = {p.waf_window.split(":")[0] for p in pts if p.waf_window}
    details = {p.waf_window.split(": ", 1)[-1] for p in pts if p.waf_window}
    if windows and len(details) == 1:
        more.append(f"WAF over each run's {next(iter(windows))}: {next(iter(details))}.")
    elif windows:
        more.append(
            "WAF over each run's "
            + " / ".join(sorted(windows))
            + " ("
            + "; ".join(
                f"{op_text(p.op_percent, axis)}: {p.waf_window.split(': ', 1)[-1]}"
                for p in pts
                if p.waf_window
            )
            + ")."
        )
    whole = [p for p in pts if p.waf_whole_run is not None]
    if whole:
        more.append(
            "Whole measured run, fresh-out-of-box stretch included (not the steady figure): "
            + ", ".join(f"{op_text(p.op_percent, axis)} WAF {p.waf_whole_run:.2f}" for p in whole)
            + "."
        )
    for p in pts:
        if "NOT steady" in p.waf_window:
            more.append(
                f"Warning: {op_text(p.op_percent, axis)} never reached steady state; its WAF is "
                "the last fifth of the run's and may still be rising."
            )
        elif p.waf_rising:
            more.append(
                f"Warning: at {op_text(p.op_percent, axis)} WAF was still rising across its "
                f"window ({100 * (p.waf_rise_fraction or 0):+.1f}% fitted, limit "
                f"{100 * WAF_RISE_LIMIT:.0f}%): the steady WAF is higher; run longer."
            )
    if source.uniform_workload and source.policy in ("greedy", "fifo", "random", "d-choices"):
        diffs = []
        for p in pts:
            m = model_waf(source, p)
            if m is not None and p.waf:
                diffs.append((abs(p.waf / m - 1), p, m))
        if diffs:
            worst = max(diffs, key=lambda t: t[0])
            more.append(
                f"The {source.policy} model agrees within {100 * worst[0]:.1f}% "
                f"(largest gap at {op_text(worst[1].op_percent, axis)}: simulated "
                f"{worst[1].waf:.3f}, model {worst[2]:.3f})."
            )
    elif source.workload == "trace":
        more.append(
            "A replayed trace is compared with no analytic model: the models describe "
            "synthetic random writes, and this WAF is the trace's own."
        )
    elif not source.uniform_workload:
        more.append(
            f"The analytic models assume uniform random single-page writes; this workload "
            f"({source.workload}) differs, so the gap to them is the workload's effect."
        )
    return headline, more


def model_waf(source: Source, p: Phase) -> float | None:
    """The analytic model's WAF at ``p``'s OP, when the model describes the source's workload
    (uniform random single-page writes; never a trace)."""
    if not source.uniform_workload:
        return None
    model = models.model_for(source.policy)
    if not p.rho or not p.pages_per_block or model is None:
        return None
    if model.needs_d and not source.d_choices:
        return None
    return model.waf(p.rho, int(p.pages_per_block), int(source.d_choices or 0))


#: what makes two inputs comparable: differing in any of these, a ratio mixes the drive with
#: the test, and the report refuses it (and says so)
LIKE_KEYS = ("drive", "scale", "method", "precondition", "round length")


def differences(sources: Sequence[Source]) -> list[tuple[str, list[str]]]:
    """(what, each input's value) for every comparison key that differs between inputs."""
    out = []
    keys = []
    for s in sources:
        keys += [k for k in s.comparison_keys if k not in keys]
    for k in keys:
        values = [s.comparison_keys.get(k, "—") for s in sources]
        if len(set(values)) > 1:
            out.append((k, values))
    return out


def comparison(sources: Sequence[Source]) -> list[str]:
    """Sentences comparing sources at the OP levels they share: first what differs between
    them; a ratio only between inputs alike in drive, scale, method, precondition and round
    length (for unlike inputs the figures stand side by side, and the report says why)."""
    out: list[str] = []
    if len(sources) < 2:
        return out
    diffs = differences(sources)
    unlike = [k for k, _ in diffs if k in LIKE_KEYS]
    if diffs:
        names = [k for k, _ in diffs]
        text = "The inputs differ in " + (
            ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        )
        if len(sources) == 2 and len(diffs) == 1:
            values = diffs[0][1]
            text += f" ({sources[0].label}: {values[0]}, {sources[1].label}: {values[1]})"
        elif len(diffs) > 1:
            text += " (table below)"
        if unlike:
            text += ": no ratio is computed between them, as it would mix the drives with the tests"
        out.append(text + ".")
    with_iops = [s for s in sources if s.has_iops]
    if len(with_iops) > 1:
        common = set.intersection(
            *({p.op_percent for p in s.phases if p.iops_figure is not None} for s in with_iops)
        )
        for op in sorted(common):
            figs = []
            for s in with_iops:
                p = _phase_at(s, op)
                if p is not None and p.iops_figure is not None:
                    figs.append((p.iops_figure, s.label, p.steady))
            figs.sort(reverse=True)
            if len(figs) < 2:
                continue
            line = f"At {op:g}% OP: " + ", ".join(
                f"{label} {_iops(v)} IOPS" + ("" if st else " (not steady)")
                for v, label, st in figs
            )
            if unlike:
                line += " — no ratio (unlike inputs, above)"
            elif figs[-1][0] > 0:
                line += f" — {figs[0][1]} is {figs[0][0] / figs[-1][0]:.1f}× {figs[-1][1]}"
            out.append(line + ".")
    with_waf = [s for s in sources if s.has_waf]
    if len(with_waf) > 1:
        common = set.intersection(
            *({round(p.op_percent, 6) for p in s.phases if p.waf} for s in with_waf)
        )
        ops = sorted(common)
        if ops:
            per_source = []
            for s in with_waf:
                by_op = {round(p.op_percent, 6): p.waf for p in s.phases if p.waf}
                per_source.append(f"{s.label} " + " / ".join(f"{by_op[op]:.2f}" for op in ops))
            out.append(
                "WAF at "
                + " / ".join(f"{op:g}%" for op in ops)
                + " OP: "
                + "; ".join(per_source)
                + "."
            )
    return out


def waf_big_figure(source: Source) -> tuple[str, str]:
    """The card's big figure for a simulation: how many times less NAND is written per host
    write at the largest OP than at the smallest."""
    pts = [p for p in source.phases if p.waf]
    if len(pts) < 2:
        return (f"WAF {pts[0].waf:.2f}", "") if pts else ("", "")
    lo, hi = pts[0], pts[-1]
    if no_block_erased(pts):
        return f"WAF {hi.waf:.2f}", "no block erased: garbage collection never ran"
    if (lo.waf or 1) / (hi.waf or 1) < 1 + SAME_WAF:
        return (
            f"WAF {hi.waf:.2f}",
            f"at {op_text(lo.op_percent, source.op_axis)} and "
            f"{op_text(hi.op_percent, source.op_axis)} alike",
        )
    return (
        f"{(lo.waf or 1) / (hi.waf or 1):.1f}×",
        f"less NAND wear at {op_text(hi.op_percent, source.op_axis)} than at "
        f"{op_text(lo.op_percent, source.op_axis)}",
    )
