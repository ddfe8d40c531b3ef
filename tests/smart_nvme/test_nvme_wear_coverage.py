"""Erase counts, spare and the further NAND/host-write logs of the sources table
(python/overprov/data/nvme_log_sources.toml), each row read from an output: a real capture
(tests/data/nvme-vendor) or one written by the plugin's own print code
(tests/data/nvme-vendor-from-source, see its README). Every figure expected here is worked by
hand from the numbers in those files and the units the plugins state.

Also: a log without a NAND counter is matched by its first counter; packed values are split by
their bits; locale-grouped 128-bit values are read; a counter of unstated unit gives no bytes;
NAND below host is shown; zero host writes give no division; the exporter publishes the rows.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from overprov.exporter.cli import OverprovCollector
from overprov.exporter.reads import Reading, read_file_source
from overprov.smart.nvme_logs import (
    BYTE_KINDS,
    NvmeLogError,
    load_sources,
    parse_nvme_log,
)
from overprov.smart.nvme_waf import nvme_report, nvme_waf_from_files, read_device_logs

DATA = Path(__file__).resolve().parents[1] / "data"
REAL = DATA / "nvme-vendor"
FROM_SOURCE = DATA / "nvme-vendor-from-source"
GIB = 2**30

# file -> (log it is read as, {counter kind: count}); the intel-ca wear_leveling_count line
# packs min 90, max 140, avg 115 as 90 + 140·2^16 + 115·2^32 = 493,930,414,170
WEAR_FROM_SOURCE: dict[str, tuple[str, dict[str, int]]] = {
    "ocp-smart-add-log-v5.txt": (
        "ocp-c0",
        {
            "nand": 2_400_000_000_000,
            "erase_max": 140,
            "erase_min": 90,
            "erase_avg": 115,
            "spare_percent": 12,
        },
    ),  # fmt: skip
    "wdc-vs-smart-add-log-ca.txt": (
        "wdc-ca-perf",
        {"erase_max": 1480, "erase_min": 1020, "spare_percent": 7},
    ),
    "wdc-vs-smart-add-log-d0.txt": ("wdc-d0-lifetime", {"spare_blocks": 312}),
    "intel-smart-log-add.txt": ("intel-ca", {"erase_min": 90, "erase_max": 140, "erase_avg": 115}),
    "solidigm-smart-log-add.txt": (
        "intel-ca",
        {"nand": 62_000, "host": 31_000, "erase_min": 12, "erase_max": 31, "erase_avg": 20},
    ),
    "dapustor-smart-log-add.txt": (
        "intel-layout-sectors",
        {"erase_min": 410, "erase_max": 530, "erase_avg": 470},
    ),
    "ymtc-smart-log-add.txt": ("ymtc-ca", {"erase_min": 30, "erase_max": 52, "erase_avg": 41}),
    "memblaze-smart-log-add.txt": (
        "memblaze-raisin",
        {"erase_min": 5, "erase_max": 9, "erase_avg": 7},
    ),
    "ssstc-smart-log-add.txt": ("ssstc-ca", {"erase_min": 200, "erase_max": 260, "erase_avg": 231}),
    # "Flash GB erased": 0x13d52 = 81,234
    "seagate-vs-smart-add-log.txt": ("seagate-vs-ext-smart", {"erased": 81_234}),
    # User Data Erase Counts 0x0000005a0000008c: max (bits 0-31) 0x8c = 140, min 0x5a = 90
    "seagate-vs-smart-add-log-c0.txt": (
        "seagate-c0",
        {"nand": 2_400_000_000_000, "erase_max": 140, "erase_min": 90, "spare_percent": 12},
    ),
    # the JSON prints User Data Erase Counts through a 32-bit int: the low half (max) only
    "seagate-vs-smart-add-log-c0.json": (
        "seagate-c0",
        {"nand": 2_400_000_000_000, "erase_max": 140, "spare_percent": 12},
    ),
    "wdc-vs-cloud-log.txt": (
        "wdc-cloud-c0",
        {"nand": 2_400_000_000_000, "erase_min": 90, "erase_max": 140, "spare_percent": 12},
    ),
    "micron-vs-smart-add-log-c0.txt": (
        "micron-ocp-c0",
        {"nand": 2_400_000_000_000, "erase_max": 140, "erase_min": 90, "spare_percent": 12},
    ),
    # TLC 0x2003b4d8800 + SLC 0x2e90edd000 = 2.2e12 + 2e11
    "micron-vs-nand-stats-hyperscale.txt": (
        "micron-hyperscale-c0",
        {"nand": 2_400_000_000_000, "erase_min": 90, "erase_max": 140, "erase_avg": 115},
    ),
    # NAND TLC 5,000,000 + SLC 1,000,000; host SLC 500,000 + TLC 2,500,000
    "micron-vs-vendor-telemetry-log.txt": (
        "micron-c6-telemetry",
        {"nand": 6_000_000, "host": 3_000_000},
    ),
    "micron-vs-smart-ext-log-e1.txt": (
        "micron-e1",
        {"erase_avg": 115, "erase_min": 90, "erase_max": 140, "spare_blocks": 45},
    ),
    "ibm-crit-log.txt": (
        "ibm-f0",
        {
            "nand": 6_000_000,
            "host": 2_400_000,
            "erased": 9_000_000,
            "erase_max": 140,
            "erase_min": 90,
            "erase_avg": 115,
            "spare_blocks": 950,
        },
    ),  # fmt: skip
    "memblaze-smart-log-add-old.txt": (
        "memblaze-old",
        {"erase_avg": 100, "erase_min": 80, "erase_max": 130, "host": 2048},
    ),
    "wdc-vs-smart-add-log-ext-cloud.txt": (
        "wdc-ext-smart-cloud",
        {
            "nand": 2_400_000_000_000,
            "erase_min": 90,
            "erase_max": 140,
            "erase_avg": 115,
            "spare_percent": 12,
        },
    ),  # fmt: skip
    "wdc-vs-nand-stats.txt": ("wdc-nand-stats", {"nand": 2_400_000_000_000}),
    "wdc-vs-nand-stats-v3.txt": (
        "wdc-nand-stats-v3",
        {"nand": 4_800_000, "erase_min": 90, "erase_max": 140, "spare_percent": 12},
    ),
    "fdp-stats.txt": (
        "fdp-stats",
        {"nand": 5_200_000_000_000, "host": 4_000_000_000_000, "erased": 5_100_000_000_000},
    ),
}
# the -o json outputs of these print the same figures as their text
SAME_IN_JSON = (
    "ocp-smart-add-log-v5.txt",
    "solidigm-smart-log-add.txt",
    "seagate-vs-smart-add-log.txt",
    "micron-vs-smart-add-log-c0.txt",
    "micron-vs-nand-stats-hyperscale.txt",
    "micron-vs-vendor-telemetry-log.txt",
    "micron-vs-smart-ext-log-e1.txt",
    "fdp-stats.txt",
)
WEAR_FROM_SOURCE.update({n.replace(".txt", ".json"): WEAR_FROM_SOURCE[n] for n in SAME_IN_JSON})

# real captures (tests/data/nvme-vendor, each with its .source.txt and licence)
WEAR_REAL: dict[str, tuple[str, dict[str, int]]] = {
    "cachelib-ocp-smart-add-log-hfs.txt": (
        "ocp-c0",
        {"erase_max": 37, "erase_min": 28, "spare_percent": 100},
    ),
    "cachelib-ocp-smart-add-log-wus6a7619.txt": (
        "ocp-c0",
        {"erase_max": 34, "erase_min": 25, "spare_percent": 100},
    ),
    "autoval-ssd-ocp-smart-add-log.json": (
        "ocp-c0",
        {"erase_max": 45, "erase_min": 16, "spare_percent": 1},
    ),
    "cachelib-wdc-vs-smart-add-log-c0.txt": (
        "wdc-c0",
        {"erase_max": 293, "erase_min": 197, "spare_percent": 1},
    ),
    "cachelib-samsung-vs-smart-add-log-pm983.txt": (
        "samsung-vs",
        {"erase_min": 2291, "erase_max": 2497, "spare_percent": 0},
    ),
    "cachelib-samsung-vs-smart-add-log-pm9a3.txt": (
        "samsung-vs",
        {"erase_min": 0, "erase_max": 1, "spare_percent": 96},
    ),
    "cachelib-liteon-ssstc-vs-smart-add-log.txt": (
        "liteon-vs",
        {"erase_max": 142, "erase_min": 109, "spare_percent": 100},
    ),
    "cachelib-toshiba-vs-smart-add-log.txt": (
        "toshiba-ca",
        {"erase_max": 570, "erase_min": 470, "spare_percent": 13},
    ),
    "cachelib-skhms-vs-nand-stats.txt": (
        "skhms-nand-stats",
        {"erase_min": 433, "erase_max": 484, "spare_percent": 68},
    ),
}

ROWS = [
    (where, name, which, count)
    for where, table in (("from-source", WEAR_FROM_SOURCE), ("real", WEAR_REAL))
    for name, (_, counts) in table.items()
    for which, count in counts.items()
]


def _read(where: str, name: str):
    table = WEAR_FROM_SOURCE if where == "from-source" else WEAR_REAL
    source_id = table[name][0]
    path = (FROM_SOURCE if where == "from-source" else REAL) / name
    return source_id, parse_nvme_log(path.read_text(), name, source_id)


@pytest.mark.parametrize(("where", "name", "which", "count"), ROWS)
def test_each_row_is_read_from_its_output(where, name, which, count):
    source_id, reading = _read(where, name)
    assert reading.source.id == source_id
    found = reading.counter(which)
    assert found is not None, (name, which)
    assert found.count == count


def test_every_wear_and_spare_row_of_the_table_is_read():
    read = set()
    for where, name, _which, _count in ROWS:
        source_id, reading = _read(where, name)
        read |= {(source_id, c.field, c.which) for c in reading.counters}
    table = {
        (s.id, c.field, c.which)
        for s in load_sources()
        for c in s.counters
        if c.which not in ("nand", "host", "capacity_total", "capacity_unallocated")
    }
    assert table - read == set()


@pytest.mark.parametrize(
    "name",
    [
        "seagate-vs-smart-add-log-c0.txt",
        "wdc-vs-cloud-log.txt",
        "wdc-vs-smart-add-log-ext-cloud.txt",
        "wdc-vs-nand-stats.txt",
        "wdc-vs-nand-stats-v3.txt",
        "micron-vs-smart-add-log-c0.txt",
        "micron-vs-smart-add-log-c0.json",
        "micron-vs-smart-ext-log-e1.json",
        "micron-vs-nand-stats-hyperscale.txt",
        "micron-vs-nand-stats-hyperscale.json",
        "micron-vs-vendor-telemetry-log.txt",
        "micron-vs-vendor-telemetry-log.json",
        "micron-vs-smart-ext-log-e1.txt",
        "ibm-crit-log.txt",
        "memblaze-smart-log-add-old.txt",
        "fdp-stats.txt",
        "fdp-stats.json",
        "ocp-smart-add-log-v5.txt",
    ],
)
def test_new_logs_are_recognised_without_being_named(name):
    reading = parse_nvme_log((FROM_SOURCE / name).read_text(), name)
    assert reading.source.id == WEAR_FROM_SOURCE[name][0]
    assert reading.candidates == (reading.source.id,)


# (file, NAND bytes or None, host bytes or None, WAF or None), by hand
BYTES_AND_WAF = [
    # bytes per OCP C0h; no host counter in the log
    ("seagate-vs-smart-add-log-c0.txt", 2_400_000_000_000, None, None),
    ("wdc-vs-cloud-log.txt", 2_400_000_000_000, None, None),
    # TLC 2.2e12 + SLC 2e11 bytes, summed
    ("wdc-vs-smart-add-log-ext-cloud.txt", 2_400_000_000_000, None, None),
    ("wdc-vs-nand-stats.txt", 2_400_000_000_000, None, None),
    # units not stated: no bytes
    ("wdc-vs-nand-stats-v3.txt", None, None, None),
    ("micron-vs-smart-add-log-c0.txt", 2_400_000_000_000, None, None),
    ("micron-vs-smart-add-log-c0.json", 2_400_000_000_000, None, None),
    # unit not stated: no bytes, no WAF (no host counter to share it)
    ("micron-vs-nand-stats-hyperscale.txt", None, None, None),
    # counts of one unstated unit: the ratio 6,000,000 / 3,000,000
    ("micron-vs-vendor-telemetry-log.txt", None, None, 2.0),
    ("micron-vs-vendor-telemetry-log.json", None, None, 2.0),
    # MB not said to be 10^6 or 2^20: no bytes; the ratio 6,000,000 / 2,400,000
    ("ibm-crit-log.txt", None, None, 2.5),
    # host 2048 GiB; no NAND counter
    ("memblaze-smart-log-add-old.txt", None, 2048 * GIB, None),
    # FDP: MBMW / HBMW = 5.2e12 / 4e12
    ("fdp-stats.txt", 5_200_000_000_000, 4_000_000_000_000, 1.3),
    ("fdp-stats.json", 5_200_000_000_000, 4_000_000_000_000, 1.3),
]


@pytest.mark.parametrize(("name", "nand_bytes", "host_bytes", "waf"), BYTES_AND_WAF)
def test_bytes_and_waf_by_hand(name, nand_bytes, host_bytes, waf):
    reading = parse_nvme_log((FROM_SOURCE / name).read_text(), name)
    nand, host = reading.counter("nand"), reading.counter("host")
    assert (nand.bytes if nand else None) == nand_bytes
    assert (host.bytes if host else None) == host_bytes
    report = nvme_waf_from_files(FROM_SOURCE / name)
    assert report["waf"] == (None if waf is None else pytest.approx(waf))


def test_a_counter_of_unstated_unit_is_named_not_guessed():
    reading = parse_nvme_log((FROM_SOURCE / "ibm-crit-log.txt").read_text(), "ibm")
    for which in ("nand", "host", "erased"):
        c = reading.counter(which)
        assert c.bytes is None and "not stated" in c.unit and "no byte count" in c.arithmetic


def test_the_average_erase_count_feeds_the_lifetime_report():
    rep = nvme_waf_from_files(FROM_SOURCE / "memblaze-smart-log-add-old.txt")
    assert rep["snapshot"]["avg_erase_count"] == 100
    notes = rep["snapshot"]["notes"]
    assert any("min 80" in n and "avg 100" in n and "max 130" in n for n in notes)
    assert any("has no NAND-write counter: no WAF" in n for n in notes)


def test_packed_erase_counts_are_split_by_their_bits():
    reading = parse_nvme_log((FROM_SOURCE / "intel-smart-log-add.txt").read_text(), "i")
    raw = 90 + 140 * 2**16 + 115 * 2**32
    c = reading.counter("erase_max")
    assert c.count == 140 and f"{raw:,}" in c.raw and "bits 16-31" in c.raw


def test_erase_max_below_min_is_shown_not_hidden():
    text = (
        "User Block Min Erase Count : 0x90\nUser Block Avg Erase Count : 0x50\n"
        "User Block Max Erase Count : 0x10\n"
    )
    rep = nvme_report(parse_nvme_log(text, "e1.txt"), None)
    assert any("below the least-erased" in n for n in rep["snapshot"]["notes"])


FDP_TEXT = (
    "Host Bytes with Metadata Written (HBMW): {h}\n"
    "Media Bytes with Metadata Written (MBMW): {m}\n"
    "Media Bytes Erased (MBE): 0\n"
)


def test_fdp_media_below_host_is_shown_and_zero_host_does_not_divide():
    below = FDP_TEXT.format(h="4,000", m="3,000")
    rep = nvme_report(parse_nvme_log(below, "below.txt"), None)
    assert rep["waf"] == pytest.approx(0.75)
    assert any("below host writes" in n for n in rep["snapshot"]["notes"])
    zero = FDP_TEXT.format(h="0", m="3,000")
    rep = nvme_report(parse_nvme_log(zero, "zero.txt"), None)
    assert rep["waf"] is None
    assert any("nothing to divide by" in n for n in rep["snapshot"]["notes"])


@pytest.mark.parametrize(
    "printed", ["5,200,000", "5.200.000", "5'200'000", "5 200 000", "5\u202f200\u202f000"]
)
def test_locale_grouped_values_are_read(printed):
    reading = parse_nvme_log(FDP_TEXT.format(h="1", m=printed), "l.txt")
    assert reading.counter("nand").count == 5_200_000


def test_a_badly_grouped_value_is_refused_by_name():
    with pytest.raises(NvmeLogError, match="Media Bytes with Metadata Written"):
        parse_nvme_log(FDP_TEXT.format(h="1", m="52,00,000"), "bad.txt", "fdp-stats")


def test_the_corrected_seagate_label_is_the_one_the_plugin_prints():
    # print_ext_smart_id(VS_ATTR_ID_GB_ERASED_LSB) + 7: "LSB of Flash GB erased" minus "LSB of "
    text = (FROM_SOURCE / "seagate-vs-smart-add-log.txt").read_text()
    assert "Flash GB erased" in text
    erased = parse_nvme_log(text, "s.txt").counter("erased")
    assert erased.count == 0x13D52 and erased.bytes is None  # GB or GiB: not stated


def test_byte_kinds_are_the_only_ones_turned_into_bytes():
    for s in load_sources():
        for c in s.counters:
            if c.which not in BYTE_KINDS:
                assert c.unit_bytes is None, (s.id, c.field)


def _families(paths: list[Path]) -> dict[str, dict[str, float]]:
    readings = [Reading(str(p), read_file_source(str(p)), "", "", 0.0, None) for p in paths]
    out: dict[str, dict[str, float]] = {}
    for fam in OverprovCollector(readings).collect():
        for sample in fam.samples:
            out.setdefault(sample.name, {})[sample.labels.get("device", "")] = sample.value
    return out


def test_the_exporter_publishes_erase_counts_free_blocks_and_media_erased():
    fams = _families([FROM_SOURCE / "ocp-smart-add-log-v5.json", FROM_SOURCE / "fdp-stats.txt"])
    ocp, fdp = "ocp-smart-add-log-v5", "fdp-stats"
    assert fams["overprov_device_erase_count_average"] == {ocp: 115.0}
    assert fams["overprov_device_erase_count_max"] == {ocp: 140.0}
    assert fams["overprov_device_erase_count_min"] == {ocp: 90.0}
    assert fams["overprov_device_free_blocks_ratio"] == {ocp: pytest.approx(0.12)}
    assert fams["overprov_device_media_erased_bytes_total"] == {fdp: 5.1e12}
    assert fams["overprov_device_nand_written_bytes_total"][fdp] == 5.2e12
    assert fams["overprov_device_host_written_bytes_total"][fdp] == 4e12
    assert fams["overprov_device_write_amplification_ratio"][fdp] == pytest.approx(1.3)


def _answering(outputs: dict[str, Path]):
    """nvme-cli as a drive answers it: the saved output of each sub-command it has (keyed by
    plugin and sub-command, 'smart-log' for the SMART log), a failure for the others."""

    def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
        key = "smart-log" if argv[1] == "smart-log" else f"{argv[1]} {argv[2]}"
        path = outputs.get(key)
        if path is None:
            return subprocess.CompletedProcess(argv, 1, "", "Invalid sub-command\n")
        return subprocess.CompletedProcess(argv, 0, path.read_text(), "")

    return run


@pytest.mark.skipif(
    shutil.which("nvme") is None and shutil.which("nvme", path="/usr/sbin:/sbin") is None,
    reason="nvme-cli not installed (Debian package nvme-cli)",
)
def test_a_device_read_prefers_a_nand_log_to_a_log_of_erase_counts(tmp_path):
    smart = tmp_path / "smart-log.json"
    smart.write_text('{"data_units_written": 1000, "percent_used": 1, "avail_spare": 100}')
    both = {
        "smart-log": smart,
        "micron vs-smart-ext-log": FROM_SOURCE / "micron-vs-smart-ext-log-e1.txt",
        "fdp stats": FROM_SOURCE / "fdp-stats.txt",
    }
    reading, _ = read_device_logs("/dev/nvme9", run=_answering(both))
    assert reading.source.id == "fdp-stats"  # listed after micron-e1, but it counts NAND
    only_wear = {k: v for k, v in both.items() if k != "fdp stats"}
    reading, _ = read_device_logs("/dev/nvme9", run=_answering(only_wear))
    assert reading.source.id == "micron-e1" and reading.counter("erase_avg").count == 115


def test_wdc_d0_json_is_not_read_through_its_32_bit_ints():
    # wdc_print_d0_log_json uses json_object_add_value_int (json-c json_object_new_int, 32
    # bits): 3,000,000,000 NAND writes come out as 3,000,000,000 - 2^32 = -1,294,967,296
    printed = {"Lifetime NAND Writes": 3_000_000_000 - 2**32, "Lifetime User Writes": 1_000_000}
    with pytest.raises(NvmeLogError, match="no NAND-write counter"):
        parse_nvme_log(json.dumps(printed), "d0.json")
    with pytest.raises(NvmeLogError, match="not the wdc-d0-lifetime log"):
        parse_nvme_log(json.dumps(printed), "d0.json", "wdc-d0-lifetime")


def test_a_count_wrapped_by_a_32_bit_json_int_is_refused_by_name():
    # dapustor-nvme.c prints the 48-bit raw nand_bytes_written with json_object_add_value_int
    # (32 bits): 3,000,000,000 comes out as -1,294,967,296
    printed = {"Device stats": {"nand_bytes_written": {"normalized": 100, "raw": -1_294_967_296}}}
    with pytest.raises(NvmeLogError, match=r"nand_bytes_written.raw: negative count"):
        parse_nvme_log(json.dumps(printed), "dapustor.json")


def test_seagate_c0_json_gives_no_least_erase_count():
    # json_print_stx_smart_log_C0: json_object_add_value_int(usrDataEraseCnt), 32 bits: the
    # least erase count (bits 32-63) is cut off, and reading it would give 0
    path = FROM_SOURCE / "seagate-vs-smart-add-log-c0.json"
    reading = parse_nvme_log(path.read_text(), path.name)
    assert reading.counter("erase_max").count == 140
    assert reading.counter("erase_min") is None
