"""Exceptions raised by the library. Only ``overprov.cli`` turns them into exit codes.

Exit codes, the same for every command (docs/cli.md):

* 0 — done;
* 1 — a failed run or a refused action (a tool failed, a device was refused);
* 2 — bad usage or bad input (a flag, a config file, an input file);
* 3 — the run finished but did not reach the answer (no steady phase, no recommendation);
* 130 — interrupted (Ctrl-C); what was finished is kept.
"""

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_NO_ANSWER = 3
EXIT_INTERRUPTED = 130
#: stdout was closed early (``overprov ... | head``): the command stops quietly, like
#: any tool killed by SIGPIPE (128 + 13).
EXIT_BROKEN_PIPE = 141
#: a bug in overprov (an exception no check anticipated); the message asks for a report.
EXIT_INTERNAL = 70


class OverprovError(Exception):
    """Base class: a problem the user can act on; the message says what and where."""

    exit_code = EXIT_USAGE


class ConfigError(OverprovError, ValueError):
    """A setting is invalid; the message names the field (e.g. ``ftl.policy``) or line."""


class InputError(ConfigError):
    """An input file is unreadable, too large, too deeply nested, not UTF-8, or holds values
    that cannot be (NaN, infinity, a negative counter); the message names the file."""


class OutputError(OverprovError):
    """An output file or folder cannot be written (checked before any work starts)."""


class UnsafeDeviceError(OverprovError):
    """A device was refused because writing to it could destroy data that is in use."""

    exit_code = EXIT_FAILED


class ToolError(OverprovError):
    """An external tool (fio, smartctl, sgdisk, ...) is missing or failed."""

    exit_code = EXIT_FAILED


class RunError(OverprovError):
    """A run started and failed (too little memory, a step that did not verify, ...)."""

    exit_code = EXIT_FAILED


def os_error_text(exc: OSError) -> str:
    """An OSError in words, with the file it concerns: ``No space left on device
    (out/results.json)``."""
    where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
    return f"{exc.strerror or exc}{where}"


def failure_text(exc: BaseException) -> str:
    """What stopped a run, for a document's ``error`` field: an overprov error's message; an
    OSError's words and file (:func:`os_error_text`); anything else by its type, as the
    internal error it is."""
    if isinstance(exc, OverprovError):
        return str(exc)
    if isinstance(exc, OSError):
        return os_error_text(exc)
    return f"internal error: {type(exc).__name__}: {exc}"


class NoAnswerError(OverprovError):
    """The run finished but its result cannot be given as an answer (a fit that does not
    explain its inputs); what was measured is kept."""

    exit_code = EXIT_NO_ANSWER
