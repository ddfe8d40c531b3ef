"""One round as fio runs it on a :class:`~overprov.profile.fio_target.FioTarget`: its job file
(one group a member, writing after the run marker: :func:`workload_start`) and the members'
figures combined into the round's (:func:`combined_figures`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from overprov import fingerprint
from overprov import fio as fiomod
from overprov.profile.targets import Figures, RoundSpec
from overprov.units import plural


def workload_start(bs_bytes: int) -> int:
    """First byte a round may write: the whole blocks after the run marker (aligned to bs)."""
    return -(-fingerprint.MARKER_BYTES // bs_bytes) * bs_bytes


def job_file_text(spec: RoundSpec, paths: Sequence[str], *, ioengine: str, kind: str) -> str:
    """The fio job file of round ``spec`` on the members at ``paths`` (their real paths): one
    group a member, each writing from the run marker's end (:func:`workload_start`) over the
    span; ``kind`` "file" or "block"."""
    g: dict[str, Any] = {
        "ioengine": ioengine,
        "direct": 1,
        "rw": spec.rw,
        "bs": spec.bs_bytes,
        "iodepth": spec.qd,
        "group_reporting": 1,
        "log_avg_msec": 1000,
        "percentile_list": ":".join(f"{p:g}" for p in fiomod.PERCENTILES),
    }
    if spec.read_percent:
        g["rw"] = "randrw"
        g["rwmixread"] = spec.read_percent
    if spec.write_through:
        g["sync"] = 1
    if spec.rate_iops is not None:
        g["rate_iops"] = spec.rate_iops
    if kind == "file":
        g["fallocate"] = "none"  # keep punched holes holes until written
    else:
        g["allow_file_create"] = 0  # a wrong /dev path must not become a file
    if spec.rw == "randwrite":
        g["randrepeat"] = 0  # a new random sequence each round
        g["norandommap"] = 1
        if spec.seconds is None:
            # write every block of the span exactly once, in random order
            g["random_generator"] = "lfsr"
    if spec.seconds is not None:
        g["time_based"] = 1
        g["runtime"] = spec.seconds
        if spec.fio_ss_slope_percent is not None and spec.seconds >= 2:
            g["steadystate"] = f"iops_slope:{spec.fio_ss_slope_percent:g}%"
            g["ss_dur"] = spec.seconds
            g["ss_ramp"] = 0
    sections = []
    for i, path in enumerate(paths):
        opts: dict[str, Any] = {}
        if i > 0:
            opts["new_group"] = None
        opts["filename"] = fiomod.escape_filename(path)
        # the first whole block(s) hold the run marker (fingerprint.MARKER_BYTES)
        start = max(spec.offset_bytes, workload_start(spec.bs_bytes))
        opts["offset"] = start
        opts["size"] = spec.offset_bytes + spec.span_bytes - start
        opts["numjobs"] = spec.jobs
        opts["write_iops_log"] = f"{spec.label}-m{i}"
        sections.append((f"m{i}", opts))
    what = (
        f"{spec.seconds} s of {spec.rw}"
        if spec.seconds is not None
        else f"one pass of {spec.rw} over the span"
    )
    if spec.idle_seconds > 0:
        what += f" after {spec.idle_seconds:g} s of host idle time (a sleep before fio)"
    comment = (
        f"overprov profile, round {spec.label}: {what}, bs={spec.bs_bytes}, "
        f"QD {spec.qd} x {plural(spec.jobs, 'job')} per member.\n"
        "WARNING: writes to (destroys the data on) every filename below.\n"
        f"Rerun by hand, in this folder: fio --output-format=json+ {spec.label}.fio"
    )
    return fiomod.render_job_file(g, sections, comment)


def combined_figures(
    members: list[Figures], logs: list[dict[int, float]], bins: dict[int, int]
) -> Figures:
    """The members' figures of one round as one: IOPS and bytes summed, the longest duration,
    the mean latency weighted by I/Os, percentiles from the summed latency bins, the summed
    per-second IOPS series; a single member's figures copied."""
    if len(members) == 1:
        only = members[0]
        return Figures(
            name="combined",
            iops=only.iops,
            bytes_written=only.bytes_written,
            duration_s=only.duration_s,
            latency_us=dict(only.latency_us),
            iops_series=list(only.iops_series),
            fio_steadystate=only.fio_steadystate,
            read_latency_us_mean=only.read_latency_us_mean,
        )
    latency: dict[str, float | None] = {}
    means = [(m.latency_us.get("mean"), m.iops * m.duration_s) for m in members]
    if all(v is not None for v, _ in means) and sum(w for _, w in means) > 0:
        latency["mean"] = math.fsum(v * w for v, w in means if v is not None) / sum(
            w for _, w in means
        )
    else:
        latency["mean"] = None
    maxes = [m.latency_us.get("max") for m in members]
    latency["max"] = max(maxes) if all(v is not None for v in maxes) else None  # type: ignore[type-var]
    if bins:
        latency.update(fiomod.percentiles_from_bins_us(bins))
    else:
        latency.update({fiomod.percentile_key(p): None for p in fiomod.PERCENTILES})
    verdicts = [m.fio_steadystate for m in members]
    fio_ss = None
    if all(v is not None for v in verdicts):
        fio_ss = {
            "ss": verdicts[0]["ss"],  # type: ignore[index]
            "attained": all(bool(v["attained"]) for v in verdicts),  # type: ignore[index]
            "members_attained": [v["attained"] for v in verdicts],  # type: ignore[index]
        }
    return Figures(
        name="combined",
        iops=math.fsum(m.iops for m in members),
        bytes_written=sum(m.bytes_written for m in members),
        duration_s=max(m.duration_s for m in members),
        latency_us=latency,
        iops_series=fiomod.sum_series(logs),
        fio_steadystate=fio_ss,
    )
