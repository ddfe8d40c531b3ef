"""A real drive or file as a profile target: :class:`FioTarget` runs each round with fio.

Safety (docs/safety.md): a block device is written only when confirmed by name; each member's
fingerprint (``overprov.fingerprint``) is recorded on open, its first 4 KiB carry the run's
identifier (the workload starts after them), and both are checked again before every round,
purge and discard, and when a stored run is resumed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from overprov import blockdev, device_users, file_guard, fingerprint, mount_table
from overprov import fio as fiomod
from overprov.errors import ConfigError, ToolError, UnsafeDeviceError
from overprov.file_location import (
    check_capacity,
    check_missing_target,
    check_room,
    check_storage_file,
    open_file_target,
    target_kind,
)
from overprov.interrupts import terminate_as_interrupt
from overprov.profile import member_guard as guard
from overprov.profile.discard import blk_discard, punch_hole
from overprov.profile.fio_job import combined_figures, job_file_text, workload_start
from overprov.profile.targets import Figures, RoundResult, RoundSpec, now_iso

# ------------------------------------------------------------------------------ fio members


@dataclass
class _Member:
    path: str  # as given
    real_path: str
    fd: int | None = None
    info: dict[str, Any] = field(default_factory=dict)


def _fs_of(path: str) -> tuple[str | None, str | None]:
    """(filesystem type, mount point) holding ``path``."""
    entry = mount_table.mount_holding(path)
    return (entry.fs_type, entry.mount_point) if entry else (None, None)


def _nothing() -> None:
    pass


class FioTarget:
    """One block device or regular file, or several of one kind tested together as the
    members of one RAID group (each round runs on all at once: one fio group per member in
    one fio run; figures per member and combined).

    Job files, fio's JSON output and its per-second IOPS logs are kept in ``job_dir``.
    """

    def __init__(
        self,
        spec: str,
        job_dir: Path,
        *,
        size_bytes: int | None = None,
        bs_bytes: int = 4096,
        ioengine: str = "libaio",
        confirm: Sequence[str] = (),
        allow_hdd: bool = False,
        files_root: Path | None = None,
    ) -> None:
        paths = [p.strip() for p in spec.split(",") if p.strip()]
        if not paths:
            raise ConfigError("target: no device or file given")
        for p in paths:
            fiomod.check_job_filename(os.path.realpath(p))
        if len({device_users.identity_key(p) for p in paths}) != len(paths):
            raise ConfigError(f"target: {spec!r} names the same member twice")
        self.spec = spec
        self.job_dir = Path(job_dir)
        self.files_root = Path(files_root) if files_root else self.job_dir.parent
        self.size_request = size_bytes
        self.bs_bytes = bs_bytes
        self.ioengine = ioengine
        self.confirm = list(confirm)
        self.allow_hdd = allow_hdd
        self.members = [_Member(p, os.path.realpath(p)) for p in paths]
        kinds = {self._kind_of(m.real_path) for m in self.members}
        if len(kinds) > 1:
            raise ConfigError(f"target: {spec!r} mixes block devices and files")
        self.kind = kinds.pop()
        self.member_names = [m.path for m in self.members]
        self.capacity_bytes = 0
        self._fio_version: str | None = None
        self._opened = False
        self._resuming = False
        self._verified = False
        self._run_id: str | None = None
        self._marked = False
        self._restore_sigterm: Callable[[], None] = _nothing

    @staticmethod
    def _kind_of(path: str) -> str:
        real = os.path.realpath(path)  # "/dev/sdb/" is /dev/sdb
        if not os.path.exists(real):
            return "file"  # created on open() when --size is given
        return target_kind(real)

    # -------------------------------------------------------------------------------- open

    def _same(self, confirmation: str, path: str) -> bool:
        if os.path.realpath(confirmation) == os.path.realpath(path):
            return True
        if self.kind == "block":
            return blockdev.same_device(confirmation, path)
        return False

    def _confirmed(self, path: str) -> str | None:
        """The user's --i-understand-this-destroys-data naming this member, if any."""
        for c in self.confirm:
            if self._same(c, path):
                return c
        return None

    def _check_confirmations(self) -> None:
        for c in self.confirm:
            if not any(self._same(c, m.real_path) for m in self.members):
                raise UnsafeDeviceError(
                    f"refusing to write: the confirmation names {c}, which is not "
                    f"{'a member of ' if len(self.members) > 1 else ''}the target {self.spec}; "
                    "confirm exactly the device to be overwritten"
                )

    def open(self, *, resuming: bool = False) -> None:
        """Safety checks and exclusive access for every member; sets capacity_bytes."""
        if self._opened:
            return
        fiomod.find_fio()
        self._check_confirmations()
        # SIGTERM, SIGHUP stop the run as Ctrl-C does (fio stopped, the run recorded interrupted)
        self._restore_sigterm = terminate_as_interrupt()
        self._resuming = resuming
        self._verified = not resuming  # a resumed run writes only after same_as() agrees
        self._run_id = None if resuming else uuid.uuid4().hex
        self._marked = resuming
        try:
            for m in self.members:
                if self.kind == "block":
                    self._open_block(m)
                else:
                    self._open_file(m, resuming=resuming)
            sizes = [int(m.info["size_bytes"]) for m in self.members]
            capacity = min(sizes)
            if self.size_request is not None:
                if self.size_request > capacity:
                    raise ConfigError(
                        f"--size: {self.size_request} bytes is more than the target holds "
                        f"({capacity} bytes)"
                    )
                capacity = self.size_request
            capacity -= capacity % self.bs_bytes
            check_capacity(self.spec, capacity, self.bs_bytes, workload_start(self.bs_bytes),
                           size_given=self.size_request is not None)  # fmt: skip
            self.capacity_bytes = capacity
            if self.kind == "file":
                self._make_room()
        except BaseException:
            self.close()
            raise
        self._opened = True

    def _open_block(self, m: _Member) -> None:
        if self._resuming:  # confirmation is asked again by same_as() for a weak identity
            confirm = self._confirmed(m.path)
            try:
                info = blockdev.check_destroyable(m.real_path, confirm, allow_hdd=self.allow_hdd)
            except blockdev.DeviceRefusedError as exc:
                if confirm is not None or exc.in_use or not exc.overridable:
                    raise
                # refused before same_as() could say how to confirm: say it here, as a fresh
                # run does (userpass2)
                raise UnsafeDeviceError(
                    f"--resume: {exc}. {blockdev.unconfirmed_message(m.path)}"
                ) from None
        else:
            info = blockdev.check_confirmed(m.real_path, self.confirm, allow_hdd=self.allow_hdd)
        m.fd = blockdev.open_exclusive(m.real_path, os.O_RDWR)
        # the facts were read before the open: the node may have changed hands in between (a
        # loop device detached and attached to another file). Held open now, it cannot.
        fingerprint.check_same(
            fingerprint.of_device(info), m.real_path, when=" (when it was opened for the run)"
        )
        if self.bs_bytes % info.logical_sector_bytes:
            raise ConfigError(
                f"--bs: {self.bs_bytes} is not a multiple of {m.path}'s logical sector size "
                f"({info.logical_sector_bytes})"
            )
        m.info = {
            "name": m.path,
            "path": info.path,
            "kind": "block",
            "size_bytes": info.size_bytes,
            "model": info.model,
            "serial": info.serial,
            "rotational": info.rotational,
            "discard_max_bytes": info.discard_max_bytes,
            "write_cache": info.write_cache,
            "logical_sector_bytes": info.logical_sector_bytes,
            "physical_sector_bytes": info.physical_sector_bytes,
            "transport": info.transport,
            "fingerprint": fingerprint.of_device(info).to_dict(),
            "run_id": self._run_id or fingerprint.read_marker(m.real_path),
        }

    def _open_file(self, m: _Member, *, resuming: bool) -> None:
        path = m.real_path
        created = False
        if not os.path.exists(path):
            if resuming:  # never made again: a new file is not the run's
                raise ConfigError(f"--resume: {m.path} no longer exists; start a new run")
            check_missing_target(path, size_given=self.size_request is not None)
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
            created = True
        else:
            fd = open_file_target(m.path, path)
        try:
            st = os.fstat(fd)
            check_storage_file(m.path, st)  # what was opened, not what the name was before
            file_guard.check_file_target(
                m.path, fd, st, confirmed=created or resuming or self._confirmed(m.path) is not None
            )
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                raise UnsafeDeviceError(
                    f"{m.path} is locked by another program (another profile?)"
                ) from exc
        except BaseException:
            os.close(fd)
            if created:
                with contextlib.suppress(OSError):
                    os.unlink(path)
            raise
        m.fd = fd
        fs_type, mount_point = _fs_of(path)
        m.info = {
            "name": m.path,
            "path": path,
            "kind": "file",
            "size_bytes": max(st.st_size, self.size_request or 0),  # --size extends it
            "device_id": st.st_dev,
            "inode": st.st_ino,
            "fs_type": fs_type,
            "mount_point": mount_point,
            "created_by_profile": created,
            "run_id": self._run_id or fingerprint.read_marker(path),
        }

    def _make_room(self) -> None:
        """Refuse files whose run would fill their file system (nothing changed: a file this
        run created is removed again); then extend the files shorter than ``--size``."""
        try:
            check_room([(m.path, self.capacity_bytes) for m in self.members])
        except UnsafeDeviceError:
            for m in self.members:
                if m.info.get("created_by_profile"):
                    with contextlib.suppress(OSError):
                        os.unlink(m.real_path)
            raise
        if not self._resuming:  # a resumed run's files are extended once same_as() agrees
            self._extend()

    def _extend(self) -> None:
        for m in self.members:
            assert m.fd is not None
            if os.fstat(m.fd).st_size < m.info["size_bytes"]:
                os.ftruncate(m.fd, m.info["size_bytes"])

    def close(self) -> None:
        self._restore_sigterm()
        self._restore_sigterm = _nothing
        for m in self.members:
            if m.fd is not None:
                with contextlib.suppress(OSError):
                    os.close(m.fd)
                m.fd = None
        self._opened = False

    def __enter__(self) -> FioTarget:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---------------------------------------------------------------------------- identity

    def identity(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "kind": self.kind,
            "capacity_bytes": self.capacity_bytes,
            "members": [dict(m.info) for m in self.members],
        }

    def same_as(self, stored_identity: dict[str, Any]) -> str | None:
        """None if the stored run was writing these very members: every fingerprint field,
        the run identifier read back from each member and the tested capacity agree. A
        member with a weak identity (no serial, no WWN) must be confirmed again: raises
        UnsafeDeviceError when it is not."""
        stored = stored_identity.get("members", [])
        if not stored:
            return (
                "the stored run holds no fingerprint of its target (it stopped before "
                "identify finished, so nothing was measured): start a new profile"
            )
        if len(stored) != len(self.members):
            return f"the stored target has {len(stored)} members, this one {len(self.members)}"
        problems: list[str] = []
        weak: list[str] = []
        for old, m in zip(stored, self.members, strict=True):
            diffs = guard.member_differences(self.kind, old, m.info)
            problems.extend(f"{m.path}: {d}" for d in diffs)
            if not diffs and self.kind == "block":
                fp = fingerprint.Fingerprint.from_dict(m.info["fingerprint"])
                if not fp.strong and self._confirmed(m.path) is None:
                    weak.append(m.path)
        if stored_identity.get("capacity_bytes") != self.capacity_bytes:
            problems.append(
                f"tested capacity is {self.capacity_bytes} now, "
                f"{stored_identity.get('capacity_bytes')} in the stored run"
            )
        if problems:
            return "; ".join(problems)
        if weak:
            raise UnsafeDeviceError(
                "--resume: "
                + ", ".join(weak)
                + (" reports" if len(weak) == 1 else " report")
                + " no serial number and no WWN, so only size, sectors, the loop "
                "backing file and the run identifier written on it show it is the same device; "
                "confirm again: " + " ".join(f"{blockdev.CONFIRM_FLAG} {w}" for w in weak)
            )
        if self.kind == "file":
            self._extend()
        self._verified = True
        return None

    def _before_write(self, what: str) -> None:
        """Right before anything is written: the run marker goes on every member (once),
        then every member is re-identified; raises UnsafeDeviceError on any difference."""
        if not self._opened:
            raise ConfigError("target: open() it before writing")
        if not self._verified:
            raise UnsafeDeviceError(
                f"refusing {what}: a resumed run writes only after its stored fingerprint was "
                "checked (same_as)"
            )
        for m in self.members:
            assert m.fd is not None
            guard.check_before_write(
                self.kind, m.path, m.info, m.fd, mark=not self._marked, what=what
            )
        self._marked = True

    def software(self) -> dict[str, str]:
        if self._fio_version is None:
            self._fio_version = fiomod.fio_version()
        return {"fio": self._fio_version}

    # ------------------------------------------------------------------------------ discard

    def _discard(self, start: int, end: int) -> str:
        start = max(start, fingerprint.MARKER_BYTES)  # the run marker stays
        said = []
        for m in self.members:
            assert m.fd is not None, "target not open"
            if self.kind == "file":
                what = punch_hole(m.fd, start, end - start)
            elif int(m.info.get("discard_max_bytes") or 0) > 0:
                what = blk_discard(m.fd, start, end - start)
            else:
                what = (
                    "NOT discarded: the device does not support discard, so this space still "
                    "holds data and does not act as OP"
                )
            said.append(f"{m.path}: {what}")
        return "; ".join(said)

    def purge(self) -> str:
        self._before_write("purge")
        return self._discard(0, self.capacity_bytes)

    def discard_tail(self, start_bytes: int) -> str:
        if not 0 <= start_bytes <= self.capacity_bytes:
            raise ConfigError(f"discard start {start_bytes} outside 0..{self.capacity_bytes}")
        self._before_write("discard")
        return self._discard(start_bytes, self.capacity_bytes)

    # ---------------------------------------------------------------------------------- run

    def job_file_text(self, spec: RoundSpec) -> str:
        """The round's fio job file (``fio_job.job_file_text``) on the members."""
        paths = [m.real_path for m in self.members]
        return job_file_text(spec, paths, ioengine=self.ioengine, kind=self.kind)

    def run(self, spec: RoundSpec) -> RoundResult:
        if not self._opened:
            raise ConfigError("target: open() it before running rounds")
        if spec.offset_bytes + spec.span_bytes > self.capacity_bytes:
            raise ConfigError(
                f"round {spec.label}: span ends at {spec.offset_bytes + spec.span_bytes}, "
                f"past the tested capacity {self.capacity_bytes}"
            )
        if spec.offset_bytes + spec.span_bytes <= workload_start(spec.bs_bytes):
            raise ConfigError(f"round {spec.label}: span holds nothing after the run marker")
        if spec.idle_seconds > 0:
            # host idle time: nothing is issued (the previous fio has exited); the drive may
            # collect garbage meanwhile. Re-identified after it, right before the write.
            time.sleep(spec.idle_seconds)
        self._before_write(f"round {spec.label}")
        self.job_dir.mkdir(parents=True, exist_ok=True)
        job_file = self.job_dir / f"{spec.label}.fio"
        prefixes = [f"{spec.label}-m{i}" for i in range(len(self.members))]
        self._set_aside(spec.label, prefixes)
        job_file.write_text(self.job_file_text(spec))
        started = now_iso()
        t0 = time.monotonic()
        run = fiomod.run_fio(job_file)
        wall_s = time.monotonic() - t0
        finished = now_iso()

        groups = fiomod.job_groups(run.output, str(run.output_file))
        if len(groups) != len(self.members):
            raise ToolError(
                f"fio reported {len(groups)} groups for {len(self.members)} members "
                f"({run.output_file})"
            )
        member_figs: list[Figures] = []
        all_logs: list[dict[int, float]] = []
        all_bins: dict[int, int] = {}
        files = [job_file, run.output_file, run.stderr_file]
        for m, prefix, group in zip(self.members, prefixes, groups, strict=True):
            g = fiomod.write_figures(group)
            logs = fiomod.iops_logs(self.job_dir, prefix)
            files.extend(logs)
            series = [fiomod.parse_iops_log(p) for p in logs]
            all_logs.extend(series)
            for ns, count in g.latency_bins_ns.items():
                all_bins[ns] = all_bins.get(ns, 0) + count
            member_figs.append(
                Figures(
                    name=m.path,
                    iops=g.iops,
                    bytes_written=g.bytes_written,
                    duration_s=g.runtime_s if g.runtime_s > 0 else wall_s,
                    latency_us=g.latency_us,
                    iops_series=fiomod.sum_series(series),
                    fio_steadystate=g.steadystate,
                    read_latency_us_mean=g.read_latency_us_mean,
                )
            )
        combined = combined_figures(member_figs, all_logs, all_bins)
        return RoundResult(
            label=spec.label,
            started=started,
            finished=finished,
            combined=combined,
            members=member_figs,
            files=[os.path.relpath(p, self.files_root) for p in files if p.exists()],
        )

    def _set_aside(self, label: str, prefixes: list[str]) -> None:
        """Files of an earlier, interrupted attempt at this round (fio's partial results) go
        to ``interrupted/<time>-<name>``: kept, and never mixed with the new attempt's."""
        old = [self.job_dir / f"{label}{ext}" for ext in (".fio", ".json", ".stderr")]
        for prefix in prefixes:
            old.extend(fiomod.iops_logs(self.job_dir, prefix))
        old = [p for p in old if p.exists()]
        if not old:
            return
        aside = self.job_dir / "interrupted"
        aside.mkdir(exist_ok=True)
        stamp = now_iso().replace(":", "").replace("-", "")
        for p in old:
            os.replace(p, aside / f"{stamp}-{p.name}")
