"""fio as a subprocess: job files we keep, JSON and per-second logs parsed by field presence.

Facts this module leans on (fio 2.x–3.x; fio(1), the HOWTO):

* ``--output-format=json+`` gives ``jobs[]`` with one entry per *group* when
  ``group_reporting`` is set; each ``write`` section has ``iops``, ``io_bytes`` (older:
  ``io_kbytes``), ``runtime`` (ms), ``clat_ns`` / ``lat_ns`` (older: ``clat`` / ``lat`` in µs)
  with ``percentile`` and, in json+, ``bins`` (latency value in ns → count).
* fio prints non-JSON text before the JSON at times ("fio: terminating on signal 2") and writes
  bare ``nan`` / ``-nan`` / ``inf`` for undefined figures (its steady-state slope over one
  sample, for instance); :func:`parse_json_output` copes with both.
* ``write_iops_log=NAME`` with ``log_avg_msec=1000`` writes ``NAME_iops.N.log`` per job, lines
  ``time_ms, value, direction, bs[, offset[, priority]]`` (column count varies by version).
* ``steadystate=iops_slope:L%`` with ``ss_dur`` reports ``jobs[].steadystate`` with
  ``attained``, ``criterion`` ("2.21%"), ``slope``, ``data.iops[]``; it also *stops* the job
  once attained.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import math
import re
import shutil
import signal
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from overprov.errors import ConfigError, ToolError

PERCENTILES: tuple[float, ...] = (50.0, 90.0, 99.0, 99.9, 99.99)
"""Latency percentiles asked of fio and reported (key names: p50, p90, p99, p99_9, p99_99)."""

_STOP_GRACE_S = 30.0


def percentile_key(p: float) -> str:
    """50 → "p50", 99.9 → "p99_9"."""
    text = f"{p:g}"
    return "p" + text.replace(".", "_")


def find_fio() -> str:
    path = shutil.which("fio")
    if path is None:
        raise ToolError("fio is not installed (Debian/Ubuntu: apt-get install fio)")
    return path


def fio_version() -> str:
    """``fio --version`` as printed, e.g. "fio-3.33"."""
    try:
        out = subprocess.run(
            [find_fio(), "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except OSError as exc:
        raise ToolError(f"cannot run fio --version: {exc}") from exc
    return (out.stdout or out.stderr).strip()


# ----------------------------------------------------------------------------------- job files


def check_job_filename(path: str) -> None:
    """Refuse (ConfigError) a file name an fio job file cannot carry as one: a line break
    ends the option and starts another (``a.img<newline>filename=/dev/sda`` would make fio
    write to /dev/sda), and fio expands ``${VAR}`` in job files."""
    for bad, why in (("\n", "a line break"), ("\r", "a carriage return"), ("${", "'${'")):
        if bad in path:
            raise ConfigError(
                f"target: {path!r} holds {why}, which an fio job file cannot carry in a file "
                "name (fio would read what follows as another option or expand it); rename it"
            )


def escape_filename(path: str) -> str:
    """fio separates several files in ``filename=`` with ':'; escape it in one file name."""
    check_job_filename(path)
    return path.replace("\\", "\\\\").replace(":", "\\:")


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def render_job_file(
    global_options: Mapping[str, Any],
    sections: Iterable[tuple[str, Mapping[str, Any]]],
    comment: str = "",
) -> str:
    """An fio job file. Options whose value is None are written as bare flags (``new_group``)."""
    lines: list[str] = []
    for line in comment.splitlines():
        lines.append(f"# {line}".rstrip())
    lines.append("[global]")
    for key, value in global_options.items():
        lines.append(key if value is None else f"{key}={_format_value(value)}")
    for name, options in sections:
        lines.append("")
        lines.append(f"[{name}]")
        for key, value in options.items():
            lines.append(key if value is None else f"{key}={_format_value(value)}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------- running


@dataclass
class FioRun:
    """One finished fio invocation."""

    job_file: Path
    output_file: Path
    stderr_file: Path
    returncode: int
    output: dict[str, Any]


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """If the profiler is killed (even SIGKILL), the kernel sends fio SIGTERM: no orphan fio
    keeps writing while a resumed run starts another."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Ask fio to stop the way Ctrl-C does (it then prints its results), wait; escalate."""
    for sig, grace in ((signal.SIGINT, _STOP_GRACE_S), (signal.SIGTERM, 10.0)):
        if proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(sig)
        try:
            proc.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            continue
    with contextlib.suppress(ProcessLookupError):
        proc.kill()
    proc.wait()


def run_fio(job_file: Path, output_format: str = "json+") -> FioRun:
    """Run ``fio`` on a job file; JSON goes to ``<job>.json``, stderr to ``<job>.stderr``.

    On KeyboardInterrupt fio gets SIGINT, we wait for it to finish writing its results (kept
    on disk) and re-raise. A non-zero exit or a job error raises ToolError.
    """
    job_file = Path(job_file)
    output_file = job_file.with_suffix(".json")
    stderr_file = job_file.with_suffix(".stderr")
    cmd = [find_fio(), f"--output-format={output_format}", "--eta=never", job_file.name]
    with open(output_file, "wb") as out, open(stderr_file, "wb") as err:
        try:
            proc = subprocess.Popen(
                cmd,
                cwd=job_file.parent,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                preexec_fn=_die_with_parent,
            )
        except OSError as exc:
            raise ToolError(f"cannot run fio: {exc}") from exc
        try:
            returncode = proc.wait()
        except BaseException:
            _stop(proc)
            raise
    text = output_file.read_text(errors="replace")
    if returncode != 0:
        tail = stderr_file.read_text(errors="replace").strip()[-2000:]
        raise ToolError(
            f"fio exited with status {returncode} on {job_file}: {tail or '(no message)'}"
        )
    try:
        output = parse_json_output(text)
    except ValueError as exc:
        raise ToolError(f"fio output {output_file} is not JSON: {exc}") from exc
    for job in job_groups(output, str(output_file)):
        if job.get("error"):
            raise ToolError(
                f"fio job {job.get('jobname')!r} in {job_file} failed with error "
                f"{job['error']} (see {stderr_file})"
            )
    return FioRun(job_file, output_file, stderr_file, returncode, output)


# ------------------------------------------------------------------------------------- parsing

_BARE_NONFINITE = re.compile(r"(?<=[:\[,\s])-?(?:nan|inf)(?=\s*[,\]\}\n])", re.IGNORECASE)


def parse_json_output(text: str) -> dict[str, Any]:
    """Parse fio's JSON output, skipping text before it and turning bare nan/inf into null."""
    match = re.search(r"^\{", text, re.MULTILINE)
    if match is None:
        raise ValueError("no JSON object in fio's output")
    body = _BARE_NONFINITE.sub("null", text[match.start() :])
    decoder = json.JSONDecoder()
    obj, _end = decoder.raw_decode(body)
    if not isinstance(obj, dict):
        raise ValueError("fio's output is not a JSON object")
    return obj


def job_groups(output: Mapping[str, Any], where: str) -> list[Mapping[str, Any]]:
    """The ``jobs[]`` entries of fio's output in group order; ToolError names ``where`` when
    the output is not shaped as fio writes it."""
    jobs = output.get("jobs", [])
    if not isinstance(jobs, list):
        raise ToolError(f"fio output {where}: jobs is not a list")
    groups = [j for j in jobs if isinstance(j, Mapping)]
    for j in groups:
        gid = j.get("groupid", 0)
        if isinstance(gid, bool) or not isinstance(gid, int):
            raise ToolError(f"fio output {where}: groupid {gid!r} is not a whole number")
    return sorted(groups, key=lambda j: int(j.get("groupid", 0)))


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        try:
            number = float(value.strip().rstrip("%"))
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None


def _latency_block(direction: Mapping[str, Any], name: str) -> tuple[Mapping[str, Any], float]:
    """(block, divisor to µs) for "clat"/"lat": prefer ``<name>_ns``, else µs-era ``<name>``."""
    block = direction.get(f"{name}_ns")
    if isinstance(block, Mapping):
        return block, 1000.0
    block = direction.get(name)
    if isinstance(block, Mapping):
        return block, 1.0
    return {}, 1.0


def latency_us(direction: Mapping[str, Any]) -> dict[str, float | None]:
    """Completion-latency figures in µs: mean, max and the PERCENTILES, from clat(_ns)."""
    clat, to_us = _latency_block(direction, "clat")
    if not clat:  # some fio builds report only total latency
        clat, to_us = _latency_block(direction, "lat")
    figures: dict[str, float | None] = {}
    for key in ("mean", "max"):
        value = _number(clat.get(key))
        figures[f"{key}"] = None if value is None else value / to_us
    table = clat.get("percentile")
    table = table if isinstance(table, Mapping) else {}
    parsed = {}
    for key, value in table.items():
        p = _number(key)
        v = _number(value)
        if p is not None and v is not None:
            parsed[round(p, 6)] = v / to_us
    for p in PERCENTILES:
        figures[percentile_key(p)] = parsed.get(round(p, 6))
    return figures


def latency_bins_ns(direction: Mapping[str, Any]) -> dict[int, int]:
    """json+ completion-latency histogram: bucket value (ns) → count; {} when absent."""
    clat, to_us = _latency_block(direction, "clat")
    bins = clat.get("bins")
    if not isinstance(bins, Mapping):
        return {}
    to_ns = 1.0 if to_us == 1000.0 else 1000.0
    out: dict[int, int] = {}
    for key, count in bins.items():
        value = _number(key)
        n = _number(count)
        if value is None or n is None:
            continue
        ns = int(round(value * to_ns))
        out[ns] = out.get(ns, 0) + int(n)
    return out


def percentiles_from_bins_us(
    bins_ns: Mapping[int, int], percentiles: Iterable[float] = PERCENTILES
) -> dict[str, float | None]:
    """Percentiles (µs) of a latency histogram: the smallest bucket value with cumulative
    count ≥ p% of the total (fio's own rule on its buckets)."""
    total = sum(bins_ns.values())
    items = sorted(bins_ns.items())
    out: dict[str, float | None] = {}
    for p in percentiles:
        key = percentile_key(p)
        if total == 0:
            out[key] = None
            continue
        need = p / 100.0 * total
        running = 0
        value = items[-1][0]
        for ns, count in items:
            running += count
            if running >= need - 1e-9:
                value = ns
                break
        out[key] = value / 1000.0
    return out


@dataclass
class GroupFigures:
    """Write-side figures of one fio group (all jobs of one member, merged by fio)."""

    name: str
    iops: float
    bytes_written: int
    runtime_s: float
    latency_us: dict[str, float | None]
    latency_bins_ns: dict[int, int] = field(default_factory=dict)
    steadystate: dict[str, Any] | None = None
    read_latency_us_mean: float | None = None
    """The reads' mean completion latency of a mixed job (``rwmixread``); None: no reads."""


def write_figures(job: Mapping[str, Any]) -> GroupFigures:
    """Figures of one ``jobs[]`` entry (a group when group_reporting is on)."""
    write = job.get("write")
    if not isinstance(write, Mapping):
        raise ToolError(f"fio job {job.get('jobname')!r} has no write figures")
    io_bytes = _number(write.get("io_bytes"))
    if io_bytes is None:
        kbytes = _number(write.get("io_kbytes"))
        io_bytes = kbytes * 1024 if kbytes is not None else 0.0
    runtime_ms = _number(write.get("runtime")) or 0.0
    iops = _number(write.get("iops"))
    if iops is None:
        total_ios = _number(write.get("total_ios"))
        iops = total_ios / (runtime_ms / 1000.0) if total_ios and runtime_ms else 0.0
    return GroupFigures(
        name=str(job.get("jobname", "")),
        iops=iops,
        bytes_written=int(io_bytes),
        runtime_s=runtime_ms / 1000.0,
        latency_us=latency_us(write),
        latency_bins_ns=latency_bins_ns(write),
        steadystate=steadystate_verdict(job),
        read_latency_us_mean=read_mean_us(job),
    )


def read_mean_us(job: Mapping[str, Any]) -> float | None:
    """The reads' mean completion latency (µs) of one ``jobs[]`` entry, or None without reads."""
    read = job.get("read")
    if not isinstance(read, Mapping) or not (_number(read.get("total_ios")) or 0) > 0:
        return None
    return latency_us(read)["mean"]


def steadystate_verdict(job: Mapping[str, Any]) -> dict[str, Any] | None:
    """fio's own steady-state verdict for a job/group, or None when not asked for."""
    ss = job.get("steadystate")
    if not isinstance(ss, Mapping):
        return None
    data = ss.get("data") if isinstance(ss.get("data"), Mapping) else {}
    iops_window = data.get("iops") if isinstance(data.get("iops"), list) else []
    criterion = _number(ss.get("criterion"))
    attained = ss.get("attained")
    return {
        "ss": str(ss.get("ss", "")),
        "attained": bool(attained) if attained is not None else None,
        "criterion_percent": criterion,
        "slope": _number(ss.get("slope")),
        "duration_seconds": _number(ss.get("duration")),
        "iops_window": [v for v in (_number(x) for x in iops_window) if v is not None],
    }


def parse_iops_log(path: Path) -> dict[int, float]:
    """A ``*_iops.N.log`` with log_avg_msec=1000: second index (rounded time) → write IOPS.

    Lines are ``time_ms, value, direction, ...``; unreadable lines are skipped, and only
    write samples (direction 1) are kept when the column is there.
    """
    series: dict[int, float] = {}
    for line in Path(path).read_text(errors="replace").splitlines():
        cols = [c.strip() for c in line.split(",")]
        if len(cols) < 2:
            continue
        t = _number(cols[0])
        v = _number(cols[1])
        if t is None or v is None:
            continue
        if len(cols) >= 3 and cols[2] not in ("1", ""):
            continue
        second = int(round(t / 1000.0))
        series[second] = series.get(second, 0.0) + v
    return series


def sum_series(series_list: list[dict[int, float]]) -> list[float]:
    """Sum per-second series over the seconds present in every one (a second missing from a
    log, like an unwritten final sample, would make the sum a partial one)."""
    if not series_list:
        return []
    common = set(series_list[0])
    for s in series_list[1:]:
        common &= set(s)
    return [math.fsum(s[t] for s in series_list) for t in sorted(common)]


def iops_logs(directory: Path, prefix: str) -> list[Path]:
    """The per-job logs fio wrote for ``write_iops_log=<prefix>``, in job order."""

    def job_number(p: Path) -> int:
        m = re.search(r"_iops\.(\d+)\.log$", p.name)
        return int(m.group(1)) if m else 0

    return sorted(Path(directory).glob(f"{prefix}_iops.*.log"), key=job_number)
