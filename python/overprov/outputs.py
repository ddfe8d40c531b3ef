"""Output files and folders: checked before any work starts, written in one place.

``--json FILE`` takes ``-`` for stdout in every command. A path is checked up front — its
folder exists and is writable, it is not a folder where a file is wanted (nor a file where a
folder is wanted), it is not one of the command's inputs (:func:`refuse_aliasing`: the same
file by name, symlink or hard link) — so a long run never ends by losing its results to a typo,
and no command overwrites what it reads. Every document is written atomically
(:func:`write_atomic`: a temporary file beside it, then a rename), so a crash or a full disk
leaves the old file or the new one, never half of one; a write that fails names the file. An
output folder is held by one run at a time (:func:`hold_out_dir`).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import errno
import fcntl
import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from overprov import file_mode
from overprov.errors import OutputError, RunError
from overprov.run_folder import REPORT_PAGE as REPORT_PAGE
from overprov.run_folder import RUN_DOCUMENTS as RUN_DOCUMENTS  # re-exported: one home
from overprov.run_folder import check_no_other_run as check_no_other_run
from overprov.run_folder import check_not_a_run_document

STDOUT = "-"


def check_output_file(path: str | os.PathLike[str] | None, option: str) -> None:
    """Refuse (OutputError) a file that cannot be written; ``-`` (stdout) and None pass."""
    if path is None or str(path) == STDOUT:
        return
    p = Path(path)
    if p.is_dir():
        raise OutputError(f"a folder where a file is wanted ({option} {p})")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.exists():
        raise OutputError(f"no folder {parent} to write it in ({option} {p})")
    if not parent.is_dir():
        raise OutputError(f"{parent} is a file, not a folder ({option} {p})")
    if p.exists() and not os.access(p, os.W_OK):
        raise OutputError(f"not writable ({option} {p})")
    if p.exists() and stat.S_ISBLK(p.stat().st_mode):
        raise OutputError(f"a block device where a file is wanted ({option} {p})")
    try:
        _written_in_place(p)
    except RunError as exc:
        raise OutputError(f"{exc} ({option} {p})") from None
    if not p.exists() and not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"folder {parent} is not writable ({option} {p})")


# Character devices a document may be written through: /dev/null, and terminals (tty, the
# console, pseudo-terminals: majors 4, 5, 136-143, devices.txt of the kernel's documentation).
_TEXT_DEVICE_MAJORS = {4, 5, *range(136, 144)}


def _on_dev(folder: Path) -> bool:
    """Whether the existing ``folder`` is /dev or one of its folders on /dev's file system (not
    /dev/shm, a tmpfs)."""
    real = os.path.realpath(folder)
    if real != "/dev" and not real.startswith("/dev/"):
        return False
    try:
        return os.stat(real).st_dev == os.stat("/dev").st_dev
    except OSError:
        return False


def _in_dev(path: Path) -> bool:
    """Whether ``path``'s folder is in /dev (:func:`_on_dev`)."""
    return _on_dev(path.parent if str(path.parent) else Path("."))


def _written_in_place(path: Path) -> bool:
    """Whether ``path`` is written in place rather than replaced (raises RunError for what is
    written neither way). In place: a FIFO, /dev/null or a terminal, and a name in /dev such
    as /dev/stdout (a link to this process's output: a file, a pipe); replacing them would
    put a regular file where the device, pipe or link was. Refused: a block device or any
    other character device (a SCSI generic node takes what is written as commands, a
    watchdog starts counting, /dev/port and MTD flash are written raw), and a name in /dev
    that does not exist (a mistyped device: the file would shadow it, in RAM)."""
    try:
        st = path.stat()
    except OSError:
        if _in_dev(path):
            raise RunError(
                f"will not create {path}: overprov does not create files in /dev (the "
                "kernel's device nodes, in RAM); '-' is stdout"
            ) from None
        return False
    if stat.S_ISFIFO(st.st_mode):
        return True
    if stat.S_ISCHR(st.st_mode):
        major, minor = os.major(st.st_rdev), os.minor(st.st_rdev)
        if (major, minor) == (1, 3) or major in _TEXT_DEVICE_MAJORS:
            return True
        raise RunError(
            f"will not write over {path}: a character device ({major}:{minor}) that is "
            "neither /dev/null nor a terminal; '-' is stdout"
        )
    if not stat.S_ISREG(st.st_mode):
        raise RunError(f"will not write over {path}: not a regular file, a device or a pipe")
    return _in_dev(path)


_OURS = re.compile(rb'"(schema)"\s*:\s*"overprov\.|"format"\s*:\s*"overprov-')


def check_json_output(path: str | os.PathLike[str] | None, option: str = "--json") -> None:
    """As :func:`check_output_file`, and an existing file is overwritten only when it is an
    overprov JSON document (or empty): ``smart --json disk.json`` must not replace the
    smartctl file the user meant as input."""
    check_output_file(path, option)
    if path is None or str(path) == STDOUT or not Path(path).is_file():
        return
    check_not_a_run_document(Path(path), option)
    with Path(path).open("rb") as fh:
        head = fh.read(4096)
    if head.strip() and not _OURS.search(head):
        raise OutputError(
            f"will not overwrite a file that is not an overprov --json document (a smartctl "
            f"file, a run's measurement.json or twin.toml are not); {option} takes the output "
            f"file, '-' for stdout ({option} {path})"
        )


def nearest_existing(path: Path) -> Path:
    """``path`` if it exists, else its nearest existing ancestor (what ``mkdir -p`` would
    create the rest under)."""
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def check_not_in_dev(path: str | os.PathLike[str], option: str) -> None:
    """Refuse (OutputError) a folder that is or would be in /dev (the kernel's device nodes,
    in RAM: a run's files there shadow device names, as :func:`_written_in_place` refuses for
    a file)."""
    p = Path(path)
    existing = nearest_existing(p)
    if existing.is_dir() and _on_dev(existing):
        raise OutputError(
            f"overprov makes and writes no folder of its own in /dev (the kernel's device "
            f"nodes, in RAM) ({option} {p})"
        )


#: What the header of an output folder's page says ("Generated ... UTC by overprov 0.1").
_OUR_PAGE = re.compile(rb"Generated [^<>]{0,40} UTC by overprov \d")


def check_report_page(folder: str | os.PathLike[str] | None, option: str = "--out") -> None:
    """Refuse (OutputError) an output folder whose report.html overprov did not write (another
    tool's report was replaced without a word, as ``--json`` refuses a file that is not an
    overprov document). A page of overprov's, or an empty file, is written again."""
    if folder is None:
        return
    page = Path(folder) / REPORT_PAGE
    if not page.is_file():
        return
    with page.open("rb") as fh:
        head = fh.read(1 << 16)
    if head.strip() and not _OUR_PAGE.search(head):
        raise OutputError(
            f"{page} is not a page overprov wrote, and the command would replace it with its "
            f"own {REPORT_PAGE}; choose another folder ({option} {folder})"
        )


def check_output_dir(path: str | os.PathLike[str] | None, option: str) -> None:
    """Refuse (OutputError) a folder that cannot be created or written, or that is or would be
    in /dev (:func:`check_not_in_dev`); None passes."""
    if path is None:
        return
    p = Path(path)
    check_not_in_dev(p, option)
    check_no_other_can_move(p, option)
    if p.exists():
        if not p.is_dir():
            raise OutputError(f"a file where a folder is wanted ({option} {p})")
        if not os.access(p, os.W_OK | os.X_OK):
            raise OutputError(f"folder not writable ({option} {p})")
        check_only_root_writes(p, option)
        return
    # the nearest existing ancestor must be a writable folder (mkdir -p creates the rest)
    parent = nearest_existing(p)
    if not parent.is_dir():
        raise OutputError(f"{parent} is a file, so {p} cannot be created ({option} {p})")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"cannot create it: {parent} is not writable ({option} {p})")


@contextlib.contextmanager
def naming(path: str | os.PathLike[str]) -> Iterator[None]:
    """An OSError raised inside names ``path`` when it names no file itself: a write that
    fails (``No space left on device``, an I/O error) says which file it was writing."""
    try:
        yield
    except OSError as exc:
        if exc.filename is None:
            exc.filename = str(path)
        raise


def json_text(doc: Any) -> str:
    """A document as the commands write it: indented, UTF-8 as is, a final newline."""
    return json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def write_json(doc: Any, path: str | os.PathLike[str]) -> None:
    """Write a document to ``path`` (atomically), or to stdout for ``-``."""
    text = json_text(doc)
    if str(path) == STDOUT:
        write_stdout(text)
    else:
        write_atomic(Path(path), text)


def write_stdout(text: str) -> None:
    """``text`` on stdout, every byte or BrokenPipeError. Python's own ``sys.stdout.write``
    drops the rest of a large write when the reader leaves part-way (``| head``): the write
    system call returns short with SIGPIPE ignored, and no error follows — so the document is
    written with ``os.write`` until done, and the next short write raises EPIPE."""
    sys.stdout.flush()
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError):  # a stream without a descriptor (captured, in-process)
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    data = memoryview(text.encode("utf-8"))
    while data:
        data = data[os.write(fd, data) :]


def write_atomic(path: Path, text: str) -> None:
    """Write a file so a crash or a full disk leaves either the old or the new content: a
    temporary file in the same folder, fsync, ``os.replace``, fsync the folder. A failure
    (no space, no permission) raises RunError naming ``path``; the temporary file is removed.

    A stream that already exists there (``/dev/null``, a terminal, a FIFO, ``/dev/stdout``)
    is written in place: replacing it would put a regular file where the device, pipe or
    link was. Anything else that is not a regular file (a block device, another character
    device) and a new name in /dev are refused (:func:`_written_in_place`)."""
    path = Path(path)
    if _written_in_place(path):
        try:
            with path.open("w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            raise RunError(f"cannot write {path}: {exc.strerror or exc}") from None
        return
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        os.fchmod(fd, file_mode.mode_for(path))  # not mkstemp's 0600 (file_mode.py)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        tmp = None
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError as exc:
        raise RunError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


OUTPUT_OPTIONS = {"json": "--json", "series": "--series", "out": "--out"}
"""The attributes of a command's parsed arguments that name what it writes (``out`` a folder,
the others files); every other path-like value naming an existing file is an input."""

_SKIPPED = {"func", "command", "command_line"}


def _paths(value: Any) -> Iterator[str]:
    if isinstance(value, str | os.PathLike):
        yield os.fspath(value)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _paths(item)


def _same(a: str, b: str) -> bool:
    """Whether two paths are one file: by resolved name (symlinks) or by inode (hard links)."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        sa, sb = os.stat(a), os.stat(b)
    except OSError:
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def input_files(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(option, path) of every value of ``args`` that names an existing file (or device)
    and is not an output: what a command reads."""
    found = []
    for name, value in vars(args).items():
        if name in OUTPUT_OPTIONS or name in _SKIPPED or name.startswith("_"):
            continue
        for text in _paths(value):
            if text and text != STDOUT and os.path.exists(text) and not os.path.isdir(text):
                found.append(("--" + name.replace("_", "-"), text))
    return found


def input_folders(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(option, path) of every value of ``args`` that names an existing folder and is not an
    output: the folders a command reads (``calibrate --from``, ``report DIR``, ``--resume``)."""
    found = []
    for name, value in vars(args).items():
        if name in OUTPUT_OPTIONS or name in _SKIPPED or name.startswith("_"):
            continue
        for text in _paths(value):
            if text and text != STDOUT and os.path.isdir(text):
                found.append(("--" + name.replace("_", "-"), text))
    return found


#: The document kinds a command writes where not only its own name (any other is not replaced).
OWN_DOCUMENTS = {
    "smart": {"smart", "smart-fleet", "smart-nvme"},
    "smart-nvme": {"smart", "smart-fleet", "smart-nvme"},
}

_SCHEMA_KIND = re.compile(rb'"schema"\s*:\s*"overprov\.([a-z-]+)/')


def _document_kind(path: str) -> str | None:
    """The command whose JSON document ``path`` is (``"schema": "overprov.<command>/N"``)."""
    try:
        with open(path, "rb") as fh:
            found = _SCHEMA_KIND.search(fh.read(4096))
    except OSError:
        return None
    return found.group(1).decode() if found else None


def refuse_aliasing(args: argparse.Namespace) -> None:
    """Refuse (OutputError) an output that is one of the command's inputs — by name, through a
    symlink or a hard link — before any work: ``report in.json --json in.json`` would replace
    the input with the report. A folder read is one input: an output file that would replace
    another command's document in it is refused too (``calibrate --from prof/ --json
    prof/results.json`` replaced the profile's results with the prediction); the command's own
    document there (a report's JSON, written again) is not. Nor does an output replace another
    command's document anywhere (``status DEV --json sim.json`` replaced a simulation's
    results with the device's status): only a document of the command's own kind
    (:data:`OWN_DOCUMENTS`) is written again."""
    inputs = input_files(args)
    folders = input_folders(args)
    for attr, option in OUTPUT_OPTIONS.items():
        for out in _paths(getattr(args, attr, None)):
            if out == STDOUT or not out:
                continue
            for in_option, path in inputs:
                if _same(out, path):
                    what = "input" if in_option == "--inputs" else f"input ({in_option})"
                    raise OutputError(
                        f"{option} {out} is the {what} {path}: it would be overwritten; "
                        "write the output elsewhere"
                    )
            kind = _document_kind(out) if os.path.isfile(out) else None
            command = getattr(args, "command", None)
            if kind is None or kind in OWN_DOCUMENTS.get(command, {command}):
                continue
            real = os.path.realpath(out)
            for in_option, folder in folders:
                if real.startswith(os.path.realpath(folder).rstrip("/") + "/"):
                    what = "input" if in_option == "--inputs" else f"input ({in_option})"
                    raise OutputError(
                        f"{option} {out} is the overprov.{kind} document of the {what} folder "
                        f"{folder}: it would be overwritten; write the output elsewhere"
                    )
            raise OutputError(
                f"{option} {out} is an overprov.{kind} document, another command's results: "
                "it would be overwritten; write the output elsewhere (or remove that file)"
            )


_HELD: dict[str, int] = {}
_CREATED: set[str] = set()


@atexit.register
def release_all() -> None:
    """Let go of every folder this process holds (``cli.main`` calls it when a command
    ends; at exit too). A run refused or failed before it wrote anything leaves no folder
    behind: a folder :func:`hold_out_dir` created that holds only its ``.lock`` is removed."""
    for key in list(_HELD):
        release_out_dir(key)
    while _CREATED:
        key = _CREATED.pop()
        with contextlib.suppress(OSError):
            if os.listdir(key) == [".lock"]:
                os.unlink(os.path.join(key, ".lock"))
                os.rmdir(key)


def open_own_file(path: Path, flags: int) -> int:
    """Open (creating it) a file a run keeps in its folder (``.lock``, a log) for writing:
    never through a symbolic link or into a file with other names (a hard link), which would
    make the truncation or the append land in another file (``--out`` a folder someone else
    can write to: ``.lock`` -> /etc/shadow). Raises OSError naming the file."""
    try:
        fd = os.open(path, flags | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        if exc.errno != errno.ELOOP:
            raise
        raise OSError(exc.errno, "a symbolic link; overprov writes only a file of its own there",
                      str(path)) from None  # fmt: skip
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1:
        os.close(fd)
        why = "not a regular file" if not stat.S_ISREG(st.st_mode) else "a file of several names"
        raise OSError(errno.EEXIST, f"{why}; overprov writes only a file of its own there",
                      str(path))  # fmt: skip
    return fd


def check_only_root_writes(folder: Path, option: str = "--out") -> None:
    """Run as root, refuse (OutputError) an existing output folder that another user can
    write to: owned by another user, or writable by its group or by everyone. A run writes
    many files there (figures, CSVs, fio's files and logs) by name, and a link that user puts
    in place of one of them would have root overwrite whatever it points to."""
    if os.geteuid() != 0:
        return
    st = os.stat(folder)
    if st.st_uid != 0:
        who = f"owned by uid {st.st_uid}"
    elif st.st_mode & 0o022:
        who = "writable by " + ("everyone" if st.st_mode & 0o002 else "its group")
    else:
        return
    raise OutputError(
        f"{folder} is {who}: run as root, overprov would write its files there by name, and a "
        "link another user put in place of one of them would make root overwrite what it "
        f"points to; choose a folder only root can write to, or a new one ({option} {folder})"
    )


def check_no_other_can_move(folder: Path, option: str = "--out") -> None:
    """Run as root, refuse (OutputError) an output folder (existing or to be made) inside a
    folder everyone may write to without the sticky bit (/tmp has it): any user could rename
    the output folder away and put one of theirs, with links, in its place, which
    :func:`check_only_root_writes` looks at only before. Every folder above it counts."""
    if os.geteuid() != 0:
        return
    named = Path(os.path.abspath(folder))
    real = Path(os.path.realpath(nearest_existing(named)))
    above = [*named.parents, *(real.parents if named.exists() else [real, *real.parents])]
    for up in dict.fromkeys(above):  # as named (a link's folder too) and as resolved
        try:
            mode = os.stat(up).st_mode
        except FileNotFoundError:  # a folder the run will make
            continue
        if mode & 0o002 and not mode & stat.S_ISVTX:
            raise OutputError(
                f"{up} is writable by everyone without the sticky bit: run as root, any user "
                f"could move {folder} away and put a folder of theirs in its place, whose links "
                f"root would then write through; choose a folder elsewhere ({option} {folder})"
            )


def append_own(path: Path) -> TextIO:
    """A run's log in its folder, opened to append (:func:`open_own_file`)."""
    return os.fdopen(open_own_file(path, os.O_WRONLY | os.O_APPEND), "a", encoding="utf-8")


def hold_out_dir(path: str | os.PathLike[str], command: str) -> None:
    """Create the output folder and hold it for this process (an exclusive ``flock`` on its
    ``.lock``, released at exit). A second run into the same folder is refused, naming the
    holder (its pid and command line, which the lock file records)."""
    p = Path(path)
    key = os.path.realpath(p)
    if key in _HELD:
        return
    try:
        check_no_other_can_move(p)
        if not p.exists():
            p.mkdir(parents=True)
            _CREATED.add(key)
        else:
            check_only_root_writes(p)
        fd = open_own_file(p / ".lock", os.O_RDWR)
    except OSError as exc:
        raise OutputError(
            f"cannot use {exc.filename or p}: {exc.strerror or exc} (--out {p})"
        ) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        holder = os.pread(fd, 1000, 0).decode("utf-8", "replace").strip() or "another process"
        os.close(fd)
        if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
            raise OutputError(f"cannot lock {p / '.lock'}: {exc.strerror}") from None
        raise OutputError(
            f"{p} is in use by another overprov run ({holder}); wait for it or choose another --out"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"pid {os.getpid()}: {command}\n".encode(), 0)
    _HELD[key] = fd


def discard_created_out_dir(path: str | os.PathLike[str], written: Iterable[str]) -> bool:
    """Remove a run's output folder that did not exist before the command (the caller knows)
    when it holds nothing but the files ``written`` that run wrote and its ``.lock``: a run
    that failed before it opened its target then leaves no folder in the way of the corrected
    command. Anything else in it keeps the folder, untouched. True if it was removed."""
    p = Path(path)
    release_out_dir(p)
    names = {".lock", *written}
    try:
        entries = list(os.scandir(p))
        if not entries or any(e.name not in names or not e.is_file(follow_symlinks=False)
                              for e in entries):  # fmt: skip
            return False
        for e in entries:
            os.unlink(e.path)
        os.rmdir(p)
    except OSError:
        return False
    return True


def release_out_dir(path: str | os.PathLike[str]) -> None:
    """Let go of a folder held by :func:`hold_out_dir` (a run that ends early)."""
    fd = _HELD.pop(os.path.realpath(Path(path)), None)
    if fd is not None:
        os.close(fd)


def command_text(args: argparse.Namespace) -> str:
    """The command line of this run, as the lock file records it."""
    return " ".join(getattr(args, "command_line", None) or ["overprov", *sys.argv[1:]])


def document(command: str, body: dict[str, Any], major: int = 1) -> dict[str, Any]:
    """A command's JSON document: ``schema`` and ``overprov_version`` first, then ``body``."""
    from overprov import __version__

    return {"schema": f"overprov.{command}/{major}", "overprov_version": __version__, **body}


def percent_names(value: Any) -> Any:
    """Fractions of C named ``*extra_op`` or ``native_op`` → ``*_percent`` in percent."""
    if isinstance(value, dict):
        out = {}
        for key, v in value.items():
            if (key.endswith("extra_op") or key == "native_op") and isinstance(v, int | float):
                out[f"{key}_percent"] = v * 100
            elif key.endswith("extra_op") or key == "native_op":
                out[f"{key}_percent"] = v
            else:
                out[key] = percent_names(v)
        return out
    if isinstance(value, list | tuple):
        return [percent_names(v) for v in value]
    return value
