"""A profile folder (``results.json`` of ``overprov profile``, docs/results-schema.md, with
fio's json+ output per round in ``fio/``) as one :class:`Source` whose phases are its OP levels.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from overprov import inputs
from overprov.errors import InputError
from overprov.report.model import (
    PERCENTILE_SHARE,
    PROFILE_FORMAT,
    Latency,
    Phase,
    ReportInputError,
    Source,
    Span,
    kv,
    number,
    parse_time,
    scale_text,
    sim_basis_of,
)
from overprov.results import SCHEMA_VERSION, upgrade
from overprov.units import binary_size, human_bytes, plural

# ------------------------------------------------------------------------------------ profile


def _fio_bins(out: Path, files: Iterable[str]) -> dict[int, int]:
    """Merge the json+ completion-latency bins (ns → count) of every group in these files."""
    from overprov import fio

    bins: dict[int, int] = {}
    for name in files:
        if not name.endswith(".json"):
            continue
        path = out / name
        try:
            doc = fio.parse_json_output(path.read_text(errors="replace"))
        except (OSError, ValueError):
            continue
        for job in doc.get("jobs") or []:
            write = job.get("write") if isinstance(job, Mapping) else None
            if not isinstance(write, Mapping):
                continue
            for ns, count in fio.latency_bins_ns(write).items():
                bins[ns] = bins.get(ns, 0) + count
    return bins


def _profile_latency(
    out: Path, phase: Mapping[str, Any], first: int, last: int, simulated: bool = False
) -> Latency:
    rounds = [r for r in phase.get("rounds") or [] if first <= int(r.get("index", 0)) <= last]
    files = [f for r in rounds for f in r.get("files") or []]
    bins = _fio_bins(out, files)
    lat = phase.get("latency_us") or {}
    which = f"round {first}" if first == last else f"rounds {first}–{last}"
    if bins:
        items = sorted(bins.items())
        return Latency(
            values_us=[ns / 1000.0 for ns, _ in items],
            counts=[c for _, c in items],
            percentiles={k: number(lat.get(k)) for k in PERCENTILE_SHARE},
            mean_us=number(lat.get("mean")),
            max_us=max(ns for ns, _ in items) / 1000.0,
            source=f"fio json+ latency histogram of {which}, {sum(bins.values()):,} I/Os",
            kind="fio's json+ latency histograms of each phase's steady window (or last window)",
        )
    last_round = phase.get("latency_round")
    if simulated:
        source = f"percentiles of round {last_round} (a simulated profile records no histogram)"
        kind = "percentiles of each phase's last round (a simulated profile records no histogram)"
    else:
        source = (
            f"percentiles of round {last_round} only (fio's json+ output was not found in "
            f"{out / 'fio'})"
        )
        kind = "percentiles of each phase's last round (fio's json+ output not found)"
    return Latency(
        percentiles={k: number(lat.get(k)) for k in PERCENTILE_SHARE},
        mean_us=number(lat.get("mean")),
        max_us=number(lat.get("max")),
        source=source,
        kind=kind,
    )


def _profile_phase(out: Path, p: Mapping[str, Any], simulated: bool = False) -> Phase:
    rounds = list(p.get("rounds") or [])
    verdict = p.get("verdict") or {}
    steady = bool(p.get("steady"))
    phase = Phase(
        op_percent=float(p["extra_op_percent"]),
        label=str(p.get("label") or f"op{p['extra_op_percent']:g}"),
        status=str(p.get("status") or "pending"),
        steady=steady,
        steady_iops=number(p.get("steady_iops")),
        iops_mean=number(p.get("window_iops_mean")),
        rounds=len(rounds),
        skip_reason=p.get("skip_reason"),
        reason=str(verdict.get("reason") or p.get("skip_reason") or ""),
        duration_s=number(p.get("duration_seconds")),
        bytes_written=number(p.get("bytes_written")),
        span_bytes=number(p.get("span_bytes")),
        verdict=dict(verdict),
        precondition=dict(p.get("precondition") or {}),
        written_before_window_drive_writes=number(p.get("written_before_window_drive_writes")),
        host_share=number(p.get("host_share")),
    )
    window = [v for v in verdict.get("window") or [] if number(v) is not None]
    first_w = verdict.get("window_first_round")
    if window and isinstance(first_w, int):
        phase.iops_min, phase.iops_max = min(window), max(window)
        phase.window_rounds = (first_w, first_w + len(window) - 1)
    elif rounds:
        values = [float(r["iops"]) for r in rounds if number(r.get("iops")) is not None]
        if values:
            phase.iops_min, phase.iops_max = min(values), max(values)
            phase.window_rounds = (int(rounds[0]["index"]), int(rounds[-1]["index"]))
    if not rounds:
        return phase
    # Wall-clock round starts, unless they contradict the rounds' durations (a simulated
    # drive runs a round of simulated seconds in milliseconds): then I/O time, end to end.
    t0 = parse_time(rounds[0].get("started"))
    starts = [parse_time(r.get("started")) for r in rounds]
    wall = t0 is not None and all(s is not None for s in starts)
    if wall:
        offsets = [(s - t0).total_seconds() for s in starts]  # type: ignore[operator]
        durations = [number(r.get("duration_seconds")) or 0.0 for r in rounds]
        wall = all(
            offsets[k + 1] >= offsets[k] + durations[k] - 1.0 for k in range(len(rounds) - 1)
        )
    clock = 0.0
    for k, r in enumerate(rounds):
        rs = offsets[k] if wall else clock
        dur = number(r.get("duration_seconds")) or 0.0
        phase.round_bounds_s.append((rs, rs + dur))
        phase.round_iops.append(float(r.get("iops") or 0.0))
        for i, v in enumerate(r.get("iops_series") or []):
            phase.time_s.append(rs + i + 1.0)
            phase.iops.append(float(v))
        clock = rs + dur
    phase.wall_s = phase.round_bounds_s[-1][1]
    if phase.window_rounds:
        a, b = phase.window_rounds
        idx = {int(r["index"]): k for k, r in enumerate(rounds)}
        if a in idx and b in idx:
            phase.spans.append(
                Span(
                    phase.round_bounds_s[idx[a]][0],
                    phase.round_bounds_s[idx[b]][1],
                    "steady-window" if steady else "last-window",
                )
            )
        phase.latency = _profile_latency(out, p, a, b, simulated)
    return phase


def _profile_wsat(doc: Mapping[str, Any], phases: Sequence[Phase]) -> list[Phase]:
    """Fill each phase's write-saturation points: IOPS against host bytes written since the
    profile started; returns the steps before the phases as phases of their own, drawn from
    byte 0: the fresh-out-of-box round (label "fob", its 1 s IOPS) and the precondition (label
    "precondition", one point per part at its mean rate in I/Os of the profile's block size)."""
    steps = doc.get("steps") or {}
    written = 0.0
    before: list[Phase] = []
    fob = (steps.get("fob") or {}).get("round")
    if fob:
        step = Phase(op_percent=-1.0, label="fob", status="fob", steady=False)
        b = float(fob.get("bytes_written") or 0.0)
        dur = number(fob.get("duration_seconds")) or 0.0
        series = list(fob.get("iops_series") or [])
        if series and dur > 0:
            for i, v in enumerate(series):
                step.wsat_bytes.append(b * min(1.0, (i + 1) / dur))
                step.wsat_iops.append(float(v))
        elif number(fob.get("iops")) is not None:
            step.wsat_bytes += [0.0, b]
            step.wsat_iops += [float(fob["iops"])] * 2
        before.append(step)
        written += b
    bs = number((doc.get("settings") or {}).get("bs_bytes"))
    pre = Phase(op_percent=-1.0, label="precondition", status="precondition", steady=False)
    for part in (steps.get("precondition") or {}).get("parts") or []:
        b = float(part.get("bytes_written") or 0.0)
        rate = number(part.get("bytes_per_second"))
        if rate and bs:
            pre.wsat_bytes += [written, written + b]
            pre.wsat_iops += [rate / bs] * 2
        written += b
    if pre.wsat_bytes:
        before.append(pre)
    raw = {float(p["extra_op_percent"]): p for p in doc.get("phases") or []}
    for phase in phases:
        for r in raw.get(phase.op_percent, {}).get("rounds") or []:
            dur = number(r.get("duration_seconds")) or 0.0
            b = float(r.get("bytes_written") or 0.0)
            series = list(r.get("iops_series") or [])
            if series and dur > 0:
                for i, v in enumerate(series):
                    phase.wsat_bytes.append(written + b * min(1.0, (i + 1) / dur))
                    phase.wsat_iops.append(float(v))
            elif number(r.get("iops")) is not None:
                phase.wsat_bytes.append(written + b)
                phase.wsat_iops.append(float(r["iops"]))
            written += b
    return before


def load_profile(folder: Path) -> Source:
    path = folder / "results.json"
    try:
        doc = inputs.load_json(path, "profile results file")
    except InputError as exc:
        raise ReportInputError(str(exc)) from None
    if doc.get("format") != PROFILE_FORMAT:
        raise ReportInputError(f"{path}: not a profile results file (format {doc.get('format')!r})")
    doc = upgrade(doc)
    if doc.get("schema_version") != SCHEMA_VERSION:
        raise ReportInputError(
            f"{path}: results schema version {doc.get('schema_version')!r}; this report reads "
            f"1 and {SCHEMA_VERSION}"
        )
    settings = doc.get("settings") or {}
    target = doc.get("target") or {}
    members = target.get("members") or []
    bs = settings.get("bs_bytes")
    simulated = target.get("kind") == "sim"
    phases = [_profile_phase(folder, p, simulated) for p in doc.get("phases") or []]
    before = _profile_wsat(doc, phases)
    fob = ((doc.get("steps") or {}).get("fob") or {}).get("round") or {}
    spec = str(target.get("spec") or folder.name)
    name = ",".join(Path(s).name for s in spec.split(",")) or folder.name
    identity: list[tuple[str, Any]] = [
        ("target", spec),
        ("kind", target.get("kind")),
        ("tested capacity per member", human_bytes(number(target.get("capacity_bytes")))),
    ]
    for i, m in enumerate(members):
        tag = f"member {i + 1}: " if len(members) > 1 else ""
        desc = [m.get("model"), m.get("serial") and f"serial {m['serial']}"]
        if m.get("kind") == "file":
            desc.append(m.get("fs_type") and f"file on {m['fs_type']} at {m.get('mount_point')}")
        desc.append(f"{human_bytes(number(m.get('size_bytes')))} in all")
        if m.get("transport"):
            desc.append(str(m["transport"]))
        if m.get("write_cache"):
            desc.append(f"write cache: {m['write_cache']}")
        if m.get("rotational"):
            desc.append("rotational")
        if m.get("description"):
            desc.append(str(m["description"]))
        identity.append((f"{tag}{m.get('path') or m.get('name')}", ", ".join(d for d in desc if d)))
    crit = doc.get("steady_state_criteria") or {}
    jobs = settings.get("jobs")
    setting_pairs: list[tuple[str, Any]] = [
        ("OP levels", ", ".join(f"{x:g}%" for x in settings.get("extra_op_percents") or [])),
        (
            "workload",
            f"{binary_size(bs) if bs else '?'} random writes, QD {settings.get('qd')} × "
            f"{plural(jobs, 'job') if jobs is not None else '? jobs'} per member"
            + ("" if simulated else f", ioengine {settings.get('ioengine')}"),
        ),
        (
            "rounds",
            f"{settings.get('round_seconds')} s each, at most {settings.get('max_rounds')} per "
            "phase",
        ),
        (
            "steady state",
            f"SNIA: last {crit.get('window_rounds', 5)} rounds, range ≤ "
            f"{100 * crit.get('max_range_fraction', 0.2):g}% and slope excursion ≤ "
            f"{100 * crit.get('max_slope_excursion_fraction', 0.1):g}% of the mean",
        ),
        ("precondition", settings.get("precondition")),
        (
            "size tested",
            human_bytes(settings["size_bytes"]) if settings.get("size_bytes") else None,
        ),
        ("target IOPS", f"{settings['target_iops']:,.0f}" if settings.get("target_iops") else None),
        ("min IOPS (skip)", settings.get("min_iops")),
        ("stop at target", "yes" if settings.get("stop_at_target") else None),
        (
            "rated TBW per drive",
            f"{settings['rated_tbw']:g} TB" if settings.get("rated_tbw") else None,
        ),
        (
            "fio steadystate per round",
            None if simulated else doc.get("fio_steadystate_per_round"),
        ),
    ]
    created = parse_time(doc.get("created"))
    updated = parse_time(doc.get("updated"))
    date = (
        f"{created:%Y-%m-%d %H:%M} UTC" + (f" to {updated:%Y-%m-%d %H:%M} UTC" if updated else "")
        if created
        else "unknown"
    )
    totals = doc.get("totals") or {}
    source = Source(
        kind="profile",
        path=folder,
        label=name,
        title=f"profile of {spec}",
        status=str(doc.get("status") or "unknown"),
        date=date,
        phases=phases,
        identity=kv(identity),
        drive_ids=[
            (m.get("model"), m.get("serial")) for m in members if m.get("model") or m.get("serial")
        ],
        settings=kv(setting_pairs),
        software={str(k): str(v) for k, v in (doc.get("software") or {}).items()},
        recommendation=doc.get("recommendation"),
        target_iops=number(settings.get("target_iops")),
        fob_iops=number(fob.get("iops")),
        capacity_bytes=number(target.get("capacity_bytes")),
        drive_bytes=min(
            (float(m["size_bytes"]) for m in members if number(m.get("size_bytes"))),
            default=None,
        ),
        members=max(1, len(members)),
        rated_tbw=number(settings.get("rated_tbw")),
        bs_bytes=int(bs) if bs else None,
        total_bytes=number(totals.get("bytes_written")),
        io_seconds=number(totals.get("io_seconds")),
        simulated_target=simulated,
        wsat_before=before,
        criteria=dict(crit),
        preparation=_preparation(doc, phases),
    )
    if simulated:
        drive = str(members[0].get("preset") or spec.removeprefix("sim:").split("@")[0])
        given = spec.split("@", 1)[1] if "@" in spec else None
        factor = number(members[0].get("scale_factor"))
        source.simulated = True
        source.sim_drive = drive
        source.sim_scale = scale_text(drive, given) if given or not factor else None
        if source.sim_scale is None and factor:
            source.sim_scale = f"1/{round(1 / factor):,}" if factor < 1 else "1 (full size)"
        source.sim_basis = sim_basis_of(drive)
        source.identity.insert(
            0,
            (
                "SIMULATED",
                f"profile of the simulated drive {drive}, scale {source.sim_scale}, "
                f"{source.sim_basis}: computed by the simulator, not measured on a drive",
            ),
        )
    source.comparison_keys = {
        "drive": source.sim_drive
        if simulated
        else ", ".join(
            str(m.get("model") or m.get("fs_type") and f"file on {m['fs_type']}" or m.get("kind"))
            for m in members
        ),
        "scale": (source.sim_scale or "—") if simulated else "1 (real drive)",
        "method": "profile of a simulated drive" if simulated else "profile (fio)",
        "precondition": f"{settings.get('precondition')}"
        + (
            f", {settings['min_phase_drive_writes']:g} drive writes per phase"
            if number(settings.get("min_phase_drive_writes")) is not None
            else ", phase precondition by rule"
            if "steady_max_decline_fraction" in settings
            else ""
        ),
        "round length": f"{settings.get('round_seconds')} s",
        "workload": f"{binary_size(bs) if bs else '?'} random writes, QD {settings.get('qd')} × "
        f"{settings.get('jobs')}",
    }
    if source.status != "complete":
        source.notes.append(
            f"this profile is {source.status}"
            + (f" ({doc['error']})" if doc.get("error") else "")
            + ": its figures are partial"
        )
    if settings.get("size_bytes") and target.get("kind") == "block":
        source.notes.append(
            "only the first "
            f"{human_bytes(settings['size_bytes'])} of the device were tested: unwritten or "
            "discarded space beyond it can act as extra OP and raise every phase's IOPS"
        )
    return source


def _preparation(doc: Mapping[str, Any], phases: Sequence[Phase]) -> list[tuple[str, str]]:
    """The device preparation in the SNIA PTS's terms: purge, workload-independent
    precondition (the fill), and per phase the workload-dependent precondition (what the
    phase wrote before its measurement window may count)."""
    steps = doc.get("steps") or {}
    settings = doc.get("settings") or {}
    out: list[tuple[str, str]] = []

    def step(name: str) -> str:
        st = steps.get(name) or {}
        return " — ".join(
            x for x in (str(st.get("status") or "not recorded"), st.get("detail")) if x
        )

    out.append(("purge", step("purge")))
    fob = (steps.get("fob") or {}).get("round") or {}
    fob_text = step("fob")
    if number(fob.get("bytes_written")):
        fob_text += f"; {human_bytes(fob['bytes_written'])} written"
    out.append(("fresh-out-of-box round", fob_text))
    parts = (steps.get("precondition") or {}).get("parts") or []
    pre_bytes = sum(float(p.get("bytes_written") or 0.0) for p in parts)
    cap = number((doc.get("target") or {}).get("capacity_bytes"))
    pre_text = f"{settings.get('precondition') or '?'} writes: " + step("precondition")
    if pre_bytes:
        pre_text += f"; {human_bytes(pre_bytes)}" + (
            f" ({pre_bytes / cap:.2f} fills of the {human_bytes(cap)} tested)" if cap else ""
        )
    out.append(("workload-independent precondition", pre_text))
    for p in phases:
        pc = p.precondition
        if not pc and p.written_before_window_drive_writes is None:
            continue
        bits = []
        if pc.get("rule"):
            bits.append(f"rule: {pc['rule']}")
        if number(pc.get("bytes")) is not None:
            bits.append(f"required {human_bytes(pc['bytes'])}")
        if pc.get("overridden"):
            bits.append("set by --min-phase-writes")
        if p.written_before_window_drive_writes is not None:
            bits.append(
                f"written before the window: {p.written_before_window_drive_writes:.2f} drive "
                "writes of the span"
            )
        out.append((f"workload-dependent precondition, OP {p.op_percent:g}%", "; ".join(bits)))
    return out
