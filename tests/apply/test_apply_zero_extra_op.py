"""apply --extra-op 0 was refused with "overlaps the backup GPT … use a larger extra OP":
the refusal now says that 0 % needs no partition change (and where Undo is documented)."""

from __future__ import annotations

import pytest
from apply_fakes import make_info
from overprov.apply.partition import layout_for
from overprov.errors import ConfigError

MIB = 2**20


def test_zero_extra_op_says_no_partition_change_is_needed():
    info = make_info("sdx", size_bytes=64 * MIB)
    with pytest.raises(ConfigError) as err:
        layout_for(info, 64 * MIB)  # U = (1 − 0)·C
    said = str(err.value)
    assert "overlaps the backup GPT in the last 16,896 bytes" in said  # 33 sectors of 512 B
    assert "An extra OP of 0 % leaves the whole device usable, so no partition change" in said
    assert "'Undo' in docs/apply.md" in said
    assert "use a larger extra OP" not in said
    with pytest.raises(ConfigError, match="; use a larger extra OP$"):
        layout_for(info, 64 * MIB - 4096)  # an exact visible size that still leaves a tail
    assert layout_for(info, 63 * MIB).last_lba == 63 * MIB // 512 - 1


@pytest.mark.root
def test_the_dry_run_on_a_loop_device_says_it(loop_device, overprov_cli):
    dev = loop_device(size_bytes=64 * MIB)  # sparse backing file, detached by the fixture
    rc, out, err = overprov_cli("apply", dev, "--extra-op", "0")
    assert rc == 2, (out, err)
    assert "no partition change is needed" in err


def test_undo_of_nvme_ns_is_a_plan_at_zero_extra_op(tmp_path, monkeypatch):
    """docs/apply.md, "Undo": `apply --method nvme-ns --extra-op 0` re-creates the namespace
    over the whole tnvmcap (rounded down to 1 MiB), the controller's own commands."""
    from apply_fakes import NVME_SERIAL, FakeNvmeController, load_nvme, nvme_sysfs
    from overprov import blockdev
    from overprov.apply import VisibleSize, plan_nvme_namespace

    monkeypatch.setattr(blockdev, "SYSFS", nvme_sysfs(tmp_path / "sys"))
    tnvmcap = 3_840_755_982_336
    fake = FakeNvmeController(load_nvme("id-ctrl-nsmgmt.json"), load_nvme("id-ns-nsmgmt-512.json"))
    info = make_info("nvme0n1", size_bytes=tnvmcap, serial=NVME_SERIAL)
    plan = plan_nvme_namespace(info, VisibleSize(extra_op=0.0), runner=fake)
    nsze = tnvmcap // MIB * MIB // 512
    shown = [c for step in plan.steps for c in step.show()]
    assert f"nvme create-ns /dev/nvme0 --nsze={nsze} --ncap={nsze} --flbas=0 --dps=0 --nmic=0" in (
        shown
    )
