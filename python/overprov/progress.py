"""Progress of long work on stderr."""

from __future__ import annotations

import sys
import time
from typing import Any


class ProgressBar:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, label: str, stream: Any = None, force: bool = False) -> None:
        self.stream = stream or sys.stderr
        self.enabled = force or bool(getattr(self.stream, "isatty", lambda: False)())
        self.label = label
        self.started = time.perf_counter()

    def __call__(self, phase: str, done: int, planned: int) -> None:
        if not self.enabled:
            return
        frac = min(1.0, done / planned) if planned else 1.0
        width = 30
        bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
        elapsed = time.perf_counter() - self.started
        eta = elapsed / frac - elapsed if frac > 0 else 0.0
        self.stream.write(
            f"\r{self.label} [{bar}] {frac * 100:5.1f}% {phase:<12} "
            f"{elapsed:6.1f}s elapsed, ~{eta:5.1f}s left"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
