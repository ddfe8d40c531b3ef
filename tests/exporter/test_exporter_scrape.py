"""The exporter scraped over HTTP, parsed with prometheus_client's text parser, and every value
checked against what ``overprov smart --json`` / ``overprov smart-nvme --json`` print for the
same file."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from exporter_helpers import CONSTRUCTED_SMART_LOG, NVME_FILES, SMART_FILES, overprov_json, scrape
from prometheus_client.parser import text_string_to_metric_families


def expected_values(spec: str) -> tuple[str, dict[str, float | None]]:
    """(device label, metric → value) from the CLI's JSON report of the same input."""
    if "," in spec:
        nvme_log, smart_log = spec.split(",")
        rep = overprov_json(
            "smart-nvme", "--nvme-log", nvme_log, "--smart-log", smart_log, "--json", "-"
        )
        spare = rep["smart_log"]["available_spare_percent"]
    elif Path(spec).parent.name == "smart":
        rep = overprov_json("smart", spec, "--json", "-")
        raw = json.loads(Path(spec).read_text())
        spare = (raw.get("nvme_smart_health_information_log") or {}).get("available_spare")
    else:
        rep = overprov_json("smart-nvme", "--nvme-log", spec, "--json", "-")
        spare = None
    snap = rep["snapshot"]
    counters = snap["waf_counters"]
    # Micron counts NAND pages of undocumented size, not bytes: no NAND-bytes series then.
    nand = counters["nand"] if counters and counters["unit"] == "bytes" else None
    if nand is None and "nvme_log" in rep:
        nand = next(c["bytes"] for c in rep["nvme_log"]["counters"] if c["which"] == "nand")
    days = rep["endurance"]["days_left"]
    hours = snap["power_on_hours"]
    device = "+".join(
        Path(p).name.removesuffix(".json").removesuffix(".txt") for p in spec.split(",")
    )
    return device, {
        "overprov_device_host_written_bytes_total": rep["host_bytes"],
        "overprov_device_nand_written_bytes_total": nand,
        "overprov_device_write_amplification_ratio": rep["waf"],
        "overprov_device_percentage_used_ratio": None
        if snap["percentage_used"] is None
        else snap["percentage_used"] * 0.01,
        "overprov_device_available_spare_ratio": None if spare is None else spare * 0.01,
        "overprov_device_projected_remaining_seconds": None if days is None else days * 86400,
        "overprov_device_power_on_seconds_total": None if hours is None else hours * 3600,
        "overprov_device_capacity_bytes": snap.get("capacity_bytes") or None,
    }


@pytest.fixture(scope="module")
def scraped(exporter) -> dict[tuple[str, str], float]:
    text = scrape(exporter.url)
    samples = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name in ("overprov_device_info", "overprov_device_read_ok"):
                continue
            key = (s.name, s.labels["device"])
            assert key not in samples, f"two series for {key}"
            samples[key] = s.value
    return samples


def test_every_source_read(exporter):
    text = scrape(exporter.url)
    ok = {
        s.labels["source"]: s.value
        for f in text_string_to_metric_families(text)
        for s in f.samples
        if s.name == "overprov_device_read_ok"
    }
    assert set(ok) == set(exporter.sources)
    assert all(v == 1.0 for v in ok.values()), [k for k, v in ok.items() if v != 1.0]
    assert len(exporter.sources) == len(SMART_FILES) + len(NVME_FILES) + 1


def test_values_equal_smart_json(exporter, scraped):
    checked = 0
    for spec in exporter.sources:
        device, values = expected_values(spec)
        for name, value in values.items():
            got = scraped.get((name, device))
            if value is None:
                assert got is None, (name, device, got)  # not reported: no series
            else:
                assert got == float(value), (name, device, got, value)
                checked += 1
    # every file gives at least one value; most give several
    assert checked >= len(exporter.sources)


def test_nvme_pair_waf_by_hand(exporter, scraped):
    device = "autoval-ssd-ocp-smart-add-log+constructed-smart-log"
    # NAND 39,074,645,999,616 B (OCP C0h) / host 50,000,000 × 512,000 B (constructed SMART log)
    host = CONSTRUCTED_SMART_LOG["data_units_written"] * 512_000
    assert scraped[("overprov_device_host_written_bytes_total", device)] == host
    assert scraped[("overprov_device_write_amplification_ratio", device)] == pytest.approx(
        39_074_645_999_616 / 25_600_000_000_000
    )
    assert scraped[("overprov_device_available_spare_ratio", device)] == 0.97


def test_a_sata_waf_by_hand(scraped):
    """Intel DC S3520 240 GB (sat-...SSDSC2BB240G7-sdg.json): WAF = (243 NAND × 32 MiB) /
    (241 host × 32 MiB), worked in tests/smart; here only that the exporter carries it."""
    device = "sat-Intel_730_and_DC_S35x0_3610_3700_Series_SSDs-INTEL_SSDSC2BB240G7-sdg"
    nand = scraped[("overprov_device_nand_written_bytes_total", device)]
    host = scraped[("overprov_device_host_written_bytes_total", device)]
    assert nand % (32 * 2**20) == 0 and host % (32 * 2**20) == 0
    assert scraped[("overprov_device_write_amplification_ratio", device)] == pytest.approx(
        nand / host
    )


def test_only_metrics_and_the_index_page_are_served(exporter):
    """/metrics has the metrics, / a page linking to it, any other path 404 (a mistyped
    scrape path must fail in Prometheus, not read metrics)."""
    base = exporter.url.removesuffix("/metrics")
    assert "overprov_device_read_ok" in scrape(exporter.url)
    with urllib.request.urlopen(base + "/", timeout=30) as resp:
        page = resp.read().decode()
        assert resp.status == 200 and resp.headers["Content-Type"].startswith("text/html")
    assert "href='/metrics'" in page and "overprov_device" not in page
    for path in ("/metric", "/metrics/", "/favicon.ico", "/anything/metrics"):
        with pytest.raises(urllib.error.HTTPError) as exc:
            urllib.request.urlopen(base + path, timeout=30)
        assert exc.value.code == 404, path
        assert b"overprov_device" not in exc.value.read()
        exc.value.close()
