"""The profile: identify → FOB → purge → precondition → one phase per OP level → recommend.

Every step is logged with a timestamp to ``profile.log`` (and to the progress callback), and
``results.json`` is rewritten atomically after every round, so a crash, Ctrl-C or reboot loses
at most the round in progress; :meth:`Profile.run` on a folder with a stored run continues it
and never reruns a finished step or phase.
"""

from __future__ import annotations

import platform
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from overprov import __version__, outputs
from overprov import results as res
from overprov.errors import ConfigError, failure_text
from overprov.outputs import check_no_other_run, hold_out_dir, release_out_dir
from overprov.profile import no_ftl
from overprov.profile import record as rec
from overprov.profile.estimate import drive_facts, estimate, estimate_text, wear_warning
from overprov.profile.phase import DONE_PHASE, run_phase
from overprov.profile.precondition import run_precondition
from overprov.profile.settings import ProfileSettings
from overprov.profile.target_kinds import make_target
from overprov.profile.targets import RoundResult, RoundSpec, Target, now_iso
from overprov.units import human_bytes

# ------------------------------------------------------------------------------------ profile


def _field_text(value: object) -> str:
    """A member's field as the identify line shows it: a float to 6 significant figures
    (``scale_factor=0.004``, not ``0.003999999999999999``), anything else as it is."""
    return f"{value:g}" if isinstance(value, float) else str(value)


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
        self.made_out_dir = False
        """This run made its output folder (``create``; a folder that was there, never)."""

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
        check_no_other_run(out, "profile")
        try:
            out.mkdir(parents=True)
            made_out_dir = True
        except FileExistsError:
            if not out.is_dir():
                raise
            made_out_dir = False
        doc = rec.new_document(target_spec, settings)
        profile = cls(
            out,
            doc,
            confirm=confirm or [],
            allow_hdd=allow_hdd,
            progress=progress,
            resuming=False,
            target_factory=target_factory,
            scale_sim_rounds=scale_sim_rounds,
        )
        profile.made_out_dir = made_out_dir
        return profile

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
        if not out.exists():
            raise ConfigError(
                f"--resume: {out} does not exist (a profile refused before it opened its "
                "target leaves no folder that it made: run its command again, as the refusal "
                "said)"
            )
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

    def write_phase_csv(self, phase: dict[str, Any]) -> None:
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

    def begin_step(self, name: str) -> dict[str, Any]:
        self._current = name
        step = self.doc["steps"][name]
        step["status"] = "running"
        step["started"] = step["started"] or now_iso()
        return step

    def end_step(self, name: str, detail: str, status: str = "done") -> None:
        step = self.doc["steps"][name]
        step["status"] = status
        step["finished"] = now_iso()
        step["detail"] = detail
        self.log(name, detail)
        self.save()

    def run_round(self, target: Target, spec: RoundSpec) -> RoundResult:
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
        self.begin_step("identify")
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
            ", ".join(f"{k}={_field_text(v)}" for k, v in m.items() if v not in (None, ""))
            for m in identity["members"]
        )
        software = ", ".join(f"{k} {v}" for k, v in self.doc["software"].items())
        self.end_step(
            "identify",
            f"{identity['kind']} target, {human_bytes(identity['capacity_bytes'])} tested per "
            f"member: {described}; software: {software}",
        )
        if warning := no_ftl.op_warning(identity["members"]):
            self.log("warning", warning)
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
                self.end_step("fob", "skipped (--fob-seconds 0)", status="skipped")
            else:
                step = self.begin_step("fob")
                self.log(
                    "fob", f"initial random-write performance: {s.fob_s} s over the whole span"
                )
                r = self.run_round(
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
                self.end_step(
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
            self.begin_step("purge")
            self.save()
            self.end_step("purge", target.purge())

        # 4. precondition ---------------------------------------------------------------
        run_precondition(self, target, cap)

        # 5. phases ---------------------------------------------------------------------
        for phase in self.doc["phases"]:
            if phase["status"] in DONE_PHASE:
                continue
            met = self._target_met()
            if met is not None:
                self.skip_phase(
                    phase, f"--stop-at-target: OP {met:g}% already meets {s.target_iops:g} IOPS"
                )
                continue
            run_phase(self, target, phase, cap)

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

    def skip_phase(self, phase: dict[str, Any], reason: str) -> None:
        phase["status"] = "skipped"
        phase["skipped"] = True
        phase["skip_reason"] = reason
        phase["finished"] = now_iso()
        self.log(phase["label"], f"skipped: {reason}")
        self.write_phase_csv(phase)
        self.save()


def stderr_progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
