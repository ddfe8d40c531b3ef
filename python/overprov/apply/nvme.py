"""NVMe namespace management: shrink the namespace so the controller itself holds the rest.

Reads (nvme-cli JSON, field names from the NVMe base specification):
``nvme id-ctrl -o json`` → ``oacs`` (bit 3 = Namespace Management and Attachment supported),
``tnvmcap`` (total NVM capacity, bytes), ``unvmcap`` (unallocated NVM capacity), ``cntlid``;
``nvme id-ns -o json`` → ``nsze``/``ncap``/``nuse`` (in logical blocks), ``flbas`` (format index
in bits 3:0, bits 6:5 for formats 16–63; bit 4 = metadata at the end of the block),
``lbafs[i].ds`` (log2 of the block size), ``dps``, ``nmic``; ``nvme list-ns -o json`` →
``nsid_list[].nsid``.

Steps: detach-ns → delete-ns → create-ns --nsze --ncap --flbas → attach-ns → ns-rescan.
Deleting the namespace deallocates all of its blocks, so no separate discard is needed; the
part of tnvmcap not given to the new namespace shows up as unvmcap.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from overprov import blockdev, fingerprint
from overprov.apply.base import Plan, Step, VerificationError, VisibleSize, op_summary
from overprov.blockdev import DeviceInfo, Runner, run_tool
from overprov.errors import ConfigError, ToolError, UnsafeDeviceError

OACS_NS_MANAGEMENT = 1 << 3


def _int(value: object, name: str) -> int:
    """nvme-cli prints 128-bit fields (tnvmcap) as numbers or, in some versions, strings."""
    try:
        return int(str(value), 0)
    except (TypeError, ValueError):
        raise ToolError(f"nvme-cli JSON field {name}={value!r} is not an integer") from None


@dataclass(frozen=True)
class NvmeController:
    path: str  # /dev/nvme0 (character device)
    model: str
    serial: str
    cntlid: int
    oacs: int
    tnvmcap: int
    unvmcap: int
    nn: int

    @property
    def namespace_management(self) -> bool:
        return bool(self.oacs & OACS_NS_MANAGEMENT)


@dataclass(frozen=True)
class NvmeNamespace:
    nsid: int
    nsze: int
    ncap: int
    nuse: int
    flbas: int
    lba_bytes: int
    metadata_bytes: int
    dps: int
    nmic: int

    @property
    def size_bytes(self) -> int:
        return self.nsze * self.lba_bytes


def parse_id_ctrl(doc: dict, path: str) -> NvmeController:
    for key in ("oacs", "cntlid"):
        if key not in doc:
            raise ToolError(f"nvme id-ctrl {path}: JSON has no field {key!r}")
    return NvmeController(
        path=path,
        model=str(doc.get("mn", "")).strip(),
        serial=str(doc.get("sn", "")).strip(),
        cntlid=_int(doc["cntlid"], "cntlid"),
        oacs=_int(doc["oacs"], "oacs"),
        tnvmcap=_int(doc.get("tnvmcap", 0), "tnvmcap"),
        unvmcap=_int(doc.get("unvmcap", 0), "unvmcap"),
        nn=_int(doc.get("nn", 0), "nn"),
    )


def lba_format_index(flbas: int, nlbaf: int) -> int:
    """Bits 3:0 of FLBAS, plus bits 6:5 as the high bits when more than 16 formats exist."""
    low = flbas & 0x0F
    return low | (((flbas >> 5) & 0x03) << 4) if nlbaf > 16 else low


def parse_id_ns(doc: dict, nsid: int) -> NvmeNamespace:
    for key in ("nsze", "ncap", "flbas", "lbafs"):
        if key not in doc:
            raise ToolError(f"nvme id-ns (nsid {nsid}): JSON has no field {key!r}")
    lbafs = doc["lbafs"]
    flbas = _int(doc["flbas"], "flbas")
    index = lba_format_index(flbas, len(lbafs))
    if index >= len(lbafs):
        raise ToolError(
            f"nvme id-ns (nsid {nsid}): flbas {flbas} selects format {index}, "
            f"but only {len(lbafs)} are listed"
        )
    fmt = lbafs[index]
    return NvmeNamespace(
        nsid=nsid,
        nsze=_int(doc["nsze"], "nsze"),
        ncap=_int(doc["ncap"], "ncap"),
        nuse=_int(doc.get("nuse", 0), "nuse"),
        flbas=flbas,
        lba_bytes=1 << _int(fmt["ds"], "lbafs.ds"),
        metadata_bytes=_int(fmt.get("ms", 0), "lbafs.ms"),
        dps=_int(doc.get("dps", 0), "dps"),
        nmic=_int(doc.get("nmic", 0), "nmic"),
    )


def parse_list_ns(doc: dict) -> list[int]:
    return [_int(entry["nsid"], "nsid") for entry in doc.get("nsid_list", [])]


def parse_created_nsid(text: str) -> int:
    m = re.search(r"created nsid:\s*(\d+)", text)
    if not m:
        raise ToolError(f"nvme create-ns: cannot find the new namespace id in {text.strip()!r}")
    return int(m.group(1))


def controller_path(info: DeviceInfo) -> str:
    """The controller's character device (/dev/nvme1) for a namespace's block device, read
    from sysfs, never guessed from the name: under native NVMe multipath (the kernel's
    default where nvme_core.multipath is on) the disk nvmeXnY is named after its subsystem's
    instance X, not a controller's, and /dev/nvme0n1 may be a namespace of controller nvme1
    while /dev/nvme0 is another drive (github.com/linux-nvme/nvme-cli/issues/510).
    Without multipath the disk's ``device`` is its controller (it has ``cntlid``); with it
    the disk's ``multipath/`` folder lists one path per controller that reaches the
    namespace, each path's ``device`` being that controller. More than one controller, or
    none found, is refused."""
    disk = blockdev.SYSFS / "class" / "block" / info.name
    if (disk / "device" / "cntlid").exists():
        return f"/dev/{os.path.basename(os.path.realpath(disk / 'device'))}"
    paths = sorted((disk / "multipath").glob("*")) if (disk / "multipath").is_dir() else []
    controllers = sorted(
        {os.path.basename(os.path.realpath(p / "device")) for p in paths
         if (p / "device" / "cntlid").exists()}
    )  # fmt: skip
    if len(controllers) == 1:
        return f"/dev/{controllers[0]}"
    if controllers:
        raise ConfigError(
            f"--method nvme-ns: {info.path} is reached through {len(controllers)} controllers "
            f"({', '.join(controllers)}, native multipath); overprov reshapes a namespace "
            "only on a drive with one controller"
        )
    raise ConfigError(
        f"--method nvme-ns: sysfs does not say which NVMe controller {info.path} belongs to "
        f"(no {disk}/device/cntlid, no path in {disk}/multipath/); the controller is not "
        "guessed from the name (under native multipath nvme0n1 may be on nvme1)"
    )


def namespace_id(info: DeviceInfo) -> int:
    """The namespace id, from sysfs (``nsid``): the Y of nvmeXnY is the kernel's instance
    number, which need not be the id (a drive whose only namespace is 2 shows nvme0n1)."""
    path = blockdev.SYSFS / "class" / "block" / info.name / "nsid"
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        raise ConfigError(
            f"--method nvme-ns: cannot read {info.path}'s namespace id from {path}"
        ) from None


def _json(runner: Runner, argv: list[str]) -> dict:
    proc = runner(argv)
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        raise ToolError(f"`{' '.join(argv)}` did not print JSON: {exc}") from None


def id_ctrl(ctrl: str, runner: Runner = run_tool) -> NvmeController:
    return parse_id_ctrl(_json(runner, ["nvme", "id-ctrl", ctrl, "--output-format=json"]), ctrl)


def id_ns(ctrl: str, nsid: int, runner: Runner = run_tool) -> NvmeNamespace:
    doc = _json(runner, ["nvme", "id-ns", ctrl, f"--namespace-id={nsid}", "--output-format=json"])
    return parse_id_ns(doc, nsid)


def list_ns(ctrl: str, runner: Runner = run_tool, *, all_ns: bool = False) -> list[int]:
    argv = ["nvme", "list-ns", ctrl, "--output-format=json"]
    if all_ns:
        argv.insert(3, "--all")
    return parse_list_ns(_json(runner, argv))


@dataclass
class NamespaceState:
    """Shared by the steps: create-ns reports the new id, attach-ns uses it."""

    old_nsid: int
    new_nsid: int | None = None

    @property
    def nsid_for_attach(self) -> int:
        # The controller hands out the lowest free id, which is the one just deleted.
        return self.new_nsid if self.new_nsid is not None else self.old_nsid


class ControllerStep(Step):
    """A step after detach-ns: the namespace's block device is gone (or is a new one), so
    the controller answers for the device's identity (``nvme id-ctrl``: serial, model,
    controller id must be those of the plan)."""

    ctrl: NvmeController

    def reidentify(
        self, recorded: fingerprint.Fingerprint, ignore: Sequence[str], when: str, runner: Runner
    ) -> None:
        now = id_ctrl(self.ctrl.path, runner)
        pairs = [
            ("serial", self.ctrl.serial, now.serial),
            ("model", self.ctrl.model, now.model),
            ("cntlid", self.ctrl.cntlid, now.cntlid),
        ]
        if recorded.serial is not None:
            pairs.append(("serial (of the namespace's device)", recorded.serial, now.serial))
        diffs = [f"{name}: recorded {old!r}, now {new!r}" for name, old, new in pairs if old != new]
        if diffs:
            raise UnsafeDeviceError(
                f"refusing to write to {self.ctrl.path}{when}: it is not the controller of "
                f"{recorded.path} that was planned: " + "; ".join(diffs)
            )


@dataclass
class DetachStep(ControllerStep):
    """The first step: the namespace's block device is still there and is re-identified as
    every device is, and so is the controller the command goes to (detaching another
    drive's namespace takes its file systems away)."""

    ctrl: NvmeController
    state: NamespaceState
    removes_device = True  # the namespace's block device goes away

    def reidentify(
        self, recorded: fingerprint.Fingerprint, ignore: Sequence[str], when: str, runner: Runner
    ) -> None:
        Step.reidentify(self, recorded, ignore, when, runner)
        super().reidentify(recorded, ignore, when, runner)

    def __post_init__(self) -> None:
        self.title = (
            f"Detach namespace {self.state.old_nsid} from controller {self.ctrl.cntlid} "
            f"({self.ctrl.path})"
        )

    def commands(self) -> list[list[str]]:
        return [
            [
                "nvme",
                "detach-ns",
                self.ctrl.path,
                f"--namespace-id={self.state.old_nsid}",
                f"--controllers={self.ctrl.cntlid}",
            ]
        ]

    def verify(self, runner: Runner = run_tool) -> list[str]:
        active = list_ns(self.ctrl.path, runner)
        if self.state.old_nsid in active:
            raise VerificationError(f"namespace {self.state.old_nsid} is still attached")
        return [f"active namespaces now: {active or 'none'}"]


@dataclass
class DeleteStep(ControllerStep):
    ctrl: NvmeController
    state: NamespaceState

    def __post_init__(self) -> None:
        self.title = f"Delete namespace {self.state.old_nsid} (all of its blocks are deallocated)"

    def commands(self) -> list[list[str]]:
        return [["nvme", "delete-ns", self.ctrl.path, f"--namespace-id={self.state.old_nsid}"]]

    def verify(self, runner: Runner = run_tool) -> list[str]:
        allocated = list_ns(self.ctrl.path, runner, all_ns=True)
        if self.state.old_nsid in allocated:
            raise VerificationError(f"namespace {self.state.old_nsid} still exists")
        now = id_ctrl(self.ctrl.path, runner)
        return [
            f"unallocated NVM capacity unvmcap = {now.unvmcap:,} of tnvmcap {now.tnvmcap:,} bytes"
        ]


@dataclass
class CreateStep(ControllerStep):
    ctrl: NvmeController
    state: NamespaceState
    old: NvmeNamespace
    nsze: int

    def __post_init__(self) -> None:
        self.title = (
            f"Create a namespace of {self.nsze:,} blocks of {self.old.lba_bytes} bytes "
            f"(same LBA format, FLBAS {self.old.flbas})"
        )

    def commands(self) -> list[list[str]]:
        return [
            [
                "nvme",
                "create-ns",
                self.ctrl.path,
                f"--nsze={self.nsze}",
                f"--ncap={self.nsze}",
                f"--flbas={self.old.flbas}",
                f"--dps={self.old.dps}",
                f"--nmic={self.old.nmic}",
            ]
        ]

    def apply(self, runner: Runner = run_tool) -> list[str]:
        (argv,) = self.commands()
        proc = runner(argv)
        self.state.new_nsid = parse_created_nsid(proc.stdout + proc.stderr)
        return [f"created namespace {self.state.new_nsid}", *self.verify(runner)]

    def verify(self, runner: Runner = run_tool) -> list[str]:
        allocated = list_ns(self.ctrl.path, runner, all_ns=True)
        if self.state.new_nsid not in allocated:
            raise VerificationError(
                f"namespace {self.state.new_nsid} is not listed after "
                f"create-ns (allocated: {allocated})"
            )
        return [f"allocated namespaces now: {allocated}"]


@dataclass
class AttachStep(ControllerStep):
    ctrl: NvmeController
    state: NamespaceState

    def __post_init__(self) -> None:
        self.title = (
            f"Attach the new namespace to controller {self.ctrl.cntlid} (shown with the id "
            "the controller normally assigns; the id create-ns reports is used)"
        )

    def commands(self) -> list[list[str]]:
        return [
            [
                "nvme",
                "attach-ns",
                self.ctrl.path,
                f"--namespace-id={self.state.nsid_for_attach}",
                f"--controllers={self.ctrl.cntlid}",
            ]
        ]

    def verify(self, runner: Runner = run_tool) -> list[str]:
        active = list_ns(self.ctrl.path, runner)
        if self.state.nsid_for_attach not in active:
            raise VerificationError(
                f"namespace {self.state.nsid_for_attach} is not active after attach-ns"
            )
        return [f"active namespaces now: {active}"]


@dataclass
class RescanNamespacesStep(ControllerStep):
    ctrl: NvmeController
    state: NamespaceState
    nsze: int
    lba_bytes: int
    wait_seconds: float = 10.0
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.title = f"Rescan namespaces on {self.ctrl.path} and re-read the capacities"

    def commands(self) -> list[list[str]]:
        return [["nvme", "ns-rescan", self.ctrl.path]]

    def verify(self, runner: Runner = run_tool) -> list[str]:
        nsid = self.state.nsid_for_attach
        ns = id_ns(self.ctrl.path, nsid, runner)
        if (ns.nsze, ns.ncap) != (self.nsze, self.nsze) or ns.lba_bytes != self.lba_bytes:
            raise VerificationError(
                f"namespace {nsid}: nsze={ns.nsze} ncap={ns.ncap} lba {ns.lba_bytes} B, "
                f"expected nsze=ncap={self.nsze} lba {self.lba_bytes} B"
            )
        ctrl = id_ctrl(self.ctrl.path, runner)
        size = self.nsze * self.lba_bytes
        notes = [
            f"namespace {nsid}: nsze = ncap = {ns.nsze:,} blocks = {size:,} bytes",
            f"controller: unvmcap = {ctrl.unvmcap:,} of tnvmcap {ctrl.tnvmcap:,} bytes "
            f"({ctrl.unvmcap / ctrl.tnvmcap * 100 if ctrl.tnvmcap else 0:.2f} % unallocated)",
        ]
        expected_unalloc = ctrl.tnvmcap - size
        if ctrl.tnvmcap and abs(ctrl.unvmcap - expected_unalloc) > max(
            expected_unalloc // 100, 1 << 30
        ):
            notes.append(
                f"note: unvmcap differs from tnvmcap − namespace size "
                f"({expected_unalloc:,}); controllers allocate in their own units"
            )
        node = f"{self.ctrl.path}n{nsid}"
        name = os.path.basename(node)
        size_file = blockdev.SYSFS / "class" / "block" / name / "size"
        deadline = time.monotonic() + self.wait_seconds
        while True:
            try:
                seen = int(size_file.read_text()) * 512
            except OSError:
                seen = None
            if seen == size or time.monotonic() >= deadline:
                break
            time.sleep(0.2)
        if seen == size:
            notes.append(f"kernel shows {node} with {seen:,} bytes")
        else:
            notes.append(
                f"note: kernel does not (yet) show {node} with {size:,} bytes "
                f"(saw {seen}); a controller reset or reboot may be needed"
            )
        return notes


def plan_nvme_namespace(
    info: DeviceInfo,
    target: VisibleSize,
    *,
    runner: Runner = run_tool,
    controller: str | None = None,
    nsid: int | None = None,
    why: str = "requested (--method nvme-ns)",
) -> Plan:
    if info.is_partition:
        raise ConfigError(f"--method nvme-ns: {info.path} is a partition; give the namespace")
    if not info.is_nvme:
        raise ConfigError(f"--method nvme-ns: {info.path} is not an NVMe namespace")
    ctrl_path = controller or controller_path(info)
    nsid = nsid if nsid is not None else namespace_id(info)
    ctrl = id_ctrl(ctrl_path, runner)
    model = f" ({ctrl.model})" if ctrl.model else ""
    if not ctrl.namespace_management:
        raise ConfigError(
            f"--method nvme-ns: {ctrl_path}{model} does not support namespace management "
            f"(OACS = {ctrl.oacs:#x}, bit 3 is clear), as most consumer NVMe drives; use "
            "--method partition"
        )
    if ctrl.tnvmcap <= 0:
        raise ConfigError(
            f"--method nvme-ns: {ctrl_path}{model} reports no total NVM capacity (tnvmcap = 0), "
            "so the namespace size cannot be computed"
        )
    if info.serial and ctrl.serial and info.serial.strip() != ctrl.serial:
        raise ConfigError(
            f"--method nvme-ns: {ctrl_path}{model} answers with serial {ctrl.serial!r}, but "
            f"{info.path} reports {info.serial.strip()!r}: that controller is not this "
            "namespace's drive, and its namespaces are not reshaped"
        )
    allocated = list_ns(ctrl_path, runner, all_ns=True)
    others = [n for n in allocated if n != nsid]
    if others:
        raise ConfigError(
            f"--method nvme-ns: {ctrl_path} has other namespaces ({', '.join(map(str, others))})"
            f" besides {nsid}; overprov only reshapes a drive with a single namespace"
        )
    old = id_ns(ctrl_path, nsid, runner)
    if old.nmic & 1:
        raise ConfigError(
            f"--method nvme-ns: namespace {nsid} on {ctrl_path} may be shared with other "
            "controllers (NMIC bit 0); detach it everywhere and reshape it from one host"
        )
    user = target.user_bytes(ctrl.tnvmcap, old.lba_bytes)
    nsze = user // old.lba_bytes
    state = NamespaceState(old_nsid=nsid)
    facts = op_summary(ctrl.tnvmcap, nsze * old.lba_bytes, "new namespace size")
    facts[0] = f"total NVM capacity tnvmcap = {ctrl.tnvmcap:,} bytes ({ctrl.tnvmcap / 1e9:.2f} GB)"
    facts.insert(
        1,
        f"controller {ctrl_path}{model}: cntlid {ctrl.cntlid}, OACS {ctrl.oacs:#x} "
        f"(namespace management supported); namespace {nsid}: nsze {old.nsze:,} blocks of "
        f"{old.lba_bytes} bytes; unvmcap now {ctrl.unvmcap:,} bytes",
    )
    steps: list[Step] = [
        DetachStep(ctrl, state),
        DeleteStep(ctrl, state),
        CreateStep(ctrl, state, old, nsze),
        AttachStep(ctrl, state),
        RescanNamespacesStep(ctrl, state, nsze, old.lba_bytes),
    ]
    return Plan("nvme-ns", (info,), why, steps, facts)
