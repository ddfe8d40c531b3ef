"""An output folder in /dev (`--out`, outputs.check_output_dir): `--json /dev/sdx` was refused
(test_review_json_output.py), but `profile sim:... --out /dev/sdx` made the folder /dev/sdx, a
`.lock` and a `profile.log` in it, and failed only at its first results.json: a folder left in
the kernel's device-node directory, in RAM, under a device's name. Refused now before anything
is made, as a file there is.

Run in a mount namespace of its own with a tmpfs over /dev (`unshare --mount`, private
propagation): the machine's /dev is never touched.
"""

from __future__ import annotations

import os
import sys

import pytest
from safety_helpers import REPO, in_private_dev

pytestmark = [pytest.mark.root]

PRIVATE_DEV = """
mount -t tmpfs -o size=1M tmpfs /dev || exit 97
mkdir /dev/disk
"$@" --out /dev/sdx
echo "new rc=$?" >&2
[ -e /dev/sdx ] && echo "sdx created" >&2 || echo "sdx absent" >&2
"$@" --out /dev/disk
echo "existing rc=$?" >&2
[ -z "$(ls -A /dev/disk)" ] && echo "disk empty" >&2 || echo "disk written" >&2
"""


def test_out_in_dev_is_refused_before_a_folder_is_made(tmp_path):
    command = [sys.executable, "-m", "overprov", "profile", "sim:consumer-tlc-sata@1GiB"]
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    proc = in_private_dev(PRIVATE_DEV, command, marker="new rc=", cwd=tmp_path, env=env)
    err = proc.stderr
    assert "sdx absent" in err and "new rc=2" in err, err[-1500:]
    assert "disk empty" in err and "existing rc=2" in err, err[-1500:]
    assert "makes and writes no folder of its own in /dev" in err, err[-1500:]


EMULATE_IN_DEV = """
mount -t tmpfs -o size=1M tmpfs /dev || exit 97
timeout 60 "$@" --dir /dev/emu
echo "emulate rc=$?" >&2
[ -e /dev/emu ] && echo "emu created" >&2 || echo "emu absent" >&2
"""


def test_emulate_dir_in_dev_is_refused_first(tmp_path):
    """`emulate --dir` holds the emulated drive's data file, its mount point and status: the
    same refusal, before anything else is looked at."""
    command = [sys.executable, "-m", "overprov", "emulate", "consumer-tlc-sata", "--size", "1G"]
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    proc = in_private_dev(EMULATE_IN_DEV, command, marker="emulate rc=", cwd=tmp_path, env=env)
    err = proc.stderr
    assert "emu absent" in err and "emulate rc=2" in err, err[-1500:]
    assert "no folder of its own in /dev (the kernel's device nodes" in err, err[-1500:]
    assert "(--dir /dev/emu)" in err, err[-1500:]
