"""The permission bits of a file overprov writes by replacing it (``outputs.write_atomic``: a
temporary file, then a rename): those of the file it replaces, else what ``open`` would give a
new file (0666 less the umask). A temporary file is made 0600, and results.json, qualify.json,
prediction.json and the phase CSVs kept that mode: unreadable to the group or the other users
that read a NAS's shares, unlike the log and fio's files written beside them."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path


def umask() -> int:
    """This process's umask (read from /proc, else set and put back at once)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split(":", 1)[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def mode_for(path: Path) -> int:
    """The mode a file written at ``path`` gets (module doc)."""
    with contextlib.suppress(OSError):
        st = path.stat()
        if stat.S_ISREG(st.st_mode):
            return stat.S_IMODE(st.st_mode) & 0o777  # no set-id or sticky bit
    return 0o666 & ~umask()
