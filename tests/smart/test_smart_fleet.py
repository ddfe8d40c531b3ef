"""``overprov smart --all`` (every SSD of the machine) and ``overprov smart --nvme-log``
(the NVMe NAND-write logs through the one ``smart`` command)."""

from __future__ import annotations

import json
from pathlib import Path

from overprov.smart import fleet

NVME_DATA = Path(__file__).resolve().parent.parent / "data" / "nvme-vendor"


def _disk(root: Path, name: str, rotational: str, sectors: int, device: bool) -> None:
    d = root / name
    (d / "queue").mkdir(parents=True)
    (d / "queue" / "rotational").write_text(rotational + "\n")
    (d / "size").write_text(f"{sectors}\n")
    if device:
        (d / "device").mkdir()
        (d / "device" / "model").write_text("Some SSD 1TB   \n")


def test_ssds_are_the_non_rotational_disks_on_a_device(tmp_path):
    # a sysfs-shaped tree, as the kernel lays it out (Documentation/block/queue-sysfs.rst)
    _disk(tmp_path, "nvme0n1", "0", 2_000_000, device=True)
    _disk(tmp_path, "sda", "1", 4_000_000, device=True)  # a hard disk
    _disk(tmp_path, "loop4", "0", 1000, device=False)  # a loop device: no device behind it
    _disk(tmp_path, "sdb", "0", 0, device=True)  # an empty card reader slot
    found = fleet.list_ssds(tmp_path)
    assert found == [fleet.BlockDisk("nvme0n1", "/dev/nvme0n1", 2_000_000 * 512, "Some SSD 1TB")]


def test_smart_all_on_this_machine(overprov_cli):
    ssds = fleet.list_ssds()
    rc, out, err = overprov_cli("smart", "--all")
    assert rc == 0, err
    if not ssds:  # this build machine has only a rotational virtual disk
        assert out.startswith("no SSD found on this machine")
    else:
        assert all(d.path in out for d in ssds)
    rc, out, err = overprov_cli("smart", "--all", "--json", "-")
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["kind"] == "fleet" and [d["device"] for d in doc["drives"]] == [d.path for d in ssds]


def test_nvme_log_through_smart_is_the_smart_nvme_report(overprov_cli, tmp_path):
    smart = tmp_path / "smart-log.json"
    # constructed nvme-cli smart-log JSON (not a drive): 1,000,000 data units of 512,000 B
    smart.write_text(json.dumps({"data_units_written": 1_000_000, "percent_used": 1}))
    log = str(NVME_DATA / "cachelib-samsung-vs-smart-add-log-pm983a.txt")
    rc, out, err = overprov_cli(
        "smart", "--nvme-log", log, "--smart-log", str(smart), "--json", "-"
    )
    assert rc == 0, err
    report = json.loads(out)
    # WAF = 35,061,362,294,784 B / 512,000,000,000 B
    assert abs(report["waf"] - 35_061_362_294_784 / 512_000_000_000) < 1e-9
    rc2, out2, _ = overprov_cli(
        "smart-nvme", "--nvme-log", log, "--smart-log", str(smart), "--json", "-"
    )
    assert rc2 == 0 and json.loads(out2) == report
    rc, text, _ = overprov_cli("smart", "--nvme-log", log, "--smart-log", str(smart))
    assert rc == 0 and "lifetime WAF: 68.479" in text


def test_smart_needs_one_kind_of_input(overprov_cli, tmp_path):
    """No input: the message says what a TARGET is; two kinds at once: it names them."""
    rc, _, err = overprov_cli("smart")
    assert rc == 2
    assert err.strip() == (
        "overprov smart: give a TARGET (a device, or one or two files saved with "
        "'smartctl -j -a DEVICE'), --all (every SSD of this machine) or --nvme-log FILE"
    )
    rc, _, err = overprov_cli("smart", str(tmp_path / "x.json"), "--all")
    assert rc == 2 and err.strip() == "overprov smart: TARGET, --all: give only one of them"
    rc, _, err = overprov_cli("smart", "--smart-log", str(tmp_path / "x.json"), "--all")
    assert rc == 2 and "--smart-log goes with --nvme-log" in err
