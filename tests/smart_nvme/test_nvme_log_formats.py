"""Logs we hold no real sample of (Endurance Group log, Intel/Solidigm CAh) and the SMART log,
read from text laid out exactly as nvme-cli prints it. The layouts are copied from nvme-cli's
print statements, named at each test; the numbers are made up for the test, so these check
the parsing and the unit arithmetic, not any drive."""

from __future__ import annotations

import json

import pytest
from overprov.smart.nvme_logs import NvmeLogError, load_sources, parse_nvme_log
from overprov.smart.nvme_smart_log import parse_smart_log
from overprov.smart.nvme_waf import nvme_report


def test_sources_table_is_complete():
    sources = load_sources()
    ids = [s.id for s in sources]
    assert len(ids) == len(set(ids))
    for s in sources:
        assert s.citation and s.command[0] == "nvme" and "{device}" in s.command
        # one NAND counter, or none in a log of wear and spare counters (matched by its first)
        assert [c.which for c in s.counters].count("nand") in (0, 1)
        assert s.counters[0].which not in ("host", "capacity_total", "capacity_unallocated")
        for c in s.counters:
            assert c.unit
            assert c.unit_bytes is None or c.unit_bytes >= 1


# nvme-cli v2.16 nvme-print-stdout.c stdout_endurance_log: printf("media_units_written\t: %s\n")
# with uint128_t_to_l10n_string (thousands separators).
ENDURANCE_TEXT = """Endurance Group Log for NVME device:nvme0 Group ID:1
critical_warning	: 0
avl_spare		: 100
percent_used		: 4%
endurance_estimate	: 0
data_units_read		: 81,234
data_units_written	: 120,345
media_units_written	: 301,002
host_read_cmds		: 1,000
"""


def test_endurance_group_text():
    reading = parse_nvme_log(ENDURANCE_TEXT, "endurance.txt")
    assert reading.source.id == "endurance-group"
    nand, host = reading.counter("nand"), reading.counter("host")
    # units of 10^9 bytes: 301,002 × 1,000,000,000 B and 120,345 × 1,000,000,000 B
    assert nand.bytes == 301_002 * 1_000_000_000
    assert host.bytes == 120_345 * 1_000_000_000
    report = nvme_report(reading, None)
    # WAF = 301,002 / 120,345 = 2.50116...; both counters from the same log
    assert report["waf"] == pytest.approx(301_002 / 120_345)
    assert report["waf"] == pytest.approx(2.50116, abs=1e-5)
    assert report["host_bytes"] == 120_345_000_000_000


def test_endurance_group_json_uint128_as_strings():
    # nvme-cli prints 128-bit counters through obj_add_uint128 (a string in newer versions).
    data = {"data_units_written": "120345", "media_units_written": "301002", "percent_used": 4}
    reading = parse_nvme_log(json.dumps(data), "endurance.json")
    assert reading.format == "json"
    assert nvme_report(reading, None)["waf"] == pytest.approx(301_002 / 120_345)


# nvme-cli plugins/intel/intel-nvme.c print_intel_smart_log_items:
# printf("%#x    %-45s  %3d         %"PRIu64"\n", key, id_to_key(key), norm, raw)
INTEL_ITEM = "%#x    %-45s  %3d         %d\n"
INTEL_TEXT = (
    "Additional Smart Log for NVME device:nvme0 namespace-id:ffffffff\n"
    "ID             KEY                                 Normalized     Raw\n"
    + INTEL_ITEM % (0xAB, "program_fail_count", 100, 0)  # noqa: UP031 (C printf, verbatim)
    + INTEL_ITEM % (0xF4, "nand_bytes_written", 100, 5_120_000)  # noqa: UP031
    + INTEL_ITEM % (0xF5, "host_bytes_written", 100, 2_048_000)  # noqa: UP031
)
# Older nvme-cli (as quoted in CacheLib NandWrites.cpp): "nand_bytes_written : 100% sectors: N"
INTEL_TEXT_OLD = (
    "nand_bytes_written              : 100%       sectors: 5120000\n"
    "host_bytes_written              : 100%       sectors: 2048000\n"
)
# plugins/intel/intel-nvme.c show_intel_smart_log_jsn: "Device stats" → {normalized, raw}
INTEL_JSON = {
    "Intel Smart log": "nvme0",
    "Device stats": {
        "nand_bytes_written": {"normalized": 100, "raw": 5_120_000},
        "host_bytes_written": {"normalized": 100, "raw": 2_048_000},
    },
}


@pytest.mark.parametrize("text", [INTEL_TEXT, INTEL_TEXT_OLD, json.dumps(INTEL_JSON)])
def test_intel_ca(text):
    reading = parse_nvme_log(text, "intel")
    assert reading.source.id == "intel-ca"
    if len(reading.candidates) > 1:
        # the older 'sectors:' text and the 'Device stats' JSON are printed alike by the
        # DapuStor, ScaleFlux and Shannon plugins, which do not state their unit: no bytes
        # unless the log is named (as a live read through `nvme intel smart-log-add` does)
        assert reading.candidates == ("intel-ca", "intel-layout-sectors")
        assert reading.counter("nand").bytes is None
        assert nvme_report(reading, None)["waf"] == pytest.approx(2.5)
        reading = parse_nvme_log(text, "intel", "intel-ca")
    # 32 MiB units: 5,120,000 × 33,554,432 B and 2,048,000 × 33,554,432 B
    assert reading.counter("nand").bytes == 5_120_000 * 33_554_432
    assert reading.counter("host").bytes == 2_048_000 * 33_554_432
    report = nvme_report(reading, None)
    assert report["waf"] == pytest.approx(5_120_000 / 2_048_000)  # = 2.5
    assert "× 33,554,432 B" in report["waf_formula"]


# nvme-cli v2.16 nvme-print-stdout.c stdout_smart_log:
# printf("Data Units Written\t\t\t: %s (%s)\n"), printf("percentage_used\t\t\t\t: %u%%\n") ...
SMART_TEXT = """Smart Log for NVME device:nvme0 namespace-id:ffffffff
critical_warning				: 0
temperature				: 37 °C (310 Kelvin)
available_spare				: 98%
available_spare_threshold		: 10%
percentage_used				: 7%
Data Units Read				: 9,876,543 (5.06 TB)
Data Units Written			: 12,345,678 (6.32 TB)
power_on_hours				: 17,520
"""


def test_smart_log_text():
    smart = parse_smart_log(SMART_TEXT, "smart.txt")
    assert smart.format == "nvme-cli text"
    # 12,345,678 data units × 512,000 B = 6,320,987,136,000 B
    assert smart.host_writes.bytes == 12_345_678 * 512_000 == 6_320_987_136_000
    assert smart.percentage_used == 7
    assert smart.available_spare_percent == 98
    assert smart.power_on_hours == 17_520


def test_smart_log_is_not_a_nand_log():
    with pytest.raises(NvmeLogError, match="no NAND-write counter"):
        parse_nvme_log(SMART_TEXT, "smart.txt")


def test_errors_name_the_file():
    with pytest.raises(NvmeLogError, match=r"broken\.json: line 1: not valid JSON"):
        parse_nvme_log('{"Physical media units written": ', "broken.json")
    with pytest.raises(NvmeLogError, match=r"x\.json: no data_units_written"):
        parse_smart_log('{"temperature": 300}', "x.json")
    bad = {"Physical media units written": {"hi": 0, "lo": "twelve"}}
    with pytest.raises(NvmeLogError, match=r"c0\.json: \"Physical media units written\"\.lo"):
        parse_nvme_log(json.dumps(bad), "c0.json")
