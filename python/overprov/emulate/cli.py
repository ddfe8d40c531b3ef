"""``overprov emulate PRESET|FILE.toml --size SIZE``: a simulated drive served as a real block
device (docs/emulate.md).

A FUSE server (``overprov.emulate.fuse_device``, in its own session) serves one file whose
I/O goes to the simulator core and completes at simulated time; a loop device over that file
(direct I/O, 4 KiB sectors) is the block device. This command prints the device, shows live
figures until Ctrl-C or SIGTERM, then detaches the loop device and unmounts the FUSE file
system. While the device is in use (mounted), a stop request waits for it to be released.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from overprov import engine, inputs, outputs, presets
from overprov.emulate import host_share, loop
from overprov.emulate.loop import DISK_NAME
from overprov.errors import ConfigError, InputError, RunError, ToolError
from overprov.options import examples
from overprov.units import human_bytes, parse_number, parse_percent

MOUNT_WAIT_S = 30.0
SERVER_EXIT_WAIT_S = 15.0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "emulate",
        help="serve a simulated drive as a real block device (FUSE file + loop device)",
        description="Serve a simulated drive as a block device: its reads, writes, discards "
        "and flushes go to the simulator and complete at simulated time. Prints the device "
        "path, shows live figures, and writes SMART-like counters to a status file; Ctrl-C or "
        "SIGTERM detaches the loop device and unmounts. Needs root, FUSE and loop devices.",
        epilog=examples(
            "overprov emulate consumer-tlc-sata --size 1GiB",
            "overprov emulate docs/drives/pny-128.toml --size 2GiB --extra-op 20 --slowdown 4",
        ),
    )
    p.add_argument("drive", metavar="PRESET|FILE.toml", help="preset name or drive file")
    p.add_argument("--size", required=True, metavar="SIZE",
                   help="NAND of the emulated drive (1GiB), or its scale (1/64)")  # fmt: skip
    p.add_argument("--extra-op", default="0", metavar="PCT",
                   help="extra OP in percent of the advertised capacity (default 0)")  # fmt: skip
    p.add_argument("--slowdown", default="1", metavar="FACTOR",
                   help="real seconds per simulated second (default 1: real time); raise it "
                   "when the status shows late requests")  # fmt: skip
    p.add_argument("--dir", metavar="DIR",
                   help="folder for the data file, the mount point and status.json "
                   "(default: a new folder in the temporary folder)")  # fmt: skip
    p.add_argument("--quiet", action="store_true", help="no live figures")
    p.set_defaults(func=run)


def drive_config(drive: str, size: str, extra_op_percent: float) -> dict[str, Any]:
    """The SimConfig of ``drive`` at NAND size ``size``, with timing (a device answers in time).
    An error names emulate's own arguments (the drive, ``--size``), not simulate's
    (``--preset``, ``--scale``) that the drive's builder names."""
    try:
        cfg, _factor = presets.preset_config(drive, size)
    except ConfigError as exc:
        text = str(exc)
        if text.startswith("--preset: "):
            text = "PRESET|FILE.toml: " + text.removeprefix("--preset: ")
        raise ConfigError(text.replace("--scale", "--size")) from exc
    if not cfg.get("timing", {}).get("enabled"):
        raise ConfigError(f"{drive}: timing.enabled is not set: an emulated drive needs timing")
    cfg = engine.merge(cfg, {"geometry": {"extra_op_percent": extra_op_percent},
                             "precondition": {"kind": "none"}})  # fmt: skip
    engine.validate(cfg)
    return cfg


def live_line(before: dict[str, Any], now: dict[str, Any]) -> str:
    c0, c1 = before["counters"], now["counters"]
    ios = (c1["writes"] + c1["reads"]) - (c0["writes"] + c0["reads"])
    real_s = max(now["real_s"] - before["real_s"], 1e-9)
    sim_s = now["simulated_s"] - before["simulated_s"]
    sim_iops = f"{ios / sim_s:,.0f}" if sim_s > 0 else "-"
    waf = c1["waf"]
    slc = ""
    if c1["slc_max_bytes"]:
        slc = f"  SLC {human_bytes(c1['slc_used_bytes'])}/{human_bytes(c1['slc_max_bytes'])}"
    return (f"t={now['simulated_s']:.1f}s sim  IOPS {ios / real_s:,.0f} real, {sim_iops} "
            f"simulated  {in_drive(before, now, sim_s)}  WAF {'-' if waf is None else f'{waf:.2f}'}"
            f"  free blocks {c1['free_blocks']}{slc}  late {now['late_requests']}")  # fmt: skip


def in_drive(before: dict[str, Any], now: dict[str, Any], sim_s: float) -> str:
    """The drive's mean queue depth and latency over the interval (``host_share.py``): below
    the benchmark's queue depth, the host held the rest of its requests' time."""
    latency_s = host_share.drive_latency_s(before, now)
    if latency_s is None or sim_s <= 0:
        return "in drive: QD - latency -"
    qd = (now["in_drive_sim_ns_total"] - before["in_drive_sim_ns_total"]) / 1e9 / sim_s
    return f"in drive: QD {qd:.1f} latency {latency_s * 1e3:.2f} ms"


class Emulation:
    """The server process, the mount and the loop device of one emulated drive."""

    def __init__(self, config: dict[str, Any], work: Path, slowdown: float) -> None:
        self.work = work
        self.mount = work / "mnt"
        self.backing = work / "data.img"
        self.status = work / "status.json"
        self.log_path = work / "server.log"
        self.disk = self.mount / DISK_NAME
        self.slowdown = slowdown
        self.config = config
        self.server: subprocess.Popen[bytes] | None = None
        self.dev: str | None = None
        self.direct_io = False
        self.made_mount = False  # the mount point is removed at the end only if made here

    def check_dir(self) -> None:
        """Refuse (ConfigError) a --dir that holds what the emulation writes: the data file
        is created afresh (truncated) and removed when it stops, the others overwritten, and
        the mount point hides what it holds."""
        mine = (self.backing, self.work / "config.json", self.status, self.log_path)
        found = [p.name for p in mine if os.path.lexists(p)]
        if self.mount.is_dir() and any(self.mount.iterdir()):
            found.append(f"{self.mount.name}/ (not empty)")
        if found:
            raise ConfigError(
                f"--dir: {self.work} already holds {', '.join(found)}, which emulate would "
                "overwrite (and remove data.img when it stops); give a new or empty folder"
            )

    def start(self) -> None:
        self.made_mount = not self.mount.exists()
        self.mount.mkdir(parents=True, exist_ok=True)
        outputs.write_json(self.config, self.work / "config.json")
        with open(self.log_path, "wb") as log:
            self.server = subprocess.Popen(
                [sys.executable, "-m", "overprov.emulate.fuse_device",
                 str(self.work / "config.json"), str(self.backing), str(self.mount),
                 str(self.status), str(self.slowdown)],
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + MOUNT_WAIT_S
        while not os.path.ismount(self.mount):
            if self.server.poll() is not None or time.monotonic() > deadline:
                raise RunError(f"the FUSE server did not mount {self.mount}: {self.log_tail()}")
            time.sleep(0.05)
        page = self.read_status()["counters"]["page_size_bytes"]
        self.dev, self.direct_io = loop.attach(self.disk, page)

    def log_tail(self) -> str:
        try:
            return " ".join(self.log_path.read_text(errors="replace").split())[-400:]
        except OSError:
            return "(no log)"

    def read_status(self) -> dict[str, Any]:
        return inputs.load_json(self.status, "emulated drive's status file")

    def server_alive(self) -> bool:
        return self.server is not None and self.server.poll() is None

    def stop(self) -> None:
        """Detach the loop device, unmount, stop the server, remove the data file."""
        try:
            if self.dev is not None:
                loop.detach(self.dev, self.disk)
                self.dev = None
        finally:
            if os.path.ismount(self.mount):
                subprocess.run(["fusermount3", "-u", str(self.mount)], capture_output=True,
                               check=False)  # fmt: skip
            if self.server is not None:
                try:
                    self.server.wait(timeout=SERVER_EXIT_WAIT_S)
                except subprocess.TimeoutExpired:
                    self.server.kill()
                    self.server.wait()
            if not os.path.ismount(self.mount):
                self.backing.unlink(missing_ok=True)
                with contextlib.suppress(OSError):  # kept if something was left in it
                    if self.made_mount:  # an empty mnt/ that was there stays (--dir /srv)
                        self.mount.rmdir()


def run(args: argparse.Namespace) -> int:
    if args.dir:  # its data file, mount point and status: never in /dev (RAM, device names)
        outputs.check_not_in_dev(args.dir, "--dir")
    reasons = loop.missing()
    if reasons:
        raise ToolError("cannot serve a block device here: " + "; ".join(reasons))
    slowdown = parse_number(args.slowdown, "--slowdown", lo=1.0)
    extra_op = parse_percent(args.extra_op, "--extra-op", lo=0.0, hi=100.0, hi_open=True)
    config = drive_config(args.drive, args.size, extra_op)
    work = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="overprov-emulate-"))
    emulation = Emulation(config, work, slowdown)
    emulation.check_dir()
    stopping: list[int] = []

    def on_signal(signum: int, _frame: Any) -> None:
        stopping.append(signum)

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        emulation.start()
        size = emulation.read_status()["size_bytes"]
        print(f"device {emulation.dev}  {human_bytes(size)} ({size} bytes)  direct I/O "
              f"{'on' if emulation.direct_io else 'off (the kernel refused it)'}  slowdown "
              f"{slowdown:g}  status {emulation.status}", flush=True)  # fmt: skip
        before = emulation.read_status()
        while True:
            time.sleep(1.0)
            if not emulation.server_alive():
                raise RunError(f"the FUSE server stopped: {emulation.log_tail()}")
            now = emulation.read_status()
            if not args.quiet:
                print(live_line(before, now), file=sys.stderr, flush=True)
            before = now
            if stopping:
                if emulation.dev and loop.in_use(emulation.dev):
                    print(f"{emulation.dev} is in use (mounted?): release it, then stop again",
                          file=sys.stderr, flush=True)  # fmt: skip
                    stopping.clear()
                    continue
                break
    finally:
        emulation.stop()
        for s, handler in old.items():
            signal.signal(s, handler)
    print(f"stopped: loop device detached, {emulation.mount} unmounted", flush=True)
    with contextlib.suppress(OSError, InputError, KeyError):  # no status file: none served
        print(run_summary(emulation.read_status()), flush=True)
    return 0


def run_summary(status: dict[str, Any]) -> str:
    """The run's requests, their mean time in the drive and the late answers: a benchmark at
    queue depth ``n`` that measured ``iops`` kept the drive busy with ``iops × latency`` of
    its ``n`` requests; the host held the rest (``host_share.py``)."""
    zero = {"requests": 0, "in_drive_sim_ns_total": 0}
    latency_s = host_share.drive_latency_s(zero, status)
    mean = "-" if latency_s is None else f"{latency_s * 1e3:.2f} ms"
    return (f"served {status['requests']:,} requests, mean latency in the drive {mean}; "
            f"{status['late_requests']:,} answered late ({status['late_ms_total']:,.1f} ms in "
            "all)")  # fmt: skip
