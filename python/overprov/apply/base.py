"""Plans and steps shared by every OP method.

A :class:`Plan` is a list of :class:`Step` objects. ``Step.show()`` is read-only and returns the
exact command lines; ``Step.apply()`` runs them and then ``verify()`` re-reads what the step
changed (size, partition table, namespace capacity) and raises if it is not what was planned.
``Plan.execute()`` is the only way a plan writes anything: it re-checks safety first, and
before every step re-identifies every member (``overprov.fingerprint``): the device written
must be the device the plan was made for (docs/safety.md).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from overprov import blockdev, fingerprint
from overprov.blockdev import DeviceInfo, Runner, run_tool
from overprov.capacity import (
    GB,
    MIB,
    check_extra_op_fraction,
    idema_lba_count,
    total_rho,
    user_bytes_for_extra_op,
)
from overprov.errors import EXIT_INTERRUPTED, ConfigError, RunError
from overprov.interrupts import HeldSignals


class VerificationError(RunError):
    """A step ran but re-reading the device shows a different result than planned."""


class StepsInterrupted(RunError):
    """Ctrl-C, SIGTERM or SIGHUP arrived while a plan ran: it stopped between two steps."""

    exit_code = EXIT_INTERRUPTED


@dataclass(frozen=True)
class VisibleSize:
    """How much of a device stays visible: an extra OP fraction (U = (1−X)·C, aligned down to
    1 MiB), or an exact visible size (IDEMA GB or sectors) for HPA-style "make it look like a
    400 GB drive"."""

    extra_op: float | None = None
    visible_gb: Fraction | None = None
    visible_sectors: int | None = None

    def __post_init__(self) -> None:
        given = [v is not None for v in (self.extra_op, self.visible_gb, self.visible_sectors)]
        if sum(given) != 1:
            raise ConfigError(
                "--extra-op: give exactly one of --extra-op, --visible-gb, --visible-sectors"
            )
        if self.extra_op is not None:
            check_extra_op_fraction(self.extra_op)
        if self.visible_sectors is not None and self.visible_sectors <= 0:
            raise ConfigError(f"--visible-sectors: must be > 0, got {self.visible_sectors}")

    def describe(self) -> str:
        if self.extra_op is not None:
            return f"extra OP {self.extra_op * 100:g} %"
        if self.visible_gb is not None:
            return f"visible capacity IDEMA {float(self.visible_gb):g} GB"
        return f"visible capacity {self.visible_sectors:,} sectors"

    def user_bytes(self, capacity_bytes: int, sector_bytes: int) -> int:
        """Bytes left visible/usable on a device of ``capacity_bytes``."""
        if self.extra_op is not None:
            user = user_bytes_for_extra_op(capacity_bytes, self.extra_op, MIB)
        elif self.visible_gb is not None:
            ids = sector_bytes if sector_bytes in (512, 4096) else 512
            user = idema_lba_count(self.visible_gb, ids) * ids
        else:
            assert self.visible_sectors is not None
            user = self.visible_sectors * sector_bytes
        if user <= 0:
            raise ConfigError(
                f"{self.describe()} leaves nothing usable on a {capacity_bytes:,}-byte device"
            )
        if user > capacity_bytes:
            raise ConfigError(
                f"{self.describe()} ({user:,} bytes) is larger than the device "
                f"({capacity_bytes:,} bytes)"
            )
        return user


def op_summary(capacity_bytes: int, user_bytes: int, what: str) -> list[str]:
    """The arithmetic lines every plan prints. ρ assumes NAND = capacity in GiB (hidden OP)."""
    unused = capacity_bytes - user_bytes
    x = unused / capacity_bytes
    lines = [
        f"capacity C = {capacity_bytes:,} bytes ({capacity_bytes / GB:.2f} GB)",
        f"{what}: U = {user_bytes:,} bytes ({user_bytes / GB:.2f} GB)",
        f"left unused: {unused:,} bytes = {x * 100:.2f} % of C (extra OP)",
    ]
    if x < 1:
        lines.append(
            f"total OP ρ = (T−U)/U ≈ {total_rho(x) * 100:.1f} % if the NAND is C GiB "
            "(7.37 % hidden OP); the drive's real T is not visible to the host"
        )
    return lines


class Step:
    """One change to a device. Subclasses set ``title`` and implement ``commands``."""

    title: str = ""
    # Devices that must not be busy (mounted, held) right before this step runs; tools that
    # open with O_EXCL themselves (blkdiscard, wipefs) do not need it.
    busy_check: tuple[str, ...] = ()
    # Fingerprint fields this step changes on its device (hdparm -N changes the size): not
    # compared before the steps that follow it.
    identity_changes: tuple[str, ...] = ()
    # The step makes the device's block device go away (nvme detach-ns): the plan stops
    # holding it open first; the steps after it address the device another way.
    removes_device: bool = False

    def reidentify(
        self, recorded: fingerprint.Fingerprint, ignore: Sequence[str], when: str, runner: Runner
    ) -> None:
        """Raise UnsafeDeviceError unless the device is still the one ``recorded`` (read
        when the plan was made). Steps that address a device another way override it."""
        fingerprint.check_same(recorded, recorded.path, ignore=ignore, when=when, runner=runner)

    def commands(self) -> list[list[str]]:
        return []

    def show(self) -> list[str]:
        """The exact command lines this step runs. Read-only."""
        return [shlex.join(argv) for argv in self.commands()]

    def apply(self, runner: Runner = run_tool) -> list[str]:
        """Run the commands, then verify. Returns what the verification saw."""
        for argv in self.commands():
            runner(argv)
        return self.verify(runner)

    def verify(self, runner: Runner = run_tool) -> list[str]:
        return []


def _sysfs_size_bytes(dev_path: str) -> int:
    name = Path(os.path.realpath(dev_path)).name
    return int((blockdev.SYSFS / "class" / "block" / name / "size").read_text()) * 512


def check_size(dev_path: str, expected_bytes: int) -> str:
    size = _sysfs_size_bytes(dev_path)
    if size != expected_bytes:
        raise VerificationError(
            f"{dev_path} now reports {size:,} bytes, expected {expected_bytes:,}"
        )
    return f"size re-read: {size:,} bytes, as planned"


def sample_zeros(dev_path: str, offset: int, length: int, samples: int = 16) -> tuple[int, int]:
    """Read ``samples`` 4 KiB blocks spread over [offset, offset+length); count all-zero ones."""
    block = 4096
    if length < block:
        return 0, 0
    span = (length - block) // block
    zero = bytes(block)
    n_zero = 0
    n = min(samples, span + 1)
    fd = os.open(dev_path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        for i in range(n):
            pos = offset + (span * i // max(n - 1, 1)) * block
            if os.pread(fd, block, pos) == zero:
                n_zero += 1
    finally:
        os.close(fd)
    return n_zero, n


@dataclass
class WipeSignaturesStep(Step):
    device: DeviceInfo

    def __post_init__(self) -> None:
        self.title = (
            f"Erase filesystem, RAID and partition-table signatures on {self.device.path} "
            "(so nothing mounts or assembles the old contents)"
        )

    def commands(self) -> list[list[str]]:
        return [["wipefs", "--all", self.device.path]]

    def verify(self, runner: Runner = run_tool) -> list[str]:
        found, error = blockdev.read_signatures(self.device.path, runner)
        if error:
            raise VerificationError(f"{self.device.path}: {error}")
        if found:
            raise VerificationError(f"signatures remain on {self.device.path}: {', '.join(found)}")
        return ["no signatures left"]


@dataclass
class DiscardStep(Step):
    """blkdiscard opens the device with O_EXCL itself, so a busy device makes it fail."""

    device: DeviceInfo
    offset: int | None = None
    length: int | None = None
    # range whose read-back is sampled after the discard (usually the future OP area)
    sample_offset: int = 0
    sample_length: int = 0

    def __post_init__(self) -> None:
        if self.offset is None:
            self.title = (
                f"Discard (TRIM) every block of {self.device.path} so the controller "
                "knows all of it is free"
            )
        else:
            self.title = (
                f"Discard (TRIM) {self.length:,} bytes of {self.device.path} from byte "
                f"{self.offset:,}"
            )

    def commands(self) -> list[list[str]]:
        argv = ["blkdiscard"]
        if self.offset is not None:
            argv += ["--offset", str(self.offset), "--length", str(self.length)]
        return [[*argv, self.device.path]]

    def verify(self, runner: Runner = run_tool) -> list[str]:
        notes = [check_size(self.device.path, self.device.size_bytes)]
        if self.sample_length > 0:
            n_zero, n = sample_zeros(self.device.path, self.sample_offset, self.sample_length)
            notes.append(
                f"{n_zero}/{n} sampled 4 KiB blocks of the area left unused read back as "
                "zeros (a drive that returns old data after TRIM still gets the OP)"
            )
        return notes


@dataclass
class Plan:
    """Steps for one device (or one RAID group), with the arithmetic and the reason."""

    method: str
    devices: tuple[DeviceInfo, ...]
    why: str
    steps: list[Step]
    facts: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    done: str = ""
    """Why the devices are already as the plan would leave them (then it has no steps)."""

    def show(self) -> str:
        names = ", ".join(d.path for d in self.devices)
        out = [f"plan for {names}: method {self.method}", f"  why: {self.why}"]
        out += [f"  {line}" for line in self.facts]
        out += [f"  warning: {w}" for w in self.warnings]
        if self.done:
            out.append(f"  already done: {self.done}")
        for i, step in enumerate(self.steps, 1):
            out.append(f"  step {i}/{len(self.steps)}: {step.title}")
            out += [f"    $ {cmd}" for cmd in step.show()]
        return "\n".join(out)

    def check_safety(
        self,
        confirm_devices: Sequence[str],
        *,
        allow_hdd: bool = False,
        runner: Runner = run_tool,
    ) -> None:
        """Every device must be confirmed by exact name and pass check_destroyable
        (:func:`blockdev.check_confirmed`, the rule profile uses too), and still be the
        device the plan was made for."""
        for dev in self.devices:
            blockdev.check_confirmed(dev.path, confirm_devices, allow_hdd=allow_hdd, runner=runner)
            fingerprint.check_same(
                fingerprint.of_device(dev),
                dev.path,
                when=" (the plan was made for another device)",
                runner=runner,
            )
            blockdev.ensure_not_busy(dev.path)

    def execute(
        self,
        confirm_devices: Sequence[str],
        *,
        allow_hdd: bool = False,
        runner: Runner = run_tool,
        echo: Callable[[str], None] = print,
    ) -> None:
        """Check safety, then run the steps one by one, verifying after each. SIGINT,
        SIGTERM and SIGHUP are held back while a step runs: the step finishes, then the plan
        stops (StepsInterrupted, saying which steps ran). Every device is held open (read-only,
        not O_EXCL, so the steps' tools may claim it) from the safety check to the last step
        that addresses it: while it is open, its node cannot be given to another device (a
        loop device is not detached, a pulled disk's name is not reused), so a tool started
        after the re-identification writes to the device that was re-identified."""
        if self.done:  # nothing to write: no confirmation asked for
            echo(f"already done: {self.done}")
            return
        with HeldSignals() as held, contextlib.ExitStack() as open_devices:
            self._execute(confirm_devices, allow_hdd, runner, echo, held, open_devices)

    def _execute(self, confirm_devices: Sequence[str], allow_hdd: bool, runner: Runner,
                 echo: Callable[[str], None], held: HeldSignals,
                 open_devices: contextlib.ExitStack) -> None:  # fmt: skip
        self.check_safety(confirm_devices, allow_hdd=allow_hdd, runner=runner)
        for dev in self.devices:  # re-identified before the first step, after this
            fd = os.open(dev.path, os.O_RDONLY | os.O_CLOEXEC)
            open_devices.callback(os.close, fd)
        recorded = [fingerprint.of_device(dev) for dev in self.devices]
        changed: list[str] = []
        for i, step in enumerate(self.steps, 1):
            self._stop_if_asked(held, i - 1)
            echo(f"step {i}/{len(self.steps)}: {step.title}")
            when = f" (before step {i}/{len(self.steps)})"
            for fp in recorded:
                step.reidentify(fp, changed, when, runner)
            echo(
                f"  re-identified: {', '.join(fp.path for fp in recorded)} (fingerprint as planned)"
            )
            for cmd in step.show():
                echo(f"  $ {cmd}")
            for dev in step.busy_check:
                blockdev.ensure_not_busy(dev)
            if step.removes_device:
                open_devices.close()  # the device goes away: the kernel must let it go
            started = time.monotonic()
            for note in step.apply(runner):
                echo(f"  verified: {note}")
            changed.extend(step.identity_changes)
            echo(f"  done in {time.monotonic() - started:.1f} s")
        self._stop_if_asked(held, len(self.steps))

    def _stop_if_asked(self, held: HeldSignals, done: int) -> None:
        """Raise StepsInterrupted if a stop signal arrived; ``done`` steps have run."""
        arrived = held.pending()
        if not arrived:
            return
        names = ", ".join(d.path for d in self.devices)
        n = len(self.steps)
        if done == 0:
            state = f"no step had run: {names} is unchanged"
        elif done == n:
            state = f"all {n} steps had run and were verified: the plan for {names} is done"
        else:
            left = "; ".join(f"{i}/{n} {s.title}" for i, s in enumerate(self.steps, 1) if i > done)
            state = (
                f"steps 1-{done} of {n} ran and were verified, not run: {left}. {names} is "
                "left part-way (its old data is gone); run the same apply again to finish"
            )
        raise StepsInterrupted(f"interrupted by {' and '.join(arrived)}; {state}")
