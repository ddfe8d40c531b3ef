"""A simulator run as a child process behind calibrate's Target protocol: one process from a
purge, fed one request a line on its stdin, answering one line on its stdout.

:class:`PipedTarget` is what the foreign targets share (``femu_target.FemuTarget``,
``py_ssd_sim_target.PySsdSimTarget``): the process's start and end (its CPU seconds counted),
the request-answer exchange, and the protocol's ``open``, ``close`` and ``same_as`` (a drive's
state is not kept between runs: a resumed measurement is refused). A subclass sets ``spec``,
``noun`` (what one drive is called in messages) and ``_start``, which calls :meth:`_spawn`.
"""

from __future__ import annotations

import resource
import subprocess
from typing import Any

from overprov.errors import ConfigError, OverprovError


class PipedTarget:
    """The child-process half of a foreign target (module docstring)."""

    spec: str
    noun = "simulated drive"

    proc: subprocess.Popen[str] | None = None
    cpu_s = 0.0
    """The processes' CPU seconds (user + system), those that have ended."""

    def _start(self) -> None:
        raise NotImplementedError

    def identity(self) -> dict[str, Any]:
        raise NotImplementedError

    def _spawn(self, argv: list[str], **popen: Any) -> None:
        """A new process (the one before ended), its stdin and stdout line-buffered text."""
        self._stop()
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1, **popen
        )

    def _stop(self) -> None:
        if self.proc is None:
            return
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()
        use = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.cpu_s = use.ru_utime + use.ru_stime
        self.proc = None

    def _exchange(self, line: str) -> str:
        """Send ``line``, return the process's answer ('' if it ended)."""
        if self.proc is None:
            raise OverprovError(f"{self.spec}: not open")
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.proc.stdout.readline()

    # ------------------------------------------------------------------ the Target protocol
    def open(self, *, resuming: bool = False) -> None:
        if resuming:
            raise ConfigError(f"{self.spec}: a {self.noun}'s state is not kept; start afresh")
        self._start()

    def close(self) -> None:
        self._stop()

    def same_as(self, stored_identity: dict[str, Any]) -> str | None:
        return None if stored_identity == self.identity() else f"another {self.noun}"
