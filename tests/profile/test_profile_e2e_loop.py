"""Profiles of loop devices with real fio, and the safety rules (root, losetup)."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import jsonschema
import pytest
from ctrl_c import sigint_default
from overprov import blockdev
from overprov import fio as fiomod
from overprov import results as res
from overprov.errors import UnsafeDeviceError
from profile_helpers import REPO, cli_argv, load_results, run_cli

pytestmark = [pytest.mark.root, pytest.mark.fio]

MIB = 2**20
SCHEMA = json.loads(res.SCHEMA_PATH.read_text())
QUICK = ["--extra-op", "0", "--round-seconds", "1", "--max-rounds", "10", "--fob-seconds", "0",
         "--qd", "4", "--min-iops", "1e12", "--no-report"]  # fmt: skip
"""One phase that ends (skipped) after 3 one-second rounds: enough to prove a run went ahead."""


FIO_WRITING = 64
"""Writes a loop device must finish before fio counts as under way (the profiler's own single
write, its run marker, is long done by then)."""


def writes_done(dev: str) -> int:
    """Write requests ``dev`` has completed (/sys/block/NAME/stat, field 5)."""
    return int((Path("/sys/block") / Path(dev).name / "stat").read_text().split()[4])


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def signatures(dev: str) -> str:
    return subprocess.run(
        ["wipefs", "--no-act", dev], capture_output=True, text=True, check=False
    ).stdout


@pytest.fixture
def ext4_loop(loop_device):
    dev = loop_device(size_bytes=32 * MIB)
    subprocess.run(["mkfs.ext4", "-q", "-F", dev], check=True, capture_output=True)
    return dev


def test_profile_a_loop_device_interrupted_by_ctrl_c_then_resumed(tmp_path, loop_device, need_fio):
    dev = loop_device(size_bytes=32 * MIB)
    backing = Path(loop_device.backing_file(dev))
    out = tmp_path / "out"
    # resume mechanics: no phase precondition, so rounds count from the first
    args = [dev, "--extra-op", "0,50", "--round-seconds", "1", "--max-rounds", "10",
            "--fob-seconds", "1", "--qd", "8", "--allow-hdd", "--out", str(out),
            "--min-phase-writes", "0", "--i-understand-this-destroys-data", dev]  # fmt: skip
    proc = subprocess.Popen(cli_argv(*args), cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=sigint_default)  # fmt: skip
    try:
        deadline = time.monotonic() + 90
        busy_checked = False
        watched: tuple[int, int] | None = None  # (round, device writes when its job appeared)
        writing = False
        while time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
            try:
                doc = load_results(out)
            except (FileNotFoundError, json.JSONDecodeError):
                continue
            if not busy_checked and doc["steps"]["identify"]["status"] == "done":
                # the profiler holds the device exclusively: nobody else can claim it
                with pytest.raises(UnsafeDeviceError, match="busy"):
                    blockdev.open_exclusive(dev)
                busy_checked = True
            # interrupt a round of the second phase while its fio writes (not before fio has
            # started, nor between rounds, nor in the phase's last round): the condition is
            # the device's own count of finished writes rising after the round's job appeared
            n = len(doc["phases"][1]["rounds"]) + 1
            if not 2 <= n <= 4 or not (out / "fio" / f"op50-r{n:03d}.fio").exists():
                continue
            if watched is None or watched[0] != n:
                watched = (n, writes_done(dev))
            elif (
                writes_done(dev) >= watched[1] + FIO_WRITING
                and len(load_results(out)["phases"][1]["rounds"]) == n - 1
            ):
                writing = True
                break
        assert proc.poll() is None, "the profile finished before it could be interrupted"
        assert writing, "no round of the second phase was seen writing within 90 s"
        proc.send_signal(signal.SIGINT)  # what Ctrl-C does to the profiler
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert busy_checked
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr and f"--resume {out}" in stderr
    stopped = load_results(out)
    assert stopped["status"] == "interrupted"
    assert stopped["interruptions"][0]["during"].startswith("op50-r")
    done = len(stopped["phases"][1]["rounds"])
    # fio was stopped cleanly and its partial results were kept
    partial = out / "fio" / f"op50-r{done + 1:03d}.json"
    assert partial.exists()
    assert fiomod.parse_json_output(partial.read_text())["jobs"][0]["write"]["io_bytes"] >= 0

    # a loop device has no serial or WWN: resuming asks for the confirmation again
    unconfirmed = run_cli("--resume", str(out), "--allow-hdd")
    assert unconfirmed.returncode == 1 and "confirm again" in unconfirmed.stderr
    assert f"--resume: {dev} reports no serial number and no WWN" in unconfirmed.stderr
    resumed = run_cli("--resume", str(out), "--allow-hdd", "--no-report",
                      "--i-understand-this-destroys-data", dev)  # fmt: skip
    assert resumed.returncode in (0, 3), resumed.stderr
    doc = load_results(out)
    jsonschema.validate(doc, SCHEMA)
    assert doc["status"] == "complete"
    assert doc["phases"][0] == stopped["phases"][0]
    assert doc["phases"][1]["rounds"][:done] == stopped["phases"][1]["rounds"]
    assert len(doc["phases"][1]["rounds"]) == 10
    assert list((out / "fio" / "interrupted").glob(f"*-op50-r{done + 1:03d}.json"))

    member = doc["target"]["members"][0]
    assert doc["target"]["kind"] == "block" and member["path"] == os.path.realpath(dev)
    assert member["size_bytes"] == 32 * MIB and member["discard_max_bytes"] > 0
    assert "BLKDISCARD" in doc["steps"]["purge"]["detail"]
    assert "BLKDISCARD" in doc["phases"][1]["discard"]
    job = (out / "fio" / "op50-r001.fio").read_text()
    assert f"filename={os.path.realpath(dev)}" in job and f"size={16 * MIB - 4096}\n" in job
    # OP 50%: the device discarded its tail, so the loop's backing file has a hole there
    assert backing.stat().st_blocks * 512 <= 16 * MIB + 2 * MIB


def test_ext4_signature_is_refused_with_a_clear_message(tmp_path, ext4_loop, need_fio):
    backing = Path(blockdev_backing(ext4_loop))
    before = sha256(backing)
    proc = run_cli(ext4_loop, "--allow-hdd", *QUICK, "--out", str(tmp_path / "out"))
    assert proc.returncode == 1  # refused
    assert f"refusing to write to {os.path.realpath(ext4_loop)}" in proc.stderr
    assert "ext4 signature" in proc.stderr
    assert sha256(backing) == before  # not a byte written
    assert "ext4" in signatures(ext4_loop)


def test_rotational_is_refused_without_allow_hdd(tmp_path, loop_device, need_fio):
    dev = loop_device(size_bytes=16 * MIB, rotational=True)  # as many kernels' loop devices
    proc = run_cli(dev, *QUICK, "--out", str(tmp_path / "out"))
    assert proc.returncode == 1 and "is rotational" in proc.stderr


def test_exact_confirmation_lets_it_through(tmp_path, ext4_loop, loop_device, need_fio):
    other = loop_device(size_bytes=16 * MIB)
    wrong = run_cli(ext4_loop, "--allow-hdd", "--i-understand-this-destroys-data", other,
                    *QUICK, "--out", str(tmp_path / "wrong"))  # fmt: skip
    assert wrong.returncode == 1 and f"the confirmation names {other}" in wrong.stderr
    assert "ext4" in signatures(ext4_loop)

    out = tmp_path / "out"
    ok = run_cli(ext4_loop, "--allow-hdd", "--i-understand-this-destroys-data", ext4_loop,
                 *QUICK, "--out", str(out))  # fmt: skip
    assert ok.returncode == 3, ok.stderr  # its phase is skipped: no answer
    doc = load_results(out)
    assert doc["status"] == "complete" and doc["phases"][0]["status"] == "skipped"
    assert "ext4" not in signatures(ext4_loop)  # the profile overwrote it, as confirmed


def test_mounted_device_is_refused_even_when_confirmed(tmp_path, ext4_loop, need_fio):
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    subprocess.run(["mount", ext4_loop, str(mnt)], check=True, capture_output=True)
    try:
        (mnt / "keep.txt").write_text("precious")
        proc = run_cli(ext4_loop, "--allow-hdd", "--i-understand-this-destroys-data", ext4_loop,
                       *QUICK, "--out", str(tmp_path / "out"))  # fmt: skip
        assert proc.returncode == 1  # refused
        assert f"mounted at {mnt}" in proc.stderr and "refused even with confirmation" in (
            proc.stderr
        )
        assert (mnt / "keep.txt").read_text() == "precious"
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True, check=False)


def blockdev_backing(dev: str) -> str:
    return (Path("/sys/block") / Path(dev).name / "loop" / "backing_file").read_text().strip()
