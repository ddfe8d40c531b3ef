"""``overprov calibrate`` and ``overprov profile`` on the emulated block device agree with the
same commands on ``sim:`` of the same drive file (docs/emulate.md, "The real path proven").

Both run on tests/emulate/small-drive.toml with its write buffer cut from 256 KiB to 32 KiB
(``small_buffer_drive``). A real target's rounds are separate fio runs of a second or more,
and between two of them the drive idles while fio starts: work queued in the drive drains, so
each round starts on an idle drive with an empty buffer. With the 256 KiB buffer (64 pages)
calibrate's 1 s rounds on the emulated device measured 397 IOPS at 0% extra OP where one
continuous fio run on it found 338 (WAF 5.04 from the device's counters) and ``calibrate sim:``
332 (WAF 5.05). With 32 KiB the excess at 0% is 7-9% (356 and 365 against 334 in two runs)
and at 10-40% within 3%. It is a bias of short rounds on any drive that can catch up while
idle, not of the emulator: the same fio run continuously matches the simulator, and the
simulated drive alone, with the host idle 0.1-1 s before each 1 s round, reads its 0% IOPS
+7.4-7.9% high and its 40% +1% (test_round_gap.py; bench/results/emu0/DIAGNOSIS.md). The device's
NAND and host write counters reach calibrate through its status file (``emulate.counters``),
as a real drive's through SMART, so calibrate measures the WAF; without them it inferred the
WAF from three IOPS figures and predicted 4.20-4.84 at 0% (``sim:`` 4.98) in four runs.

The ``sim:`` runs go beside the emulated ones (the emulated run waits on real time), ten nice
levels below them. Calibrate's QD4 probe is the one figure a loaded host moves: at QD4 the
host's own time per request is a large share of each request's cycle, the probe reads low, and
calibrate takes the low QD4 ÷ QD32 ratio for blocking GC and predicts high IOPS at high OP
(+31% at 40% with the host holding 67% of the probe's time). So calibrate records
the host's share of each round on an emulated drive (``Round.host_share``), the test prints
them, and the predictions are compared only where the host kept up with the probe
(``emulate.host_share.HOST_BOUND_SHARE``, whose comment has the runs that set it)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import overprov_env, small_drive_with_buffer

pytestmark = [pytest.mark.root, pytest.mark.xdist_group("emulated-drive")]

CALIBRATE_LEVELS = "0,10,20,30,40"
KNEE_LEVELS = "0,10,50,80"


def small_buffer_drive(folder: Path) -> Path:
    """The test drive with a 32 KiB write buffer (one flash page per die) instead of 256 KiB."""
    return small_drive_with_buffer(folder, 32768)


def start_overprov(*argv: str, beside_the_drive: bool = False) -> subprocess.Popen[str]:
    """``overprov ARGV`` started; ``beside_the_drive``: a ``sim:`` run started while the
    emulated drive's run goes on (the emulated run waits on real time most of its wall time),
    10 nice levels below it and on one thread, so that it does not slow the emulated drive's
    host (the ``--jobs 1`` results are those of any ``--jobs``)."""
    return subprocess.Popen(
        [sys.executable, "-m", "overprov", *argv], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env=overprov_env(),
        preexec_fn=(lambda: os.nice(10)) if beside_the_drive else None,
    )  # fmt: skip


def finish(proc: subprocess.Popen[str], timeout_s: float) -> str:
    """Waits for ``proc``, asserts it succeeded, and returns its stderr."""
    try:
        out, err = proc.communicate(timeout=timeout_s)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, out[-1500:] + err[-1500:]
    return err


def calibrate(target: str, out: Path, *extra: str, beside: bool = False) -> subprocess.Popen[str]:
    return start_overprov("calibrate", target, "--extra-op", CALIBRATE_LEVELS, "--out",
                          str(out), *extra, beside_the_drive=beside)  # fmt: skip


def predicted_levels(out: Path) -> dict[float, dict[str, Any]]:
    """The predicted level per extra OP percent in calibrate's ``out/prediction.json``."""
    prediction = json.loads((out / "prediction.json").read_text())
    return {lv["extra_op_percent"]: lv for lv in prediction["levels"]}


@pytest.mark.slow
@pytest.mark.fio
@pytest.mark.timeout(600)
def test_calibrate_on_the_emulated_drive_agrees_with_calibrate_sim(emulated, tmp_path):
    """``overprov calibrate /dev/loopN`` (fio, discards, 1 s rounds, the device's write
    counters) measures the steady IOPS and WAF ``calibrate sim:`` measures on the same drive
    file at each of its QD32 levels (within 12% and 10%), and predicts, at every level, the
    WAF of ``calibrate sim:`` within 5% and its steady IOPS within 12% (14% at 0%: the drive
    finishes its booked collection work in the idle gap between two 1 s fio runs, so 1 s rounds
    read 0% high, module doc; +5.0% to +10.8%, median +9.0%, in eight runs,
    bench/results/emu0/verdict.md; the plan's onset step changes only ``sim:``'s plan, the
    graded one of the default budget, not the device's random plan of ``--budget 30dw``,
    bench/results/emu0/DIAGNOSIS.md). The predictions
    are compared only where the host held at most ``HOST_BOUND_SHARE`` of the QD4 probe's
    request time (else skipped, saying so: they would be the host's). The budget is raised
    because a one-second round on this 15 MB drive writes a large share of it (calibrate
    refuses the default budget and says so)."""
    from overprov.emulate import counters, host_share

    if shutil.which("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    drive = small_buffer_drive(tmp_path)
    sim_run = calibrate(f"sim:{drive}@1", tmp_path / "sim", "--jobs", "1", beside=True)
    e = emulated(drive=drive)
    said = finish(calibrate(e.dev, tmp_path / "dev", "--budget", "30dw",
                            "--i-understand-this-destroys-data", e.dev), timeout_s=400)  # fmt: skip
    status = e.status()
    reading = counters.read(e.dev)  # as calibrate reads it per round
    through_the_device = reading.drive_time if reading is not None else None
    e.stop()
    finish(sim_run, timeout_s=300)
    assert through_the_device is not None, "the drive's time not read through /dev/loopN"
    assert through_the_device["requests"] >= status["requests"] > 0, (through_the_device, status)
    measured = {
        d: json.loads((tmp_path / d / "measurement.json").read_text()) for d in ("dev", "sim")
    }
    rounds = measured["dev"]["rounds"]
    assert all(r["nand_bytes"] for r in rounds if r["label"].startswith("op")), rounds
    assert status["counters"]["trims"] > 0, "calibrate's discards did not reach the simulator"
    levels = {
        d: {lv["extra_op_percent"]: (round(lv["steady_iops"]), round(lv["waf"], 3))
            for lv in m["levels"] if lv["queue_depth"] is None}
        for d, m in measured.items()
    }  # fmt: skip
    print(f"calibrate's measured QD32 levels (IOPS, WAF), emulated and sim: {levels}")
    assert set(levels["dev"]) == set(levels["sim"]), levels
    for op, (sim_iops, sim_waf) in levels["sim"].items():
        dev_iops, dev_waf = levels["dev"][op]
        assert abs(dev_iops / sim_iops - 1) < 0.12, f"OP {op}%: measured IOPS: {levels}"
        # a level's WAF is its last rounds' (sim: rounds sized in drive writes, not seconds)
        assert abs(dev_waf / sim_waf - 1) < 0.10, f"OP {op}%: measured WAF: {levels}"
    # calibrate records the host's share of each round on an emulated drive, on no other
    shares = {r["label"]: r["host_share"] for r in rounds}
    assert all(share is not None for share in shares.values()), shares
    host_bound = {label for label, share in shares.items() if share > host_share.HOST_BOUND_SHARE}
    warned = [line for line in said.splitlines() if "of its requests' time, the emulated" in line]
    # each says "LABEL: the host held ..."; its level and queue depth: LABEL less its round
    # number (``op0-r03`` → ``op0``, ``op40-qd4-r01`` → ``op40-qd4``, the FOB's ``fob-01``:
    # ``fob``, which the old match on "LEVEL-r" missed on a loaded host)
    warned_keys = [
        line.split(": the host held")[0].split()[-1].rsplit("-", 1)[0] for line in warned
    ]
    for label in host_bound:  # said as it measured, once per level and queue depth
        level = label.rsplit("-", 1)[0]
        assert warned_keys.count(level) == 1, (label, warned)
    assert not any(r.get("host_share") is not None for r in measured["sim"]["rounds"])
    qd4 = {
        d: [round(lv["steady_iops"]) for lv in m["levels"] if lv["queue_depth"] == 4]
        for d, m in measured.items()
    }
    print(f"host's share of each round's request time: {shares}; QD4 probe IOPS: {qd4}")
    probe = [share for label, share in shares.items() if "-qd4-" in label]
    assert probe, f"no reading of the QD4 probe's round: {shares}"
    if max(probe) > host_share.HOST_BOUND_SHARE:
        pytest.skip(
            f"the host held {max(probe):.0%} of the QD4 probe's request time (more than "
            f"{host_share.HOST_BOUND_SHARE:.0%}): calibrate reads its QD4 ÷ QD32 ratio as the "
            "drive's write buffer and blocking GC, so its predictions would be the loaded host's "
            f"(the measured QD32 levels agreed: {levels})"
        )
    real, simulated = predicted_levels(tmp_path / "dev"), predicted_levels(tmp_path / "sim")
    rows = {
        op: (round(real[op]["steady_iops"]), round(sim["steady_iops"]),
             round(real[op]["waf"], 3), round(sim["waf"], 3))
        for op, sim in simulated.items()
    }  # fmt: skip
    print(f"calibrate (emulated IOPS, sim: IOPS, emulated WAF, sim: WAF) per OP: {rows}")
    assert set(real) == set(simulated) == {0.0, 10.0, 20.0, 30.0, 40.0}
    for op, sim in simulated.items():
        iops_error = real[op]["steady_iops"] / sim["steady_iops"] - 1
        waf_error = real[op]["waf"] / sim["waf"] - 1
        # at 0% the emulated drive's prediction reads high: its 1 s rounds start on idle
        # dies (the gap's bias, +7.4-7.9% on the simulated drive alone), and the spread of
        # eight runs (+5.0% to +10.8%) plus 3 points is 14%, by the rule of
        # bench/results/emu0/RULE.md (a CI run before it: +12.2%)
        bound = 0.14 if op == 0.0 else 0.12
        assert abs(iops_error) < bound, f"OP {op}%: IOPS off by {iops_error:+.1%}: {rows}"
        assert abs(waf_error) < 0.05, f"OP {op}%: WAF off by {waf_error:+.1%}: {rows}"


def profile(target: str, out: Path, *confirm: str, beside: bool = False) -> subprocess.Popen[str]:
    """``overprov profile TARGET`` at KNEE_LEVELS, 2 s rounds at QD32, no target, into ``out``
    (results.json; no FOB round and no HTML report: nothing here reads them)."""
    return start_overprov("profile", target, "--extra-op", KNEE_LEVELS, "--round-seconds", "2",
                          "--qd", "32", "--fob-seconds", "0", "--out", str(out), "--no-report",
                          *confirm, beside_the_drive=beside)  # fmt: skip


@pytest.mark.slow
@pytest.mark.fio
@pytest.mark.timeout(600)
def test_profile_on_the_emulated_drive_finds_the_knee_of_profile_sim(emulated, tmp_path):
    """The real path end to end: ``overprov profile /dev/loopN`` (fio, the discard of the
    tail, steady-state detection) at four OP levels finds the steady IOPS of ``profile sim:``
    on the same drive file within 10% at each, more at more OP, and recommends the knee of
    the IOPS-vs-OP curve at the OP where ``profile sim:`` puts it."""
    if shutil.which("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    drive = small_buffer_drive(tmp_path)
    sim_run = profile(f"sim:{drive}@1", tmp_path / "sim", beside=True)
    e = emulated(drive=drive)
    finish(profile(e.dev, tmp_path / "dev", "--i-understand-this-destroys-data", e.dev), 500)
    trims = e.status()["counters"]["trims"]
    e.stop()
    finish(sim_run, timeout_s=300)
    real, simulated = (
        json.loads((tmp_path / d / "results.json").read_text()) for d in ("dev", "sim")
    )
    iops = {
        name: {p["extra_op_percent"]: p["steady_iops"] for p in r["phases"] if p["steady"]}
        for name, r in (("emulated", real), ("sim", simulated))
    }
    knees = {name: r["recommendation"] for name, r in (("emulated", real), ("sim", simulated))}
    shares = {p["extra_op_percent"]: p.get("host_share") for p in real["phases"]}
    print(f"profile steady IOPS {iops}; recommendations {knees}; host shares {shares}")
    # each phase records the host's share of its window on the emulated drive, on no other
    assert all(share is not None for share in shares.values()), shares
    assert not any("host_share" in p for p in simulated["phases"]), simulated["phases"]
    assert trims > 0, "the profile's discards did not reach the simulator"
    assert len(iops["sim"]) == len(iops["emulated"]) == 4, iops
    ops = sorted(iops["emulated"])
    rising = zip(ops, ops[1:], strict=False)
    assert all(iops["emulated"][a] < iops["emulated"][b] for a, b in rising), iops
    for op, sim_iops in iops["sim"].items():
        assert abs(iops["emulated"][op] / sim_iops - 1) < 0.10, f"OP {op}%: {iops}"
    assert knees["sim"]["method"] == "knee", knees
    assert knees["emulated"]["method"] == "knee", knees
    assert knees["emulated"]["extra_op_percent"] == knees["sim"]["extra_op_percent"], knees


def test_write_counters_only_of_a_device_emulate_serves(loop_device, tmp_path):
    """``emulate.counters.read`` (the write counters and the drive's time) answers None, at
    once, for a device that is not a loop device over ``overprov emulate``'s FUSE
    file: a plain loop device, a file, a name that is no device (calibrate then asks SMART,
    as before)."""
    from overprov.emulate import counters

    plain = loop_device(4 << 20)
    started = time.monotonic()
    assert counters.read(plain) is None
    assert counters.status_path(plain) is None
    assert counters.read(str(tmp_path)) is None
    assert counters.read("/dev/no-such-device") is None
    assert time.monotonic() - started < 1.0
