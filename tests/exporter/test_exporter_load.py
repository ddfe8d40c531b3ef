"""The exporter under load on 127.0.0.1: 20 clients scrape at once, a bounded number of times
each, over every real sample and one poisoned source; every scrape is whole (HTTP 200, every
source listed) and none waits on the poisoned source: the 99th percentile stays under a second
(a scrape that waited on it took seconds: p99 6.2–8.1 s). The figure itself (69–151 ms on a
2-core VM) is a measurement, in docs/exporter.md, not a bound here: a CI machine running the
Rust tests beside this one reached 200 ms."""

from __future__ import annotations

import http.client
import threading
import time

import pytest
from exporter_helpers import real_sources, start_exporter, stop
from test_exporter_isolation import poisoned_files, read_ok

CLIENTS = 20
REQUESTS_PER_CLIENT = 40
P99_LIMIT_S = 1.0


def percentile(samples: list[float], q: float) -> float:
    """The q-quantile by the nearest-rank method."""
    ordered = sorted(samples)
    rank = max(1, -(-len(ordered) * q // 1))
    return ordered[int(rank) - 1]


@pytest.mark.slow
def test_scrapes_stay_whole_and_none_waits_on_a_poisoned_source(tmp_path):
    sources, _ = real_sources(tmp_path)
    poisoned = next(iter(poisoned_files(tmp_path)))  # the 100,000-deep nested JSON
    proc, url = start_exporter("--from-files", *sources, poisoned)
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    latencies: list[float] = []
    failures: list[str] = []
    bodies: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(CLIENTS)

    def client() -> None:
        start.wait()
        for _ in range(REQUESTS_PER_CLIENT):
            t0 = time.perf_counter()
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                conn.request("GET", "/metrics")
                resp = conn.getresponse()
                body = resp.read()
                conn.close()
            except OSError as exc:
                with lock:
                    failures.append(repr(exc))
                continue
            took = time.perf_counter() - t0
            with lock:
                latencies.append(took)
                if resp.status != 200:
                    failures.append(f"HTTP {resp.status}")
                elif len(bodies) < 3:
                    bodies.append(body.decode())

    try:
        threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
        wall0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        wall = time.perf_counter() - wall0
    finally:
        stop(proc)
    assert not failures, failures[:5]
    assert len(latencies) == CLIENTS * REQUESTS_PER_CLIENT
    for body in bodies:
        ok = read_ok(body)
        assert ok[poisoned] == (0.0, "bad_input")
        assert all(ok[s] == (1.0, "") for s in sources)
    p50, p99 = percentile(latencies, 0.50), percentile(latencies, 0.99)
    print(
        f"{len(latencies)} scrapes by {CLIENTS} clients in {wall:.2f} s: "
        f"p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms"
    )
    assert p99 < P99_LIMIT_S, f"p99 {p99 * 1000:.1f} ms (p50 {p50 * 1000:.1f} ms)"
