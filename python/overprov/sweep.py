"""Independent simulation points run in parallel: local processes or a Dask cluster.

A sweep (OP × policy × workload × drive) is a list of simulator configs whose runs share
nothing, so they can run anywhere at once. :func:`run_points` runs them

- one after another in this process (``jobs=1``),
- on ``jobs`` threads of this process (default: the cores this process may run on,
  ``os.sched_getaffinity``): the core releases the GIL while it simulates
  (``Simulator.step``), so the threads run on as many cores, with no worker process to start
  and nothing to copy (a spawned process pool cost 1.2–1.4 s before the first point on a
  loaded 2-core x86_64 VM, 2026-11-23), or
- on a Dask distributed cluster (``dask_scheduler="tcp://host:8786"``; ``pip install
  overprov[dask]``; docs/scale.md; ``overprov.sweep_dask``), where what a worker receives is
  the config as JSON text and what it sends back is the report as JSON text: no simulator
  state crosses the network.

Every way gives the same reports, in the order of the configs: each point carries its own seed
(``run.seed``), the core is deterministic for a seed, and a point never sees another. Only the
wall-clock fields (:data:`WALL_CLOCK_FIELDS`) differ. Points start costliest first
(:func:`longest_first`), so that the last to start are short ones.

Ctrl-C stops the sweep and keeps the finished points: :func:`run_points` then returns the
reports finished so far (a :class:`SweepReports` with ``interrupted`` set) instead of raising,
and the points still running stop at their next chunk of host writes. A Dask cluster lost
mid-sweep (every worker, or the scheduler) returns the finished points the same way, with
``failure`` saying what happened; the caller keeps them and fails (exit 1).
"""

from __future__ import annotations

import json
import os
import sys
import threading
from collections.abc import Sequence
from typing import Any

from overprov import engine
from overprov.errors import ConfigError, RunError
from overprov.progress import ProgressBar
from overprov.scaled_drive import planned_host_pages

#: Report fields measured on the wall clock; the only fields that differ between two runs of
#: the same config.
WALL_CLOCK_FIELDS = ("wall_seconds", "host_pages_per_wall_second")

#: How often the waiting process looks at the running points (seconds).
_POLL_S = 0.1


class SweepReports(list):
    """The reports of a sweep, in the order of its configs. ``interrupted`` is True when Ctrl-C
    stopped the sweep, ``failure`` (a message) when the Dask cluster was lost: the list then
    holds only the points that finished, in config order, and ``indices`` says which configs
    they are (0-based)."""

    def __init__(
        self,
        reports: Sequence[dict[str, Any]],
        indices: Sequence[int],
        planned: int,
        failure: str | None = None,
    ) -> None:
        super().__init__(reports)
        self.indices = list(indices)
        self.planned = planned
        self.failure = failure
        self.interrupted = len(self.indices) < planned and failure is None


def default_jobs() -> int:
    """The cores this process may run on (its CPU affinity, not the machine's core count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def without_wall_clock(report: dict[str, Any]) -> dict[str, Any]:
    """The report less its wall-clock fields: what two runs of one config agree on exactly."""
    return {k: v for k, v in report.items() if k not in WALL_CLOCK_FIELDS}


def run_point_json(config_json: str) -> str:
    """Run one point: config as JSON text in, report as JSON text out. This is what a worker
    process or a Dask worker runs; it imports only ``overprov.engine`` (and so
    ``overprov._core``) on the worker."""
    return json.dumps(engine.run(json.loads(config_json)))


def longest_first(configs: Sequence[dict[str, Any]]) -> list[int]:
    """Config indices, the costliest point first, so that the last point to start is a short
    one and no worker idles while one long point finishes. The cost is an estimate: host page
    writes × the uniform-random WAF (1 + ρ)/(2ρ) (Agarwal & Marrow), GC copies being most of
    the work at low OP. Only the order of the work depends on it, never a result."""

    def cost(cfg: dict[str, Any]) -> float:
        rho = max(1e-3, float(engine.validate(cfg)["op_ratio"]))
        return planned_host_pages(cfg) * (1.0 + rho) / (2.0 * rho)

    costs = [cost(c) for c in configs]
    return sorted(range(len(costs)), key=lambda i: -costs[i])


def run_points(
    configs: Sequence[dict[str, Any]],
    *,
    jobs: int | None = None,
    dask_scheduler: str | None = None,
    progress: bool = False,
    label: str = "sweep",
) -> SweepReports:
    """Run every config (a simulator config dict, as ``engine.run`` takes it) and return the
    reports in config order. ``jobs``: points at once on threads of this process (None:
    :func:`default_jobs`; 1: one after another); ``dask_scheduler``: the address of a Dask
    scheduler instead. ``progress`` draws a progress line on stderr. A point that fails
    raises its error (the others are stopped); Ctrl-C returns the finished points (see
    :class:`SweepReports`)."""
    configs = list(configs)
    texts = [json.dumps(cfg) for cfg in configs]
    if dask_scheduler is not None and jobs is not None:
        raise ConfigError("--jobs and --dask-scheduler: the cluster decides how many run at once")
    failure = None
    if dask_scheduler is not None:
        done, failure = _run_dask(texts, longest_first(configs), dask_scheduler, progress, label)
    else:
        n = default_jobs() if jobs is None else jobs
        if n < 1:
            raise ConfigError(f"--jobs: must be at least 1, got {n}")
        n = min(n, len(texts))
        if n <= 1:
            done = _run_serial(configs, progress, label)
        else:
            done = _run_local(configs, longest_first(configs), n, progress, label)
    indices = sorted(done)
    if failure is not None and not indices:
        raise RunError(f"{label}: {failure}; no point had finished")
    if configs and not indices:
        raise KeyboardInterrupt  # stopped before any point finished: nothing to keep
    reports = SweepReports([done[i] for i in indices], indices, len(configs), failure)
    if failure is not None:
        print(
            f"{label}: {failure}: {len(indices)} of {len(configs)} points finished; keeping those",
            file=sys.stderr,
        )
    if reports.interrupted:
        print(
            f"{label}: interrupted: {len(indices)} of {len(configs)} points finished; "
            "keeping those",
            file=sys.stderr,
        )
    return reports


def _run_serial(
    configs: list[dict[str, Any]], progress: bool, label: str
) -> dict[int, dict[str, Any]]:
    done: dict[int, dict[str, Any]] = {}
    for i, cfg in enumerate(configs):
        bar = ProgressBar(f"{label} run {i + 1}/{len(configs)}") if progress else None
        try:
            done[i] = engine.run(cfg, progress=bar)
        except KeyboardInterrupt:
            return done
        finally:
            if bar is not None:
                bar.close()
    return done


class _PointsBar:
    """Points finished out of planned, on one progress line."""

    def __init__(self, label: str, planned: int, enabled: bool) -> None:
        self.bar = ProgressBar(label) if enabled else None
        self.planned = planned

    def __call__(self, finished: int) -> None:
        if self.bar is not None:
            self.bar("points", finished, self.planned)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class _Stopped(Exception):
    """Raised between two chunks of a point's host writes once the sweep is stopping."""


def _run_local(
    configs: list[dict[str, Any]], order: list[int], jobs: int, progress: bool, label: str
) -> dict[int, Any]:
    """``jobs`` threads take the points in ``order``, one at a time, until none is left. The
    core releases the GIL while it simulates, so the threads use as many cores. The calling
    thread waits (and takes Ctrl-C); a point's error or Ctrl-C stops the other points at
    their next chunk of host writes."""
    done: dict[int, dict[str, Any]] = {}
    errors: list[BaseException] = []
    queue = list(reversed(order))  # pop() takes the costliest point first
    lock = threading.Lock()
    stop = threading.Event()
    finished = threading.Condition(lock)

    def check_stop(phase: str, done_pages: int, planned_pages: int) -> None:
        if stop.is_set():
            raise _Stopped

    def worker() -> None:
        while not stop.is_set():
            with lock:
                if not queue:
                    return
                i = queue.pop()
            try:
                report = engine.run(configs[i], progress=check_stop)
            except _Stopped:
                return
            except BaseException as exc:  # noqa: BLE001 - re-raised by the waiting thread
                with finished:
                    errors.append(exc)
                    finished.notify()
                stop.set()
                return
            with finished:
                done[i] = report
                finished.notify()

    bar = _PointsBar(f"{label} ({jobs} threads)", len(configs), progress)
    threads = [threading.Thread(target=worker, name=f"sweep-{n}", daemon=True) for n in range(jobs)]
    try:
        for t in threads:  # Ctrl-C may come while they start: the finished points are kept
            t.start()
        bar(0)
        shown = 0
        while any(t.is_alive() for t in threads):
            with finished:
                finished.wait(_POLL_S)
                count, failed = len(done), bool(errors)
            if failed:
                break
            if count != shown:
                shown = count
                bar(count)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        for t in threads:
            if t.ident is not None:  # started
                t.join()
        bar.close()
    if errors:
        raise errors[0]
    return done


def check_dask_scheduler(address: str) -> None:
    """Before any work: the address is well formed, Dask is installed and a scheduler answers
    there (``overprov.sweep_dask.check``; errors name the address)."""
    from overprov import sweep_dask

    sweep_dask.check(address)


def _run_dask(
    texts: list[str], order: list[int], address: str, progress: bool, label: str
) -> tuple[dict[int, Any], str | None]:
    from overprov import sweep_dask

    bar = _PointsBar(f"{label} (Dask {address})", len(texts), progress)
    try:
        bar(0)
        return sweep_dask.run(texts, order, address, run_point_json, engine.core_version(), bar)
    finally:
        bar.close()
