"""SATA HPA plans from hdparm -N output (formats as printed by hdparm 9.x), and the real
hdparm on a loop device (which has no ATA max address and must be refused)."""

from __future__ import annotations

import math
import subprocess

import pytest
from apply_fakes import FakeRunner, make_info
from overprov import blockdev
from overprov.apply import VerificationError, VisibleSize, plan_auto, plan_hpa
from overprov.apply.hpa import SetMaxSectorsStep, parse_hdparm_n
from overprov.errors import ConfigError, ToolError

MIB = 2**20
NATIVE_512GB = 1_000_215_216  # IDEMA 512 GB
SDX = make_info("sdx", size_bytes=NATIVE_512GB * 512)


def hdparm_n(current: int, native: int, amax: bool = False) -> str:
    if current == native:
        state = "ACCESSIBLE MAX ADDRESS disabled" if amax else "HPA is disabled"
    else:
        state = "ACCESSIBLE MAX ADDRESS enabled" if amax else "HPA is enabled"
    return f"\n/dev/sdx:\n max sectors   = {current}/{native}, {state}\n"


def test_parse_hdparm_n_variants():
    ms = parse_hdparm_n(hdparm_n(NATIVE_512GB, NATIVE_512GB))
    assert (ms.current, ms.native, ms.hidden, ms.accessible_max_address) == (
        NATIVE_512GB,
        NATIVE_512GB,
        0,
        False,
    )
    ms = parse_hdparm_n(hdparm_n(800_000_000, NATIVE_512GB, amax=True))
    assert ms.hidden == NATIVE_512GB - 800_000_000 and ms.accessible_max_address
    assert parse_hdparm_n("\n/dev/loop0:\n") is None  # what hdparm prints for a non-ATA device


def test_plan_hpa_commands_for_extra_op(fake_runner: FakeRunner):
    fake_runner.on(["hdparm", "-N"], hdparm_n(NATIVE_512GB, NATIVE_512GB))
    plan = plan_hpa(SDX, VisibleSize(extra_op=0.2), runner=fake_runner)
    visible = math.floor(NATIVE_512GB * 512 * 0.8 / MIB) * MIB // 512
    assert [c for step in plan.steps for c in step.show()] == [
        "wipefs --all /dev/sdx",
        "blkdiscard /dev/sdx",  # the whole device, while the area to hide is still visible
        f"hdparm --yes-i-know-what-i-am-doing -Np{visible} /dev/sdx",
        "echo 1 > /sys/block/sdx/device/rescan",
    ]
    assert any("permanent" in w for w in plan.warnings)
    assert fake_runner.calls == [["hdparm", "-N", "/dev/sdx"]]  # planning only read


def test_plan_hpa_from_an_idema_capacity(fake_runner: FakeRunner):
    fake_runner.on(["hdparm", "-N"], hdparm_n(NATIVE_512GB, NATIVE_512GB))
    plan = plan_hpa(SDX, VisibleSize(visible_gb=400), runner=fake_runner)
    assert "-Np781422768" in "\n".join(c for s in plan.steps for c in s.show())


def test_hpa_already_enabled_is_refused_with_the_way_out(fake_runner: FakeRunner):
    fake_runner.on(["hdparm", "-N"], hdparm_n(900_000_000, NATIVE_512GB))
    info = make_info("sdx", size_bytes=900_000_000 * 512)
    with pytest.raises(ConfigError) as exc:
        plan_hpa(info, VisibleSize(extra_op=0.2), runner=fake_runner)
    assert "already hides 100,215,216 sectors" in str(exc.value)
    assert f"-Np{NATIVE_512GB}" in str(exc.value) and "power-cycle" in str(exc.value)


def test_set_max_step_verifies_by_re_reading(fake_runner: FakeRunner):
    step = SetMaxSectorsStep(SDX, 800_000_000)
    fake_runner.on(["hdparm", "-N"], hdparm_n(800_000_000, NATIVE_512GB))
    fake_runner.on(["hdparm", "--yes-i-know-what-i-am-doing"], "")
    notes = step.apply(fake_runner)
    assert "max sectors = 800,000,000/1,000,215,216" in notes[0]

    stubborn = FakeRunner().on(["hdparm", "-N"], hdparm_n(NATIVE_512GB, NATIVE_512GB))
    stubborn.on(["hdparm", "--yes-i-know-what-i-am-doing"], "")
    with pytest.raises(VerificationError, match="expected 800,000,000"):
        step.apply(stubborn)


def test_auto_names_hpa_but_does_not_pick_it(fake_runner: FakeRunner):
    fake_runner.on(["hdparm", "-N"], hdparm_n(NATIVE_512GB, NATIVE_512GB))
    plan = plan_auto(SDX, VisibleSize(extra_op=0.2), runner=fake_runner)
    assert plan.method == "partition"
    assert "HPA is possible but not chosen automatically" in plan.why
    assert "--method hpa" in plan.why


@pytest.mark.root
def test_real_hdparm_on_a_loop_device_is_refused(loop_device):
    dev = loop_device(size_bytes=64 * MIB)
    try:
        blockdev.find_tool("hdparm")
    except ToolError as exc:
        pytest.skip(str(exc))
    with pytest.raises(ConfigError, match="not an ATA drive"):
        plan_hpa(blockdev.identify(dev), VisibleSize(extra_op=0.2))
    # what the installed hdparm prints for a loop device: no "max sectors" line
    out = subprocess.run(["hdparm", "-N", dev], capture_output=True, text=True).stdout
    assert parse_hdparm_n(out) is None
