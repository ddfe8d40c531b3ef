"""``overprov exporter``: WAF, wear and days left of every drive, as Prometheus metrics.

Sources are saved ``smartctl -j`` files (read by ``overprov.smart``), saved nvme-cli log
outputs (``overprov.smart.nvme_waf``, optionally paired with the SMART log of the same drive as
``NVME_LOG,SMART_LOG``), or live devices; ``overprov.exporter.reads`` reads each on its own
(files again when they change, devices again once their reading is older than ``--cache``,
bounded in time and in processes). The values are the ones ``overprov smart --json`` and
``overprov smart-nvme --json`` print for the same input.

Names follow the Prometheus conventions (base units: ``_bytes_total`` counters, ``_seconds``,
ratios 0-1 as ``_ratio``; one ``device`` label per series, identity on an info metric carrying
``model_name`` and ``serial_number`` as smartctl_exporter's does). A value the drive does not
report is left out rather than exported as 0; a drive's rated endurance is exported only when
given for it (``--rated-tbw``, ``--rated-dwpd``). The recording and alert rules and a Grafana
dashboard over these names are in ``contrib/`` (docs/exporter.md).
"""

from __future__ import annotations

import argparse
import math
import re
import signal
import socket
import sys
import threading
from collections.abc import Iterator
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

from overprov import units
from overprov.errors import ConfigError, ToolError
from overprov.exporter.reads import REASONS, Reading, Sources, device_label
from overprov.units import parse_duration_seconds, parse_size_bytes

#: Connections the listening socket queues before the server takes them (Python's default is 5).
LISTEN_BACKLOG = 128


# ---------------------------------------------------------------------------------------------
# Prometheus collector


# (metric name, help, type, DriveMetrics attribute, factor to base units)
METRICS: tuple[tuple[str, str, str, str, float], ...] = (
    (
        "overprov_device_host_written_bytes",
        "Bytes the host wrote to the drive (SMART data units x 512,000 B on NVMe).",
        "counter",
        "host_written_bytes",
        1.0,
    ),
    (
        "overprov_device_nand_written_bytes",
        "Bytes the drive programmed into NAND (vendor counter, unit per the sources table).",
        "counter",
        "nand_written_bytes",
        1.0,
    ),
    (
        "overprov_device_write_amplification_ratio",
        "Lifetime write amplification: NAND bytes written / host bytes written.",
        "gauge",
        "write_amplification",
        1.0,
    ),
    (
        "overprov_device_percentage_used_ratio",
        "Share of the rated endurance used, as the drive reports it (1 = 100 %; may exceed 1).",
        "gauge",
        "percentage_used",
        0.01,
    ),
    (
        "overprov_device_available_spare_ratio",
        "Normalised available spare capacity, 0-1 (NVMe).",
        "gauge",
        "available_spare_percent",
        0.01,
    ),
    (
        "overprov_device_projected_remaining_seconds",
        "Projected time until 100 % used at the lifetime wear rate (days x 86400).",
        "gauge",
        "projected_remaining_seconds",
        1.0,
    ),
    (
        "overprov_device_power_on_seconds",
        "Power-on time (power-on hours x 3600).",
        "counter",
        "power_on_seconds",
        1.0,
    ),
    (
        "overprov_device_media_erased_bytes",
        "Bytes of NAND the drive erased (FDP statistics MBE, or a vendor log in bytes).",
        "counter",
        "media_erased_bytes",
        1.0,
    ),
    (
        "overprov_device_erase_count_average",
        "Average program/erase cycles of the user-data blocks (vendor or OCP C0h log).",
        "gauge",
        "erase_count_average",
        1.0,
    ),
    (
        "overprov_device_erase_count_max",
        "Program/erase cycles of the most-erased user-data block.",
        "gauge",
        "erase_count_max",
        1.0,
    ),
    (
        "overprov_device_erase_count_min",
        "Program/erase cycles of the least-erased user-data block.",
        "gauge",
        "erase_count_min",
        1.0,
    ),
    (
        "overprov_device_free_blocks_ratio",
        "Free (spare) blocks as the vendor log reports them, 0-1 (OCP C0h Percent free blocks).",
        "gauge",
        "free_blocks_percent",
        0.01,
    ),
    (
        "overprov_device_capacity_bytes",
        "User capacity of the drive in bytes.",
        "gauge",
        "capacity_bytes",
        1.0,
    ),
)

RATED = (
    "overprov_device_rated_endurance_bytes",
    "Host bytes the drive is rated to take (TBW, or DWPD x capacity x 365 x warranty years), "
    "from --rated-tbw or --rated-dwpd.",
)


def parse_rated(tbw: list[str], dwpd: list[str], labels: list[str]) -> dict[str, Any]:
    """``--rated-tbw DEVICE=TBW`` and ``--rated-dwpd DEVICE=DWPD:YEARS`` → device label →
    rated host bytes (a number), or (DWPD, years) to multiply by the drive's own capacity."""
    rated: dict[str, Any] = {}
    for option, values in (("--rated-tbw", tbw), ("--rated-dwpd", dwpd)):
        for text in values:
            device, sep, value = text.partition("=")
            if not sep or device not in labels:
                raise ConfigError(
                    f"{option} {text!r}: expected DEVICE=VALUE with DEVICE one of the "
                    f"sources' device labels ({', '.join(labels)})"
                )
            if device in rated:
                raise ConfigError(f"{option} {text!r}: {device} is given a rating twice")
            if option == "--rated-tbw":
                rated[device] = parse_size_bytes(value, option, bare_unit="tb")
                continue
            per_day, sep, years = value.partition(":")
            try:
                pair = (float(per_day), float(years))
            except ValueError:
                pair = (float("nan"), 0.0)
            if not sep or not all(math.isfinite(x) and x > 0 for x in pair):
                raise ConfigError(f"{option} {text!r}: expected DEVICE=DWPD:YEARS, e.g. sda=0.3:5")
            rated[device] = pair
    return rated


def rated_bytes(rating: Any, capacity_bytes: float | None) -> float | None:
    """Rated host bytes: a TBW as given; DWPD x the drive's capacity x 365 x years."""
    if not isinstance(rating, tuple):
        return rating
    if not capacity_bytes:
        return None
    per_day, years = rating
    return per_day * capacity_bytes * 365 * years


class OverprovCollector:
    """A prometheus_client collector of one set of readings (:meth:`Sources.read_all`): a
    source that could not be read gives ``read_ok 0`` with its reason, the others report."""

    def __init__(self, readings: list[Reading], rated: dict[str, Any] | None = None):
        self.readings = readings
        self.rated = rated or {}

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

        ok = GaugeMetricFamily(
            "overprov_device_read_ok",
            "1 if the source's last read succeeded, 0 if not; reason says why not "
            "(" + ", ".join(REASONS) + "; docs/exporter.md).",
            labels=["device", "source", "reason"],
        )
        info = GaugeMetricFamily(
            "overprov_device_info",
            "Drive identity (value 1), as smartctl_exporter's smartctl_device.",
            labels=["device", "model_name", "serial_number", "protocol", "source"],
        )
        drives = []
        for r in self.readings:
            ok.add_metric([device_label(r.spec), r.spec, r.reason], 0.0 if r.reason else 1.0)
            if r.metrics is not None:
                d = r.metrics
                drives.append(d)
                info.add_metric(
                    [d.device, d.model_name, d.serial_number, d.protocol, d.source], 1.0
                )
        yield info
        yield ok
        for name, help_text, kind, attr, factor in METRICS:
            family_type = CounterMetricFamily if kind == "counter" else GaugeMetricFamily
            fam = family_type(name, help_text, labels=["device"])
            for d in drives:
                value = getattr(d, attr)
                if value is not None:
                    fam.add_metric([d.device], float(value) * factor)
            yield fam
        fam = GaugeMetricFamily(*RATED, labels=["device"])
        for d in drives:
            value = rated_bytes(self.rated.get(d.device), d.capacity_bytes)
            if value is not None:
                fam.add_metric([d.device], float(value))
        yield fam


class MetricsApp:
    """The WSGI app serving ``/metrics``: prometheus_client's own (content negotiation, gzip),
    over the current readings; the page is rendered again only when a reading changed (a scrape
    of unchanged sources costs a stat per file, not a render)."""

    def __init__(self, sources: Sources, rated: dict[str, Any] | None = None) -> None:
        self.sources = sources
        self.rated = rated or {}
        self._lock = threading.Lock()
        self._key: tuple[Any, ...] | None = None
        self._pages: dict[tuple[Any, ...], tuple[str, list[tuple[str, str]], bytes]] = {}

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        path = environ.get("PATH_INFO", "")
        if path != "/metrics":
            return _other_page(path, environ.get("REQUEST_METHOD", "GET"), start_response)
        from prometheus_client import CollectorRegistry, make_wsgi_app

        readings = self.sources.read_all()
        key = tuple((r.spec, r.reason, r.metrics) for r in readings)
        variant = tuple(
            environ.get(k, "")
            for k in (
                "REQUEST_METHOD",
                "PATH_INFO",
                "QUERY_STRING",
                "HTTP_ACCEPT",
                "HTTP_ACCEPT_ENCODING",
            )
        )
        with self._lock:  # one render at a time: the other requests then find its page
            if key != self._key:
                self._key, self._pages = key, {}
            page = self._pages.get(variant)
            if page is None:
                registry = CollectorRegistry(auto_describe=False)
                registry.register(OverprovCollector(readings, self.rated))
                got: list[Any] = []
                body = b"".join(make_wsgi_app(registry)(environ, lambda *a: got.extend(a[:2])))
                page = self._pages[variant] = (got[0], got[1], body)
        start_response(page[0], page[1])
        return [page[2]]


INDEX_PAGE = (
    b"<!DOCTYPE html><html><head><title>overprov exporter</title></head><body>"
    b"<h1>overprov exporter</h1><p><a href='/metrics'>Metrics</a></p></body></html>\n"
)


def _other_page(path: str, method: str, start_response: Any) -> list[bytes]:
    """``/``: a small page linking to /metrics (as Prometheus exporters serve); any other path:
    404, so a mistyped scrape path fails in Prometheus instead of reading metrics."""
    if path == "/":
        status, kind, body = "200 OK", "text/html; charset=utf-8", INDEX_PAGE
    else:
        status, kind = "404 Not Found", "text/plain; charset=utf-8"
        body = b"404 not found: the metrics are at /metrics\n"
    start_response(status, [("Content-Type", kind), ("Content-Length", str(len(body)))])
    return [] if method == "HEAD" else [body]


def parse_listen(text: str) -> tuple[str, int]:
    """``--listen HOST:PORT`` (an IPv6 host in brackets) as (host, port)."""
    m = re.fullmatch(r"(\[[0-9a-fA-F:]+\]|[^:]+):(\d+)", text)
    if m is None:
        raise ConfigError(f"--listen: expected HOST:PORT (e.g. 127.0.0.1:9633), got {text!r}")
    if int(m.group(2)) > 65535:
        raise ConfigError(
            f"--listen: port {int(m.group(2))} is above 65535, the largest ({text!r})"
        )
    return m.group(1).strip("[]"), int(m.group(2))


class _Server(ThreadingMixIn, WSGIServer):
    """One thread per connection, a deep listen queue, quiet about clients that go away."""

    daemon_threads = True
    request_queue_size = LISTEN_BACKLOG

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], (TimeoutError, ConnectionError)):
            return  # idle past the timeout, or gone: nothing to report
        super().handle_error(request, client_address)


class _Handler(WSGIRequestHandler):
    """No request log; ``timeout`` (set per server) closes a connection idle that long."""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        pass


def serve(
    sources: Sources,
    host: str,
    port: int,
    idle_timeout_s: float = 15.0,
    rated: dict[str, Any] | None = None,
) -> Any:
    """Start the HTTP server on a thread and return it (``server_port``: the port; 0 picks a
    free one). A connection that sends nothing for ``idle_timeout_s`` is closed."""
    try:
        import prometheus_client  # noqa: F401 - MetricsApp imports it on each miss
    except ImportError:
        raise ToolError(
            "the exporter needs prometheus_client: pip install 'overprov[exporter]'"
        ) from None
    from wsgiref.simple_server import make_server

    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0][0]
    server_class = type("ExporterServer", (_Server,), {"address_family": family})
    handler = type("ExporterHandler", (_Handler,), {"timeout": idle_timeout_s})
    server = make_server(host, port, MetricsApp(sources, rated), server_class, handler)
    threading.Thread(target=server.serve_forever, name="exporter-http", daemon=True).start()
    return server


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "exporter",
        help="Prometheus exporter: host/NAND bytes, WAF, wear and days left per drive",
        description=(
            "Serve Prometheus metrics for drives: host and NAND bytes written, lifetime WAF, "
            "percentage used, available spare and projected remaining life. Sources are saved "
            "files (--from-files, read again when they change) or devices (--device, read "
            "again once their reading is older than --cache). A source that cannot be read "
            "gives read_ok 0 with a reason; the others keep reporting. See docs/exporter.md "
            "for the metric names and example alert rules."
        ),
    )
    p.add_argument(
        "--listen",
        required=True,
        metavar="HOST:PORT",
        help="address to serve /metrics on, e.g. 127.0.0.1:9633 (port 0: any free port)",
    )
    p.add_argument(
        "--from-files",
        nargs="+",
        default=[],
        metavar="FILE",
        help="smartctl -j JSON files, nvme-cli NAND-write log outputs, or NVME_LOG,SMART_LOG "
        "pairs of one drive",
    )
    p.add_argument(
        "--device", action="append", default=[], metavar="DEV", help="a device (repeatable)"
    )
    p.add_argument(
        "--cache",
        default="60s",
        metavar="DURATION",
        help="how long a device's reading is served before smartctl/nvme-cli run again "
        "(default 60s; 0: every scrape)",
    )
    p.add_argument(
        "--read-timeout",
        default="10s",
        metavar="DURATION",
        help="time for one device's read, every smartctl/nvme-cli run included; a child still "
        "running then is killed and the drive reports read_ok 0, reason timeout (default 10s)",
    )
    p.add_argument(
        "--max-reads",
        type=units.COUNT,
        default=4,
        metavar="N",
        help="smartctl/nvme-cli processes running at once, across all devices (default 4)",
    )
    p.add_argument(
        "--idle-timeout",
        default="15s",
        metavar="DURATION",
        help="close a client connection that sends nothing for this long (default 15s)",
    )
    p.add_argument(
        "--rated-tbw",
        action="append",
        default=[],
        metavar="DEVICE=TBW",
        help="a drive's rated endurance in TB written (bare number: TB; e.g. nvme0=600 or "
        "sda=1.2PB), exported as overprov_device_rated_endurance_bytes (repeatable)",
    )
    p.add_argument(
        "--rated-dwpd",
        action="append",
        default=[],
        metavar="DEVICE=DWPD:YEARS",
        help="a drive's rating as drive writes per day over a warranty of YEARS years "
        "(e.g. sda=0.3:5): DWPD x its capacity x 365 x YEARS bytes (repeatable)",
    )
    p.add_argument(
        "--smartctl", default="smartctl", metavar="PATH", help="smartctl executable for --device"
    )
    p.add_argument(
        "--nvme", default="nvme", metavar="PATH", help="nvme-cli executable for --device"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    sources = [*args.from_files, *args.device]
    if not sources:
        raise ConfigError("give --from-files FILE... or --device DEV")
    # a file missing at start is no error: that drive exports read_ok 0 reason="unreadable"
    # (said on stderr by Sources) and reads again once the file appears (docs/exporter.md)
    labels = [device_label(s) for s in sources]
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise ConfigError(
            "two sources would export the same device label (named after the file or "
            f"device): {', '.join(repeated)}; rename a file"
        )
    rated = parse_rated(args.rated_tbw, args.rated_dwpd, labels)
    cache_s = (
        0.0 if args.cache.strip() in ("0", "0s") else parse_duration_seconds(args.cache, "--cache")
    )
    reads = Sources(
        sources,
        smartctl=args.smartctl,
        nvme=args.nvme,
        cache_s=cache_s,
        timeout_s=parse_duration_seconds(args.read_timeout, "--read-timeout"),
        max_reads=args.max_reads,
    )
    host, port = parse_listen(args.listen)
    idle_s = parse_duration_seconds(args.idle_timeout, "--idle-timeout")
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    reads.start()  # files read, devices' first reads started, before the first scrape
    server = serve(reads, host, port, idle_s, rated)
    print(f"overprov exporter: serving http://{host}:{server.server_port}/metrics", flush=True)
    try:
        # A signal may be delivered to any thread; Python runs its handler in the main thread
        # only when that thread wakes, so it wakes twice a second rather than blocking for ever.
        while not stop.wait(0.5):
            pass
    finally:
        # Ctrl-C or SIGTERM: no smartctl/nvme-cli child outlives the exporter.
        reads.close()
        server.shutdown()
        server.server_close()
    return 0
