"""``overprov status``: the HPA and NVMe parts from fakes, the rest from real loop devices."""

from __future__ import annotations

import json
import subprocess

import pytest
from apply_fakes import NVME_SERIAL, FakeNvmeController, load_nvme, make_info, nvme_sysfs
from overprov import blockdev
from overprov.apply import status

MIB = 2**20


def routed(fakes: dict, real=blockdev.run_tool):
    """Send each tool to its fake; the rest (wipefs, lsblk) to the real tool."""

    def run(argv, *, check=True):
        fake = fakes.get(argv[0])
        return fake(argv, check=check) if fake else real(argv, check=check)

    return run


@pytest.mark.root
def test_status_shows_hidden_sectors_from_hdparm(loop_device):
    size = 64 * MIB
    dev = loop_device(size_bytes=size)
    visible = size // 512
    native = visible + visible // 4  # pretend a quarter more is hidden behind an HPA
    out = f"\n{dev}:\n max sectors   = {visible}/{native}, HPA is enabled\n"

    def hdparm(argv, *, check=True):
        return subprocess.CompletedProcess(argv, 0, out, "")

    st = status.device_status(dev, runner=routed({"hdparm": hdparm}))
    assert st["hpa"]["hidden_sectors"] == native - visible
    assert st["layout"]["native_bytes"] == native * 512
    assert st["layout"]["extra_op"] == pytest.approx((native - visible) / native)
    text = status.format_status(st)
    assert f"HPA: max sectors = {visible:,}/{native:,}" in text


def test_status_shows_namespace_against_total_nvm_capacity(monkeypatch, tmp_path):
    monkeypatch.setattr(blockdev, "SYSFS", nvme_sysfs(tmp_path / "sys"))
    t = 3_840_755_982_336
    info = make_info("nvme0n1", size_bytes=int(t * 0.8) // 512 * 512, serial=NVME_SERIAL)
    monkeypatch.setattr(blockdev, "identify", lambda path, runner=None: info)
    ns = load_nvme("id-ns-nsmgmt-512.json") | {"nsze": info.size_bytes // 512}
    ctrl = load_nvme("id-ctrl-nsmgmt.json") | {"unvmcap": t - info.size_bytes}
    nvme = FakeNvmeController(ctrl, ns)

    def hdparm(argv, *, check=True):
        return subprocess.CompletedProcess(argv, 0, "\n/dev/nvme0n1:\n", "")

    st = status.device_status("/dev/nvme0n1", runner=routed({"nvme": nvme, "hdparm": hdparm}))
    assert st["nvme"]["tnvmcap_bytes"] == t
    assert st["nvme"]["namespace_bytes"] == info.size_bytes
    assert st["nvme"]["namespace_management"] is True
    assert st["layout"]["extra_op"] == pytest.approx(0.2, abs=1e-6)
    assert "namespace management supported (OACS 0x5f)" in status.format_status(st)
    json.dumps(st)  # the --json output is serialisable


@pytest.mark.root
def test_status_of_a_blank_device_says_everything_is_addressable(loop_device, overprov_cli):
    dev = loop_device(size_bytes=64 * MIB)
    rc, out, err = overprov_cli("status", dev, "--json", "-")
    assert rc == 0, err
    st = json.loads(out)
    assert st["partition_table"] is None and st["partitions"] == []
    assert st["unpartitioned_tail_bytes"] is None
    assert st["layout"]["extra_op_percent"] == 0.0
    assert st["in_use"] == []
