"""bench/foreign/mqsim_patches/: MQSim's bug fixes as patch files, applied in order by build.sh,
and bench/foreign/mqsim_retry_rule.py's reading of evaluate.py's intervals (no MQSim run)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PATCHES = ROOT / "bench" / "foreign" / "mqsim_patches"
sys.path.insert(0, str(ROOT / "bench" / "foreign"))
import mqsim_retry_rule  # noqa: E402

HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@")


def preimages() -> dict[str, list[tuple[int, list[str]]]]:
    """Each file's hunks as MQSim's source had them before every patch: (line, lines)."""
    files: dict[str, list[tuple[int, list[str]]]] = {}
    for patch in sorted(PATCHES.glob("*.patch")):
        name, hunk = None, None
        for line in patch.read_text().splitlines():
            if line.startswith("+++ b/"):
                name = line[6:]
            elif (m := HUNK.match(line)) and name:
                hunk = (int(m.group(1)), [])
                files.setdefault(name, []).append(hunk)
            elif hunk is not None and line[:1] in (" ", "-"):
                hunk[1].append(line[1:])
    return files


def test_patches_touch_only_mqsim_sources_in_order():
    names = sorted(p.name for p in PATCHES.glob("*.patch"))
    assert [n[:3] for n in names] == ["01-", "02-", "03-", "04-"]
    for name, hunks in preimages().items():
        assert name.startswith("src/ssd/") and name.endswith(".cpp"), name
        assert hunks and all(lines for _, lines in hunks)


@pytest.mark.skipif(not (shutil.which("git") and shutil.which("patch")), reason="git, patch")
def test_build_applies_every_patch_in_order_and_records_them(tmp_path):
    # a stand-in for MQSim's repository holding only the lines the patches change and their
    # context, in MQSim's order, so each patch applies (at an offset) only where MQSim has it;
    # `make` is a stand-in too (MQSim's own build takes minutes)
    repo = tmp_path / "mqsim"
    for name, hunks in preimages().items():
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        text = []
        for _, lines in sorted(hunks, key=lambda h: h[0]):
            text += lines + ["// between hunks"]
        path.write_text("\n".join(text) + "\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "make").write_text('#!/bin/sh\ntouch "$2/MQSim"\n')
    (bin_dir / "make").chmod(0o755)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "preimage"], check=True)
    out = tmp_path / "out"
    env = {k: v for k, v in os.environ.items() if k != "MQSIM_PATCHES"}
    env["PATH"] = f"{bin_dir}:{env['PATH']}"
    done = subprocess.run(
        ["sh", str(PATCHES / "build.sh"), str(repo), str(out), "HEAD"],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "01-parked-writes-dispatched.patch" in done.stdout
    recorded = [line.split()[1] for line in (out / "PATCHES").read_text().splitlines()]
    assert recorded == sorted(p.name for p in PATCHES.glob("*.patch"))
    base = (out / "src/ssd/GC_and_WL_Unit_Base.cpp").read_text()
    assert "GC_WL_started(wl_candidate_address)" in base  # 04
    assert "Stop_servicing_writes(transaction->Address)) {" not in base  # 03
    assert "Program_transaction_serviced(transaction->Address);\n\t\t\t\tif (pbke" in base  # 02
    manager = (out / "src/ssd/Flash_Block_Manager.cpp").read_text()
    assert manager.count("program_transaction_issued(page_address)") == 1  # 02: GC writes
    # MQSIM_PATCHES="" builds MQSim as it is
    env["MQSIM_PATCHES"] = ""
    subprocess.run(
        ["sh", str(PATCHES / "build.sh"), str(repo), str(tmp_path / "plain"), "HEAD"],
        env=env, capture_output=True, check=True,
    )  # fmt: skip
    assert (tmp_path / "plain" / "PATCHES").read_text() == ""
    assert (
        "GC_WL_started(wl_candidate_block_id)"
        in (tmp_path / "plain/src/ssd/GC_and_WL_Unit_Base.cpp").read_text()
    )


def test_retry_rule_reads_held_out_levels_and_interval_widths(tmp_path):
    level = {
        "extra_op_percent": 10, "fitted_iops": False, "fitted_waf": True,
        "iops_true": 500.0, "iops_pred": 400.0, "iops_err": -0.2, "iops_in_80": False,
        "iops_low": 300.0, "iops_high": 480.0, "waf_true": 3.4, "waf_pred": 3.6,
        "waf_err": 0.06, "waf_in_80": True, "waf_low": 2.9, "waf_high": 4.5,
    }  # fmt: skip
    folder = tmp_path / "eval" / "u1"
    folder.mkdir(parents=True)
    refused = {"case": "IOPS+WAF 0+40, FOB, raw NAND", "error": ["no twin is written"]}
    doc = [{"cases": [{"case": "IOPS+WAF 0+40, FOB", "levels": [level]}, refused]}]
    (folder / "evaluation.json").write_text(json.dumps(doc))
    got, no = mqsim_retry_rule.coverage(tmp_path, "u1")
    assert no == {"case": refused["case"], "refused": ["no twin is written"], "held_out": []}
    assert got["case"] == "IOPS+WAF 0+40, FOB"
    (iops,) = got["held_out"]  # the WAF was fitted at this level: not held out
    assert iops["figure"] == "iops" and iops["in_interval"] is False
    assert iops["width"] == pytest.approx(180 / 400)
    assert mqsim_retry_rule.coverage(tmp_path, "never-run") == []
