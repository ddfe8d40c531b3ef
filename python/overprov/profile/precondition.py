"""The profile's precondition of the whole capacity, before the first phase: the SNIA PTS
workload-independent preconditioning (sequential passes, or one random-map pass of the
profile's block size), split into parts so that a crash loses at most one part.

The precondition each phase writes before its window may count (workload-dependent) is
``phase_precondition.py``.
"""

from __future__ import annotations

import math

from overprov.profile.profile_run import ProfileRun
from overprov.profile.settings import ProfileSettings
from overprov.profile.targets import RoundSpec, Target
from overprov.units import human_bytes, human_seconds, plural

GIB = 1024**3
PRECONDITION_BS = 128 * 1024
PRECONDITION_PART_MAX_BYTES = 64 * GIB
"""A precondition pass is split into parts of at most this size: the unit a crash can lose."""


def precondition_parts(cap_bytes: int, passes: int) -> list[tuple[int, int, int]]:
    """(pass index from 0, offset_bytes, span_bytes) of every part of ``passes`` passes over
    ``cap_bytes``, each part at most ``PRECONDITION_PART_MAX_BYTES`` (rounded up to a MiB)."""
    parts_per_pass = max(1, math.ceil(cap_bytes / PRECONDITION_PART_MAX_BYTES))
    part_bytes = math.ceil(cap_bytes / parts_per_pass / (1 << 20)) * (1 << 20)
    plan = []
    for p in range(passes):
        for i in range(parts_per_pass):
            offset = i * part_bytes
            span = min(part_bytes, cap_bytes - offset)
            if span > 0:
                plan.append((p, offset, span))
    return plan


def precondition_method(s: ProfileSettings) -> tuple[str, str, int]:
    """(how it is described, fio's rw, block size in bytes) of the settings' precondition."""
    if s.precondition == "seq":
        how = (
            f"{s.precondition_passes} × capacity of {PRECONDITION_BS // 1024} KiB sequential writes"
        )
        return how, "write", PRECONDITION_BS
    how = (
        f"one random-map pass of {s.bs_bytes} B writes (every block written "
        "exactly once, in random order)"
    )
    return how, "randwrite", s.bs_bytes


def run_precondition(profile: ProfileRun, target: Target, cap: int) -> None:
    """Write the precondition's parts not yet done (a resumed run continues with the next
    part), recording each in the step's ``parts``; a finished step is not run again."""
    s = profile.settings
    step = profile.doc["steps"]["precondition"]
    if step["status"] == "done":
        return
    plan = precondition_parts(cap, s.precondition_passes)
    profile.begin_step("precondition")
    step.setdefault("parts", [])
    how, rw, bs = precondition_method(s)
    done = len(step["parts"])
    profile.log("precondition", f"{how}: {plural(len(plan), 'part')}, {done} already done")
    profile.save()
    for n, (p, offset, span) in enumerate(plan[done:], start=done + 1):
        r = profile.run_round(
            target,
            RoundSpec(
                label=f"pre-p{n:02d}",
                rw=rw,
                bs_bytes=bs,
                qd=s.qd,
                jobs=1,
                offset_bytes=offset,
                span_bytes=span,
            ),
        )
        rate = r.combined.bytes_written / r.combined.duration_s if r.combined.duration_s else 0
        step["parts"].append(
            {
                "index": n,
                "pass": p + 1,
                "offset_bytes": offset,
                "span_bytes": span,
                "started": r.started,
                "finished": r.finished,
                "bytes_written": r.combined.bytes_written,
                "duration_seconds": r.combined.duration_s,
                "bytes_per_second": rate,
                "files": r.files,
            }
        )
        left = len(plan) - n
        eta = (left * span / (rate / len(target.member_names))) if rate else 0
        profile.log(
            "precondition",
            f"part {n}/{len(plan)} (pass {p + 1}): {human_bytes(r.combined.bytes_written)} in "
            f"{r.combined.duration_s:.3g} s ({human_bytes(rate)}/s)"
            + (f"; about {human_seconds(eta)} left" if left else ""),
        )
        profile.save()
    profile.end_step("precondition", f"{how}: {plural(len(plan), 'part')} done")
