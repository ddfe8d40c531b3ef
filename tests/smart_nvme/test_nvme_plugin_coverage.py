"""Every row of the NVMe log sources table (python/overprov/data/nvme_log_sources.toml) is
read from an output: a real capture (tests/data/nvme-vendor) or one written by the plugin's own
print code (tests/data/nvme-vendor-from-source, see its README). The figures expected here are
worked by hand from the numbers in those files and the units the plugins state.

Also: an output that several plugins print alike but in different units is read without a
byte count and names the candidates (``--nvme-log-source`` picks one); a log whose two
counters share an unstated unit gives the WAF as their ratio; NAND below host is shown and
explained; zero host writes give no division; labels are read tolerantly; hex values are read.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from overprov.smart.nvme_logs import label_regex, load_sources, parse_nvme_log
from overprov.smart.nvme_waf import nvme_report, nvme_waf_from_files
from test_nvme_fdp import FDP_EVENTS_SAMPLES
from test_nvme_wear_coverage import WEAR_FROM_SOURCE

DATA = Path(__file__).resolve().parents[1] / "data"
REAL = DATA / "nvme-vendor"
FROM_SOURCE = DATA / "nvme-vendor-from-source"
MIB = 2**20

# file -> (log read as, NAND count, NAND bytes or None, host count or None, WAF or None)
BY_HAND: dict[str, tuple[str, int, int | None, int | None, float | None]] = {
    # 0x...2540be4000 = 160,000,000,000 and 0x...12a05f2000 = 80,000,000,000; unit unstated
    "seagate-vs-smart-add-log.txt": ("seagate-vs-ext-smart", 160 * 10**9, None, 80 * 10**9, 2.0),
    "seagate-vs-smart-add-log.json": ("seagate-vs-ext-smart", 160 * 10**9, None, 80 * 10**9, 2.0),
    # "NAND Bytes Written  1  4660134898793709568": hi 1, lo ... → 2^64 + lo bytes
    "wdc-vs-smart-add-log-ca.txt": (
        "wdc-ca-perf",
        2**64 + 4_660_134_898_793_709_568,
        2**64 + 4_660_134_898_793_709_568,
        None,
        None,
    ),
    # Lifetime NAND Writes 3,141,592 / Lifetime User Writes 1,570,796, unit unstated → WAF 2
    "wdc-vs-smart-add-log-d0.txt": ("wdc-d0-lifetime", 3_141_592, None, 1_570_796, 2.0),
    # NAND Writes (Bytes Written) : 0x38242d4bd3d0d (= 987,654,321,098,765) bytes
    "micron-vs-smart-add-log-d0.txt": (
        "micron-d0",
        987_654_321_098_765,
        987_654_321_098_765,
        None,
        None,
    ),
    # memblaze and ymtc print alike in different units: counts only; the ratio 123456/61728 = 2
    "memblaze-smart-log-add.txt": ("memblaze-raisin", 32 * 123_456, None, 32 * 61_728, 2.0),
    "ymtc-smart-log-add.txt": ("memblaze-raisin", 5_000_000, None, 2_000_000, 2.5),
    # "sectors:" form: Intel's (32 MiB) and DapuStor/ScaleFlux/Shannon's (unstated) alike
    "dapustor-smart-log-add.txt": ("intel-ca", 777_000, None, 333_000, 777_000 / 333_000),
    "ssstc-smart-log-add.txt": ("ssstc-ca", 900_100, None, 450_050, 2.0),
    # four parts in GB: 1200 + 1300 + 1250 + 1250 = 5000 GB = 5 × 10^12 bytes; no host counter
    "inspur-nvme-vendor-log.txt": ("inspur-vendor", 5_000, 5 * 10**12, None, None),
    # Intel: 41,000 × 32 MiB NAND, 20,500 × 32 MiB host
    "intel-smart-log-add.txt": ("intel-ca", 41_000, 41_000 * 32 * MIB, 20_500, 2.0),
}


def _samples() -> list[Path]:
    return sorted(
        p for p in FROM_SOURCE.iterdir() if p.suffix in (".txt", ".json") and p.name != "README"
    )


def test_every_sample_from_source_is_worked_by_hand_and_described():
    # the wear, spare and FDP samples are worked in test_nvme_wear_coverage.py and
    # test_nvme_fdp.py
    by_hand = set(BY_HAND) | set(WEAR_FROM_SOURCE) | set(FDP_EVENTS_SAMPLES)
    assert {p.name for p in _samples()} == by_hand
    readme = (FROM_SOURCE / "README.md").read_text()
    for name in by_hand:
        assert name in readme, name


def test_every_log_of_the_table_is_read_from_an_output():
    read_as = {BY_HAND[n][0] for n in BY_HAND} | {v[0] for v in WEAR_FROM_SOURCE.values()}
    real = {
        parse_nvme_log(p.read_text(), p.name).source.id
        for p in REAL.iterdir()
        if p.suffix in (".txt", ".json") and ".source" not in p.name
    }
    # the two logs only ever read as a candidate beside another (ambiguous outputs)
    candidates = {"ymtc-ca", "intel-layout-sectors"}
    # the Endurance Group log is read in tests/smart_nvme/test_nvme_log_formats.py
    others = {"endurance-group"}
    missing = {s.id for s in load_sources()} - read_as - real - candidates - others
    assert not missing, missing


@pytest.mark.parametrize("name", sorted(BY_HAND))
def test_counts_bytes_and_waf_by_hand(name):
    source_id, nand_count, nand_bytes, host_count, waf = BY_HAND[name]
    path = FROM_SOURCE / name
    reading = parse_nvme_log(path.read_text(), name)
    assert reading.source.id == source_id
    nand = reading.counter("nand")
    assert nand.count == nand_count and nand.bytes == nand_bytes
    host = reading.counter("host")
    assert (host.count if host else None) == host_count
    report = nvme_waf_from_files(path)
    if waf is None:
        assert report["waf"] is None
    else:
        assert report["waf"] == pytest.approx(waf)


def test_alike_outputs_of_different_units_name_the_candidates_and_can_be_pinned():
    text = (FROM_SOURCE / "memblaze-smart-log-add.txt").read_text()
    reading = parse_nvme_log(text, "m.txt")
    assert reading.candidates == ("memblaze-raisin", "ymtc-ca")
    assert reading.counter("nand").bytes is None
    assert "--nvme-log-source" in reading.counter("nand").unit
    pinned = parse_nvme_log(text, "m.txt", "memblaze-raisin")
    # the plugin prints 32 × the 32 MiB count: MiB
    assert pinned.counter("nand").bytes == 32 * 123_456 * MIB
    assert pinned.candidates == ("memblaze-raisin",)
    ymtc = parse_nvme_log(text, "m.txt", "ymtc-ca")
    assert ymtc.counter("nand").bytes is None  # YMTC states no unit: no byte count, no guess
    with pytest.raises(Exception, match="not the seagate-vs-ext-smart log"):
        parse_nvme_log(text, "m.txt", "seagate-vs-ext-smart")


def test_the_cli_takes_the_source_and_reports_json(overprov_cli, tmp_path):
    path = FROM_SOURCE / "memblaze-smart-log-add.txt"
    out = tmp_path / "r.json"
    rc, _, err = overprov_cli(
        "smart", "--nvme-log", str(path), "--nvme-log-source", "memblaze-raisin", "--json", str(out)
    )
    assert rc == 0, err
    doc = json.loads(out.read_text())
    (nand,) = [c for c in doc["nvme_log"]["counters"] if c["which"] == "nand"]
    assert nand["bytes"] == 32 * 123_456 * MIB and doc["waf"] == pytest.approx(2.0)
    rc, _, err = overprov_cli("smart", "--nvme-log", str(path), "--nvme-log-source", "nonesuch")
    assert rc == 2 and "--nvme-log-source" in err


def test_nand_below_host_is_shown_and_explained_and_zero_host_does_not_divide():
    below = "Lifetime NAND Writes   100\nLifetime User Writes   400\n"
    rep = nvme_report(parse_nvme_log(below, "below.txt"), None)
    assert rep["waf"] == pytest.approx(0.25)
    assert any("below host writes" in n and "wrapped" in n for n in rep["snapshot"]["notes"])
    zero = "Lifetime NAND Writes   100\nLifetime User Writes   0\n"
    rep = nvme_report(parse_nvme_log(zero, "zero.txt"), None)
    assert rep["waf"] is None
    assert any("nothing to divide by" in n for n in rep["snapshot"]["notes"])


@pytest.mark.parametrize(
    "line, value",
    [
        ("Lifetime NAND Writes : 12,345", "12,345"),
        ("  lifetime_nand_writes = 0x3039", "0x3039"),
        ("LifetimeNANDWrites 12345", "12345"),
        ("(Lifetime NAND Writes) - 12345", "12345"),
    ],
)
def test_labels_are_read_tolerantly(line, value):
    m = re.compile(label_regex("Lifetime NAND Writes")).search(line)
    assert m is not None and m.group("value") == value


def test_hex_and_decimal_give_the_same_count():
    a = parse_nvme_log("NAND Writes (Bytes Written) : 0x3039\n", "a")
    b = parse_nvme_log("NAND Writes (Bytes Written) : 12345\n", "b")
    assert a.counter("nand").count == b.counter("nand").count == 12_345


# nvme-cli src/nvme-print-stdout.c stdout_endurance_log prints every field as "name\t: value"
# (128-bit values with thousands separators); TEGCAP and UEGCAP are bytes.
ENDURANCE_WITH_CAPACITY = (
    "Endurance Group Log for NVME device:nvme0 Group ID:1\n"
    "data_units_written\t: 120,345\n"
    "media_units_written\t: 301,002\n"
    "total_end_grp_cap\t: 3,840,755,982,336\n"
    "unalloc_end_grp_cap\t: 768,151,196,467\n"
)


def test_unallocated_endurance_group_capacity_is_reported_as_op_headroom():
    reading = parse_nvme_log(ENDURANCE_WITH_CAPACITY, "eg.txt")
    assert reading.counter("capacity_total").bytes == 3_840_755_982_336
    assert reading.counter("capacity_unallocated").bytes == 768_151_196_467
    rep = nvme_report(reading, None)
    # 768,151,196,467 / 3,840,755,982,336 = 20.0%
    (note,) = [n for n in rep["snapshot"]["notes"] if n.startswith("unallocated capacity")]
    assert "(20.0%)" in note and "namespace-level OP headroom" in note
    assert rep["waf"] == pytest.approx(301_002 / 120_345)
    # without the capacity fields: no note
    plain = "data_units_written\t: 120,345\nmedia_units_written\t: 301,002\n"
    rep = nvme_report(parse_nvme_log(plain, "eg2.txt"), None)
    assert not [n for n in rep["snapshot"]["notes"] if n.startswith("unallocated capacity")]
