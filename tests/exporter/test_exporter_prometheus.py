"""A real Prometheus server (Debian package prometheus) scrapes the exporter; the values it
stores equal what ``overprov smart --json`` prints for the same files, and it loads and
evaluates every rule of contrib/prometheus/overprov-rules.yml without an error."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from exporter_helpers import stop
from test_exporter_scrape import expected_values

PROMETHEUS = shutil.which("prometheus")
RULES = Path(__file__).resolve().parents[2] / "contrib" / "prometheus" / "overprov-rules.yml"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rules(base: str) -> list[dict]:
    """Every loaded rule, once each has been evaluated (at most 30 s)."""
    deadline = time.monotonic() + 30
    while True:
        with urllib.request.urlopen(f"{base}/api/v1/rules", timeout=10) as resp:
            groups = json.load(resp)["data"]["groups"]
        rules = [r for g in groups for r in g["rules"]]
        if rules and all(r.get("lastEvaluation", "").startswith("2") for r in rules):
            return rules
        if time.monotonic() > deadline:
            return rules
        time.sleep(0.5)


def _query(base: str, expr: str) -> list[dict]:
    url = f"{base}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
    with urllib.request.urlopen(url, timeout=10) as resp:
        body = json.load(resp)
    assert body["status"] == "success", body
    return body["data"]["result"]


@pytest.mark.slow
@pytest.mark.skipif(
    PROMETHEUS is None, reason="prometheus not installed (Debian package prometheus)"
)
def test_real_prometheus_scrapes_the_exporter(exporter, tmp_path):
    target = exporter.url.removeprefix("http://").removesuffix("/metrics")
    config = tmp_path / "prometheus.yml"
    config.write_text(
        "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
        f"rule_files: ['{RULES}']\n"
        "scrape_configs:\n  - job_name: overprov\n"
        f"    static_configs:\n      - targets: ['{target}']\n"
    )
    port = _free_port()
    log = (tmp_path / "prometheus.log").open("w")
    proc = subprocess.Popen(
        [
            PROMETHEUS,
            f"--config.file={config}",
            f"--storage.tsdb.path={tmp_path / 'tsdb'}",
            f"--web.listen-address=127.0.0.1:{port}",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        result: list[dict] = []
        while time.monotonic() < deadline:
            try:
                result = _query(base, "overprov_device_write_amplification_ratio")
            except OSError:
                result = []
            if result:
                break
            time.sleep(0.5)
        assert result, (tmp_path / "prometheus.log").read_text()[-2000:]
        assert _query(base, 'up{job="overprov"}')[0]["value"][1] == "1"
        stored = {
            r["metric"]["device"]: float(r["value"][1])
            for r in _query(base, "overprov_device_write_amplification_ratio")
        }
        host = {
            r["metric"]["device"]: float(r["value"][1])
            for r in _query(base, "overprov_device_host_written_bytes_total")
        }
        expected_waf = {}
        expected_host = {}
        for spec in exporter.sources:
            device, values = expected_values(spec)
            if values["overprov_device_write_amplification_ratio"] is not None:
                expected_waf[device] = values["overprov_device_write_amplification_ratio"]
            if values["overprov_device_host_written_bytes_total"] is not None:
                expected_host[device] = float(values["overprov_device_host_written_bytes_total"])
        assert stored == expected_waf
        assert host == expected_host
        rules = _rules(base)
        assert len(rules) == 10
        assert all(r["health"] == "ok" for r in rules), [r for r in rules if r["health"] != "ok"]
    finally:
        stop(proc)
        log.close()
