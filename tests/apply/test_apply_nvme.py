"""NVMe namespace plans from constructed id-ctrl / id-ns JSON (tests/data/nvme/README.md), and
the steps run against a small model of a controller to exercise their verification."""

from __future__ import annotations

import json
import math

import pytest
from apply_fakes import (
    NVME_SERIAL,
    FakeNvmeController,
    FakeRunner,
    load_nvme,
    make_info,
    nvme_sysfs,
)
from overprov import blockdev
from overprov.apply import VerificationError, VisibleSize, plan_auto, plan_nvme_namespace
from overprov.apply.nvme import (
    RescanNamespacesStep,
    lba_format_index,
    parse_created_nsid,
    parse_id_ctrl,
    parse_id_ns,
    parse_list_ns,
)
from overprov.errors import ConfigError

MIB = 2**20
T_ENT = 3_840_755_982_336
NVME0N1 = make_info("nvme0n1", size_bytes=T_ENT, serial=NVME_SERIAL)


@pytest.fixture(autouse=True)
def no_real_sysfs(tmp_path, monkeypatch):
    """Keep a real /sys/class/block/nvme0n1 on the test machine out of these tests: nvme0n1,
    namespace 1 of controller nvme0, as a copy of sysfs shows it."""
    monkeypatch.setattr(blockdev, "SYSFS", nvme_sysfs(tmp_path / "sys"))


def controller(ns_file: str = "id-ns-nsmgmt-512.json") -> FakeNvmeController:
    return FakeNvmeController(load_nvme("id-ctrl-nsmgmt.json"), load_nvme(ns_file))


def no_wait(plan):
    """The rescan step waits up to 10 s for the kernel's block device; there is none here."""
    for step in plan.steps:
        if isinstance(step, RescanNamespacesStep):
            step.wait_seconds = 0
    return plan


def expected_nsze(tnvmcap: int, extra_op: float, lba: int) -> int:
    return math.floor(tnvmcap * (1 - extra_op) / MIB) * MIB // lba


def test_parse_the_fixture_fields():
    ctrl = parse_id_ctrl(load_nvme("id-ctrl-nsmgmt.json"), "/dev/nvme0")
    assert (ctrl.cntlid, ctrl.oacs, ctrl.tnvmcap, ctrl.unvmcap) == (65, 0x5F, T_ENT, 0)
    assert ctrl.namespace_management
    consumer = parse_id_ctrl(load_nvme("id-ctrl-consumer.json"), "/dev/nvme0")
    assert not consumer.namespace_management
    ns = parse_id_ns(load_nvme("id-ns-nsmgmt-4k.json"), 1)
    assert (ns.flbas, ns.lba_bytes, ns.size_bytes) == (1, 4096, T_ENT)
    assert parse_list_ns(load_nvme("list-ns-two.json")) == [1, 2]
    assert parse_created_nsid("create-ns: Success, created nsid:3\n") == 3
    # 128-bit fields printed as strings by some nvme-cli builds
    doc = load_nvme("id-ctrl-nsmgmt.json") | {"tnvmcap": str(T_ENT)}
    assert parse_id_ctrl(doc, "/dev/nvme0").tnvmcap == T_ENT


def test_flbas_format_index_uses_bits_6_5_beyond_16_formats():
    assert lba_format_index(0x01, 2) == 1
    assert lba_format_index(0x11, 2) == 1  # bit 4 is "metadata at the end", not the index
    assert lba_format_index(0x21, 20) == 17


@pytest.mark.parametrize(
    ("ns_file", "lba", "flbas"),
    [
        ("id-ns-nsmgmt-512.json", 512, 0),
        ("id-ns-nsmgmt-4k.json", 4096, 1),
    ],
)
def test_plan_commands_for_a_drive_with_namespace_management(ns_file, lba, flbas):
    fake = controller(ns_file)
    plan = plan_nvme_namespace(NVME0N1, VisibleSize(extra_op=0.2), runner=fake)
    nsze = expected_nsze(T_ENT, 0.2, lba)
    assert [c for step in plan.steps for c in step.show()] == [
        "nvme detach-ns /dev/nvme0 --namespace-id=1 --controllers=65",
        "nvme delete-ns /dev/nvme0 --namespace-id=1",
        f"nvme create-ns /dev/nvme0 --nsze={nsze} --ncap={nsze} --flbas={flbas} --dps=0 --nmic=0",
        "nvme attach-ns /dev/nvme0 --namespace-id=1 --controllers=65",
        "nvme ns-rescan /dev/nvme0",
    ]
    assert "namespace management supported" in "\n".join(plan.facts)
    # planning only read: identify controller, list namespaces, identify namespace
    assert {c[1] for c in fake.commands} == {"id-ctrl", "list-ns", "id-ns"}


def test_steps_run_and_verify_against_a_controller_model():
    fake = controller()
    plan = no_wait(plan_nvme_namespace(NVME0N1, VisibleSize(extra_op=0.28), runner=fake))
    fake.next_nsid = 1
    notes = [n for step in plan.steps for n in step.apply(fake)]
    nsze = expected_nsze(T_ENT, 0.28, 512)
    assert any("kernel does not (yet) show /dev/nvme0n1" in n for n in notes)
    assert fake.namespaces[1]["nsze"] == nsze
    assert fake.ctrl["unvmcap"] == T_ENT - nsze * 512
    assert any(f"nsze = ncap = {nsze:,} blocks" in n for n in notes)
    assert any("unvmcap" in n and "% unallocated" in n for n in notes)


def test_attach_uses_the_id_create_ns_reports():
    fake = controller()
    plan = no_wait(plan_nvme_namespace(NVME0N1, VisibleSize(extra_op=0.1), runner=fake))
    fake.next_nsid = 7
    for step in plan.steps:
        step.apply(fake)
    attach = [c for c in fake.commands if c[1] == "attach-ns"]
    assert attach == [["nvme", "attach-ns", "/dev/nvme0", "--namespace-id=7", "--controllers=65"]]
    assert fake.attached == {7}


def test_a_controller_that_ignores_nsze_fails_verification():
    fake = controller()
    plan = no_wait(plan_nvme_namespace(NVME0N1, VisibleSize(extra_op=0.2), runner=fake))
    fake.ignore_nsze = True
    with pytest.raises(VerificationError, match="expected nsze=ncap"):
        for step in plan.steps:
            step.apply(fake)


def test_drive_without_namespace_management_is_refused_with_the_reason():
    fake = FakeNvmeController(load_nvme("id-ctrl-consumer.json"), load_nvme("id-ns-consumer.json"))
    with pytest.raises(ConfigError) as exc:
        plan_nvme_namespace(make_info("nvme0n1"), VisibleSize(extra_op=0.2), runner=fake)
    msg = str(exc.value)
    assert "does not support namespace management" in msg
    assert "OACS = 0x17, bit 3 is clear" in msg
    assert "--method partition" in msg


def test_auto_picks_nvme_ns_when_supported_and_partition_otherwise():
    plan = plan_auto(NVME0N1, VisibleSize(extra_op=0.2), runner=controller())
    assert plan.method == "nvme-ns"
    assert "OACS 0x5f, bit 3" in plan.why

    consumer = FakeNvmeController(
        load_nvme("id-ctrl-consumer.json"), load_nvme("id-ns-consumer.json")
    )
    plan = plan_auto(
        make_info("nvme0n1", size_bytes=1_000_204_886_016),
        VisibleSize(extra_op=0.2),
        runner=consumer,
    )
    assert plan.method == "partition"
    assert "without namespace management (OACS 0x17, bit 3 clear)" in plan.why


def test_other_namespaces_are_refused_and_auto_falls_back():
    runner = (
        FakeRunner()
        .on(["nvme", "id-ctrl"], lambda _: json.dumps(load_nvme("id-ctrl-nsmgmt.json")))
        .on(["nvme", "list-ns"], lambda _: json.dumps(load_nvme("list-ns-two.json")))
    )
    with pytest.raises(ConfigError, match=r"other namespaces \(2\)"):
        plan_nvme_namespace(NVME0N1, VisibleSize(extra_op=0.2), runner=runner)
    plan = plan_auto(NVME0N1, VisibleSize(extra_op=0.2), runner=runner)
    assert plan.method == "partition"
    assert "not usable here" in plan.why


def test_shared_namespace_is_refused():
    fake = FakeNvmeController(
        load_nvme("id-ctrl-nsmgmt.json"), load_nvme("id-ns-nsmgmt-512.json") | {"nmic": 1}
    )
    with pytest.raises(ConfigError, match="NMIC bit 0"):
        plan_nvme_namespace(NVME0N1, VisibleSize(extra_op=0.2), runner=fake)


def test_steps_after_detach_re_identify_the_controller():
    """After detach-ns the namespace's block device is gone: the controller (nvme id-ctrl)
    must still be the one the plan was made for before each later step writes."""
    from overprov import fingerprint
    from overprov.apply.nvme import ControllerStep, DetachStep
    from overprov.errors import UnsafeDeviceError

    fake = controller()
    plan = plan_nvme_namespace(NVME0N1, VisibleSize(extra_op=0.28), runner=fake)
    assert isinstance(plan.steps[0], DetachStep)
    later = plan.steps[1:]
    assert later and all(isinstance(s, ControllerStep) for s in later)
    recorded = fingerprint.of_device(NVME0N1)
    recorded = fingerprint.Fingerprint.from_dict({**recorded.to_dict(), "serial": fake.ctrl["sn"]})
    for step in later:
        step.reidentify(recorded, [], " (test)", fake)  # the same controller: passes
    fake.ctrl["sn"] = "ANOTHER-DRIVE-0001"  # another drive answers at /dev/nvme0
    with pytest.raises(UnsafeDeviceError, match="serial: recorded") as exc:
        later[0].reidentify(recorded, [], " (before step 2/5)", fake)
    assert "not the controller of /dev/nvme0n1 that was planned" in str(exc.value)
