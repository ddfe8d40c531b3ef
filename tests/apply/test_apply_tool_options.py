"""Every option overprov puts on a command line exists in the tool installed here.

The plans are built from fakes (no device is touched); the help texts come from the real
sgdisk, blkdiscard, wipefs, partx, lsblk, hdparm, nvme-cli and mdadm."""

from __future__ import annotations

import re
import shlex
import subprocess
from functools import cache
from pathlib import Path

import apply_fakes
import pytest
from apply_fakes import FakeNvmeController, FakeRunner, load_nvme, make_info
from overprov import blockdev
from overprov.apply import VisibleSize, plan_hpa, plan_mdraid, plan_nvme_namespace, plan_partition
from overprov.apply.base import WipeSignaturesStep
from overprov.apply.nvme import RescanNamespacesStep
from overprov.errors import ToolError

NATIVE = 1_000_215_216
HDPARM_N = f"/dev/sdx:\n max sectors   = {NATIVE}/{NATIVE}, HPA is disabled\n"


def tool_path(name: str) -> str:
    try:
        return blockdev.find_tool(name)
    except ToolError as exc:
        pytest.skip(str(exc))


@cache
def help_text(tool: str, sub: str | None) -> str:
    exe = tool_path(tool)
    if tool == "nvme":
        argv = [exe, sub, "--help"]
    elif tool == "mdadm":
        argv = [exe, "--create", "--help"]
    elif tool == "hdparm":
        argv = [exe, "-h"]
    else:
        argv = [exe, "--help"]
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    return proc.stdout + proc.stderr


def options(argv: list[str]) -> list[str]:
    """'--nsze=5' → '--nsze'; hdparm's '-Np123' → '-N'; plain arguments are skipped."""
    out = []
    for tok in argv[1:]:
        if tok.startswith("--"):
            out.append(tok.split("=", 1)[0])
        elif tok.startswith("-") and len(tok) > 1:
            out.append(tok[:2])
    return out


def in_help(option: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


def all_commands() -> list[list[str]]:
    """The command lines of every method's plan, plus the read-only commands the steps use
    for verification, collected from fakes."""
    cmds: list[list[str]] = []
    sdx = make_info("sdx", size_bytes=NATIVE * 512)

    def steps_of(plan):
        return [
            shlex.split(c) for step in plan.steps for c in step.show() if not c.startswith("echo")
        ]

    cmds += steps_of(plan_partition(sdx, VisibleSize(extra_op=0.2)))
    hdparm = FakeRunner().on(["hdparm", "-N"], HDPARM_N).on(["hdparm", "--yes"], "")
    cmds += steps_of(plan_hpa(sdx, VisibleSize(extra_op=0.2), runner=hdparm))
    cmds += hdparm.calls

    members = [make_info(n) for n in ("sdx", "sdy", "sdz")]
    cmds += steps_of(plan_mdraid(members, VisibleSize(extra_op=0.2), "5", md_name="optest"))
    cmds += steps_of(plan_mdraid(members[:2], VisibleSize(extra_op=0.2), "0", md_name="optest"))

    nvme = FakeNvmeController(load_nvme("id-ctrl-nsmgmt.json"), load_nvme("id-ns-nsmgmt-512.json"))
    plan = plan_nvme_namespace(
        make_info("nvme0n1", serial=apply_fakes.NVME_SERIAL), VisibleSize(extra_op=0.2), runner=nvme
    )
    cmds += steps_of(plan)
    for step in plan.steps:
        if isinstance(step, RescanNamespacesStep):
            step.wait_seconds = 0
        step.apply(nvme)
    cmds += nvme.commands  # includes id-ctrl / id-ns / list-ns as the verifications ran them

    wipefs = FakeRunner().on(["wipefs"], "")
    WipeSignaturesStep(sdx).verify(wipefs)
    cmds += wipefs.calls
    return cmds


def test_every_option_exists_in_the_installed_tools(tmp_path, monkeypatch):
    monkeypatch.setattr(blockdev, "SYSFS", apply_fakes.nvme_sysfs(tmp_path / "sys"))
    checked = 0
    missing = []
    for argv in all_commands():
        tool = argv[0]
        sub = argv[1] if tool == "nvme" else None
        text = help_text(tool, sub)
        for opt in options(argv):
            if tool == "hdparm" and opt == "--yes-i-know-what-i-am-doing":
                continue  # hdparm -h does not list it; checked against the binary below
            checked += 1
            if not in_help(opt, text):
                missing.append(f"{shlex.join(argv)}: {opt}")
    assert not missing, "options not in the installed tools' help:\n" + "\n".join(missing)
    assert checked > 30
    # the check can fail: options the tools do not have are not found
    assert not in_help("--nsize", help_text("nvme", "create-ns"))
    assert not in_help("--erase-all", help_text("wipefs", None))


def test_hdparm_knows_the_confirmation_flag_and_N():
    exe = tool_path("hdparm")
    binary = Path(exe).read_bytes()
    assert b"yes-i-know-what-i-am-doing" in binary
    assert b"Please supply the --yes-i-know-what-i-am-doing flag" in binary
    assert in_help("-N", help_text("hdparm", None))
    assert "max visible number of sectors" in help_text("hdparm", None)


def test_nvme_create_ns_help_names_the_fields_we_fill():
    text = help_text("nvme", "create-ns")
    for field in ("NSZE", "NCAP", "FLBAS", "DPS", "NMIC"):
        assert field in text


@pytest.mark.root
def test_identify_only_runs_read_only_commands_with_real_options(loop_device):
    dev = loop_device(size_bytes=64 * 2**20)
    calls: list[list[str]] = []

    def recording(argv, *, check=True):
        calls.append(list(argv))
        return blockdev.run_tool(argv, check=check)

    blockdev.identify(dev, runner=recording)
    assert {c[0] for c in calls} == {"wipefs", "lsblk"}
    for argv in calls:
        if argv[0] == "wipefs":
            assert "--no-act" in argv
        for opt in options(argv):
            assert in_help(opt, help_text(argv[0], None)), (argv, opt)
