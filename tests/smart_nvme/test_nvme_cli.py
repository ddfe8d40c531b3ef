"""``overprov smart-nvme`` end to end on the real samples, and every nvme-cli command line it
would run on a live controller checked against the nvme-cli installed here (no NVMe device
is needed to read its help)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from overprov.smart.nvme_logs import load_sources
from overprov.smart.nvme_waf import SMART_LOG_COMMAND

DATA = Path(__file__).resolve().parent.parent / "data" / "nvme-vendor"


def overprov(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "overprov.cli", *args], capture_output=True, text=True, check=False
    )


def test_json_to_stdout():
    proc = overprov(
        "smart-nvme",
        "--nvme-log",
        str(DATA / "cachelib-wdc-vs-smart-add-log-c0.txt"),
        "--json",
        "-",
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["kind"] == "lifetime"
    assert report["nvme_log"]["source"] == "wdc-c0"
    # "Physical media units written : 0 609651339018240" -> 0 × 2^64 + 609,651,339,018,240 B
    assert report["nvme_log"]["counters"][0]["bytes"] == 609_651_339_018_240
    assert report["waf"] is None


def test_text_report_and_json_file(tmp_path):
    smart = tmp_path / "smart-log.json"
    # constructed nvme-cli smart-log JSON (not a drive): 1,000,000 data units
    smart.write_text(json.dumps({"data_units_written": 1_000_000, "percent_used": 1}))
    out = tmp_path / "r.json"
    proc = overprov(
        "smart-nvme",
        "--nvme-log",
        str(DATA / "cachelib-samsung-vs-smart-add-log-pm983a.txt"),
        "--smart-log",
        str(smart),
        "--json",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    # WAF = 35,061,362,294,784 B / (1,000,000 × 512,000 B = 512,000,000,000 B) = 68.4792...
    assert "lifetime WAF: 68.479 = (0xCA PhysicallyWrittenBytes)" in proc.stdout
    assert "PhysicallyWrittenBytes = 35,061,362,294,784 B" in proc.stdout
    assert json.loads(out.read_text())["waf"] == pytest.approx(35_061_362_294_784 / 512e9)


def test_days_left_without_a_percentage_used_says_so_in_words(overprov_cli):
    """A vendor log alone has no percentage used: the days-left line says why it has no
    figure, not a second label glued after its own."""
    rc, out, err = overprov_cli(
        "smart-nvme", "--nvme-log", str(DATA / "cachelib-samsung-vs-smart-add-log-pm983a.txt")
    )
    assert rc == 0, err
    assert "  percentage used: not available for this drive" in out
    days = [line for line in out.splitlines() if line.startswith("  days left:")]
    assert days == [
        "  days left: not known (it needs the percentage used, which is not available for "
        "this drive)"
    ]


def test_unknown_file_is_an_error_naming_it(tmp_path):
    f = tmp_path / "other.txt"
    f.write_text("temperature : 300\n")
    proc = overprov("smart-nvme", "--nvme-log", str(f))
    assert proc.returncode == 2
    assert "other.txt: no NAND-write counter of a known NVMe log" in proc.stderr


def _help(argv: list[str]) -> str:
    proc = subprocess.run([*argv, "--help"], capture_output=True, text=True, check=False)
    return proc.stdout + proc.stderr


def _commands() -> list[tuple[str, tuple[str, ...]]]:
    cmds = [("smart-log", SMART_LOG_COMMAND)]
    cmds += [(s.id, s.command) for s in load_sources() if s.in_nvme_cli]
    return cmds


@pytest.mark.parametrize("name,command", _commands(), ids=[c[0] for c in _commands()])
def test_nvme_cli_options_exist(name, command):
    exe = shutil.which("nvme") or shutil.which("nvme", path="/usr/sbin:/sbin")
    if exe is None:
        pytest.skip("nvme-cli not installed (Debian package nvme-cli)")
    words = [w for w in command[1:] if w != "{device}" and not w.startswith("-")]
    words = [w for w in words if w != "json"]
    text = _help([exe, *words])
    if f"Invalid sub-command '{words[0]}'" in text:
        version = _help([exe, "version"]).split("\n")[0]
        pytest.skip(f"the installed nvme-cli ({version}) has no {words[0]} plugin")
    if len(words) > 1 and f"Invalid sub-command '{words[1]}' for plugin {words[0]}" in text:
        version = _help([exe, "version"]).split("\n")[0]
        pytest.skip(f"the installed nvme-cli ({version}) has no {words[0]} {words[1]} (newer)")
    assert f"Usage: nvme {' '.join(words)}" in re.sub(r"\x1b\[[0-9;]*m", "", text), text
    for opt in (w.split("=", 1)[0] for w in command if w.startswith("-")):
        assert re.search(rf"(?<![\w-]){re.escape(opt)}(?![\w-])", text), (opt, text)


def test_vendor_build_commands_are_marked():
    """Samsung, Liteon and SK hynix logs come from vendor builds of nvme-cli; the installed
    upstream nvme-cli has no such plugin, which is what in_nvme_cli = false records."""
    exe = shutil.which("nvme") or shutil.which("nvme", path="/usr/sbin:/sbin")
    if exe is None:
        pytest.skip("nvme-cli not installed (Debian package nvme-cli)")
    for s in load_sources():
        if not s.in_nvme_cli:
            text = re.sub(r"\x1b\[[0-9;]*m", "", _help([exe, s.command[1], s.command[2]]))
            assert f"Usage: nvme {s.command[1]} {s.command[2]}" not in text
