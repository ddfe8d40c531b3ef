"""Every real NVMe log sample in tests/data/nvme-vendor (see its README and *.source.txt:
captures kept as test mocks by facebook/CacheLib, Apache-2.0, and by
opencomputeproject/ocp-diag-autoval-ssd, MIT), read by overprov.smart.nvme_logs / nvme_waf.

Each expected figure is worked by hand here from the raw numbers printed in the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from overprov.smart.nvme_logs import parse_nvme_log
from overprov.smart.nvme_waf import nvme_waf_from_files

DATA = Path(__file__).resolve().parent.parent / "data" / "nvme-vendor"
SAMPLES = sorted(
    p.name for p in DATA.iterdir() if p.suffix in (".txt", ".json") and ".source" not in p.name
)

# file -> (source id, NAND bytes worked by hand from the printed raw value × unit).
# OCP C0h / WDC print the 128-bit counter as two 64-bit halves "hi lo": bytes = hi × 2^64 + lo.
NAND_BY_HAND: dict[str, tuple[str, int | None]] = {
    # "Physical media units written": {"hi": 0, "lo": 39074645999616}, unit bytes
    "autoval-ssd-ocp-smart-add-log.json": ("ocp-c0", 0 * 2**64 + 39_074_645_999_616 * 1),
    # "Physical media units written -   	        0 88403820249088", unit bytes
    "cachelib-ocp-smart-add-log-hfs.txt": ("ocp-c0", 0 * 2**64 + 88_403_820_249_088 * 1),
    # "Physical media units written -   	        0 80410014056448", unit bytes
    "cachelib-ocp-smart-add-log-wus6a7619.txt": ("ocp-c0", 0 * 2**64 + 80_410_014_056_448 * 1),
    # "Physical media units written ... : 0 609651339018240", unit bytes
    "cachelib-wdc-vs-smart-add-log-c0.txt": ("wdc-c0", 0 * 2**64 + 609_651_339_018_240 * 1),
    # "[015:000] PhysicallyWrittenBytes : 5357954930143232", unit bytes
    "cachelib-samsung-vs-smart-add-log-pm983.txt": ("samsung-vs", 5_357_954_930_143_232 * 1),
    # "[015:000] PhysicallyWrittenBytes : 35061362294784", unit bytes
    "cachelib-samsung-vs-smart-add-log-pm983a.txt": ("samsung-vs", 35_061_362_294_784 * 1),
    # "[015:000] PhysicallyWrittenBytes : 241393664", unit bytes
    "cachelib-samsung-vs-smart-add-log-pm9a3.txt": ("samsung-vs", 241_393_664 * 1),
    # "Physical(NAND) bytes written : 157,035,510,104,064", unit bytes
    "cachelib-liteon-ssstc-vs-smart-add-log.txt": ("liteon-vs", 157_035_510_104_064 * 1),
    # "Total data written to NAND : 1133997.9 GiB" = 11339979 / 10 × 2^30 B
    #   = 12,176,209,735,581,696 / 10 = 1,217,620,973,558,169.6 → rounded to 1,217,620,973,558,170
    "cachelib-toshiba-vs-smart-add-log.txt": ("toshiba-ca", (11_339_979 * 2**30 + 5) // 10),
    # "Physical Media Units Written - TLC : 484533969": unit not documented -> no bytes
    "cachelib-skhms-vs-nand-stats.txt": ("skhms-nand-stats", None),
}


def test_every_sample_is_covered():
    assert set(SAMPLES) == set(NAND_BY_HAND)
    for name in SAMPLES:
        assert (DATA / name.replace(".txt", ".source.txt").replace(".json", ".source.txt")).exists()
    assert (DATA / "LICENSE.CacheLib").exists()
    assert (DATA / "LICENSE.ocp-diag-autoval-ssd").exists()


@pytest.mark.parametrize("name", sorted(NAND_BY_HAND))
def test_nand_bytes_by_hand(name):
    source_id, nand_bytes = NAND_BY_HAND[name]
    reading = parse_nvme_log((DATA / name).read_text(), name)
    assert reading.source.id == source_id
    assert reading.format == ("json" if name.endswith(".json") else "text")
    nand = reading.counter("nand")
    assert nand is not None
    assert nand.bytes == nand_bytes
    if nand_bytes is not None:
        assert f"{nand_bytes:,} B" in nand.arithmetic


def test_toshiba_arithmetic_is_shown():
    reading = parse_nvme_log((DATA / "cachelib-toshiba-vs-smart-add-log.txt").read_text())
    nand = reading.counter("nand")
    assert nand.raw == "1133997.9" and nand.unit == "GiB" and nand.unit_bytes == 2**30
    assert nand.arithmetic == "1133997.9 GiB × 1,073,741,824 B = 1,217,620,973,558,170 B"
    assert nand.where == "line 3"  # the file starts with an empty line and a header line


def test_skhms_unit_not_documented():
    reading = parse_nvme_log((DATA / "cachelib-skhms-vs-nand-stats.txt").read_text())
    nand = reading.counter("nand")
    assert nand.count == 484_533_969 and nand.bytes is None
    assert "not documented" in nand.unit
    report = nvme_waf_from_files(DATA / "cachelib-skhms-vs-nand-stats.txt")
    assert report["waf"] is None
    assert any("no byte count and no WAF" in n for n in report["snapshot"]["notes"])


@pytest.mark.parametrize("name", sorted(NAND_BY_HAND))
def test_no_sample_has_both_counters(name):
    """None of these logs counts host writes: WAF needs the SMART log read at the same time,
    and the projects that published them did not publish one. The report says which is missing.
    """
    reading = parse_nvme_log((DATA / name).read_text(), name)
    assert reading.counter("host") is None
    report = nvme_waf_from_files(DATA / name)
    assert report["waf"] is None
    assert report["snapshot"]["host_writes"] is None
    notes = " ".join(report["snapshot"]["notes"])
    if NAND_BY_HAND[name][1] is not None:
        assert "has no host-write counter" in notes and "--smart-log" in notes
    assert report["nvme_log"]["source"] == NAND_BY_HAND[name][0]
    json.dumps(report)  # serialisable as --json prints it


# A SMART log constructed for this test (not from a drive) in the format nvme-cli's
# nvme-print-json.c prints: it checks how the two logs combine, not any drive's WAF.
CONSTRUCTED_SMART_LOG = {
    "critical_warning": 0,
    "temperature": 310,
    "avail_spare": 100,
    "spare_thresh": 10,
    "percent_used": 2,
    "data_units_written": 50_000_000,
    "power_on_hours": 8760,
}


def test_ocp_sample_with_a_smart_log(tmp_path):
    smart_log = tmp_path / "smart-log.json"
    smart_log.write_text(json.dumps(CONSTRUCTED_SMART_LOG))
    report = nvme_waf_from_files(DATA / "autoval-ssd-ocp-smart-add-log.json", smart_log)
    # host = 50,000,000 data units × 512,000 B = 25,600,000,000,000 B (25.6 TB)
    # WAF = 39,074,645,999,616 B / 25,600,000,000,000 B = 1.52635...
    host = 50_000_000 * 512_000
    assert host == 25_600_000_000_000
    nand = 39_074_645_999_616
    assert report["host_bytes"] == host
    assert report["waf"] == pytest.approx(39_074_645_999_616 / 25_600_000_000_000)
    assert report["waf"] == pytest.approx(1.52635, abs=1e-5)
    assert report["snapshot"]["waf_counters"]["nand"] == nand
    assert "(0xC0 Physical media units written)" in report["waf_formula"]
    assert "× 512,000 B" in report["waf_formula"]
    assert report["snapshot"]["percentage_used"] == 2
    assert report["smart_log"]["available_spare_percent"] == 100
    # days left = 365 days × (100 − 2) / 2 = 17,885 days
    assert report["endurance"]["days_left"] == pytest.approx(365 * 98 / 2)
