"""Helpers for the safety suite: digests of a loop device's backing file, the CLI as a
subprocess, and what the suite records (refused or not, digests before and after).

Everything here only reads the devices; the commands under test are the only writers."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from ctrl_c import sigint_default

MIB = 2**20
REPO = Path(__file__).resolve().parents[2]
SBIN = "/usr/sbin:/sbin:/usr/bin:/bin"

# The real `overprov.cli.main` with the commands that write to devices and files.
CLI_CODE = (
    "import sys, overprov.cli as c; "
    "c.COMMAND_MODULES = ('overprov.apply.cli', 'overprov.profile.cli', "
    "'overprov.qualify.cli', 'overprov.calibrate.cli'); "
    "sys.exit(c.main(sys.argv[1:]))"
)

QUICK_PROFILE = ["--extra-op", "0", "--round-seconds", "1", "--max-rounds", "10",
                 "--fob-seconds", "0", "--qd", "4", "--min-iops", "1e12",
                 "--precondition", "random", "--no-report"]  # fmt: skip
"""One phase that ends (skipped) after 3 one-second rounds: enough to show a run went ahead.
No HTML report: no safety test reads it, and rendering it took most of a run's CPU time."""


def long_profile(dev: str, *extra: str, round_seconds: int = 1) -> list[str]:
    """The arguments of a confirmed profile of ``dev`` long enough to be stopped or tampered
    with between its rounds (16 MiB at QD4, up to 25 rounds of ``round_seconds``)."""
    return [dev, "--allow-hdd", "--size", "16MiB", "--extra-op", "0", "--round-seconds",
            str(round_seconds), "--max-rounds", "25", "--fob-seconds", "0", "--qd", "4",
            "--precondition", "random", *extra,
            "--i-understand-this-destroys-data", dev]  # fmt: skip


def tool(name: str) -> str | None:
    return shutil.which(name) or shutil.which(name, path=SBIN)


def in_private_dev(
    script: str, command: list[str], *, marker: str, cwd: Path, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """Run ``script`` (sh; ``"$@"`` is ``command``) in a mount namespace of its own whose first
    line mounts a tmpfs over /dev (exit 97 when it cannot): the machine's /dev is never
    touched. Skips the test without root, unshare, or such a namespace (``marker``: a word
    the script prints on stderr once it ran)."""
    import pytest

    unshare = tool("unshare")
    if os.geteuid() != 0 or unshare is None:
        pytest.skip("needs root and unshare (util-linux) for a mount namespace")
    proc = subprocess.run(
        [unshare, "--mount", "--propagation", "private", "sh", "-c", script, "sh", *command],
        capture_output=True, text=True, timeout=120, cwd=cwd, env=env, check=False,
    )  # fmt: skip
    if proc.returncode == 97 or marker not in proc.stderr:
        pytest.skip(f"no private /dev here: {proc.stderr.strip()[-300:]}")
    return proc


def sh(*argv: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    exe = tool(argv[0])
    if exe is None:
        import pytest

        pytest.skip(f"{argv[0]} not installed (see scripts/apt-packages.txt)")
    return subprocess.run([exe, *argv[1:]], capture_output=True, text=True, check=check)


def cli(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    return subprocess.run(
        [sys.executable, "-c", CLI_CODE, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO,
        env=env,
        check=False,
    )


@dataclass(frozen=True)
class Digests:
    """SHA-256 of a whole file, of its first MiB and of its last MiB."""

    whole: str
    first_mib: str
    last_mib: str

    @classmethod
    def of(cls, path: Path | str, kernel_owned: tuple[int, int] | None = None) -> Digests:
        """The digests of ``path``; bytes ``[start, end)`` of ``kernel_owned`` are read as zeros:
        the slots of an active swap area, which the kernel may write at any time (a host whose
        only swap is a test's swaps pages out onto it), so no digest can compare them."""
        data = bytearray(Path(path).read_bytes())
        if kernel_owned is not None:
            start, end = kernel_owned
            data[start:end] = bytes(end - start)
        whole = hashlib.sha256(data).hexdigest()
        first = hashlib.sha256(data[:MIB]).hexdigest()
        last = hashlib.sha256(data[max(0, len(data) - MIB) :]).hexdigest()
        return cls(whole, first, last)


def flush(dev: str) -> None:
    """Push anything the kernel holds for ``dev`` to its backing file before hashing it."""
    fd = os.open(dev, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def backing_of(dev: str) -> Path:
    return Path((Path("/sys/block") / Path(dev).name / "loop" / "backing_file").read_text().strip())


def mkfs_ext4(dev: str) -> None:
    # no lazy initialisation: a mounted ext4 must not write in the background while we hash
    sh("mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", dev)


def mount_frozen(stack: contextlib.ExitStack, dev: str, where: Path) -> None:
    """Mount ``dev`` at ``where`` (created) and freeze it; unfrozen and unmounted when
    ``stack`` closes."""
    where.mkdir()
    sh("mount", dev, str(where))
    stack.callback(subprocess.run, ["umount", str(where)], capture_output=True, check=False)
    # frozen, still mounted: a fresh ext4 mount writes its journal and superblock seconds
    # later even after sync (seen here: the device's digest changed within 7 s with nobody
    # writing), and the digests must see only what overprov writes
    sh("fsfreeze", "--freeze", str(where))
    stack.callback(
        subprocess.run, ["fsfreeze", "--unfreeze", str(where)], capture_output=True, check=False
    )


@dataclass
class Outcome:
    case: str
    command: str
    refused: bool
    exit_code: int
    before: Digests
    after: Digests
    message: str

    @property
    def unchanged(self) -> bool:
        return self.before == self.after


RESULTS: list[Outcome] = []


def record(case: str, command: str, proc: subprocess.CompletedProcess[str], before: Digests,
           after: Digests) -> Outcome:  # fmt: skip
    """The outcome of one case, kept for the matrix report (OVERPROV_SAFETY_REPORT)."""
    outcome = Outcome(
        case, command, proc.returncode != 0, proc.returncode, before, after,
        (proc.stderr.strip().splitlines() or [""])[-1],
    )  # fmt: skip
    RESULTS.append(outcome)
    return outcome


def write_report(path: str) -> None:
    """The matrix as JSON lines and a Markdown table (OVERPROV_SAFETY_REPORT=FILE.md)."""
    rows = [
        "| case | command | refused | exit | backing file unchanged | SHA-256 (whole) "
        "before → after | first MiB | last MiB |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for o in RESULTS:
        rows.append(
            f"| {o.case} | {o.command} | {'yes' if o.refused else 'no'} | {o.exit_code} | "
            f"{'yes' if o.unchanged else 'no'} | {o.before.whole[:12]} → {o.after.whole[:12]} | "
            f"{o.before.first_mib[:12]} → {o.after.first_mib[:12]} | "
            f"{o.before.last_mib[:12]} → {o.after.last_mib[:12]} |"
        )
    Path(path).write_text("\n".join(rows) + "\n")
    Path(path).with_suffix(".jsonl").write_text(
        "".join(json.dumps({**asdict(o), "unchanged": o.unchanged}) + "\n" for o in RESULTS)
    )


@contextlib.contextmanager
def running_profile(*args: str, out: Path) -> Iterator[subprocess.Popen[str]]:
    """``overprov profile ARGS --out OUT`` in the background; killed on leaving if still on."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    proc = subprocess.Popen(
        [sys.executable, "-c", CLI_CODE, "profile", *args, "--out", str(out)],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=sigint_default,  # interrupted_profile stops it with SIGINT
    )  # fmt: skip
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def wait_for_round(proc: subprocess.Popen[str], out: Path, label: str, timeout_s: float = 90):
    """Return once the profile has started round ``label`` (its fio job file exists)."""
    import time

    deadline = time.monotonic() + timeout_s
    while not (out / "fio" / f"{label}.fio").exists():
        assert proc.poll() is None, f"the profile ended before round {label}"
        assert time.monotonic() < deadline, f"no round {label} within {timeout_s} s"
        time.sleep(0.1)


def interrupted_profile(*args: str, out: Path) -> None:
    """Run ``overprov profile ARGS --out OUT`` and stop it with SIGINT (what Ctrl-C does)
    once its first phase has finished a round and started the next: a stored, interrupted
    run that ``--resume`` can continue."""
    import signal
    import time

    with running_profile(*args, out=out) as proc:
        wait_for_round(proc, out, "op00-r002")
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert json.loads((out / "results.json").read_text())["status"] == "interrupted"


@contextlib.contextmanager
def swapped_backing(dev: str, image: Path) -> Iterator[None]:
    """Detach loop device ``dev`` and attach ``image`` at the very same node, for the block;
    detach it afterwards (only while ``image`` is still what backs it). Skips the test when
    the node was taken by someone else in between (then nothing of theirs is touched)."""
    import pytest
    from loop_lock import attach_lock

    losetup = tool("losetup") or "losetup"
    with attach_lock():
        subprocess.run([losetup, "--detach", dev], capture_output=True, check=True)
        proc = subprocess.run([losetup, dev, str(image)], capture_output=True, check=False)
    if proc.returncode != 0:
        pytest.skip(f"{dev} was taken by another program between detach and attach")
    try:
        yield
    finally:
        if backing_of(dev) == image:
            subprocess.run([losetup, "--detach", dev], capture_output=True, check=False)


def slow_tool(name: str, folder: Path, started: Path) -> Path:
    """A folder holding a ``name`` that marks ``started``, sleeps 1 s, then runs the real
    one: put first on PATH, it holds a command in the middle of a step."""
    import pytest

    real = tool(name)
    if real is None:
        pytest.skip(f"{name} not installed (see scripts/apt-packages.txt)")
    folder.mkdir()
    script = folder / name
    script.write_text(f'#!/bin/sh\ntouch "{started}"\nsleep 1\nexec {real} "$@"\n')
    script.chmod(0o755)
    return folder


def started_cli(*args: str, path_first: Path | None = None) -> subprocess.Popen[str]:
    """``overprov ARGS`` in the background (SIGINT at its default), ``path_first`` first on
    PATH."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    if path_first is not None:
        env["PATH"] = f"{path_first}:{env.get('PATH', '')}"
    return subprocess.Popen(
        [sys.executable, "-c", CLI_CODE, *args], cwd=REPO, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=sigint_default,
    )  # fmt: skip


def wait_for_file(proc: subprocess.Popen[str], path: Path, timeout_s: float = 60) -> None:
    import time

    deadline = time.monotonic() + timeout_s
    while not path.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, f"no {path} within {timeout_s} s"
        time.sleep(0.02)


HOLDER = """
import fcntl, os, struct, sys, time
path, how = sys.argv[1], sys.argv[2]
if how == "writer":
    fd = os.open(path, os.O_WRONLY)
elif how == "exclusive":  # read-only, O_EXCL: as the kernel's own users (a ZFS pool) hold it
    fd = os.open(path, os.O_RDONLY | os.O_EXCL)
else:
    fd = os.open(path, os.O_RDONLY)  # read-only: the lock alone must be what is found
    if how == "lockf":
        fcntl.lockf(fd, fcntl.LOCK_SH)
    elif how == "flock":
        fcntl.flock(fd, fcntl.LOCK_SH)
    else:  # an open file description lock (what qemu takes on its images)
        fcntl.fcntl(fd, fcntl.F_OFD_SETLK, struct.pack("hhqqi4x", fcntl.F_RDLCK, 0, 0, 0, 0))
print("held", flush=True)
time.sleep(600)
"""


@contextlib.contextmanager
def held(path: Path | str, how: str) -> Iterator[int]:
    """Another process holding ``path`` (a file or a device) as ``how`` says: "writer" (open
    for writing, not O_EXCL, as a VM holds its disk), "exclusive" (a device open read-only
    with O_EXCL), "lockf", "flock", "ofd" (a lock on a read-only descriptor); yields its pid."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(path), how],
                            stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        yield proc.pid
    finally:
        proc.kill()
        proc.wait()
