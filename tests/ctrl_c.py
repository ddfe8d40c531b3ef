"""Children that a test stops with SIGINT, as Ctrl-C stops a program in a terminal.

A program started in the background of a non-interactive shell (``make test &``, ``nohup``, a
CI script's ``cmd &``) inherits SIGINT *ignored*, and so does every process it starts: a Python
child then installs no KeyboardInterrupt handler and an interrupt sent to it is lost (it runs
to its end). A test that interrupts a child starts it with ``preexec_fn=sigint_default``, so
the child finds SIGINT as a terminal's foreground program does, whatever the run inherited.
"""

from __future__ import annotations

import signal


def sigint_default() -> None:
    """``preexec_fn`` of a child a test interrupts: SIGINT back at its default disposition."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
