"""``--dry-run`` writes nothing and estimates what a run does; a scaled simulated drive's
rounds scale with it; the advice after Ctrl-C and on a damaged results.json is right."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ctrl_c import sigint_default
from overprov.profile.estimate import drive_facts, estimate
from overprov.profile.settings import ProfileSettings
from overprov.profile.sim_target import SimTarget
from overprov.units import human_bytes

REPO = Path(__file__).resolve().parents[2]
MIB = 2**20
#: one phase, long rounds (few of them: the run takes a minute); docs/profile.md
RUN = ("--extra-op", "20", "--round-seconds", "600")
PRESETS = {"consumer-tlc-sata": "1GiB", "enterprise-tlc-nvme": "2GiB"}


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "python"), *sys.path]))


def _cli(*argv: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "overprov.cli", *argv], capture_output=True,
                          text=True, env=_env(), timeout=timeout, check=False)  # fmt: skip


def _sha(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@pytest.mark.parametrize("command", ["profile", "calibrate", "qualify"])
def test_dry_run_on_a_loop_device_writes_nothing(overprov_cli, loop_device, tmp_path, command):
    dev = loop_device(64 * MIB, fill=b"\x5a" * 4096)
    before = _sha(dev)
    out = tmp_path / "out"
    rc, text, err = overprov_cli(command, dev, "--dry-run", "--out", str(out),
                                 "--i-understand-this-destroys-data", dev)  # fmt: skip
    assert rc == 0, err
    assert f"dry run of {command} on {dev}: nothing is written" in text
    assert "confirmed; a run destroys its data" in text and "drive writes" in text
    assert _sha(dev) == before
    assert not out.exists()


def test_dry_run_of_an_unconfirmed_file_says_what_a_run_needs(overprov_cli, tmp_path):
    target = tmp_path / "data.img"
    target.write_bytes(os.urandom(4 * MIB))
    before = _sha(target)
    rc, text, err = overprov_cli("profile", str(target), "--extra-op", "0,20", "--dry-run",
                                 "--rated-tbw", "600")  # fmt: skip
    assert rc == 0, err
    assert f"holds data: a run needs --i-understand-this-destroys-data {target}" in text
    assert "of the rated endurance" in text and "assumed" in text
    assert _sha(target) == before
    assert not list(Path.cwd().glob("overprov-profile-*data*"))


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, tuple[str, dict]]:
    """Per preset: the dry run's text and the results of the same profile, run."""
    base = tmp_path_factory.mktemp("dry-run")
    found = {}
    for preset, scale in PRESETS.items():
        spec = f"sim:{preset}@{scale}"
        dry = _cli("profile", spec, *RUN, "--dry-run", "--out", str(base / preset))
        assert dry.returncode == 0, dry.stderr
        assert not (base / preset).exists()
        real = _cli("profile", spec, *RUN, "--out", str(base / preset), "--no-report")
        assert real.returncode in (0, 3), real.stderr
        found[preset] = (dry.stdout, json.loads((base / preset / "results.json").read_text()))
    return found


@pytest.mark.slow  # the module's profile of every preset
@pytest.mark.timeout(900)  # the first one to ask runs them
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_dry_run_estimate_is_within_30_percent_of_the_run(runs, preset):
    """The estimate's earliest end (every phase steady at its first chance) against what the
    run recorded; the run never goes past the estimate's latest end."""
    text, doc = runs[preset]
    est, totals = doc["estimate"], doc["totals"]
    # the dry run printed the estimate the run made for itself
    low, high = human_bytes(est["bytes_per_member_min"]), human_bytes(est["bytes_per_member_max"])
    assert f"writes {low} to {high}" in text
    assert "the drive's steady figure from its parameters" in text
    assert abs(est["bytes_per_member_min"] / totals["bytes_written"] - 1) < 0.30
    assert abs(est["seconds_min"] / totals["io_seconds"] - 1) < 0.30
    assert totals["bytes_written"] <= est["bytes_per_member_max"]
    assert totals["io_seconds"] <= est["seconds_max"]


@pytest.mark.slow  # the module's profile of every preset
@pytest.mark.timeout(900)  # the first one to ask runs them
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_scaled_profile_writes_what_the_full_size_one_plans(runs, preset):
    """Rounds of a scaled drive last scale × their seconds, so the scaled profile writes as
    many drive writes as the full-size one plans (unscaled 600 s rounds of a 1 GiB drive at
    the full drive's IOPS would write it over 80 times per round)."""
    _, doc = runs[preset]
    scaled_dw = doc["totals"]["bytes_written"] / doc["target"]["capacity_bytes"]
    full = SimTarget(f"sim:{preset}@1")
    full.scale_rounds()  # factor 1: unchanged
    settings = ProfileSettings(extra_op_percents=[20.0], round_seconds=600)
    plan = estimate(settings, full.capacity_bytes, 1, **drive_facts(full, settings))
    planned_low = plan["bytes_per_member_min"] / full.capacity_bytes
    planned_high = plan["bytes_per_member_max"] / full.capacity_bytes
    assert planned_low * 0.7 <= scaled_dw <= planned_high * 1.3, (scaled_dw, plan)
    assert abs(scaled_dw / planned_low - 1) < 0.30
    fob = doc["steps"]["fob"]["round"]
    assert fob["duration_seconds"] == pytest.approx(600 * doc["target"]["members"][0][
        "scale_factor"], rel=0.05)  # fmt: skip


def test_ctrl_c_on_a_simulated_profile_gives_advice_that_works(tmp_path):
    out = tmp_path / "p"
    proc = subprocess.Popen(
        [sys.executable, "-m", "overprov.cli", "profile", "sim:consumer-tlc-sata@1GiB",
         "--extra-op", "0,20", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(),
        preexec_fn=sigint_default,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.3)
            log = out / "profile.log"
            if log.exists() and "op00: round 2:" in log.read_text():
                break
        assert proc.poll() is None, "the profile ended before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    log = (out / "profile.log").read_text()
    assert "a simulated drive cannot be resumed" in log and "run the profile again" in log
    assert "--resume" not in log and "--resume" not in err
    assert json.loads((out / "results.json").read_text())["status"] == "interrupted"


def test_an_interrupted_child_hears_ctrl_c_even_when_the_test_run_ignores_it():
    """A test run started in the background of a shell inherits SIGINT ignored, and so would
    the profile a Ctrl-C test interrupts (it then ran to its end: the test failed). Started
    with ``sigint_default`` (tests/ctrl_c.py), the child raises KeyboardInterrupt on SIGINT."""
    code = "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        inherited, restored = (
            subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, preexec_fn=fn).stdout.strip()
            for fn in (None, sigint_default)
        )  # fmt: skip
    finally:
        signal.signal(signal.SIGINT, previous)
    assert inherited == "False"  # what a child of such a run gets by itself
    assert restored == "True"


def test_resume_on_a_binary_results_file_is_refused_naming_it(overprov_cli, tmp_path):
    (tmp_path / "results.json").write_bytes(bytes(range(256)) * 40)
    rc, _, err = overprov_cli("profile", "--resume", str(tmp_path))
    assert rc == 2, err
    assert str(tmp_path / "results.json") in err and "internal error" not in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["profile", "calibrate", "qualify"])
@pytest.mark.parametrize("where", ["file", "dev"])
def test_a_target_that_does_not_exist_is_refused_by_the_dry_run_as_by_the_run(
    overprov_cli, tmp_path, command, where
):
    """A mistyped target: one line naming it, exit 2, for the dry run (which planned 0 bytes
    or failed with an internal error) and the run alike, and no output folder left behind."""
    missing = str(tmp_path / "missing.img") if where == "file" else "/dev/overprov-no-such-dev"
    out = tmp_path / "out"
    lines = []
    for extra in (("--dry-run",), ()):
        rc, _, err = overprov_cli(command, missing, "--out", str(out), *extra)
        assert rc == 2, err
        lines.append(err.strip().splitlines()[-1])
        assert not out.exists(), f"{command} {extra}: a refused run left {out}"
    assert lines[0] == lines[1]
    assert lines[0].startswith(f"overprov {command}: target: {missing} does not exist")
    fix = "give --size to create it" if where == "file" else "Check the device name"
    assert fix in lines[0]
    assert not os.path.exists(missing)


@pytest.mark.parametrize("command", ["profile", "calibrate", "qualify"])
def test_a_dry_run_refuses_what_is_not_a_device_or_a_file_and_an_empty_file(
    overprov_cli, tmp_path, command
):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    empty = tmp_path / "empty.img"
    empty.touch()
    rc, _, err = overprov_cli(command, str(fifo), "--dry-run")
    assert rc == 2, err
    assert f"target: {fifo} is neither a block device nor a regular file" in err
    rc, _, err = overprov_cli(command, str(empty), "--dry-run")
    assert rc == 2, err
    assert f"target: {empty} holds less than one block (4096 bytes); give --size" in err
    out = tmp_path / "out"
    for target in (fifo, empty):  # the run refuses them alike, leaving no output folder
        rc, _, err = overprov_cli(command, str(target), "--out", str(out))
        assert rc == 2, err
        assert not out.exists(), f"{command} {target}: a refused run left {out}"


def test_wear_line_groups_a_large_count_of_drive_writes():
    """A tiny target profiled for hours is written millions of times over: the count is
    grouped and without hundredths (was ``137250002.00 drive writes``)."""
    from overprov.profile.dry_run import wear_line

    assert wear_line(137_250_002.0, 16 * 1024, None).startswith("writes 137,250,002 drive writes (")
    assert wear_line(3.456, 2**30, None, lead="at most").startswith("at most 3.46 drive writes (")
