"""``overprov simulate``: run the Rust FTL simulator on a drive, workload and GC policy.

The configuration is the Rust ``SimConfig`` as a nested dict (sections ``geometry``, ``ftl``,
``wear``, ``workload``, ``precondition``, ``run``); a TOML file gives it with the same section
and field names, and command-line flags override single fields. Every value is validated in
Rust before the run starts; errors name the field (``ftl.policy: unknown variant ...``).
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from overprov import __version__, models, presets
from overprov.errors import ConfigError
from overprov.units import parse_number_list, parse_size_bytes

ProgressFn = Callable[[str, int, int], None]

POLICIES = ("greedy", "fifo", "random", "d-choices", "cost-benefit")
PATTERNS = ("uniform", "sequential", "hot-cold", "zoned", "zipf", "jesd219")

#: The demo: a drive sold as 16 GB with 16 GiB of NAND, the NAS vendor's extra-OP phases.
DEMO_ADVERTISED_BYTES = 16_000_000_000
DEMO_EXTRA_OP = (0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0)


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


def load_toml(path: str | Path) -> dict[str, Any]:
    """Read a TOML config file; syntax errors name the file and line."""
    p = Path(path)
    try:
        with p.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError as exc:
        raise ConfigError(f"{p}: no such config file") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: {exc}") from exc


def merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """Deep-merge ``override`` into a copy of ``base`` (sections merge, values replace)."""
    out = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def validate(config: dict[str, Any]) -> dict[str, Any]:
    """Validate a config in the Rust core; returns the resolved config and geometry."""
    return json.loads(_core().validate_config(json.dumps(config)))


def run(
    config: dict[str, Any],
    progress: ProgressFn | None = None,
    chunk_pages: int | None = None,
) -> dict[str, Any]:
    """Run one simulation to the end and return its report (a dict; see the Rust ``Report``).

    ``progress(phase, done_pages, planned_pages)`` is called between chunks of host writes;
    the GIL is released while the core runs, and Ctrl-C stops between chunks.
    """
    core = _core()
    sim = core.Simulator(json.dumps(config))
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


def model_waf(report: dict[str, Any]) -> tuple[str, float] | None:
    """The analytic model for this run, when one applies (uniform random single-page writes
    over the whole of a drive filled first); returns (model name, WAF)."""
    cfg = report["config"]
    w = cfg["workload"]
    if (
        cfg["precondition"]["kind"] == "none"
        or w["pattern"] != "uniform"
        or w["span_percent"] != 100
        or w["read_percent"] != 0
        or w["trim_percent"] != 0
        or w.get("bssplit")
        or w["request_bytes"] != report["geometry"]["page_size_bytes"]
    ):
        return None
    rho = report["geometry"]["op_ratio"]
    b = report["geometry"]["pages_per_block"]
    policy = cfg["ftl"]["policy"]
    if policy == "greedy":
        return "greedy (mean-field, Bux & Iliadis)", models.waf_greedy(rho, b)
    if policy == "fifo":
        return "FIFO (Desnoyers; Xiang & Kurkoski)", models.waf_fifo(rho)
    if policy == "random":
        return "random α/(α−1)", models.waf_random(rho)
    if policy == "d-choices":
        d = cfg["ftl"]["d_choices"]
        return f"d-choices d={d} (Van Houdt)", models.waf_d_choices(rho, b, d)
    return None


def summary_row(report: dict[str, Any]) -> dict[str, Any]:
    g = report["geometry"]
    m = report.get("measured") or {}
    model = model_waf(report)
    extra = report["config"]["geometry"].get("extra_op_percent")
    wear = report["wear"]["erase_count"]
    return {
        "extra_op_percent": extra,
        "op_ratio": g["op_ratio"],
        "user_gib": g["user_bytes"] / 2**30,
        "waf": m.get("waf"),
        "model": model[0] if model else None,
        "model_waf": model[1] if model else None,
        "gc_pages_per_host_page": (m["gc_pages"] / m["host_pages"])
        if m.get("host_pages")
        else None,
        "erase_mean": wear["mean"],
        "erase_max": wear["max"],
        "host_writes_per_s": report.get("host_pages_per_wall_second"),
    }


def _fmt(value: Any, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def _steady_latency(timed: dict[str, Any], key: str) -> float | None:
    """Median over the steady window of each interval's latency percentile ``key`` (µs)."""
    window = timed.get("steady_window")
    if not window:
        return None
    values = sorted(
        i["latency_us"][key]
        for i in timed["intervals"][window[0] : window[1] + 1]
        if i.get("latency_us")
    )
    return values[len(values) // 2] if values else None


def format_timed_table(reports: Sequence[dict[str, Any]]) -> str:
    """Simulated-time figures per run: IOPS by performance state and latency."""
    first = reports[0]
    host = first["config"]["timing"]["host"]
    mode = (
        f"QD{host['queue_depth']} closed loop"
        if host["mode"] == "closed"
        else f"open loop at {host['arrival_iops']:,.0f} IOPS"
    )
    lines = [
        "",
        f"simulated time — {mode}, {'write-through' if host['write_through'] else 'write-back'}; "
        "states by the SNIA rule over 5 intervals (FOB until GC first runs)",
        f"{'extra OP':>9} {'ρ':>8} {'FOB IOPS':>10} {'steady IOPS':>12} {'p50 µs':>8} "
        f"{'p99 µs':>9} {'p99.99 µs':>10} {'sim s':>7}",
    ]
    for rep in reports:
        t = rep.get("timed")
        if not t:
            continue
        extra = rep["config"]["geometry"].get("extra_op_percent")
        extra_s = "-" if extra is None else f"{extra:g}%"
        steady = t.get("steady_iops")
        lines.append(
            f"{extra_s:>9} {rep['geometry']['op_ratio']:>8.4f} "
            f"{_fmt(t.get('fob_iops'), '>10,.0f')} "
            f"{(format(steady, '>12,.0f') if steady is not None else 'not steady'):>12} "
            f"{_fmt(_steady_latency(t, 'p50'), '>8,.0f')} "
            f"{_fmt(_steady_latency(t, 'p99'), '>9,.0f')} "
            f"{_fmt(_steady_latency(t, 'p99_99'), '>10,.0f')} {t['simulated_s']:>7.1f}"
        )
    lines.append("latency: median over the steady window of each interval's percentile")
    return "\n".join(lines)


SERIES_COLUMNS = (
    "run",
    "extra_op_percent",
    "op_ratio",
    "time_s",
    "state",
    "iops",
    "write_iops",
    "read_iops",
    "mib_s",
    "waf",
    "host_bytes_total",
    "drive_writes_total",
    "p50_us",
    "p90_us",
    "p99_us",
    "p99_9_us",
    "p99_99_us",
    "max_us",
)


def write_series_csv(reports: Sequence[dict[str, Any]], path: Path) -> int:
    """The per-interval time series of every timed run as one CSV; returns the row count."""
    import csv

    rows = 0
    with path.open("w", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(SERIES_COLUMNS)
        for n, rep in enumerate(reports, 1):
            t = rep.get("timed")
            if not t:
                continue
            extra = rep["config"]["geometry"].get("extra_op_percent")
            for i in t["intervals"]:
                lat = i.get("latency_us") or {}
                out.writerow(
                    [
                        n,
                        extra,
                        rep["geometry"]["op_ratio"],
                        i["time_s"],
                        i["state"],
                        i["iops"],
                        i["write_iops"],
                        i["read_iops"],
                        i["mib_s"],
                        i["waf"],
                        i["host_bytes_total"],
                        i["drive_writes_total"],
                    ]
                    + [lat.get(k) for k in ("p50", "p90", "p99", "p99_9", "p99_99", "max")]
                )
                rows += 1
    return rows


def format_table(reports: Sequence[dict[str, Any]]) -> str:
    """The summary table printed on stdout."""
    first = reports[0]
    cfg, g = first["config"], first["geometry"]
    w = cfg["workload"]
    lines = [
        f"overprov simulate — {cfg['ftl']['policy']} GC, {w['pattern']} "
        f"{'random-map ' if w['random_map'] else ''}writes, "
        f"{g['page_size_bytes']} B pages, {g['pages_per_block']} pages/block, "
        f"precondition {cfg['precondition']['kind']}, "
        f"warm-up {cfg['run']['warmup_drive_writes']:g} + measured "
        f"{cfg['run']['drive_writes']:g} drive writes, seed {cfg['run']['seed']}",
        "OP ρ = (T−U)/U (physical T, user U); extra OP X% leaves X% of the advertised capacity "
        "unused; WAF = NAND bytes / host bytes over the measured part.",
        "",
        f"{'extra OP':>9} {'ρ':>8} {'user GiB':>9} {'WAF':>8} {'model':>8} {'diff':>7} "
        f"{'GC/host':>8} {'erases':>8} {'max':>6} {'writes/s':>11}",
    ]
    for rep in reports:
        r = summary_row(rep)
        diff = (
            f"{(r['waf'] - r['model_waf']) / r['model_waf'] * 100:+.1f}%"
            if r["waf"] is not None and r["model_waf"] is not None
            else "-"
        )
        extra = "-" if r["extra_op_percent"] is None else f"{r['extra_op_percent']:g}%"
        lines.append(
            f"{extra:>9} {r['op_ratio']:>8.4f} {r['user_gib']:>9.2f} {_fmt(r['waf'], '>8.3f')} "
            f"{_fmt(r['model_waf'], '>8.3f')} {diff:>7} "
            f"{_fmt(r['gc_pages_per_host_page'], '>8.3f')} "
            f"{r['erase_mean']:>8.1f} {r['erase_max']:>6} "
            f"{_fmt(r['host_writes_per_s'], '>11,.0f')}"
        )
    models_used = sorted({summary_row(r)["model"] for r in reports} - {None})
    if models_used:
        lines.append("")
        lines.append("model: " + "; ".join(models_used) + " — DOMAIN.md §7, docs/models.md")
    else:
        lines.append("")
        lines.append("model: none applies (analytic models assume uniform random page writes)")
    lines.append(
        "writes/s: simulated host page writes per wall-clock second (this machine, this run)"
    )
    return "\n".join(lines)


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


# ---------------------------------------------------------------- command line


def parse_bytes(text: str, field: str) -> int:
    """Capacities: plain suffixes are decimal like drive labels (512G = 512·10⁹ bytes); KiB, MiB,
    GiB, TiB are binary. A bare number is bytes."""
    return int(parse_size_bytes(text, field, bare_unit="b"))


def parse_block_size(text: str, field: str) -> int:
    """Request sizes, fio style: 4k = 4096 bytes (binary multiples)."""
    t = text.strip().lower().removesuffix("b")
    mult = {"k": 2**10, "m": 2**20}.get(t[-1:], 1)
    num = t[:-1] if t[-1:] in ("k", "m") else t
    try:
        value = int(num) * mult
    except ValueError as exc:
        raise ConfigError(f"{field}: cannot read block size {text!r} (e.g. 4k, 512, 64k)") from exc
    if value <= 0:
        raise ConfigError(f"{field}: block size must be positive, got {text!r}")
    return value


def parse_zones(text: str, field: str) -> list[dict[str, float]]:
    """ "50/5:30/15:20/80" → zones (access%/space%), fio's random_distribution=zoned syntax."""
    zones = []
    for i, part in enumerate(text.split(":")):
        try:
            access, space = (float(x) for x in part.split("/"))
        except ValueError as exc:
            raise ConfigError(
                f"{field}: zone {i + 1} {part!r} is not ACCESS%/SPACE% (e.g. 50/5:30/15:20/80)"
            ) from exc
        zones.append({"access_percent": access, "space_percent": space})
    return zones


def config_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The config one run starts from: the preset (if any), then the TOML file, then flags."""
    cfg: dict[str, Any] = {}
    if args.preset:
        cfg, _ = presets.preset_config(args.preset, args.scale)
    elif args.scale:
        raise ConfigError("--scale: only applies to a --preset drive")
    if args.config:
        cfg = merge(cfg, load_toml(args.config))
    over: dict[str, dict[str, Any]] = {
        k: {} for k in ("geometry", "ftl", "wear", "workload", "precondition", "run")
    }
    g, f, w, r = over["geometry"], over["ftl"], over["workload"], over["run"]
    if args.page_size is not None:
        g["page_size_bytes"] = parse_block_size(args.page_size, "--page-size")
    if args.pages_per_block is not None:
        g["pages_per_block"] = args.pages_per_block
    if args.physical_blocks is not None:
        g["physical_blocks"] = args.physical_blocks
    if args.physical_bytes is not None:
        g["physical_bytes"] = parse_bytes(args.physical_bytes, "--physical-bytes")
    if args.advertised is not None:
        g["advertised_bytes"] = parse_bytes(args.advertised, "--advertised")
    if args.user_pages is not None:
        g["user_pages"] = args.user_pages
    if args.user_bytes is not None:
        g["user_bytes"] = parse_bytes(args.user_bytes, "--user-bytes")
    if args.policy:
        f["policy"] = args.policy
    if args.d is not None:
        f["d_choices"] = args.d
    if args.gc_free_blocks is not None:
        f["gc_free_blocks"] = args.gc_free_blocks
    if args.gc_frontier:
        f["gc_frontier"] = args.gc_frontier
    if args.streams:
        f["host_streams"] = args.streams
    if args.wear_dynamic:
        over["wear"]["dynamic"] = True
    if args.static_wl is not None:
        over["wear"]["static_threshold"] = args.static_wl
    if args.workload:
        w["pattern"] = args.workload
    if args.random_map:
        w["random_map"] = True
    if args.span is not None:
        w["span_percent"] = args.span
    if args.read_pct is not None:
        w["read_percent"] = args.read_pct
    if args.trim_pct is not None:
        w["trim_percent"] = args.trim_pct
    if args.bs is not None:
        w["request_bytes"] = parse_block_size(args.bs, "--bs")
    if args.bssplit is not None:
        w["bssplit"] = args.bssplit
    if args.hot is not None:
        try:
            access, space = (float(x) for x in args.hot.split("/"))
        except ValueError as exc:
            raise ConfigError(f"--hot: {args.hot!r} is not ACCESS/SPACE (e.g. 80/20)") from exc
        w["pattern"] = w.get("pattern", "hot-cold") if args.workload else "hot-cold"
        w["hot_access_percent"], w["hot_space_percent"] = access, space
    if args.zones is not None:
        w["zones"] = parse_zones(args.zones, "--zones")
        if not args.workload:
            w["pattern"] = "zoned"
    if args.zipf_theta is not None:
        w["zipf_theta"] = args.zipf_theta
        if not args.workload:
            w["pattern"] = "zipf"
    if args.precondition:
        over["precondition"]["kind"] = args.precondition
    if args.drive_writes is not None:
        r["drive_writes"] = args.drive_writes
    if args.warmup is not None:
        r["warmup_drive_writes"] = args.warmup
    if args.interval_pct is not None:
        r["interval_percent"] = args.interval_pct
    if args.seed is not None:
        r["seed"] = args.seed
    t: dict[str, Any] = {}
    host: dict[str, Any] = {}
    if args.qd is not None:
        host["queue_depth"] = args.qd
    if args.open_iops is not None:
        host["mode"], host["arrival_iops"] = "open", args.open_iops
    if args.write_through:
        host["write_through"] = True
    if host:
        t["host"] = host
    if args.duration is not None:
        t["duration_s"] = args.duration
    if args.interval_s is not None:
        t["interval_s"] = args.interval_s
    if t or args.timed:
        t["enabled"] = True
        over["timing"] = t
    return merge(cfg, {k: v for k, v in over.items() if v})


def sweep_configs(base: dict[str, Any], args: argparse.Namespace) -> list[dict[str, Any]]:
    """One config per OP value given with --op (ρ) or --extra-op (percent)."""
    if args.op and args.extra_op:
        raise ConfigError("--op and --extra-op: give one way of stating OP, not both")
    geo = base.get("geometry", {})
    if args.op:
        values = parse_number_list(args.op, "--op", "0.07,0.28")
        # ρ with the user size fixed (or the physical size, when that is what was given)
        key, clear = "op_ratio", ("extra_op_percent",)
        if any(geo.get(k) is not None for k in ("physical_blocks", "physical_bytes")):
            clear += ("user_pages", "user_bytes")
    elif args.extra_op:
        values = parse_number_list(args.extra_op, "--extra-op")
        # extra OP fixes the drive (physical and advertised size) and shrinks the user space
        key, clear = "extra_op_percent", ("op_ratio", "user_pages", "user_bytes")
    else:
        return [base]
    configs = []
    for v in values:
        g = {k: x for k, x in geo.items() if k not in clear}
        g[key] = v
        configs.append({**base, "geometry": g})
    return configs


def demo_configs() -> list[dict[str, Any]]:
    return [
        {
            "geometry": {
                "advertised_bytes": DEMO_ADVERTISED_BYTES,
                "extra_op_percent": x,
                "pages_per_block": 256,
            },
            "run": {"warmup_drive_writes": 2.0, "drive_writes": 2.0, "interval_percent": 5.0},
        }
        for x in DEMO_EXTRA_OP
    ]


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "simulate",
        help="simulate a drive: WAF per OP, GC policy and workload (no drive worn)",
        description=(
            "Simulate a page-mapped SSD FTL and report write amplification (WAF) after a "
            "warm-up, beside the published analytic model where one applies. Sizes: plain "
            "suffixes are decimal like drive labels (512G), KiB/MiB/GiB are binary; block "
            "sizes (--bs, --page-size) are fio-style (4k = 4096). Give several OP values to "
            "sweep, e.g. --extra-op 0,10,20,30 or --op 0.07,0.28."
        ),
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument(
        "--demo",
        action="store_true",
        help="WAF against extra OP 0–60%% for a 16 GB drive with 16 GiB of NAND, "
        "greedy GC, uniform random 4 KiB writes",
    )
    p.add_argument(
        "--config",
        metavar="FILE",
        help="TOML file with sections geometry, ftl, wear, workload, precondition, "
        "run (field names as in docs/simulate.md); flags override it",
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        help="write everything to DIR: simulate.json, series.csv (timed runs) and the HTML "
        "report (report.html)",
    )
    p.add_argument(
        "--json",
        metavar="FILE",
        help="write the full reports (intervals, wear, victim histogram) as JSON",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    d = p.add_argument_group("drive presets (data/presets.toml; illustrative) and drive files")
    d.add_argument(
        "--preset",
        metavar="NAME|FILE.toml",
        help="a drive with its NAND timings, buffer and SLC cache: a preset ("
        + ", ".join(presets.names())
        + ") or a drive file (docs/drives/); implies --timed",
    )
    d.add_argument(
        "--scale",
        metavar="S",
        help="shrink the preset: a factor (1/32, 0.1; 1 = full size) or a NAND size (64GiB); "
        "default: about 32 GiB of NAND. Ratios are kept, so WAF and IOPS keep their shape",
    )
    tm = p.add_argument_group("simulated time (IOPS, latency, performance states)")
    tm.add_argument("--timed", action="store_true", help="simulate time with default timings")
    tm.add_argument("--qd", type=int, metavar="N", help="closed-loop queue depth (default 32)")
    tm.add_argument(
        "--open-iops", type=float, metavar="N", help="open loop: requests arrive at N per second"
    )
    tm.add_argument(
        "--write-through",
        action="store_true",
        help="every write is FUA/sync: it completes on NAND unless the buffer is power-loss "
        "protected",
    )
    tm.add_argument(
        "--duration", type=float, metavar="SECONDS", help="simulated seconds of the measured part"
    )
    tm.add_argument("--interval-s", type=float, metavar="S", help="series interval (default 1 s)")
    tm.add_argument("--series", metavar="FILE.csv", help="write the time series as CSV")
    g = p.add_argument_group("drive geometry and capacity (default: 4 GiB user, ρ = 0.28)")
    g.add_argument("--page-size", metavar="SIZE", help="flash page / mapping unit (e.g. 4k)")
    g.add_argument("--pages-per-block", type=int, metavar="N", help="pages per erase block (b)")
    g.add_argument("--physical-blocks", type=int, metavar="N", help="physical erase blocks")
    g.add_argument("--physical-bytes", metavar="SIZE", help="physical NAND size (e.g. 256GiB)")
    g.add_argument("--user-pages", type=int, metavar="N", help="user capacity in pages (LBAs)")
    g.add_argument("--user-bytes", metavar="SIZE", help="user capacity (e.g. 240G)")
    g.add_argument(
        "--op",
        metavar="RHO[,RHO..]",
        help="over-provisioning ρ = (T−U)/U, e.g. 0.28; a list sweeps",
    )
    g.add_argument(
        "--extra-op",
        metavar="PCT[,PCT..]",
        help="extra OP in %% of the advertised capacity left unused (the NAS "
        "vendor's 1–60%% setting); a list sweeps",
    )
    g.add_argument(
        "--advertised",
        metavar="SIZE",
        help="advertised capacity for --extra-op (default: physical size / 1.0737, "
        "NAND in GiB sold in GB)",
    )
    f = p.add_argument_group("FTL")
    f.add_argument("--policy", choices=POLICIES, help="GC victim policy")
    f.add_argument("--d", type=int, metavar="D", help="sample size for d-choices")
    f.add_argument(
        "--gc-free-blocks",
        type=int,
        metavar="N",
        help="GC runs when this many free blocks or fewer remain",
    )
    f.add_argument(
        "--gc-frontier",
        choices=("separate", "shared"),
        help="relocated pages to a GC frontier of their own, or mixed with host writes",
    )
    f.add_argument(
        "--streams",
        choices=("single", "workload"),
        help="host write streams: one, or one per workload zone (hot/cold separation)",
    )
    f.add_argument(
        "--wear-dynamic",
        action="store_true",
        help="dynamic wear levelling: least-worn free block first",
    )
    f.add_argument(
        "--static-wl",
        type=int,
        metavar="SPREAD",
        help="static wear levelling when max−min erase count exceeds SPREAD",
    )
    w = p.add_argument_group("workload")
    w.add_argument("--workload", choices=PATTERNS, help="address pattern")
    w.add_argument(
        "--random-map",
        action="store_true",
        help="random patterns visit each LBA once per pass (fio's random map)",
    )
    w.add_argument(
        "--span",
        type=float,
        metavar="PCT",
        help="only the first PCT%% of the user LBAs are accessed",
    )
    w.add_argument("--read-pct", type=float, metavar="PCT", help="share of reads")
    w.add_argument("--trim-pct", type=float, metavar="PCT", help="share of TRIM requests")
    w.add_argument("--bs", metavar="SIZE", help="request size, fio style (4k, 64k, 512)")
    w.add_argument("--bssplit", metavar="MIX", help="request-size mix, fio syntax (4k/67:8k/33)")
    w.add_argument(
        "--hot",
        metavar="ACCESS/SPACE",
        help="hot/cold: ACCESS%% of writes to SPACE%% of the span, e.g. 80/20",
    )
    w.add_argument(
        "--zones", metavar="A/S:A/S..", help="zoned distribution, fio syntax, e.g. 50/5:30/15:20/80"
    )
    w.add_argument("--zipf-theta", type=float, metavar="THETA", help="Zipf exponent (0.99)")
    r = p.add_argument_group("run")
    r.add_argument(
        "--precondition",
        choices=("sequential", "random", "none"),
        help="fill the drive first: in order, in random order, or not at all",
    )
    r.add_argument(
        "--drive-writes", type=float, metavar="N", help="measured host writes, in user capacities"
    )
    r.add_argument(
        "--warmup",
        type=float,
        metavar="N",
        help="host writes before measurement, in user capacities",
    )
    r.add_argument(
        "--interval-pct",
        type=float,
        metavar="PCT",
        help="record WAF every PCT%% of user capacity written",
    )
    r.add_argument("--seed", type=int, help="random seed (same seed, same result)")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    configs = demo_configs() if args.demo else sweep_configs(config_from_args(args), args)
    reports = []
    for cfg in configs:
        validate(cfg)  # every config is checked before the first run starts
    for i, cfg in enumerate(configs):
        bar = None if args.no_progress else ProgressBar(f"run {i + 1}/{len(configs)}")
        try:
            reports.append(run(cfg, progress=bar))
        finally:
            if bar is not None:
                bar.close()
    print(format_table(reports))
    if any(r.get("timed") for r in reports):
        print(format_timed_table(reports))
    out_dir = Path(args.out) if args.out else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    series = args.series or (
        out_dir / "series.csv" if out_dir and any(r.get("timed") for r in reports) else None
    )
    if series:
        n = write_series_csv(reports, Path(series))
        print(f"\ntime series ({n} intervals) written to {series}")
    json_paths = [Path(p) for p in (args.json, out_dir and out_dir / "simulate.json") if p]
    doc = {
        "schema": "overprov.simulate/1",
        "overprov_version": __version__,
        "command": getattr(args, "command_line", None) or ["overprov", *sys.argv[1:]],
        "preset": {"name": args.preset, "scale": args.scale} if args.preset else None,
        "runs": reports,
    }
    for path in json_paths:
        path.write_text(json.dumps(doc, indent=1) + "\n")
        print(f"\nfull reports written to {path}")
    if out_dir is not None:
        from overprov.report import write_report

        html = write_report([out_dir / "simulate.json"], out_dir)
        print(f"report: {html}")
    return 0
