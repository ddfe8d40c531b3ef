"""userpass2: a profile of a loop device over a regular file (no FTL of its own) recommended
"OP 20%" (78k IOPS, steady) over 0% (83k, not steady): OP cannot matter there. The identify
step and the summary now warn, and the recommendation says that the smaller level met the
target but was not steady."""

from __future__ import annotations

import os
import stat

import pytest
from overprov import results as res
from overprov.profile import no_ftl
from profile_helpers import run_cli

LOOP = {"name": "/dev/loop9", "kind": "block", "fingerprint": {"backing_file": "/tmp/x.img"}}
DRIVE = {"name": "/dev/sdz", "kind": "block", "fingerprint": {"backing_file": None}}


def test_a_loop_device_over_a_file_is_warned_of():
    warning = no_ftl.op_warning([LOOP])
    assert warning.startswith("WARNING: /dev/loop9 (a loop device over the file /tmp/x.img)")
    assert "no flash translation layer of its own" in warning
    assert no_ftl.op_warning([DRIVE]) == ""
    assert no_ftl.op_warning([{"name": "x.img", "kind": "file"}]) == ""


def _block_device() -> str | None:
    """A block device node of this machine, if it has one of these."""
    for name in ("vda", "sda", "nvme0n1", "loop0"):
        try:
            if stat.S_ISBLK(os.stat(f"/dev/{name}").st_mode):
                return f"/dev/{name}"
        except OSError:
            continue
    return None


def test_a_loop_device_over_a_block_device_is_not_warned_of(tmp_path):
    """review8: a loop over /dev/sdb read "a loop device over the file /dev/sdb has no FTL";
    the drive below it has one. A block device node here, or a /dev path no longer here."""
    paths = [p for p in ("/dev/sdq-gone", _block_device()) if p]
    for path in paths:
        member = {**LOOP, "fingerprint": {"backing_file": path}}
        assert no_ftl.loop_backing_file(member) is None
        assert no_ftl.op_warning([member]) == "" and no_ftl.described([member]) == ""
    image = tmp_path / "x.img"
    image.write_bytes(b"")
    on_file = {**LOOP, "fingerprint": {"backing_file": str(image)}}
    assert no_ftl.loop_backing_file(on_file) == str(image)


def _phase(op: float, steady: bool, iops: float) -> dict:
    return {
        "extra_op_percent": op,
        "steady": steady,
        "steady_iops": iops if steady else None,
        "window_iops_mean": iops,
    }


def test_a_smaller_level_that_met_the_target_unsteady_is_named():
    rec = res.recommend([_phase(0, False, 83_000), _phase(20, True, 78_000)], 5000)
    assert rec["extra_op_percent"] == 20  # the rule is unchanged: only steady phases count
    assert (
        "OP 0% met the target too, 83,000 IOPS in its last window (no slower than the "
        "recommended level), but was not steady" in rec["reason"]
    )
    assert "rerun with more --max-rounds" in rec["reason"]


def test_no_note_when_the_smaller_level_missed_the_target():
    rec = res.recommend([_phase(0, False, 4000), _phase(20, True, 78_000)], 5000)
    assert rec["reason"] == "the smallest steady phase meeting 5,000 IOPS (78,000 IOPS)"


@pytest.mark.root
@pytest.mark.fio
def test_a_profile_of_a_loop_device_warns_in_identify_and_the_summary(
    tmp_path, loop_device, need_fio
):
    dev = loop_device(size_bytes=16 * 2**20)
    out = tmp_path / "out"
    proc = run_cli(dev, "--extra-op", "0", "--round-seconds", "1", "--max-rounds", "10",
                   "--fob-seconds", "0", "--qd", "4", "--min-iops", "1e12", "--no-report",
                   "--allow-hdd", "--i-understand-this-destroys-data", dev,
                   "--out", str(out))  # fmt: skip
    assert proc.returncode in (0, 3), proc.stderr
    backing = loop_device.backing_file(dev)
    said = f"WARNING: {dev} (a loop device over the file {backing}) has no flash translation"
    log = (out / "profile.log").read_text()
    assert said in log
    assert log.index(said) < log.index("estimate")  # at identify, before anything is written
    assert said in proc.stdout + proc.stderr
