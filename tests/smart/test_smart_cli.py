"""``overprov smart`` as a user runs it: saved files, two snapshots, a device through a stand-in
smartctl, and bad input that must name the file or field (uses the ``overprov_cli`` fixture
from tests/conftest.py, which calls ``overprov.cli.main``)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from overprov import cli

DATA = Path(__file__).resolve().parent.parent / "data" / "smart"
MICRON = DATA / "sat-Micron_5100_Pro___52x0___5300_SSDs-Micron_5300_MTFDDAK1T9TDS-sda.json"


def test_smart_is_a_registered_command() -> None:
    assert "overprov.smart" in cli.COMMAND_MODULES


def test_smart_file_text(overprov_cli) -> None:
    rc, out, err = overprov_cli("smart", str(MICRON))
    assert rc == 0, err
    assert "Micron_5300_MTFDDAK1T9TDS" in out
    # (4,062,707,571 + 8,824,675,195) / 4,062,707,571 = 3.172
    assert "lifetime WAF: 3.172 = (247 Host_Program_Page_Count + 248 Bckgnd_Program_Page_Cnt)" in (
        out
    )
    assert "percentage used: 0 %" in out
    assert "more than 17,222 days" in out  # 4,175 h / 24 × 99


def test_smart_file_json(overprov_cli) -> None:
    rc, out, err = overprov_cli("smart", str(MICRON), "--json", "-")
    assert rc == 0
    doc = json.loads(out)
    assert doc["schema"] == "overprov.smart/1"
    assert doc["kind"] == "lifetime"
    assert doc["waf"] == 12_887_382_766 / 4_062_707_571
    assert doc["snapshot"]["host_writes"]["bytes"] == 130_006_927_240 * 512
    assert doc["snapshot"]["waf_counters"]["vendor"] == "Micron/Crucial"


def test_smart_hard_disk(overprov_cli) -> None:
    rc, out, _ = overprov_cli("smart", str(DATA / "WDC_WD20EFRX-68EUZN0_17.json"))
    assert rc == 0
    assert "hard disk, 5400 rpm" in out and "not an SSD" in out
    assert "WAF" not in out.replace("write amplification", "")


def test_smart_nvme_says_what_is_missing(overprov_cli) -> None:
    rc, out, _ = overprov_cli("smart", str(DATA / "nvme-null-INTEL_SSDPE2KX010T8-nvme1.json"))
    assert rc == 0
    assert "lifetime WAF: not available for this drive" in out
    assert "percentage used: 73 %" in out
    assert "about 136 days" in out  # 8,843 h / 24 × 27 / 73 = 136.3


def test_smart_two_snapshots(overprov_cli) -> None:
    rc, out, err = overprov_cli(
        "smart",
        str(DATA / "INTEL_SSDPE2KX080T8_6.json"),
        str(DATA / "INTEL_SSDPE2KX080T8_1.json"),
    )
    assert rc == 0, err
    assert "interval: 507 power-on hours" in out
    # data_units_written 184,919,244 -> 223,891,595: +38,972,351 × 512,000 B = 19.95 TB
    assert "host writes in the interval: 19.95 TB" in out
    assert "WAF in the interval: not available for this drive" in out


def test_smart_two_snapshots_json(overprov_cli) -> None:
    rc, out, _ = overprov_cli(
        "smart",
        str(DATA / "SAMSUNG_MZ7WD240HAFV-00003_21.json"),
        str(DATA / "SAMSUNG_MZ7WD240HAFV-00003_22.json"),
        "--json",
        "-",
    )
    assert rc == 0
    doc = json.loads(out)
    assert doc["kind"] == "delta"
    assert doc["host_bytes"] == 2_303_031_270 * 512
    assert doc["percentage_used_change"] == 1
    assert doc["days_left"] is None  # one whole-percent point: within the rounding
    assert doc["days_left_lifetime"] == pytest.approx(84_620 / 24 * 90 / 10)


def test_smart_two_snapshots_one_point_gives_no_interval_days_left(overprov_cli) -> None:
    rc, out, err = overprov_cli(
        "smart",
        str(DATA / "SAMSUNG_MZ7WD240HAFV-00003_21.json"),
        str(DATA / "SAMSUNG_MZ7WD240HAFV-00003_22.json"),
    )
    assert rc == 0, err
    assert "about 4 days" not in out
    assert "days left at this interval's rate: not given" in out
    assert "days left at the later snapshot's lifetime rate: about 31,732 days" in out
    assert "anywhere between 0 and 2 points" in out


def test_smart_snapshots_of_different_drives_name_the_field(overprov_cli) -> None:
    rc, out, err = overprov_cli(
        "smart",
        str(DATA / "SAMSUNG_MZVL21T0HCLR-00B00_23.json"),
        str(DATA / "SAMSUNG_MZVL21T0HCLR-00B00_24.json"),
    )
    assert rc == 2 and out == ""
    assert "overprov smart: " in err
    assert "data_units_written" in err and "SAMSUNG_MZVL21T0HCLR-00B00_23.json" in err


def test_smart_bad_file_is_named(overprov_cli, tmp_path: Path) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text('{"smartctl": {"exit_status": 0}, "power_on_time": {"hours": "many"}}')
    rc, out, err = overprov_cli("smart", str(bad))
    assert rc == 2 and out == ""
    assert "broken.json" in err and "power_on_time.hours" in err
    rc, _, err = overprov_cli("smart", str(tmp_path / "nothing-here.json"))
    assert rc == 2 and "no such smartctl -j JSON file" in err and "nothing-here.json)" in err


def test_smart_more_than_two_targets(overprov_cli) -> None:
    rc, _, err = overprov_cli("smart", str(MICRON), str(MICRON), str(MICRON))
    assert rc == 2 and "give one target, or two snapshots" in err


def _fake_smartctl(tmp_path: Path, main: Path, devstat: dict | None, exit_status: int = 0) -> Path:
    """A stand-in smartctl that prints saved JSON: ``-j -a DEV`` gives ``main``, and
    ``-j -l devstat DEV`` gives ``devstat``."""
    devstat_file = tmp_path / "devstat.json"
    devstat_file.write_text(json.dumps(devstat or {"smartctl": {"exit_status": 4}}))
    script = tmp_path / "smartctl"
    script.write_text(
        "#!/bin/sh\n"
        f'if [ "$2" = "-l" ]; then cat "{devstat_file}"; else cat "{main}"; fi\n'
        f"exit {exit_status}\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def test_smart_device_runs_smartctl(overprov_cli, tmp_path: Path) -> None:
    devstat = {
        "ata_device_statistics": {
            "pages": [
                {
                    "number": 7,
                    "name": "Solid State Device Statistics",
                    "table": [
                        {
                            "offset": 8,
                            "name": "Percentage Used Endurance Indicator",
                            "value": 3,
                            "flags": {"valid": True},
                        }
                    ],
                }
            ]
        }
    }
    # Micron's own wear attribute says 0 %; the device statistics (3 %) take precedence
    script = _fake_smartctl(tmp_path, MICRON, devstat)
    rc, out, err = overprov_cli("smart", "/dev/sdzz", "--smartctl", str(script))
    assert rc == 0, err
    assert out.startswith("/dev/sdzz")
    assert "lifetime WAF: 3.172" in out
    assert "percentage used: 3 %" in out and "Percentage Used Endurance Indicator" in out


def test_smart_device_smartctl_failure(overprov_cli, tmp_path: Path) -> None:
    failed = tmp_path / "failed.json"
    failed.write_text(
        json.dumps(
            {
                "smartctl": {
                    "exit_status": 2,
                    "messages": [
                        {"string": "Smartctl open device: /dev/sdzz failed: Permission denied"}
                    ],
                }
            }
        )
    )
    script = _fake_smartctl(tmp_path, failed, None, exit_status=2)
    rc, _, err = overprov_cli("smart", "/dev/sdzz", "--smartctl", str(script))
    assert rc == 1
    assert "smartctl could not read /dev/sdzz (exit status 2)" in err
    assert "Permission denied" in err


def test_smart_device_without_smartctl(overprov_cli, tmp_path: Path) -> None:
    rc, _, err = overprov_cli("smart", "/dev/sdzz", "--smartctl", str(tmp_path / "no-smartctl"))
    assert rc == 1 and "smartctl not found" in err and "smartmontools" in err


def test_smart_help_explains_units(overprov_cli) -> None:
    rc, out, _ = overprov_cli("smart", "--help")
    assert rc == 0
    text = " ".join(out.split())  # argparse wraps to the terminal width
    assert "WAF = NAND bytes written / host bytes written" in text
    assert "512,000 bytes" in text
    assert "Days left = power-on days × (100 − used %) / used %" in text


def test_smart_help_lists_the_vendors_of_the_table(overprov_cli) -> None:
    """The vendor list in --help is generated from the table file, so a row added there shows."""
    from overprov.smart import tables

    rc, out, _ = overprov_cli("smart", "--help")
    text = " ".join(out.split())
    assert rc == 0 and "smart_vendors.toml" in text
    for vendor in tables.vendors():
        assert vendor in text
    assert {"Intel", "Micron", "Samsung", "Seagate", "WD"} <= set(tables.vendors())
    # every NAND rule has attributes with a known unit
    for rule in tables.VENDOR_NAND_COUNTERS:
        assert rule.attributes and all(
            a.unit in tables.UNITS or a.unit in ("LBA", "page") for a in rule.attributes
        )
