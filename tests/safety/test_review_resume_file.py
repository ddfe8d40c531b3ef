"""`profile --resume` of a file target changed nothing before it knew the file was the run's
(docs/safety.md, "Profile: order of checks"). Opening a file target extended it to `--size`
before `same_as` compared its device and inode numbers and run marker, so a resume onto
another, shorter file put at the target's path (a disk image copied back, say) grew that file
and only then was refused; a target file deleted since was made afresh, left behind by the
refusal. Now a resumed run extends its files only once they are shown to be the run's, and a
file that is gone is not made again."""

from __future__ import annotations

import os

import pytest
from safety_helpers import MIB, Digests, cli, interrupted_profile, tool

pytestmark = [pytest.mark.root]


def test_resume_changes_no_file_that_is_not_the_runs(tmp_path):
    if tool("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    target = tmp_path / "t.img"  # made by the run (--size)
    out = tmp_path / "out"
    interrupted_profile(str(target), "--size", "16MiB", "--extra-op", "0,50",
                        "--round-seconds", "1", "--max-rounds", "10", "--fob-seconds", "0",
                        "--qd", "4", out=out)  # fmt: skip

    target.unlink()
    gone = cli("profile", "--resume", str(out))
    assert gone.returncode == 2, gone.stderr[-1000:]
    assert not target.exists(), "the resume made a new file at the target's path"
    assert "no longer exists" in gone.stderr

    target.write_bytes(os.urandom(8 * MIB))  # another file, shorter than --size
    before = (Digests.of(target), target.stat().st_size)
    other = cli("profile", "--resume", str(out))
    assert (Digests.of(target), target.stat().st_size) == before, "the resume changed it"
    assert other.returncode == 2, other.stderr[-1000:]
    assert "not the target of" in other.stderr
    # the new file may be given the deleted one's inode number (the file system reuses freed
    # inodes); then its missing run identifier is what tells it apart
    assert "inode" in other.stderr or "run identifier" in other.stderr, other.stderr[-1000:]
