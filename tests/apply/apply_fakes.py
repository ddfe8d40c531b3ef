"""Fakes for planning without hardware: a scripted command runner, DeviceInfo records for
drives this machine does not have, and a small NVMe controller model driven by the
constructed identify fixtures in tests/data/nvme/."""

from __future__ import annotations

import copy
import json
import re
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

from overprov.blockdev import DeviceInfo
from overprov.errors import ToolError

NVME_DATA = Path(__file__).resolve().parent.parent / "data" / "nvme"


def load_nvme(name: str) -> dict:
    return json.loads((NVME_DATA / name).read_text())


def make_info(name: str = "sdx", size_bytes: int = 512_110_190_592, **over) -> DeviceInfo:
    """A DeviceInfo for a drive that is not attached to this machine (planning only)."""
    fields = dict(
        path=f"/dev/{name}",
        name=name,
        size_bytes=size_bytes,
        logical_sector_bytes=512,
        physical_sector_bytes=4096,
        model="constructed test drive",
        serial="TEST0001",
        rotational=False,
        discard_max_bytes=2 * 2**30,
        discard_granularity_bytes=512,
        write_cache="write back",
        is_partition=False,
        holders=(),
        mountpoints=(),
        swap=False,
        signatures=(),
        partition_table=None,
    )
    fields.update(over)
    return DeviceInfo(**fields)


class FakeRunner:
    """Answers commands from a list of (argv-prefix, handler-or-stdout) rules; records calls.
    An unmatched command fails the test loudly instead of touching the machine."""

    def __init__(self) -> None:
        self.rules: list[tuple[tuple[str, ...], Callable[[list[str]], str] | str]] = []
        self.calls: list[list[str]] = []

    def on(self, prefix: Sequence[str], result: Callable[[list[str]], str] | str) -> FakeRunner:
        self.rules.append((tuple(prefix), result))
        return self

    def __call__(self, argv: Sequence[str], *, check: bool = True):
        argv = list(argv)
        self.calls.append(argv)
        for prefix, result in self.rules:
            if tuple(argv[: len(prefix)]) == prefix:
                out = result(argv) if callable(result) else result
                return subprocess.CompletedProcess(argv, 0, out, "")
        raise AssertionError(f"unexpected command in test: {argv}")


class FakeNvmeController:
    """Enough of NVMe namespace management to run the plan's steps and verifications:
    a controller with tnvmcap bytes, namespaces with nsze/ncap/flbas, attach state."""

    def __init__(self, ctrl_doc: dict, ns_doc: dict, path: str = "/dev/nvme0") -> None:
        self.path = path
        self.ctrl = copy.deepcopy(ctrl_doc)
        self.ns_template = copy.deepcopy(ns_doc)
        self.namespaces: dict[int, dict] = {1: copy.deepcopy(ns_doc)}
        self.attached: set[int] = {1}
        self.ignore_nsze = False  # a broken controller that creates a full-size namespace
        self.next_nsid: int | None = None  # force the id create-ns hands out
        self.commands: list[list[str]] = []

    def _lba_bytes(self, ns: dict) -> int:
        return 1 << ns["lbafs"][ns["flbas"] & 0x0F]["ds"]

    def _update_unvmcap(self) -> None:
        used = sum(ns["nsze"] * self._lba_bytes(ns) for ns in self.namespaces.values())
        self.ctrl["unvmcap"] = self.ctrl["tnvmcap"] - used

    @staticmethod
    def _opt(argv: list[str], name: str) -> str:
        for a in argv:
            if a.startswith(f"--{name}="):
                return a.split("=", 1)[1]
        raise AssertionError(f"--{name} missing in {argv}")

    def __call__(self, argv: Sequence[str], *, check: bool = True):
        argv = list(argv)
        self.commands.append(argv)
        assert argv[0] == "nvme" and argv[2] == self.path, argv
        sub = argv[1]
        out = ""
        if sub == "id-ctrl":
            self._update_unvmcap()
            out = json.dumps(self.ctrl)
        elif sub == "id-ns":
            nsid = int(self._opt(argv, "namespace-id"))
            if nsid not in self.attached:
                raise ToolError(f"nvme id-ns: namespace {nsid} is not active")
            out = json.dumps(self.namespaces[nsid])
        elif sub == "list-ns":
            ids = sorted(self.namespaces) if "--all" in argv else sorted(self.attached)
            out = json.dumps({"nsid_list": [{"nsid": i} for i in ids]})
        elif sub == "detach-ns":
            self.attached.discard(int(self._opt(argv, "namespace-id")))
            out = "detach-ns: Success"
        elif sub == "delete-ns":
            nsid = int(self._opt(argv, "namespace-id"))
            assert nsid not in self.attached, "deleting an attached namespace"
            del self.namespaces[nsid]
            out = f"delete-ns: Success, deleted nsid:{nsid}"
        elif sub == "create-ns":
            nsze = int(self._opt(argv, "nsze"))
            ncap = int(self._opt(argv, "ncap"))
            flbas = int(self._opt(argv, "flbas"))
            ns = copy.deepcopy(self.ns_template)
            if self.ignore_nsze:
                nsze = ncap = ns["nsze"]
            ns.update(nsze=nsze, ncap=ncap, nuse=0, flbas=flbas)
            nsid = self.next_nsid or next(i for i in range(1, 1000) if i not in self.namespaces)
            self.namespaces[nsid] = ns
            out = f"create-ns: Success, created nsid:{nsid}"
        elif sub == "attach-ns":
            nsid = int(self._opt(argv, "namespace-id"))
            assert nsid in self.namespaces, f"attaching namespace {nsid} that does not exist"
            assert re.fullmatch(r"\d+", self._opt(argv, "controllers"))
            self.attached.add(nsid)
            out = f"attach-ns: Success, nsid:{nsid}"
        elif sub == "ns-rescan":
            out = ""
        else:
            raise AssertionError(f"unexpected nvme command {argv}")
        return subprocess.CompletedProcess(argv, 0, out, "")


NVME_SERIAL = "OVERPROV-CONSTRUCTED-01"  # the "sn" of tests/data/nvme/id-ctrl-*.json


def nvme_sysfs(
    root: Path,
    disk: str = "nvme0n1",
    controller: str = "nvme0",
    *,
    nsid: int = 1,
    multipath: Sequence[str] = (),
) -> Path:
    """A copy of what sysfs shows of an NVMe namespace's block device, under ``root`` (set as
    ``blockdev.SYSFS``): ``class/block/DISK/nsid``, and ``DISK/device`` the controller (a
    folder with ``cntlid``). With ``multipath`` (controller names), as under native NVMe
    multipath: ``DISK/device`` is the subsystem (no ``cntlid``) and ``DISK/multipath/`` holds
    one path per controller (``nvme0c1n1``), whose ``device`` is that controller."""
    block = root / "class" / "block" / disk
    block.mkdir(parents=True)
    (block / "nsid").write_text(f"{nsid}\n")

    def ctrl_dir(name: str) -> Path:
        d = root / "devices" / "nvme" / name
        d.mkdir(parents=True, exist_ok=True)
        (d / "cntlid").write_text(f"{int(name.removeprefix('nvme')) + 1}\n")
        return d

    if not multipath:
        (block / "device").symlink_to(ctrl_dir(controller))
        return root
    instance = re.match(r"nvme(\d+)", disk).group(1)  # the subsystem's, under multipath
    subsys = root / "devices" / "virtual" / "nvme-subsystem" / f"nvme-subsys{instance}"
    subsys.mkdir(parents=True)
    (block / "device").symlink_to(subsys)
    (block / "multipath").mkdir()
    for name in multipath:
        path_name = re.sub(r"^(nvme\d+)n", rf"\1c{name.removeprefix('nvme')}n", disk)
        path_disk = ctrl_dir(name) / path_name
        path_disk.mkdir()
        (path_disk / "device").symlink_to(path_disk.parent)
        (block / "multipath" / path_disk.name).symlink_to(path_disk)
    return root
