"""``smart`` never gives a WAF no drive can have as its answer (``models.MAX_PLAUSIBLE_WAF``):
a host-write counter that wrapped to a small number turns real files' figures into WAF 10⁸ or
10¹¹. The report says the figure is implausible and why, and gives no WAF (text and JSON)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent.parent / "data" / "smart"
INTEL = DATA / "sat-Intel_730_and_DC_S35x0_3610_3700_Series_SSDs-INTEL_SSDSC2BB016T4-sdf.json"
SAMSUNG = DATA / "SAMSUNG_MZ7WD240HAFV-00003_21.json"


def wrapped(src: Path, dst: Path, attribute_ids: tuple[int, ...], raw: int = 1) -> Path:
    """``src`` with the raw value of the given attributes set to ``raw`` (a counter that
    wrapped past its width and started again)."""
    doc = json.loads(src.read_text())
    for attr in doc["ata_smart_attributes"]["table"]:
        if attr["id"] in attribute_ids:
            attr["raw"] = {"value": raw, "string": str(raw)}
    dst.write_text(json.dumps(doc))
    return dst


@pytest.mark.parametrize(
    ("src", "ids", "line", "source"),
    [
        # Intel: NAND_Writes_32MiB 138,721,860 over a host counter wrapped to 1 → 1.4·10⁸
        (INTEL, (225, 241), "lifetime WAF: implausible", "the NAND and host counters"),
        # Samsung: 1,661 P/E × 240 GB / 512 B of host writes → 7.8·10¹¹
        (SAMSUNG, (241,), "lifetime WAF: implausible", "the average erase count"),
    ],
)
def test_smart_gives_no_implausible_waf(overprov_cli, tmp_path, src, ids, line, source):
    path = wrapped(src, tmp_path / "wrapped.json", ids)
    rc, out, err = overprov_cli("smart", str(path), "--json", str(tmp_path / "smart.json"))
    assert rc == 0, err
    waf_line = next(x for x in out.splitlines() if "WAF" in x and "lifetime" in x)
    assert line in waf_line and source in waf_line, waf_line
    assert "more than any drive can have" in waf_line
    assert "estimate ≈" not in out  # no figure offered as the answer
    doc = json.loads((tmp_path / "smart.json").read_text())
    assert doc["waf"] is None and doc["waf_estimate"] is None
    assert "wrapped" in doc["waf_implausible"]


def test_smart_keeps_a_plausible_waf(overprov_cli):
    """The same files as read: their WAF (2.216, ≈ 3.60) is given as before."""
    rc, out, _ = overprov_cli("smart", str(INTEL))
    assert rc == 0 and "lifetime WAF: 2.216" in out
    rc, out, _ = overprov_cli("smart", str(SAMSUNG))
    assert rc == 0 and "estimate ≈ 3.60" in out


def test_interval_waf_from_a_wrapped_counter_is_implausible(overprov_cli, tmp_path):
    """Two snapshots: the later one's host counter grew by 1 unit while NAND writes grew by
    millions — a WAF of 10⁸ in the interval, refused the same way."""
    later = json.loads(INTEL.read_text())
    later["power_on_time"]["hours"] += 24
    for attr in later["ata_smart_attributes"]["table"]:
        if attr["id"] in (225, 241):
            attr["raw"]["value"] += 1
        if attr["id"] == 243:  # NAND_Writes_32MiB
            attr["raw"]["value"] += 100_000_000
    path = tmp_path / "later.json"
    path.write_text(json.dumps(later))
    rc, out, err = overprov_cli("smart", str(INTEL), str(path))
    assert rc == 0, err
    waf_line = next(x for x in out.splitlines() if "WAF in the interval" in x)
    assert "implausible" in waf_line and "the change in the counters" in waf_line, waf_line
