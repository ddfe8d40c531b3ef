"""Ctrl-C and SIGTERM while a command writes to a device or file (docs/safety.md, "Signals").

* :func:`terminate_as_interrupt` — while a profile's target is open, SIGTERM (``kill``, a
  service manager, a shutdown) and SIGHUP (the terminal or ssh connection closing) stop the
  run as Ctrl-C does: fio is asked to stop and waited
  for, the run is recorded as interrupted and says so, instead of dying with the results
  saying "running".
* :class:`HeldSignals` — ``apply`` holds SIGINT, SIGTERM and SIGHUP back while a step runs
  (its tools inherit the mask, so a Ctrl-C at the terminal or a dropped ssh connection does
  not kill ``sgdisk`` half-way through a partition table either); between steps,
  :meth:`HeldSignals.pending` says which arrived, so the caller stops there and says which
  steps ran.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
"""Ctrl-C; ``kill``, a service manager or a shutdown; the terminal or the ssh connection
closing. A signal the process inherited as ignored (``nohup``) is never delivered, so it
is never seen here either."""


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(signal.Signals(signum).name)


def terminate_as_interrupt() -> Callable[[], None]:
    """Make SIGTERM and SIGHUP raise KeyboardInterrupt (main thread only); returns what
    restores the handlers it replaced. A signal the process ignores stays ignored."""
    if not _in_main_thread():
        return lambda: None
    old: dict[int, Any] = {}
    for sig in (signal.SIGTERM, signal.SIGHUP):
        before = signal.getsignal(sig)
        if before != signal.SIG_IGN:
            old[sig] = before if before is not None else signal.SIG_DFL
            signal.signal(sig, _raise_interrupt)

    def restore() -> None:
        for sig, before in old.items():
            if signal.getsignal(sig) is _raise_interrupt:
                signal.signal(sig, before)

    return restore


class HeldSignals:
    """SIGINT, SIGTERM and SIGHUP blocked from ``__enter__`` to ``__exit__`` (main thread only; the
    children started meanwhile inherit the mask). ``pending()`` takes the ones that arrived
    (they are then consumed, not delivered when the block ends) and returns their names."""

    def __init__(self) -> None:
        self._old: set[signal.Signals] | None = None

    def __enter__(self) -> HeldSignals:
        if _in_main_thread():
            self._old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        return self

    def pending(self) -> list[str]:
        if self._old is None:
            return []
        arrived = sorted(signal.sigpending() & STOP_SIGNALS)
        for sig in arrived:
            signal.sigtimedwait([sig], 0)  # consume it: it is handled by the caller
        return [signal.Signals(sig).name for sig in arrived]

    def __exit__(self, *exc: object) -> None:
        if self._old is not None:
            self.pending()  # taken, not delivered: the caller has stopped already
            signal.pthread_sigmask(signal.SIG_SETMASK, self._old)
            self._old = None
