"""What a block device is and whether it is safe to destroy it.

Everything here reads; nothing writes to a device. ``identify`` gathers a device's facts from
sysfs, ``/proc/self/mountinfo``, ``/proc/swaps`` and ``wipefs``; ``check_destroyable`` turns them
into a yes or a refusal that lists every reason; ``open_exclusive`` asks the kernel itself
whether anything holds the device.

Safety policy (used by ``overprov apply`` and the profiler):

* **In use now — always refused**, even with the exact-device confirmation: the device or one
  of its partitions is mounted, is active swap, has holders (md, dm/LVM, bcache), backs a loop
  device or is open for writing in another process (``device_users``); the device is
  read-only; or the confirmation names a different device. Unmount / swapoff / stop the array
  first: overprov never takes a device away from a running system.
* **Would destroy data at rest — refused unless the user confirms exactly this device**
  (``confirm_device`` resolves, symlinks followed, to the same device node): filesystem, RAID or
  other signatures, a partition table, partitions the kernel knows about, a rotational loop
  device, and signatures that could not be read. A hard disk needs ``allow_hdd`` (hard_disk.py).
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import stat
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from overprov import device_users, hard_disk
from overprov.errors import ConfigError, ToolError, UnsafeDeviceError
from overprov.mount_table import is_swap, mounts_of
from overprov.units import plural

SYSFS = Path("/sys")
MIB = 1024 * 1024

# Debian package that ships each external tool, for "install X" hints.
TOOL_PACKAGES = {
    "blkdiscard": "util-linux", "wipefs": "util-linux", "partx": "util-linux",
    "lsblk": "util-linux", "losetup": "util-linux", "sgdisk": "gdisk", "hdparm": "hdparm",
    "nvme": "nvme-cli", "mdadm": "mdadm", "mkfs.ext4": "e2fsprogs",
}  # fmt: skip

# Partition-table types as libblkid (wipefs, blkid) names them.
PARTITION_TABLE_TYPES = frozenset(
    {"gpt", "PMBR", "dos", "bsd", "sun", "sgi", "mac", "solaris", "unixware", "minix", "atari"}
)


class Runner(Protocol):
    """Runs one external command; ``run_tool`` is the real one, tests pass fakes."""

    def __call__(
        self, argv: Sequence[str], *, check: bool = True
    ) -> subprocess.CompletedProcess[str]: ...


def find_tool(name: str) -> str:
    """Absolute path of an external tool; sbin directories are searched even if not on PATH."""
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin:/usr/bin:/bin")
    if found is None:
        package = TOOL_PACKAGES.get(name, name)
        raise ToolError(f"{name} not found; install the Debian package {package}")
    return found


def run_tool(argv: Sequence[str], *, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` (no shell), capture text output; raise ToolError if missing or failing."""
    argv = list(argv)
    exe = find_tool(argv[0])
    try:
        proc = subprocess.run(
            [exe, *argv[1:]],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except OSError as exc:
        raise ToolError(f"{argv[0]} could not be started: {exc}") from exc
    if check and proc.returncode != 0:
        detail = (proc.stderr or proc.stdout).strip().splitlines()
        tail = "; ".join(detail[-3:]) if detail else "no output"
        raise ToolError(f"`{' '.join(argv)}` failed with exit code {proc.returncode}: {tail}")
    return proc


@dataclass(frozen=True)
class DeviceInfo:
    """Facts about one block device (whole disk or partition), read without writing."""

    path: str  # /dev node, symlinks resolved
    name: str  # kernel name, e.g. sda, nvme0n1, loop3, sda1
    size_bytes: int
    logical_sector_bytes: int
    physical_sector_bytes: int
    model: str | None
    serial: str | None
    rotational: bool
    discard_max_bytes: int
    discard_granularity_bytes: int
    write_cache: str | None  # "write back" / "write through"
    is_partition: bool
    holders: tuple[str, ...]  # sysfs holders/ (md, dm, bcache)
    mountpoints: tuple[str, ...]
    swap: bool
    signatures: tuple[str, ...]  # e.g. ("gpt", "PMBR") or ("ext4",)
    partition_table: str | None
    # beyond the shared interface
    dev: str = ""  # "major:minor"
    parent: str | None = None  # whole-disk name of a partition
    start_bytes: int | None = None  # offset of a partition on its disk
    read_only: bool = False
    transport: str | None = None  # nvme, sata, usb, ... (lsblk TRAN) when known
    wwn: str | None = None  # world wide name / NVMe EUI-64 or NGUID (lsblk WWN, sysfs wwid)
    firmware: str | None = None  # firmware revision (lsblk REV, sysfs firmware_rev / rev)
    # a loop device's backing file and its (st_dev, st_ino), read with the other facts
    backing_file: str | None = None
    backing_device: int | None = None
    backing_inode: int | None = None
    partitions: tuple[DeviceInfo, ...] = ()  # partitions the kernel knows about
    users: tuple[str, ...] = ()  # loop devices it backs, other processes writing to it
    probe_errors: tuple[str, ...] = field(default=())  # facts that could not be read

    @property
    def supports_discard(self) -> bool:
        return self.discard_max_bytes > 0

    @property
    def logical_sectors(self) -> int:
        return self.size_bytes // self.logical_sector_bytes

    @property
    def is_nvme(self) -> bool:
        return re.fullmatch(r"nvme\d+(c\d+)?n\d+", self.name) is not None


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def _read_int(path: Path, default: int = 0) -> int:
    text = _read(path)
    try:
        return int(text) if text is not None else default
    except ValueError:
        return default


def _sysfs_dir(st_rdev: int) -> Path:
    """/sys/class/block/<name> for a device number (via /sys/dev/block/MAJ:MIN)."""
    link = SYSFS / "dev" / "block" / f"{os.major(st_rdev)}:{os.minor(st_rdev)}"
    if not link.exists():
        raise ConfigError(
            f"device: no sysfs entry {link} for device number "
            f"{os.major(st_rdev)}:{os.minor(st_rdev)} (is /sys mounted?)"
        )
    return link.resolve()


def read_signatures(dev_path: str, runner: Runner = run_tool) -> tuple[tuple[str, ...], str | None]:
    """Signature types found by ``wipefs --no-act --json`` (lists, never erases)."""
    try:
        proc = runner(["wipefs", "--no-act", "--json", dev_path], check=False)
    except ToolError as exc:
        return (), f"signatures unknown: {exc}"
    if proc.returncode != 0:
        msg = (proc.stderr or proc.stdout).strip() or f"exit code {proc.returncode}"
        return (), f"signatures unknown: wipefs failed: {msg}"
    if not proc.stdout.strip():
        return (), None  # wipefs prints nothing at all when there is no signature
    try:
        doc = json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        return (), f"signatures unknown: wipefs output is not JSON ({exc})"
    types: list[str] = []
    for sig in doc.get("signatures", []):
        kind = str(sig.get("type") or "unknown")
        if kind not in types:
            types.append(kind)
    return tuple(types), None


def _partition_table(signatures: Sequence[str]) -> str | None:
    for preferred in ("gpt", "dos"):
        if preferred in signatures:
            return preferred
    for sig in signatures:
        if sig in PARTITION_TABLE_TYPES:
            return sig
    return None


def _lsblk_facts(dev_path: str, runner: Runner) -> dict[str, object]:
    try:
        proc = runner(["lsblk", "--json", "--nodeps", "-o", "MODEL,SERIAL,TRAN,WWN,REV", dev_path])
        devs = json.loads(proc.stdout).get("blockdevices", [])
        return devs[0] if devs else {}
    except (ToolError, json.JSONDecodeError, IndexError):
        return {}


def _clean(value: object) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _first(base: Path, names: Sequence[str]) -> str | None:
    """The first non-empty sysfs attribute among ``names`` under ``base``."""
    for name in names:
        value = _clean(_read(base / name))
        if value is not None:
            return value
    return None


def identify(path: str, *, runner: Runner = run_tool, contents: bool = True) -> DeviceInfo:
    """Read a block device's facts. Raises ConfigError if ``path`` is not a block device.
    ``contents=False`` skips what reads the data (signatures, partitions): the identity
    alone, cheap enough to re-read before every write step."""
    return _identify(path, runner=runner, with_partitions=contents, with_signatures=contents)


def _identify(
    path: str, *, runner: Runner, with_partitions: bool, with_signatures: bool = True
) -> DeviceInfo:
    dev_path = os.path.realpath(path)
    try:
        st = os.stat(dev_path)
    except FileNotFoundError:
        raise ConfigError(f"device: {path} does not exist") from None
    except OSError as exc:
        raise ConfigError(f"device: cannot stat {path}: {exc.strerror}") from None
    if not stat.S_ISBLK(st.st_mode):
        raise ConfigError(f"device: {path} is not a block device")
    sysdir = _sysfs_dir(st.st_rdev)
    name = sysdir.name
    is_partition = (sysdir / "partition").exists()
    disk_dir = sysdir.parent if is_partition else sysdir
    queue = disk_dir / "queue"
    dev = f"{os.major(st.st_rdev)}:{os.minor(st.st_rdev)}"

    probe_errors: list[str] = []
    signatures, sig_error = read_signatures(dev_path, runner) if with_signatures else ((), None)
    if sig_error:
        probe_errors.append(sig_error)

    facts = _lsblk_facts(dev_path, runner) if not is_partition else {}
    model = _clean(facts.get("model")) or _first(disk_dir, ("device/model",))
    serial = _clean(facts.get("serial")) or _first(disk_dir, ("serial", "device/serial"))
    wwn = _clean(facts.get("wwn")) or _first(disk_dir, ("wwid", "device/wwid", "eui", "nguid"))
    firmware = _clean(facts.get("rev")) or _first(disk_dir, ("device/firmware_rev", "device/rev"))

    holders_dir = sysdir / "holders"
    holders = tuple(sorted(os.listdir(holders_dir))) if holders_dir.is_dir() else ()

    partitions: list[DeviceInfo] = []
    if with_partitions and not is_partition:
        for child in sorted(sysdir.iterdir()):
            if child.name.startswith(name) and (child / "partition").exists():
                node = Path("/dev") / child.name
                if node.exists():
                    partitions.append(_identify(str(node), runner=runner, with_partitions=False))
                else:
                    probe_errors.append(f"partition {child.name} has no /dev node")

    wc = _read(queue / "write_cache")
    backing_file, backing_device, backing_inode = device_users.loop_backing(sysdir)
    return DeviceInfo(
        path=dev_path,
        name=name,
        size_bytes=_read_int(sysdir / "size") * 512,  # sysfs size is in 512-byte units
        logical_sector_bytes=_read_int(queue / "logical_block_size", 512),
        physical_sector_bytes=_read_int(queue / "physical_block_size", 512),
        model=model,
        serial=serial,
        rotational=_read(queue / "rotational") == "1",
        discard_max_bytes=_read_int(queue / "discard_max_bytes"),
        discard_granularity_bytes=_read_int(queue / "discard_granularity"),
        write_cache=wc,
        is_partition=is_partition,
        holders=holders,
        mountpoints=mounts_of(dev, dev_path),
        swap=is_swap(dev_path),
        signatures=signatures,
        partition_table=_partition_table(signatures),
        dev=dev,
        parent=disk_dir.name if is_partition else None,
        start_bytes=_read_int(sysdir / "start") * 512 if is_partition else None,
        read_only=_read(sysdir / "ro") == "1",
        transport=_clean(facts.get("tran")),
        wwn=wwn,
        firmware=firmware,
        backing_file=backing_file,
        backing_device=backing_device,
        backing_inode=backing_inode,
        partitions=tuple(partitions),
        users=tuple(_users(st, disk_dir if is_partition else None)),
        probe_errors=tuple(probe_errors),
    )


def _users(st: os.stat_result, disk_dir: Path | None) -> list[str]:
    """device_users.block_users of the device; for a partition also those of its disk and
    where the disk itself is mounted (a write to the partition changes what they see)."""
    found = device_users.block_users(st)
    disk = Path("/dev") / disk_dir.name if disk_dir is not None else None
    if disk_dir is None or disk is None or not disk.exists():
        return found
    found += [f"its disk {disk}: {use}" for use in device_users.block_users(os.stat(disk))]
    mounts = mounts_of(_read(disk_dir / "dev") or "", str(disk))
    return found + [f"its disk {disk} is mounted at {mp}" for mp in mounts]


CONFIRM_FLAG = "--i-understand-this-destroys-data"


class DeviceRefusedError(UnsafeDeviceError):
    """A device was refused. ``in_use`` cannot be overridden; ``overridable`` can, by
    confirming exactly this device; ``unconfirmed``: no confirmation named it at all."""

    def __init__(
        self,
        path: str,
        in_use: Sequence[str],
        overridable: Sequence[str],
        *,
        unconfirmed: bool = False,
        kernel_name: str | None = None,  # a node outside /dev is shown with its /dev name
    ):
        self.path = path
        self.in_use = tuple(in_use)
        self.overridable = tuple(overridable)
        self.unconfirmed = unconfirmed
        parts = []
        for head, got in hard_disk.refused_groups(self.in_use):
            parts.append(f"{head}, refused even with confirmation: " + "; ".join(got))
        if self.overridable:
            parts.append(
                "would destroy data (allowed only if you confirm exactly this device): "
                + "; ".join(self.overridable)
            )
        if unconfirmed:
            parts.append(unconfirmed_message(path))
        node = f"/dev/{kernel_name}" if kernel_name else path
        shown = path if node == path else f"{path} (the block device {node})"
        super().__init__(f"refusing to write to {shown}: " + ". ".join(parts))


def unconfirmed_message(path: str) -> str:
    """What every command that writes to a block device says when it was not confirmed."""
    return (
        f"{path} was not confirmed: writing to it destroys all data on it, whatever it "
        f"holds; name this exact device to confirm: {CONFIRM_FLAG} {path}"
    )


def same_device(a: str, b: str) -> bool:
    """True if two paths name the same device node (symlinks resolved)."""
    ra, rb = os.path.realpath(a), os.path.realpath(b)
    if ra == rb:
        return True
    try:
        sa, sb = os.stat(ra), os.stat(rb)
    except OSError:
        return False
    return stat.S_ISBLK(sa.st_mode) and stat.S_ISBLK(sb.st_mode) and sa.st_rdev == sb.st_rdev


def _a(word: str) -> str:
    """'an ext4', 'an xfs', 'a linux_raid_member', 'a btrfs' (by how the name is spoken)."""
    return f"an {word}" if word[:1].lower() in "aeioux" else f"a {word}"


def refusal_reasons(info: DeviceInfo, *, allow_hdd: bool = False) -> tuple[list[str], list[str]]:
    """(in_use, overridable) reasons for ``info``; both empty means nothing was found."""
    in_use: list[str] = []
    overridable: list[str] = []
    if info.read_only:
        in_use.append("is read-only")
    for mp in info.mountpoints:
        in_use.append(f"mounted at {mp}")
    if info.swap:
        in_use.append("is active swap")
    in_use += [f"held by {holder}" for holder in info.holders] + list(info.users)
    if info.partition_table:
        overridable.append(f"has a {info.partition_table} partition table")
    for sig in info.signatures:
        if sig not in PARTITION_TABLE_TYPES:
            overridable.append(f"carries {_a(sig)} signature")
    for part in info.partitions:
        for mp in part.mountpoints:
            in_use.append(f"partition {part.path} is mounted at {mp}")
        if part.swap:
            in_use.append(f"partition {part.path} is active swap")
        in_use += [f"partition {part.path} is held by {h}" for h in part.holders]
        in_use += [f"partition {part.path}: {use}" for use in part.users]
        for sig in part.signatures:
            overridable.append(f"partition {part.path} carries {_a(sig)} signature")
    if info.partitions:
        names = ", ".join(p.name for p in info.partitions)
        overridable.append(f"has {plural(len(info.partitions), 'partition')} ({names})")
    is_loop = hard_disk.is_loop(info.name, info.dev, info.parent)
    if (info.rotational or is_loop) and not allow_hdd:  # every loop device: by its backing
        found = hard_disk.reason(info)
        if found is not None:  # only allow_hdd lifts a hard one, even when confirmed
            why, hard = found
            (in_use if hard else overridable).append(why)
    for err in info.probe_errors:
        overridable.append(err)
    return in_use, overridable


def check_destroyable(
    path: str,
    confirm_device: str | None,
    *,
    allow_hdd: bool = False,
    runner: Runner = run_tool,
) -> DeviceInfo:
    """Return the device's facts if it may be overwritten; else raise DeviceRefusedError
    (an UnsafeDeviceError) listing every reason. See the module docstring for the policy.
    A device with nothing on it passes without confirmation: commands that write use
    :func:`check_confirmed`, which always wants one."""
    info = identify(path, runner=runner)
    in_use, overridable = refusal_reasons(info, allow_hdd=allow_hdd)
    confirmed = False
    if confirm_device is not None:
        if same_device(confirm_device, info.path):
            confirmed = True
        else:
            in_use.append(f"the confirmation names {confirm_device}, not this device ({info.path})")
    if in_use or (overridable and not confirmed):
        raise DeviceRefusedError(
            info.path, in_use, [] if confirmed else overridable, kernel_name=info.name
        )
    return info


def confirmation_for(path: str, confirm_devices: Sequence[str]) -> str | None:
    """The confirmation among ``confirm_devices`` that names ``path`` (symlinks and other
    device nodes of the same device count), or None."""
    return next((c for c in confirm_devices if same_device(c, path)), None)


def check_confirmed(
    path: str,
    confirm_devices: Sequence[str],
    *,
    allow_hdd: bool = False,
    runner: Runner = run_tool,
) -> DeviceInfo:
    """The rule of every command that writes to a block device (apply, profile): the device
    must be named by a confirmation, signature or not, and pass :func:`check_destroyable`.
    Raises DeviceRefusedError listing every reason at once."""
    confirm = confirmation_for(path, confirm_devices)
    if confirm is not None:
        return check_destroyable(path, confirm, allow_hdd=allow_hdd, runner=runner)
    info = identify(path, runner=runner)
    in_use, overridable = refusal_reasons(info, allow_hdd=allow_hdd)
    raise DeviceRefusedError(
        info.path, in_use, overridable, unconfirmed=True, kernel_name=info.name
    )


def open_exclusive(path: str, flags: int = os.O_RDONLY) -> int:
    """Open a block device with O_EXCL: the kernel refuses (EBUSY) while it is mounted, swap,
    an md/dm member, or opened exclusively by another program (the probe of
    :func:`device_users.open_exclusive_unless_busy`). Returns the file descriptor."""
    dev_path = os.path.realpath(path)
    try:
        st = os.stat(dev_path)
    except OSError as exc:
        raise ConfigError(f"device: cannot open {path}: {exc.strerror}") from None
    if not stat.S_ISBLK(st.st_mode):
        raise ConfigError(f"device: {path} is not a block device")
    try:
        fd = device_users.open_exclusive_unless_busy(dev_path, flags)
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise UnsafeDeviceError(
                f"cannot open {path} exclusively: {exc.strerror} (run as root)"
            ) from None
        raise UnsafeDeviceError(f"cannot open {path} exclusively: {exc.strerror}") from None
    if fd is None:
        raise UnsafeDeviceError(
            f"{path} is busy: the kernel has it in use (mounted, swap, an md/dm/LVM "
            "member, or held open exclusively by another program)"
        )
    return fd


def ensure_not_busy(path: str) -> None:
    """Raise UnsafeDeviceError if the kernel reports ``path`` busy right now."""
    os.close(open_exclusive(path))


def partition_node(disk_path: str, number: int) -> str:
    """/dev/sda + 1 → /dev/sda1; /dev/nvme0n1 + 1 → /dev/nvme0n1p1 (names ending in a digit)."""
    sep = "p" if disk_path[-1].isdigit() else ""
    return f"{disk_path}{sep}{number}"
