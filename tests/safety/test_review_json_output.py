"""Where a document goes (`--json FILE`, outputs.write_atomic): the atomic write (a temporary
file beside it, then a rename) must not replace what is not a file of the user's, and a
character device is not a file.

1. `--json /dev/stdout` with the output redirected to a file: /dev/stdout (a link to
   /proc/self/fd/1) resolved to a regular file, so the document was written to a temporary
   file in /dev and renamed over the link — /dev/stdout became a regular file in /dev for
   every program on the machine, and the redirected file never got the document. Now a
   name in /dev is written in place.
2. `--json /dev/sdx` (a mistyped device name) created a regular file in /dev, where it
   shadows the device node the kernel would make. Refused now, as `profile` refuses it.
3. Any character device was written through: a SCSI generic node (`/dev/sg0`) takes what
   is written as commands, a watchdog starts counting down, `/dev/port` and MTD flash are
   written raw. Only /dev/null and terminals are written now. Shown with a /dev/zero node of
   its own in the test's folder (what is written there is dropped).

Cases 1 and 2 run in a mount namespace of their own with a tmpfs over /dev (`unshare
--mount`, private propagation): the machine's /dev is never touched.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest
from safety_helpers import REPO, in_private_dev

pytestmark = [pytest.mark.root]

PRIVATE_DEV = """
mount -t tmpfs -o size=1M tmpfs /dev || exit 97
ln -s /proc/self/fd/1 /dev/stdout
mknod -m 666 /dev/null c 1 3
"$@" --json /dev/stdout > "$OUT_FILE"
echo "stdout-json rc=$?" >&2
[ -L /dev/stdout ] && echo "link kept" >&2 || echo "link replaced" >&2
"$@" --json /dev/sdx
echo "typo rc=$?" >&2
[ -e /dev/sdx ] && echo "sdx created" >&2 || echo "sdx absent" >&2
"""


def _overprov(*args: str) -> list[str]:
    return [sys.executable, "-m", "overprov", *args]


def test_json_into_dev_neither_replaces_a_link_nor_creates_a_file(tmp_path):
    out_file = tmp_path / "out.txt"
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"), OUT_FILE=str(out_file))
    proc = in_private_dev(
        PRIVATE_DEV, _overprov("capacity", "1.92TB"), marker="stdout-json rc=", cwd=REPO, env=env
    )
    assert "link kept" in proc.stderr, proc.stderr[-1500:]
    assert "stdout-json rc=0" in proc.stderr, proc.stderr[-1500:]
    assert '"schema": "overprov.capacity/' in out_file.read_text()
    assert "sdx absent" in proc.stderr, proc.stderr[-1500:]
    assert "typo rc=2" in proc.stderr and "does not create files in /dev" in proc.stderr


def test_json_is_not_written_into_a_character_device_that_is_no_stream(tmp_path):
    zero = tmp_path / "zero"  # what /dev/zero is: writes to it are dropped
    os.mknod(zero, 0o666 | stat.S_IFCHR, os.makedev(1, 5))
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    proc = subprocess.run(
        _overprov("capacity", "1.92TB", "--json", str(zero)),
        capture_output=True, text=True, cwd=REPO, env=env, check=False,
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr[-1000:]
    assert "a character device (1:5) that is neither /dev/null nor a terminal" in proc.stderr
    assert stat.S_ISCHR(zero.stat().st_mode)
