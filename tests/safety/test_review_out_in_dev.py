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
import subprocess
import sys

import pytest
from safety_helpers import REPO, tool

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
    unshare = tool("unshare")
    if os.geteuid() != 0 or unshare is None:
        pytest.skip("needs root and unshare (util-linux) for a mount namespace")
    command = [sys.executable, "-m", "overprov", "profile", "sim:consumer-tlc-sata@1GiB"]
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    proc = subprocess.run(
        [unshare, "--mount", "--propagation", "private", "sh", "-c", PRIVATE_DEV, "sh",
         *command],
        capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env, check=False,
    )  # fmt: skip
    if proc.returncode == 97 or "new rc=" not in proc.stderr:
        pytest.skip(f"no private /dev here: {proc.stderr.strip()[-300:]}")
    err = proc.stderr
    assert "sdx absent" in err and "new rc=2" in err, err[-1500:]
    assert "does not create folders in /dev" in err, err[-1500:]
    assert "disk empty" in err and "existing rc=2" in err, err[-1500:]
    assert "writes no folder of results in /dev" in err, err[-1500:]
