"""The refusal matrix: every situation in which `profile` and `apply --execute` must refuse to
write to a block device, on loop devices this suite creates on sparse files, plus the cases
that must go ahead. For each: refused or not (exit code and message), and the SHA-256 of the
whole backing file, its first and its last MiB before and after — byte-identical whenever
refused, changed when allowed (so the digests would see a write).

OVERPROV_SAFETY_REPORT=FILE.md writes the matrix as a table (and FILE.jsonl) at the end.
"""

from __future__ import annotations

import contextlib
import os
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from safety_helpers import (
    MIB,
    QUICK_PROFILE,
    Digests,
    backing_of,
    cli,
    flush,
    mkfs_ext4,
    mount_frozen,
    record,
    sh,
    tool,
)

pytestmark = [pytest.mark.root]

CONFIRM = "--i-understand-this-destroys-data"


@dataclass
class Setup:
    dev: str
    confirm: list[str] = field(default_factory=list)
    # bytes [start, end) of the backing file the kernel may write whatever overprov does: an
    # active swap area's slots (the swap header in its first page is compared)
    kernel_owned: tuple[int, int] | None = None


# ---------------------------------------------------------------------------- the situations


PARTITION_START_BYTES = 2048 * 512


def _gpt_with_partition(dev: str) -> str:
    sh("sgdisk", "--new=1:2048:+16M", dev)
    sh("partx", "--update", dev)  # this kernel may not parse GPT itself
    return dev + "p1"


def mounted_ext4(make, tmp, stack) -> Setup:
    dev = make()
    mkfs_ext4(dev)
    mount_frozen(stack, dev, tmp / "mnt")
    return Setup(dev, [CONFIRM, dev])


def ext4_signature(make, tmp, stack) -> Setup:
    dev = make()
    mkfs_ext4(dev)
    return Setup(dev)


def xfs_signature(make, tmp, stack) -> Setup:
    dev = make(320 * MIB)  # mkfs.xfs refuses file systems below 300 MB
    sh("mkfs.xfs", "-q", "-f", dev)
    return Setup(dev)


def swap_signature(make, tmp, stack) -> Setup:
    dev = make()
    sh("mkswap", dev)
    return Setup(dev)


# An active swap area of the least size mkswap makes (10 pages: the header and 9 slots), so that
# the pages the kernel swaps out onto it (on a host with no swap of its own a test's swap is the
# only one: /proc/vmstat's pswpout counted them) land in 36 KiB the digests leave out.
SWAP_AREA_KIB = 40
SWAP_SLOTS = (4096, SWAP_AREA_KIB * 1024)


def _swap_on(stack, node: str, offset_bytes: int = 0) -> tuple[int, int]:
    """mkswap and swapon ``node``; swapoff when ``stack`` closes. Returns the swap slots' bytes
    in the backing file (``node`` starting ``offset_bytes`` into it)."""
    sh("mkswap", node, str(SWAP_AREA_KIB))
    proc = subprocess.run(["swapon", node], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        pytest.skip(f"swapon not possible here: {proc.stderr.strip()}")
    stack.callback(subprocess.run, ["swapoff", node], capture_output=True, check=False)
    return (offset_bytes + SWAP_SLOTS[0], offset_bytes + SWAP_SLOTS[1])


def active_swap(make, tmp, stack) -> Setup:
    dev = make()
    return Setup(dev, [CONFIRM, dev], kernel_owned=_swap_on(stack, dev))


def gpt_with_partition(make, tmp, stack) -> Setup:
    dev = make()
    _gpt_with_partition(dev)
    return Setup(dev)


def mounted_partition(make, tmp, stack) -> Setup:
    dev = make()
    part = _gpt_with_partition(dev)
    mkfs_ext4(part)
    mount_frozen(stack, part, tmp / "mnt")
    return Setup(dev, [CONFIRM, dev])


def swap_on_partition(make, tmp, stack) -> Setup:
    dev = make()
    slots = _swap_on(stack, _gpt_with_partition(dev), PARTITION_START_BYTES)
    return Setup(dev, [CONFIRM, dev], kernel_owned=slots)


def held_exclusively(make, tmp, stack) -> Setup:
    dev = make()
    code = (
        "import os, sys, time; fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL); "
        "print('held', flush=True); time.sleep(300)"
    )
    holder = subprocess.Popen([sys.executable, "-c", code, dev], stdout=subprocess.PIPE, text=True)
    stack.callback(holder.wait)
    stack.callback(holder.kill)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return Setup(dev, [CONFIRM, dev])


def confirms_another_device(make, tmp, stack) -> Setup:
    dev, other = make(), make()
    return Setup(dev, [CONFIRM, other])


def confirms_the_backing_file(make, tmp, stack) -> Setup:
    dev = make()
    return Setup(dev, [CONFIRM, str(backing_of(dev))])


def blank_unconfirmed(make, tmp, stack) -> Setup:
    return Setup(make())


def random_data_unconfirmed(make, tmp, stack) -> Setup:
    # what plain dm-crypt or any data without a signature looks like
    return Setup(make(fill="random"))


def blank_confirmed(make, tmp, stack) -> Setup:
    dev = make()
    return Setup(dev, [CONFIRM, dev])


def ext4_confirmed(make, tmp, stack) -> Setup:
    dev = make()
    mkfs_ext4(dev)
    return Setup(dev, [CONFIRM, dev])


def confirmed_through_a_symlink(make, tmp, stack) -> Setup:
    dev = make()
    link = tmp / "by-id-alias"
    link.symlink_to(dev)
    return Setup(dev, [CONFIRM, str(link)])


def confirmed_through_another_device_node(make, tmp, stack) -> Setup:
    dev = make()
    node = tmp / "same-device-node"
    os.mknod(node, stat.S_IFBLK | 0o600, os.stat(dev).st_rdev)
    return Setup(dev, [CONFIRM, str(node)])


# case → (set-up, refused?, a phrase each command's message must hold when refused)
CASES: dict[str, tuple[Callable[..., Setup], bool, dict[str, str]]] = {
    "mounted ext4 (confirmed)": (mounted_ext4, True, {"*": "mounted at"}),
    "ext4 signature": (ext4_signature, True, {"*": "carries an ext4 signature"}),
    "xfs signature": (xfs_signature, True, {"*": "carries an xfs signature"}),
    "swap signature": (swap_signature, True, {"*": "carries a swap signature"}),
    "active swap (confirmed)": (active_swap, True, {"*": "is active swap"}),
    "GPT with a partition": (gpt_with_partition, True, {"*": "has a gpt partition table"}),
    "mounted partition (confirmed)": (mounted_partition, True, {"*": "p1 is mounted at"}),
    "active swap on a partition (confirmed)": (
        swap_on_partition,
        True,
        {"*": "p1 is active swap"},
    ),
    "held O_EXCL by another process (confirmed)": (held_exclusively, True, {"*": "is busy"}),
    "confirmation names another device": (
        confirms_another_device,
        True,
        {"profile": "the confirmation names", "apply": "not part of this plan"},
    ),
    "confirmation names the backing file": (
        confirms_the_backing_file,
        True,
        {"profile": "the confirmation names", "apply": "not part of this plan"},
    ),
    "blank, no confirmation": (blank_unconfirmed, True, {"*": "was not confirmed"}),
    "random data, no signature, no confirmation": (
        random_data_unconfirmed,
        True,
        {"*": "was not confirmed"},
    ),
    "blank, confirmed": (blank_confirmed, False, {}),
    "ext4, unmounted, confirmed": (ext4_confirmed, False, {}),
    "confirmed through a symlink alias": (confirmed_through_a_symlink, False, {}),
    "confirmed through another device node": (confirmed_through_another_device_node, False, {}),
}


def command(which: str, dev: str, out: Path) -> list[str]:
    if which == "profile":
        return ["profile", dev, "--allow-hdd", "--size", "8MiB", *QUICK_PROFILE, "--out", str(out)]
    return ["apply", dev, "--extra-op", "20", "--method", "partition", "--execute", "--allow-hdd"]


@pytest.mark.parametrize("which", ["profile", "apply"])
@pytest.mark.parametrize("case", list(CASES))
def test_refusal_matrix(case, which, loop_device, tmp_path):
    setup_fn, refused, phrases = CASES[case]
    if which == "profile" and not refused and tool("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")

    def make(size_bytes: int = 64 * MIB, fill=None) -> str:
        return loop_device(size_bytes=size_bytes, fill=fill)

    with contextlib.ExitStack() as stack:
        setup = setup_fn(make, tmp_path, stack)
        backing = backing_of(setup.dev)
        flush(setup.dev)
        before = Digests.of(backing, setup.kernel_owned)
        started = time.monotonic()
        proc = cli(*command(which, setup.dev, tmp_path / "out"), *setup.confirm)
        flush(setup.dev)
        after = Digests.of(backing, setup.kernel_owned)
    outcome = record(case, which, proc, before, after)
    if refused:
        # a refused action exits 1 (docs/cli.md)
        assert proc.returncode == 1, f"{case}: not refused ({time.monotonic() - started:.1f} s)"
        phrase = phrases.get(which, phrases.get("*", ""))
        assert phrase in proc.stderr, proc.stderr
        assert outcome.unchanged, f"{case}: refused, yet the backing file changed"
    else:
        # the quick profile's one phase is skipped by design: it ran, without the answer (3)
        assert proc.returncode == (3 if which == "profile" else 0), proc.stderr
        assert before.first_mib != after.first_mib  # it wrote, and the digests show it
