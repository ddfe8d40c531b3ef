"""Every real ``smartctl -j`` file in tests/data/smart (see its README: published by the
prometheus-community smartctl_exporter project, Apache-2.0), read by overprov.smart.

The expected WAF figures are worked by hand from the raw counters in the JSON files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from overprov import smart

DATA = Path(__file__).resolve().parent.parent / "data" / "smart"
FILES = sorted(p.name for p in DATA.glob("*.json"))

MIB32 = 32 * 2**20
GIB = 2**30

HARD_DISKS = {
    "WDC_WD20EFRX-68EUZN0_17.json": 5400,
    "sat-Seagate_Exos_X16-ST16000NM001G-2KK103-sda.json": 7200,
}

# Every file whose NAND-write counters give a WAF, and the vendor rule that reads them.
_INTEL = "sat-Intel_730_and_DC_S35x0_3610_3700_Series_SSDs-INTEL_"
_S4510 = "sat-Intel_S4510_S4610_S4500_S4600_Series_SSDs-INTEL_"
_MICRON = "sat-Micron_5100_Pro___52x0___5300_SSDs-Micron_"
WITH_NAND_COUNTERS = {
    **{
        f"{_INTEL}{m}.json": "Intel"
        for m in (
            "SSDSC2BB016T4-sdf",
            "SSDSC2BB240G6-sdf",
            "SSDSC2BB240G7-sdg",
            "SSDSC2BB480G6-sda",
            "SSDSC2BB480G7-sda",
            "SSDSC2BB800G6-sdb",
            "SSDSC2BB800G7-sdh",
        )
    },
    "sat-Intel_S3520_Series_SSDs-INTEL_SSDSC2BB016T7-sdc.json": "Intel",
    **{
        f"{_S4510}{m}.json": "Intel"
        for m in (
            "SSDSC2KB019T7-sdq",
            "SSDSC2KB019T8-sdr",
            "SSDSC2KB019TZ-sdr",
            "SSDSC2KB240G7-sdd",
            "SSDSC2KB240G8-sdc",
            "SSDSC2KB480G7-sda",
            "SSDSC2KB480G8-sdm",
            "SSDSC2KB960G7-sdi",
            "SSDSC2KG480G8-sda",
            "SSDSCKKB480G8-sda",
        )
    },
    **{
        f"{_MICRON}{m}.json": "Micron/Crucial"
        for m in (
            "5210_MTFDDAK960QDE-sdm",
            "5300_MTFDDAK1T9TDS-sda",
            "5300_MTFDDAK240TDS-sda",
            "5300_MTFDDAK3T8TDS-sdc",
            "5300_MTFDDAV240TDS-sda",
            "5300_MTFDDAV480TDS-sda",
        )
    },
    "sat-Micron_5100___52x0___5300___5400_SSDs-Micron_5300_MTFDDAK480TDS-sda.json": (
        "Micron/Crucial"
    ),
    "sat-Phison_Driven_SSDs-KINGSTON_SKC400S371T-sda.json": "Phison/Kingston",
    "sat-Samsung_based_SSDs-SAMSUNG_MZ7LH1T9HMLT-00005-sda.json": "Samsung",
    "sat-Silicon_Motion_based_SSDs-TS32GMTS400-sda.json": "Silicon Motion",
}


def snap(name: str) -> smart.Snapshot:
    return smart.snapshot_from_target(str(DATA / name))


def test_the_data_folder_is_complete() -> None:
    assert len(FILES) == 90
    assert (DATA / "LICENSE.smartctl_exporter").is_file()
    readme = (DATA / "README.md").read_text()
    assert "smartctl_exporter" in readme and "Apache License 2.0" in readme
    assert set(HARD_DISKS) <= set(FILES)
    assert set(WITH_NAND_COUNTERS) <= set(FILES)


@pytest.mark.parametrize("name", FILES)
def test_every_file_parses_and_is_classified(name: str) -> None:
    s = snap(name)
    report = smart.lifetime_report(s)
    text = smart.format_lifetime(report)
    json.dumps(smart.report_to_dict(report))  # the --json form serialises
    assert s.model and s.model in text
    if name in HARD_DISKS:
        assert s.kind == "hdd"
        assert s.rotation_rate_rpm == HARD_DISKS[name]
        assert s.waf_counters is None and report.waf is None
        assert s.percentage_used is None
        assert "not an SSD" in text
    elif name in WITH_NAND_COUNTERS:
        assert s.kind == "ssd"
        assert s.waf_counters is not None
        assert s.waf_counters.vendor == WITH_NAND_COUNTERS[name]
        assert report.waf is not None and report.waf >= 1.0
        assert (
            "lifetime WAF: " in text and "not available" not in text.split("lifetime WAF")[1][:20]
        )
    else:
        assert s.kind == "ssd"
        assert s.waf_counters is None and report.waf is None
        assert "lifetime WAF: not available for this drive" in text
        assert any("NAND writes: not available for this drive" in n for n in s.notes)


# --- hand-worked WAF, one drive per vendor -----------------------------------------------


def test_intel_waf_243_over_241() -> None:
    # INTEL SSDSC2BB016T4: 241 Host_Writes_32MiB = 62,594,010; 243 NAND_Writes_32MiB =
    # 138,721,860 (both in 32 MiB units): WAF = 138,721,860 / 62,594,010 = 2.21621...
    s = snap(f"{_INTEL}SSDSC2BB016T4-sdf.json")
    assert s.host_writes is not None and s.host_writes.bytes == 62_594_010 * MIB32
    assert s.waf_counters is not None
    assert s.waf_counters.waf == pytest.approx(138_721_860 / 62_594_010)
    assert s.waf_counters.waf == pytest.approx(2.216216, abs=1e-6)
    # wear: 233 Media_Wearout_Indicator normalized 15 -> 85 % used; 67,329 power-on hours
    assert s.percentage_used == 85
    report = smart.lifetime_report(s)
    assert report.endurance.days_left == pytest.approx(67_329 / 24 * 15 / 85)


def test_micron_waf_from_program_page_counts() -> None:
    # Micron 5300 MTFDDAK1T9TDS: 247 Host_Program_Page_Count = 4,062,707,571,
    # 248 Bckgnd_Program_Page_Cnt = 8,824,675,195:
    # WAF = (4,062,707,571 + 8,824,675,195) / 4,062,707,571 = 12,887,382,766 / 4,062,707,571
    s = snap(f"{_MICRON}5300_MTFDDAK1T9TDS-sda.json")
    assert s.waf_counters is not None and s.waf_counters.unit == "NAND pages"
    assert s.waf_counters.waf == pytest.approx(12_887_382_766 / 4_062_707_571)
    assert s.waf_counters.waf == pytest.approx(3.172117, abs=1e-6)
    # host writes: 246 Total_LBAs_Written = 130,006,927,240 sectors of 512 B
    assert s.host_writes is not None and s.host_writes.bytes == 130_006_927_240 * 512
    assert s.avg_erase_count == 83


def test_phison_kingston_waf_233_over_241() -> None:
    # KINGSTON SKC400S371T: 241 Lifetime_Writes_GiB = 391,741; 233 Flash_Writes_GiB = 840,007
    # WAF = 840,007 / 391,741 = 2.14429...
    s = snap("sat-Phison_Driven_SSDs-KINGSTON_SKC400S371T-sda.json")
    assert s.waf_counters is not None
    assert s.waf_counters.waf == pytest.approx(840_007 / 391_741)
    assert s.waf_counters.waf == pytest.approx(2.144291, abs=1e-6)
    assert s.host_writes is not None and s.host_writes.bytes == 391_741 * GIB
    # 231 SSD_Life_Left raw 74 (Phison reports life left in the raw value) -> 26 % used
    assert s.percentage_used == 26
    # 173 MaxAvgErase_Ct raw string "888 (Average 808)"
    assert s.avg_erase_count == 808


def test_samsung_waf_251_over_241() -> None:
    # SAMSUNG MZ7LH1T9HMLT (PM883): 241 Total_LBAs_Written = 63,180,483,059;
    # 251 NAND_Writes = 64,213,448,960 (taken in the same 512-byte units):
    # WAF = 64,213,448,960 / 63,180,483,059 = 1.01635...
    s = snap("sat-Samsung_based_SSDs-SAMSUNG_MZ7LH1T9HMLT-00005-sda.json")
    assert s.waf_counters is not None and s.waf_counters.unit_assumed
    assert s.waf_counters.waf == pytest.approx(64_213_448_960 / 63_180_483_059)
    assert s.waf_counters.waf == pytest.approx(1.016349, abs=1e-6)
    # cross-check passed: 177 Wear_Leveling_Count 16 avg P/E; (16 − 1) × 1.92 TB = 28.8 TB
    # <= 251 × 512 B = 32.9 TB of NAND writes
    assert s.avg_erase_count == 16


def test_silicon_motion_waf_245_over_241() -> None:
    # Transcend TS32GMTS400: 241 Host_Writes_32MiB = 30,245; 245 TLC_Writes_32MiB = 136,733
    # WAF = 136,733 / 30,245 = 4.52084...
    s = snap("sat-Silicon_Motion_based_SSDs-TS32GMTS400-sda.json")
    assert s.waf_counters is not None
    assert s.waf_counters.waf == pytest.approx(136_733 / 30_245)
    assert s.waf_counters.waf == pytest.approx(4.520846, abs=1e-6)
    # 169 Remaining_Lifetime_Perc raw 96 -> 4 % used
    assert s.percentage_used == 4


def test_samsung_without_nand_counter_gives_an_erase_count_estimate() -> None:
    # SAMSUNG MZ7WD240HAFV (SM843T) has no NAND counter: not available, but 177
    # Wear_Leveling_Count raw 1,661 = average P/E cycles gives an estimate:
    # 1,661 × 240,057,409,536 B / (216,456,537,880 × 512 B) = 3.598...
    s = snap("SAMSUNG_MZ7WD240HAFV-00003_21.json")
    report = smart.lifetime_report(s)
    assert report.waf is None
    assert report.waf_estimate == pytest.approx(1_661 * 240_057_409_536 / (216_456_537_880 * 512))
    assert report.waf_estimate == pytest.approx(3.598, abs=1e-3)
    assert s.percentage_used == 9  # 100 − normalized 91
    text = smart.format_lifetime(report)
    assert "lifetime WAF: not available for this drive" in text and "estimate ≈ 3.60" in text


def test_samsung_251_that_contradicts_the_erase_count_is_not_used() -> None:
    # SAMSUNG MZ7L3240HCHQ (PM893): 251 × 512 B = 993,815,616 × 512 = 0.51 TB of NAND writes,
    # but 177 says 114 average P/E cycles on 240 GB: at least (114 − 1) × 240 GB = 27 TB.
    s = snap("sat-Samsung_based_SSDs-SAMSUNG_MZ7L3240HCHQ-00A07-sda.json")
    assert s.waf_counters is None
    assert any("disagrees with the average erase count of 114" in n for n in s.notes)


def test_unknown_model_says_why_counters_are_missing() -> None:
    s = snap("sat-null-SAMSUNG_MZ7L3480HCHQ-00A07-sda.json")
    assert s.waf_counters is None
    assert any("smartctl does not know this model" in n for n in s.notes)


def test_intel_without_243_says_not_available() -> None:
    # S3500 G4 models report host writes (241) and wear (233) but no NAND writes
    s = snap(f"{_INTEL}SSDSC2BB480G4-sda.json")
    assert s.host_writes is not None and s.host_writes.bytes == 1_209_471 * MIB32
    assert s.waf_counters is None
    assert s.percentage_used == 5


def test_dell_s3520_host_writes_come_from_the_32mib_counter() -> None:
    # Dell's S3520 firmware puts the same 32 MiB count (129,493) in 225 Host_Writes_32MiB and
    # in attributes smartctl labels Total_LBAs_Written; 129,493 × 32 MiB = 4.35 TB, not 66 MB.
    s = snap("sat-Dell_Certified_Intel_S3520_Series_SSDs-SSDSCKJB240G7R-sdm.json")
    assert s.host_writes is not None and s.host_writes.bytes == 129_493 * MIB32
    assert s.waf_counters is None


def test_nvme_standard_log() -> None:
    # INTEL SSDPE2KX010T8: data_units_written 5,165,815,292 × 512,000 B; percentage_used 73;
    # 8,843 power-on hours -> days left = 8,843 / 24 × (100 − 73) / 73 = 136.3
    s = snap("nvme-null-INTEL_SSDPE2KX010T8-nvme1.json")
    assert s.protocol == "NVMe" and s.kind == "ssd"
    assert s.host_writes is not None and s.host_writes.bytes == 5_165_815_292 * 512_000
    assert s.waf_counters is None
    assert any("NVMe standard SMART log has no NAND-write counter" in n for n in s.notes)
    report = smart.lifetime_report(s)
    assert report.endurance.days_left == pytest.approx(8_843 / 24 * 27 / 73)
    assert report.endurance.remaining_host_bytes == pytest.approx(5_165_815_292 * 512_000 * 27 / 73)
    # write rate: host bytes per power-on day, and per capacity (1,000,204,886,016 B)
    per_day = 5_165_815_292 * 512_000 / (8_843 / 24)
    assert report.host_bytes_per_day == pytest.approx(per_day)
    assert report.drive_writes_per_day == pytest.approx(per_day / 1_000_204_886_016)


def test_wear_below_one_percent_gives_a_lower_bound() -> None:
    # Micron 7300 MTFDHBE3T2TDG: percentage_used 0 after 3,820 hours: more than 3,820 / 24 × 99
    s = snap("nvme-null-Micron_7300_MTFDHBE3T2TDG-nvme0.json")
    e = smart.lifetime_report(s).endurance
    assert e.days_left is None
    assert e.days_left_at_least == pytest.approx(3_820 / 24 * 99)
    assert "below 1 %" in e.explanation


# --- two snapshots ------------------------------------------------------------------------


def test_delta_between_two_snapshots_of_one_drive() -> None:
    # SAMSUNG MZ7WD240HAFV _21 -> _22 (given in reverse order on purpose): power-on hours
    # 84,619 -> 84,620; 241 Total_LBAs_Written 216,456,537,880 -> 218,759,569,150
    # (+2,303,031,270 sectors); 177 average P/E 1,661 -> 1,773 (+112); wear 9 % -> 10 %.
    a = snap("SAMSUNG_MZ7WD240HAFV-00003_22.json")
    b = snap("SAMSUNG_MZ7WD240HAFV-00003_21.json")
    d = smart.compare(a, b)
    assert d.earlier.power_on_hours == 84_619
    assert d.hours == 1
    assert d.host_bytes == 2_303_031_270 * 512
    assert d.waf is None  # no NAND counter on this model
    assert d.waf_estimate == pytest.approx(112 * 240_057_409_536 / (2_303_031_270 * 512))
    assert d.percentage_used_change == 1
    # +1 point of a whole-percent indicator is within its rounding: no days left from the
    # interval (it was "about 4 days"), the later snapshot's lifetime rate instead.
    assert d.days_left is None
    assert d.days_left_lifetime == pytest.approx(84_620 / 24 * 90 / 10)
    assert any("whole-percent indicator" in n for n in d.notes)
    assert any("rates are rough" in n for n in d.notes)
    assert any("redacted" in n for n in d.notes)


def _shifted_copy(tmp_path: Path, name: str, changes: dict[int, int], hours: int) -> Path:
    """A later snapshot made from a real file: raw counters of the given attribute ids and
    the power-on hours increased by known amounts (a synthetic file, written to tmp_path)."""
    data = json.loads((DATA / name).read_text())
    for attr in data["ata_smart_attributes"]["table"]:
        if attr["id"] in changes:
            attr["raw"]["value"] += changes[attr["id"]]
            attr["raw"]["string"] = str(attr["raw"]["value"])
    data["power_on_time"]["hours"] += hours
    out = tmp_path / f"later-{name}"
    out.write_text(json.dumps(data))
    return out


def test_delta_waf_from_nand_counters(tmp_path: Path) -> None:
    # Micron 5300: +1,000,000 host pages (247), +500,000 FTL pages (248) in 240 hours:
    # WAF in the interval = (1,000,000 + 500,000) / 1,000,000 = 1.5
    name = f"{_MICRON}5300_MTFDDAK1T9TDS-sda.json"
    later = _shifted_copy(tmp_path, name, {246: 2_000_000_000, 247: 1_000_000, 248: 500_000}, 240)
    d = smart.compare(snap(name), smart.snapshot_from_target(str(later)))
    assert d.waf == pytest.approx(1.5)
    assert d.host_bytes == 2_000_000_000 * 512
    assert d.host_bytes_per_day == pytest.approx(2_000_000_000 * 512 / 10)


def test_delta_of_different_drives_is_refused_naming_the_field() -> None:
    # The MZVL21T0 "pair": the file with fewer power-on hours has more data written.
    a = snap("SAMSUNG_MZVL21T0HCLR-00B00_23.json")
    b = snap("SAMSUNG_MZVL21T0HCLR-00B00_24.json")
    with pytest.raises(smart.SmartDataError) as err:
        smart.compare(a, b)
    message = str(err.value)
    assert "data_units_written" in message and "went down" in message
    assert "SAMSUNG_MZVL21T0HCLR-00B00_23.json" in message
    assert "SAMSUNG_MZVL21T0HCLR-00B00_24.json" in message


def test_delta_of_different_models_is_refused() -> None:
    with pytest.raises(smart.SmartDataError, match="model_name differs"):
        smart.compare(
            snap("INTEL_SSDPE2KX080T8_1.json"), snap("SAMSUNG_MZQLB1T9HAJR-00007_19.json")
        )


# --- ATA device statistics and bad input ---------------------------------------------------


def _devstat_document() -> dict:
    """smartctl -j -a -l devstat layout (no file in tests/data has the devstat pages)."""
    return {
        "smartctl": {"version": [7, 3], "exit_status": 0},
        "device": {"name": "/dev/sdx", "type": "sat", "protocol": "ATA"},
        "model_name": "Example SATA SSD",
        "rotation_rate": 0,
        "user_capacity": {"blocks": 976773168, "bytes": 500107862016},
        "logical_block_size": 512,
        "power_on_time": {"hours": 1000},
        "ata_device_statistics": {
            "pages": [
                {
                    "number": 1,
                    "name": "General Statistics",
                    "revision": 1,
                    "table": [
                        {
                            "offset": 24,
                            "name": "Logical Sectors Written",
                            "size": 6,
                            "value": 1_953_125_000,
                            "flags": {"value": 192, "string": "V---", "valid": True},
                        }
                    ],
                },
                {
                    "number": 7,
                    "name": "Solid State Device Statistics",
                    "revision": 1,
                    "table": [
                        {
                            "offset": 8,
                            "name": "Percentage Used Endurance Indicator",
                            "size": 1,
                            "value": 4,
                            "flags": {"value": 192, "string": "V---", "valid": True},
                        }
                    ],
                },
            ]
        },
    }


def test_ata_device_statistics() -> None:
    s = smart.parse_snapshot(_devstat_document(), "devstat.json")
    # 1,953,125,000 sectors × 512 B = 1.0e12 bytes; 4 % used in 1,000 hours
    assert s.host_writes is not None and s.host_writes.bytes == 10**12
    assert s.percentage_used == 4
    assert "Percentage Used Endurance Indicator" in (s.percentage_used_source or "")
    e = smart.lifetime_report(s).endurance
    assert e.days_left == pytest.approx(1000 / 24 * 96 / 4)
    assert e.remaining_host_bytes == pytest.approx(10**12 * 96 / 4)


@pytest.mark.parametrize(
    "mutate, field",
    [
        (
            lambda d: d["ata_device_statistics"]["pages"][1]["table"][0].update(value="4%"),
            "ata_device_statistics.pages[1].table[0].value",
        ),
        (lambda d: d["power_on_time"].update(hours=-1.5), "power_on_time.hours"),
        (lambda d: d.update(rotation_rate="SSD"), "rotation_rate"),
        (
            lambda d: d.update(
                ata_smart_attributes={"table": [{"id": 241, "raw": {"value": "x"}}]}
            ),
            "ata_smart_attributes.table[0].raw.value",
        ),
    ],
)
def test_bad_fields_are_named(mutate, field: str) -> None:
    doc = _devstat_document()
    mutate(doc)
    with pytest.raises(smart.SmartDataError) as err:
        smart.parse_snapshot(doc, "bad.json")
    assert "bad.json" in str(err.value) and field in str(err.value)


def test_smartctl_failure_recorded_in_the_file() -> None:
    doc = {
        "smartctl": {
            "version": [7, 3],
            "exit_status": 2,
            "messages": [{"string": "Smartctl open device: /dev/sdz failed: No such device"}],
        },
        "device": {"name": "/dev/sdz"},
    }
    with pytest.raises(smart.SmartDataError, match="smartctl.exit_status = 2.*No such device"):
        smart.parse_snapshot(doc, "failed.json")


def test_not_smartctl_output(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text('{"jobs": []}')
    with pytest.raises(smart.SmartDataError, match="other.json: not smartctl -j output"):
        smart.snapshot_from_target(str(path))
    path.write_text("not json at all")
    with pytest.raises(smart.SmartDataError, match="not valid JSON.*other.json"):
        smart.snapshot_from_target(str(path))
    with pytest.raises(smart.SmartDataError, match="no such .*missing.json"):
        smart.snapshot_from_target(str(tmp_path / "missing.json"))
