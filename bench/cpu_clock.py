"""The CPU clock the benchmarks report beside their figures: CPU seconds used so far by this
process and by the child processes it has waited for (user + system). A bench takes the
difference across the work it reports, so its figure says what the work cost on a shared
machine, where wall time says more about the load than the work."""

from __future__ import annotations

import resource


def cpu_s() -> float:
    """CPU seconds (user + system) of this process and its waited-for children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime
