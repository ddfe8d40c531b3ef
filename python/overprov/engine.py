"""The one Python door to the Rust simulator core (``overprov._core``).

Everything that simulates goes through here: the ``simulate`` command, ``plan --simulate``,
simulated profile targets and the benchmarks. A configuration is the Rust ``SimConfig`` as a
nested dict (sections ``geometry``, ``ftl``, ``wear``, ``workload``, ``precondition``, ``run``,
``timing``); every value is validated in Rust, whose errors name the field
(``ftl.policy: unknown variant ...``).

The file ``overprov simulate --json FILE`` writes (schema ``overprov.simulate/1``) is built by
:func:`simulate_document` and read back by :func:`read_simulate_file`, the one reader of that
format (``plan --simulation`` and ``report`` both use it).
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from overprov import __version__, inputs
from overprov.errors import ConfigError

#: ``progress(phase, done_pages, planned_pages)``, called between chunks of host writes.
ProgressFn = Callable[[str, int, int], None]

SIMULATE_SCHEMA = "overprov.simulate/1"


def _core() -> Any:
    try:
        from overprov import _core
    except ImportError as exc:  # pragma: no cover - only without a build
        raise ConfigError(
            "the simulator core (overprov._core) is not built: run `make build`"
        ) from exc
    return _core


def default_config() -> dict[str, Any]:
    """Every field with its default, as the Rust core defines them."""
    return json.loads(_core().default_config_json())


@cache
def _choices() -> dict[str, tuple[str, ...]]:
    return {field: tuple(names) for field, names in _core().choices().items()}


def choices(field: str) -> tuple[str, ...]:
    """The names an enum field of the config accepts (``"ftl.policy"``, ``"workload.pattern"``,
    ``"trace.format"``, ...), as the Rust core spells them: the command line's choices."""
    return _choices()[field]


def load_toml(path: str | Path) -> dict[str, Any]:
    """Read a TOML config file: bounded, and checked against the core's fields; errors name
    the file, line and key (``overprov.config_file``)."""
    from overprov.config_file import load_config

    return load_config(path, default_config())


def merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """Deep-merge ``override`` into a copy of ``base`` (sections merge, values replace)."""
    out = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


class CheckedConfig(NamedTuple):
    """A config validated once by the core (:func:`check`): the config as given, its resolved
    form (what :func:`validate` returns: ``config``, ``geometry``, ``op_ratio``,
    ``spare_factor``) and the core's handle (``_core.Config``), which :func:`simulator` and
    :func:`run` take without parsing or validating the config again."""

    config: dict[str, Any]
    resolved: dict[str, Any]
    handle: Any


def check(config: dict[str, Any]) -> CheckedConfig:
    """Validate a config in the Rust core, once; errors name the field."""
    from overprov.config_file import core_message

    try:
        handle = _core().Config(json.dumps(config))
    except ConfigError as exc:
        raise ConfigError(core_message(str(exc))) from None
    return CheckedConfig(config, json.loads(handle.resolved_json()), handle)


def validate(config: dict[str, Any]) -> dict[str, Any]:
    """Validate a config in the Rust core; returns the resolved config and geometry."""
    return check(config).resolved


def simulator(config: dict[str, Any] | CheckedConfig) -> Any:
    """A stepwise simulator (``_core.Simulator``) for callers that drive it round by round;
    a :class:`CheckedConfig` is not validated again."""
    from overprov.config_file import core_message

    try:
        if isinstance(config, CheckedConfig):
            return _core().Simulator(config.handle)
        return _core().Simulator(json.dumps(config))
    except ConfigError as exc:
        raise ConfigError(core_message(str(exc))) from None


def device(config: dict[str, Any]) -> Any:
    """A request-level simulated drive (``_core.Device``): each write, read, trim or flush is
    submitted at a host time and answered with its completion time (the emulated device)."""
    return _core().Device(json.dumps(config))


def trace_summary(path: str, trace_format: str | None, skip_bad_lines: bool) -> dict[str, Any]:
    """A block trace's requests, mix and span as the core reads it (``plan --trace``)."""
    return json.loads(_core().trace_summary(path, trace_format, skip_bad_lines))


def core_version() -> str:
    """The version of the compiled simulator core."""
    return str(_core().__version__)


def run(
    config: dict[str, Any] | CheckedConfig,
    progress: ProgressFn | None = None,
    chunk_pages: int | None = None,
) -> dict[str, Any]:
    """Run one simulation to the end and return its report (a dict; see the Rust ``Report``).

    ``progress(phase, done_pages, planned_pages)`` is called between chunks of host writes;
    the GIL is released while the core runs, and Ctrl-C stops between chunks.
    """
    sim = simulator(config)
    _, planned = sim.progress()
    chunk = chunk_pages or max(1 << 20, planned // 200)
    started = time.perf_counter()
    while True:
        done = sim.step(chunk)
        if progress is not None:
            now, planned = sim.progress()
            progress(sim.phase, now, planned)
        if done:
            break
    report = json.loads(sim.report_json())
    seconds = time.perf_counter() - started
    host_pages = report["totals"]["host_pages"]
    report["wall_seconds"] = seconds
    report["host_pages_per_wall_second"] = host_pages / seconds if seconds > 0 else None
    return report


# ------------------------------------------------------------ the simulate result format


def simulate_document(
    reports: Sequence[dict[str, Any]],
    command: Sequence[str],
    preset: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The document ``overprov simulate --json FILE`` writes: one report per run."""
    return {
        "schema": SIMULATE_SCHEMA,
        "overprov_version": __version__,
        "command": list(command),
        "preset": preset,
        "runs": list(reports),
    }


def read_simulate_file(path: str | Path) -> dict[str, Any]:
    """Read a file written by ``overprov simulate --json FILE``: the document, with ``runs`` a
    non-empty list of report objects. Errors are ConfigErrors naming the file and the field."""
    name = str(path)
    doc = inputs.load_json(path, "simulate JSON file (overprov simulate --json FILE)")
    schema = doc.get("schema") if isinstance(doc, dict) else None
    if schema != SIMULATE_SCHEMA:
        shown = "missing" if schema is None else repr(schema)
        raise ConfigError(
            f"{name}: schema: expected {SIMULATE_SCHEMA!r}, {shown}: not an `overprov "
            "simulate --json` file"
        )
    runs = doc.get("runs")
    if not isinstance(runs, list) or not runs:
        raise ConfigError(f"{name}: runs: expected a non-empty list of simulation reports")
    for i, rep in enumerate(runs, start=1):
        if not isinstance(rep, dict):
            raise ConfigError(f"{name}: runs[{i - 1}] (run {i}): expected a report object")
        _rho_from_op_ratio(rep)
    return doc


def _rho_from_op_ratio(report: dict[str, Any]) -> None:
    """Files written before the core named it ``geometry.rho`` say ``geometry.op_ratio``:
    read them as if they said ``rho`` (new files are written with ``rho`` only)."""
    geo = report.get("geometry")
    if isinstance(geo, dict) and "rho" not in geo and "op_ratio" in geo:
        geo["rho"] = geo.pop("op_ratio")


def is_simulate_file(path: str | Path) -> bool:
    """Whether ``path`` reads as a simulate document (for picking such files out of a folder)."""
    try:
        read_simulate_file(path)
    except ConfigError:
        return False
    return True
