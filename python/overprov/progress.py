"""Progress of long work on stderr, always: a bar redrawn in place on a terminal, otherwise
(a log, a pipe) one plain line every :data:`LINE_EVERY_S` seconds."""

from __future__ import annotations

import sys
import time
from typing import Any

#: How often a progress line is written when stderr is not a terminal.
LINE_EVERY_S = 10.0


class ProgressBar:
    """``bar(phase, done, planned)`` reports progress; ``close()`` ends the line."""

    def __init__(
        self,
        label: str,
        stream: Any = None,
        force: bool = False,
        quiet: bool = False,
        line_every_s: float = LINE_EVERY_S,
    ) -> None:
        self.stream = stream or sys.stderr
        self.terminal = force or bool(getattr(self.stream, "isatty", lambda: False)())
        self.quiet = quiet
        self.label = label
        self.line_every_s = line_every_s
        self.started = time.perf_counter()
        self.last_line = self.started
        self.drawn = False
        #: Work done before this bar started (a resumed run): shown in the percentage, left
        #: out of the rate the time left is extrapolated from.
        self.done_before: float | None = None

    def text(self, phase: str, done: float, planned: float) -> str:
        frac = min(1.0, done / planned) if planned else 1.0
        elapsed = time.perf_counter() - self.started
        if self.done_before is None:
            self.done_before = 0.0
        session = done - self.done_before
        eta = elapsed * max(0.0, planned - done) / session if session > 0 else 0.0
        if self.terminal:
            width = 30
            bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
            return (
                f"{self.label} [{bar}] {frac * 100:5.1f}% {phase:<12} "
                f"{elapsed:6.1f}s elapsed, ~{eta:5.1f}s left"
            )
        return (
            f"{self.label}: {frac * 100:.0f}% ({phase}), {elapsed:.0f} s elapsed, "
            f"about {eta:.0f} s left"
        )

    def __call__(self, phase: str, done: float, planned: float) -> None:
        if self.quiet:
            return
        if self.terminal:
            self.stream.write("\r" + self.text(phase, done, planned))
            self.drawn = True
        else:
            now = time.perf_counter()
            if now - self.last_line < self.line_every_s:
                return
            self.last_line = now
            self.stream.write(self.text(phase, done, planned) + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
