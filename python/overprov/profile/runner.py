"""The profile: identify → FOB → purge → precondition → one phase per OP level → recommend.

Every step is logged with a timestamp to ``profile.log`` (and to the progress callback), and
``results.json`` is rewritten atomically after every round, so a crash, Ctrl-C or reboot loses
at most the round in progress; :meth:`Profile.run` on a folder with a stored run continues it
and never reruns a finished step or phase.
"""

from __future__ import annotations

import math
import platform
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from overprov import __version__, outputs
from overprov import results as res
from overprov.errors import ConfigError, failure_text
from overprov.outputs import hold_out_dir, release_out_dir
from overprov.profile import phase_precondition
from overprov.profile import record as rec
from overprov.profile.estimate import drive_facts, estimate, estimate_text, wear_warning
from overprov.profile.phase_precondition import span_for
from overprov.profile.settings import ProfileSettings
from overprov.profile.steady import assess_phase
from overprov.profile.target_kinds import make_target
from overprov.profile.targets import RoundResult, RoundSpec, Target, now_iso
from overprov.units import human_bytes, human_seconds

GIB = 1024**3
PRECONDITION_BS = 128 * 1024
PRECONDITION_PART_MAX_BYTES = 64 * GIB
"""A precondition pass is split into parts of at most this size: the unit a crash can lose."""

DONE_PHASE = ("steady", "not_steady", "skipped")


# ------------------------------------------------------------------------------------ profile


def _nand_bytes(target: Target) -> int | None:
    """NAND bytes written so far, where the target reports them (simulated drives)."""
    counter = getattr(target, "nand_bytes_written", None)
    return counter() if callable(counter) else None


def _software(target: Target) -> dict[str, str]:
    sw = {
        "overprov": __version__,
        "python": platform.python_version(),
        "kernel": f"{platform.system()} {platform.release()}",
    }
    sw.update(target.software())
    return sw


def interrupted_advice(target: dict[str, Any], out: Path) -> str:
    """What to do after Ctrl-C: resume a real target's profile; a simulated drive's state is
    not saved, so its profile is run again."""
    if target.get("kind") == "sim":
        return (
            "stopped by the user; what was finished is kept in "
            f"{out}/results.json, but a simulated drive cannot be resumed (its state is not "
            f"saved): run the profile again, into a new --out (it takes seconds to minutes)"
        )
    return (
        "stopped by the user; the round in progress is lost, "
        f"everything before it is kept: continue with --resume {out}"
    )


class Profile:
    """One profile run in an output folder; new (``create``) or continued (``resume``)."""

    def __init__(
        self,
        out_dir: Path,
        doc: dict[str, Any],
        *,
        confirm: list[str],
        allow_hdd: bool,
        progress: Callable[[str], None] | None,
        resuming: bool,
        target_factory: Callable[[], Target] | None = None,
        scale_sim_rounds: bool = False,
    ) -> None:
        self.out = Path(out_dir)
        self.doc = doc
        self.settings = ProfileSettings.from_dict(doc["settings"])
        self.confirm = confirm
        self.allow_hdd = allow_hdd
        self.progress = progress
        self.resuming = resuming
        self._lock_fd: int | None = None
        self._target_factory = target_factory
        self._scale_sim_rounds = scale_sim_rounds
        self._checked: tuple[set[int], dict[str, str]] = (set(), {})  # what saves found valid
        self._current: str | None = None
        """What was running (a round label or a step name), for the record of interruptions."""

    # ---------------------------------------------------------------------------- creation

    @classmethod
    def create(
        cls,
        target_spec: str,
        settings: ProfileSettings,
        out_dir: Path,
        *,
        confirm: list[str] | None = None,
        allow_hdd: bool = False,
        progress: Callable[[str], None] | None = None,
        target_factory: Callable[[], Target] | None = None,
        scale_sim_rounds: bool = False,
    ) -> Profile:
        """``scale_sim_rounds``: a scaled ``sim:`` drive's rounds last scale × their seconds
        (the ``profile`` command's rule, docs/profile.md); off, they last their seconds."""
        settings.validate()
        if target_factory is None:  # refuses sim: and mixed members before anything is made
            make_target(target_spec, Path(out_dir) / "fio")
        out = Path(out_dir)
        if (out / "results.json").exists():
            raise ConfigError(
                f"--out: {out} already holds a profile; continue it with --resume {out} "
                "or choose another folder"
            )
        out.mkdir(parents=True, exist_ok=True)
        doc = rec.new_document(target_spec, settings)
        return cls(
            out,
            doc,
            confirm=confirm or [],
            allow_hdd=allow_hdd,
            progress=progress,
            resuming=False,
            target_factory=target_factory,
            scale_sim_rounds=scale_sim_rounds,
        )

    @classmethod
    def resume(
        cls,
        out_dir: Path,
        *,
        confirm: list[str] | None = None,
        allow_hdd: bool = False,
        progress: Callable[[str], None] | None = None,
        target_factory: Callable[[], Target] | None = None,
    ) -> Profile:
        out = Path(out_dir)
        doc = res.load_results(out / "results.json")
        return cls(
            out,
            doc,
            confirm=confirm or [],
            allow_hdd=allow_hdd,
            progress=progress,
            resuming=True,
            target_factory=target_factory,
        )

    # ------------------------------------------------------------------------------ logging

    def log(self, step: str, message: str) -> None:
        line = f"{now_iso()}  {step}: {message}"
        with outputs.naming(log := self.out / "profile.log"), outputs.append_own(log) as f:
            f.write(line + "\n")
        if self.progress is not None:
            self.progress(line)
            update = getattr(self.progress, "update", None)  # profile.progress_view's bar
            if update is not None:
                update(step, self.doc, self.settings)

    def save(self) -> None:
        self.doc["updated"] = now_iso()
        res.validate_new_rounds(self.doc, *self._checked)
        res.write_json_atomic(self.out / "results.json", self.doc)

    def _save_last(self, step: str, message: str) -> None:
        """The run's last word, in profile.log and results.json, even on a full disk: a log
        line that cannot be written is only shown, and the document goes in place of the old
        one when it cannot be written beside it (``results.write_json_last``)."""
        try:
            self.log(step, message)
        except OSError:
            if self.progress is not None:
                self.progress(f"{now_iso()}  {step}: {message}")
        self.doc["updated"] = now_iso()
        res.validate(self.doc)
        res.write_json_last(self.out / "results.json", self.doc)

    def _write_csv(self, phase: dict[str, Any]) -> None:
        names = [m["name"] for m in self.doc["target"]["members"]]
        res.write_atomic(self.out / phase["csv"], res.phase_csv_text(phase, names))

    def _lock(self) -> None:
        hold_out_dir(self.out, " ".join(["overprov", *sys.argv[1:]]))
        self._lock_fd = 1

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            release_out_dir(self.out)
            self._lock_fd = None

    # ---------------------------------------------------------------------------------- run

    def run(self) -> dict[str, Any]:
        """Run (or continue) the profile to the end; returns the results document."""
        self._lock()
        try:
            if self.doc["status"] == "complete":
                self.log("resume", "this profile is already complete; nothing to do")
                return self.doc
            self.doc["runs"].append({"started": now_iso(), "resumed": self.resuming})
            self.doc["status"] = "running"
            self.doc["error"] = None
            target: Target | None = None
            try:
                target = self._make_target()
                self._steps(target)
            except KeyboardInterrupt:
                self.doc["status"] = "interrupted"
                self.doc.setdefault("interruptions", []).append(
                    {"at": now_iso(), "during": self._current}
                )
                self._save_last("interrupted", interrupted_advice(self.doc["target"], self.out))
                raise
            except Exception as exc:
                self.doc["status"] = "failed"
                self.doc["error"] = failure_text(exc)
                self._save_last("failed", self.doc["error"])
                raise
            finally:
                if target is not None:
                    target.close()
            return self.doc
        finally:
            self._unlock()

    def _make_target(self) -> Target:
        """The target named in the results; ``target_factory`` (tests, other targets) wins."""
        if self._target_factory is not None:
            return self._target_factory()
        s = self.settings
        target = make_target(
            self.doc["target"]["spec"],
            self.out / "fio",
            size_bytes=s.size_bytes,
            bs_bytes=s.bs_bytes,
            ioengine=s.ioengine,
            fdp_ranges=s.fdp_ranges,
            confirm=self.confirm,
            allow_hdd=self.allow_hdd,
            files_root=self.out,
        )
        scale_rounds = getattr(target, "scale_rounds", None)
        if scale_rounds is not None and self._scale_sim_rounds:  # docs/profile.md
            scale_rounds()
        return target

    def _begin(self, name: str) -> dict[str, Any]:
        self._current = name
        step = self.doc["steps"][name]
        step["status"] = "running"
        step["started"] = step["started"] or now_iso()
        return step

    def _end(self, name: str, detail: str, status: str = "done") -> None:
        step = self.doc["steps"][name]
        step["status"] = status
        step["finished"] = now_iso()
        step["detail"] = detail
        self.log(name, detail)
        self.save()

    def _run(self, target: Target, spec: RoundSpec) -> RoundResult:
        self._current = spec.label
        r = target.run(spec)
        self._account(r)
        return r

    def _account(self, r: RoundResult) -> None:
        self.doc["totals"]["bytes_written"] += r.combined.bytes_written
        self.doc["totals"]["io_seconds"] += r.combined.duration_s

    def _steps(self, target: Target) -> None:
        s = self.settings
        # 1. identify -------------------------------------------------------------------
        self._begin("identify")
        self.log("identify", f"opening {self.doc['target']['spec']} (safety checks)")
        # a stored run that never identified its target wrote nothing: it starts afresh
        recorded = self.resuming and bool(self.doc["target"].get("members"))
        target.open(resuming=recorded)
        identity = target.identity()
        if recorded:  # the fingerprint check (docs/safety.md)
            why = target.same_as(self.doc["target"])
            if why is not None:
                raise ConfigError(f"--resume: not the target of {self.out}: {why}")
        self.doc["target"] = identity
        self.doc["software"] = _software(target)
        described = "; ".join(
            ", ".join(f"{k}={v}" for k, v in m.items() if v not in (None, ""))
            for m in identity["members"]
        )
        self._end(
            "identify",
            f"{identity['kind']} target, {res_bytes(identity['capacity_bytes'])} tested per "
            f"member: {described}; software {self.doc['software']}",
        )
        cap = target.capacity_bytes
        members = len(target.member_names)

        if not self.resuming:
            est = estimate(s, cap, members, **drive_facts(target, s))
            self.doc["estimate"] = est
            self.log("estimate", estimate_text(est, target.spec, target.kind, cap, members))
            self.log("warning", wear_warning(target.kind, target.spec))
            self.save()
        else:
            done = sum(1 for p in self.doc["phases"] if p["status"] in DONE_PHASE)
            self.log(
                "resume",
                f"continuing {self.out}: {done} of {len(self.doc['phases'])} phases finished "
                "(not rerun)",
            )

        # 2. FOB ------------------------------------------------------------------------
        if self.doc["steps"]["fob"]["status"] != "done":
            if s.fob_s == 0:
                self._end("fob", "skipped (--fob-seconds 0)", status="skipped")
            else:
                step = self._begin("fob")
                self.log(
                    "fob", f"initial random-write performance: {s.fob_s} s over the whole span"
                )
                r = self._run(
                    target,
                    RoundSpec(
                        label="fob",
                        rw="randwrite",
                        bs_bytes=s.bs_bytes,
                        qd=s.qd,
                        jobs=s.jobs,
                        span_bytes=cap,
                        seconds=s.fob_s,
                    ),
                )
                step["round"] = rec.round_record(1, r)
                per_member = r.combined.iops / members
                self._end(
                    "fob",
                    f"{r.combined.iops:,.0f} IOPS (fresh-out-of-box if the drive "
                    "was new or purged)",
                )
                facts = drive_facts(target, s)
                if target.kind != "sim":  # a simulated drive's steady figure stays
                    facts["random_iops"] = per_member
                    facts["measured"] = (
                        f"refined with the measured initial {per_member:,.0f} IOPS per member "
                        "(steady-state IOPS are usually lower, so bytes are an upper bound)"
                    )
                est = estimate(s, cap, members, **facts)
                self.doc["estimate_after_fob"] = est
                self.log("estimate", estimate_text(est, target.spec, target.kind, cap, members))
                self.save()

        # 3. purge ----------------------------------------------------------------------
        if self.doc["steps"]["purge"]["status"] != "done":
            self._begin("purge")
            self.save()
            self._end("purge", target.purge())

        # 4. precondition ---------------------------------------------------------------
        self._precondition(target, cap)

        # 5. phases ---------------------------------------------------------------------
        for phase in self.doc["phases"]:
            if phase["status"] in DONE_PHASE:
                continue
            met = self._target_met()
            if met is not None:
                self._skip(
                    phase, f"--stop-at-target: OP {met:g}% already meets {s.target_iops:g} IOPS"
                )
                continue
            self._phase(target, phase, cap)

        self.doc["recommendation"] = res.recommend(self.doc["phases"], s.target_iops)
        self.doc["status"] = "complete"
        self.log("recommendation", res.recommendation_text(self.doc["recommendation"]))
        self.save()

    def _target_met(self) -> float | None:
        s = self.settings
        if not s.stop_at_target or s.target_iops is None:
            return None
        for p in self.doc["phases"]:
            if p["steady"] and p["steady_iops"] is not None and p["steady_iops"] >= s.target_iops:
                return float(p["extra_op_percent"])
        return None

    def _skip(self, phase: dict[str, Any], reason: str) -> None:
        phase["status"] = "skipped"
        phase["skipped"] = True
        phase["skip_reason"] = reason
        phase["finished"] = now_iso()
        self.log(phase["label"], f"skipped: {reason}")
        self._write_csv(phase)
        self.save()

    def _precondition(self, target: Target, cap: int) -> None:
        s = self.settings
        step = self.doc["steps"]["precondition"]
        if step["status"] == "done":
            return
        parts_per_pass = max(1, math.ceil(cap / PRECONDITION_PART_MAX_BYTES))
        part_bytes = math.ceil(cap / parts_per_pass / (1 << 20)) * (1 << 20)
        plan = []
        for p in range(s.precondition_passes):
            for i in range(parts_per_pass):
                offset = i * part_bytes
                span = min(part_bytes, cap - offset)
                if span > 0:
                    plan.append((p, offset, span))
        self._begin("precondition")
        step.setdefault("parts", [])
        if s.precondition == "seq":
            how = (
                f"{s.precondition_passes} × capacity of {PRECONDITION_BS // 1024} KiB "
                "sequential writes"
            )
            rw, bs = "write", PRECONDITION_BS
        else:
            how = (
                f"one random-map pass of {s.bs_bytes} B writes (every block written "
                "exactly once, in random order)"
            )
            rw, bs = "randwrite", s.bs_bytes
        done = len(step["parts"])
        self.log("precondition", f"{how}: {len(plan)} part(s), {done} already done")
        self.save()
        for n, (p, offset, span) in enumerate(plan[done:], start=done + 1):
            r = self._run(
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
            self.log(
                "precondition",
                f"part {n}/{len(plan)} (pass {p + 1}): {res_bytes(r.combined.bytes_written)} in "
                f"{r.combined.duration_s:.3g} s ({res_bytes(rate)}/s)"
                + (f"; about {human_seconds(eta)} left" if left else ""),
            )
            self.save()
        self._end("precondition", f"{how}: {len(plan)} part(s) done")

    def _phase_precondition(
        self, target: Target, phase: dict[str, Any], cap: int
    ) -> phase_precondition.PhasePrecondition:
        """This phase's precondition: its discard frees what the previous phase covered."""
        s = self.settings
        i = self.doc["phases"].index(phase)
        before = [p for p in self.doc["phases"][:i] if p.get("span_bytes")]
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

    def _phase(self, target: Target, phase: dict[str, Any], cap: int) -> None:
        s = self.settings
        op = float(phase["extra_op_percent"])
        span = span_for(op, cap, s.bs_bytes)
        if span <= 0:
            raise ConfigError(f"--extra-op {op:g}: leaves no space to write in {cap} bytes")
        label = phase["label"]
        pre = self._phase_precondition(target, phase, cap)
        phase["status"] = "running"
        phase["started"] = phase["started"] or now_iso()
        phase["span_bytes"] = span
        phase["precondition"] = pre.to_dict()
        again = " (again: idempotent after an interruption)" if phase["discard"] else ""
        phase["discard"] = target.discard_tail(span)
        self.log(
            label,
            f"OP {op:g}%: random writes on the first {res_bytes(span)} of "
            f"{res_bytes(cap)}; tail discarded{again}: {phase['discard']}; the window may "
            f"start after {res_bytes(pre.bytes)} written: {pre.rule}",
        )
        self.save()
        verdict = assess_phase(phase, self.settings.criteria())
        nand = _nand_bytes(target)
        while not verdict.steady and not verdict.gave_up:
            n = len(phase["rounds"]) + 1
            r = self._run(
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
            phase["rounds"].append(record)
            verdict = assess_phase(phase, self.settings.criteria())
            rec.update_phase(phase, verdict, [m["name"] for m in self.doc["target"]["members"]])
            ss = r.combined.fio_steadystate
            fio_said = ""
            if ss is not None:
                fio_said = f"; fio {ss['ss']}: {'attained' if ss['attained'] else 'not attained'}"
            self.log(
                label,
                f"round {n}: {r.combined.iops:,.0f} IOPS, "
                f"p99 {_fmt_us(r.combined.latency_us.get('p99'))}"
                + (f", WAF {record['waf']:.3f}" if "waf" in record else "")
                + f"{fio_said}; {verdict.reason}",
            )
            self._write_csv(phase)
            self.save()
            if verdict.steady or r.combined.bytes_written == 0:
                break  # (a round that wrote nothing would never finish the precondition)
            series = [x["iops"] for x in phase["rounds"]]
            first = min(s.min_iops_rounds, s.max_rounds)
            if s.min_iops is not None and n == first:
                mean_first = math.fsum(series[:first]) / first
                if mean_first < s.min_iops:
                    phase["finished"] = now_iso()
                    rec.update_phase(
                        phase, verdict, [m["name"] for m in self.doc["target"]["members"]]
                    )
                    self._skip(
                        phase,
                        f"--min-iops: the first {first} round(s) averaged {mean_first:,.0f} "
                        f"IOPS, below {s.min_iops:g}",
                    )
                    return
        phase["finished"] = now_iso()
        rec.update_phase(phase, verdict, [m["name"] for m in self.doc["target"]["members"]])
        if verdict.steady:
            phase["status"] = "steady"
            self.log(label, f"STEADY at {phase['steady_iops']:,.0f} IOPS — {verdict.reason}")
        else:
            phase["status"] = "not_steady"
            self.log(label, f"NOT STEADY: {verdict.reason}")
        self._write_csv(phase)
        self.save()


def res_bytes(n: float) -> str:
    return human_bytes(n)


def _fmt_us(v: float | None) -> str:
    return "n/a" if v is None else f"{v:,.0f} µs"


def stderr_progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
