"""One phase of the profile: one extra-OP level. Its tail is discarded, then rounds of random
writes over the span in front of it run until the phase is steady (``steady.py``), gives up,
or is skipped (``--min-iops``); each round is recorded and the phase's CSV and results.json
written after it, so a resumed run continues with the next round.
"""

from __future__ import annotations

import math
import re
from typing import Any

from overprov.emulate import counters, host_share
from overprov.errors import ConfigError
from overprov.profile import phase_precondition
from overprov.profile import record as rec
from overprov.profile.estimate import drive_facts
from overprov.profile.phase_precondition import span_for
from overprov.profile.profile_run import ProfileRun
from overprov.profile.steady import assess_phase
from overprov.profile.targets import RoundSpec, Target, now_iso
from overprov.units import human_bytes, plural

DONE_PHASE = ("steady", "not_steady", "skipped")
"""The statuses of a finished phase, which a resumed run does not run again."""


def _nand_bytes(target: Target) -> int | None:
    """NAND bytes written so far, where the target reports them (simulated drives)."""
    counter = getattr(target, "nand_bytes_written", None)
    return counter() if callable(counter) else None


def _fmt_us(v: float | None) -> str:
    return "n/a" if v is None else f"{v:,.0f} µs"


def _phase_precondition(
    profile: ProfileRun, target: Target, phase: dict[str, Any], cap: int
) -> phase_precondition.PhasePrecondition:
    """This phase's precondition: its discard frees what the previous phase covered."""
    s = profile.settings
    i = profile.doc["phases"].index(phase)
    before = [p for p in profile.doc["phases"][:i] if p.get("span_bytes")]
    previous = before[-1]["span_bytes"] if before else cap
    span = span_for(float(phase["extra_op_percent"]), cap, s.bs_bytes)
    facts = drive_facts(target, s)
    return phase_precondition.phase_precondition(
        span,
        max(0, previous - span),
        cap,
        nand_bytes=facts["nand_bytes"],
        pages_per_block=facts["pages_per_block"],
        min_phase_drive_writes=s.min_phase_drive_writes,
    )


def run_phase(profile: ProfileRun, target: Target, phase: dict[str, Any], cap: int) -> None:
    """Run (or continue) ``phase`` of ``profile`` on ``target`` of ``cap`` bytes to its end."""
    s = profile.settings
    doc = profile.doc
    op = float(phase["extra_op_percent"])
    span = span_for(op, cap, s.bs_bytes)
    if span <= 0:
        raise ConfigError(f"--extra-op {op:g}: leaves no space to write in {cap} bytes")
    label = phase["label"]
    pre = _phase_precondition(profile, target, phase, cap)
    phase["status"] = "running"
    phase["started"] = phase["started"] or now_iso()
    phase["span_bytes"] = span
    phase["precondition"] = pre.to_dict()
    again = " (again: idempotent after an interruption)" if phase["discard"] else ""
    phase["discard"] = target.discard_tail(span)
    profile.log(
        label,
        f"OP {op:g}%: random writes on the first {human_bytes(span)} of "
        f"{human_bytes(cap)}; tail discarded{again}: {phase['discard']}; the window may "
        f"start after {human_bytes(pre.bytes)} written: {pre.rule}",
    )
    profile.save()
    verdict = assess_phase(phase, s.criteria())
    nand = _nand_bytes(target)
    # on a drive ``overprov emulate`` serves, each round's host share (emulate/host_share.py):
    # its status is read once here, after the discard, and once after each round
    device = host_share.emulated_device(target)
    reading = counters.read(device) if device is not None else None
    host_bound = host_share.HostBoundNotice(lambda line: profile.log(label, line))
    if any(host_share.host_bound(r.get("host_share")) for r in phase["rounds"]):
        host_bound.said.add(label)  # said in profile.log by the run this one resumes
    while not verdict.steady and not verdict.gave_up:
        n = len(phase["rounds"]) + 1
        r = profile.run_round(
            target,
            RoundSpec(
                label=f"{label}-r{n:03d}",
                rw="randwrite",
                bs_bytes=s.bs_bytes,
                qd=s.qd,
                jobs=s.jobs,
                span_bytes=span,
                seconds=s.round_seconds,
                fio_ss_slope_percent=s.fio_ss_slope_percent,
            ),
        )
        record = rec.round_record(n, r)
        now = _nand_bytes(target)
        if nand is not None and now is not None and r.combined.bytes_written > 0:
            record["nand_bytes_written"] = now - nand
            record["waf"] = (now - nand) / r.combined.bytes_written
        nand = now
        if device is not None:
            before, reading = reading, counters.read(device)
            share = host_share.round_share(before, reading, r.combined.iops, s.qd * s.jobs)
            record["host_share"] = share
            host_bound.check(label, record["label"], share)
        phase["rounds"].append(record)
        verdict = assess_phase(phase, s.criteria())
        rec.update_phase(phase, verdict, [m["name"] for m in doc["target"]["members"]])
        ss = r.combined.fio_steadystate
        fio_said = ""
        if ss is not None:
            said = "attained" if ss["attained"] else "not attained"
            fio_said = f"; fio {fio_criterion(ss['ss'])}: {said}"
        profile.log(
            label,
            f"round {n}: {r.combined.iops:,.0f} IOPS, "
            f"p99 {_fmt_us(r.combined.latency_us.get('p99'))}"
            + (f", WAF {record['waf']:.3f}" if "waf" in record else "")
            + f"{fio_said}; {verdict.reason}",
        )
        profile.write_phase_csv(phase)
        profile.save()
        if verdict.steady or r.combined.bytes_written == 0:
            break  # (a round that wrote nothing would never finish the precondition)
        series = [x["iops"] for x in phase["rounds"]]
        first = min(s.min_iops_rounds, s.max_rounds)
        if s.min_iops is not None and n == first:
            mean_first = math.fsum(series[:first]) / first
            if mean_first < s.min_iops:
                phase["finished"] = now_iso()
                rec.update_phase(phase, verdict, [m["name"] for m in doc["target"]["members"]])
                profile.skip_phase(
                    phase,
                    f"--min-iops: the first {plural(first, 'round')} averaged {mean_first:,.0f} "
                    f"IOPS, below {s.min_iops:g}",
                )
                return
    phase["finished"] = now_iso()
    rec.update_phase(phase, verdict, [m["name"] for m in doc["target"]["members"]])
    if verdict.steady:
        phase["status"] = "steady"
        profile.log(label, f"STEADY at {phase['steady_iops']:,.0f} IOPS — {verdict.reason}")
    else:
        phase["status"] = "not_steady"
        profile.log(label, f"NOT STEADY: {verdict.reason}")
    profile.write_phase_csv(phase)
    profile.save()


def fio_criterion(ss: str) -> str:
    """fio's steady-state criterion as its json+ output names it, the number as a person writes
    it: ``iops_slope:10.000000%`` → ``iops_slope 10%`` (anything else is left as it is)."""
    name, _, value = ss.partition(":")
    found = re.fullmatch(r"([0-9]+)(\.[0-9]*)?(%?)", value)
    if not found:
        return ss
    return f"{name} {found[1]}{(found[2] or '').rstrip('0').rstrip('.')}{found[3]}"
