"""calibrate keeps what it measures as it measures it, resumes after a kill without measuring a
finished segment again, and stops at its budget."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ctrl_c import sigint_default
from overprov import measurement_file
from overprov.calibrate.measure import measure
from overprov.calibrate.plan import design, parse_budget
from overprov.cli import main
from overprov.profile.sim_target import SimTarget

SIM = "sim:consumer-tlc-sata@1GiB"
PACKAGE = Path(__file__).resolve().parents[2] / "python"


def _levels(path: Path) -> list[float] | None:
    """The finished levels in a measurement.json, None while there is none to read."""
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return [lv["extra_op_percent"] for lv in doc["levels"]]


def test_killed_mid_measurement_and_resumed_repeats_no_finished_segment(tmp_path, capsys):
    out = tmp_path / "cal"
    env = {**os.environ, "PYTHONPATH": str(PACKAGE)}
    cmd = [sys.executable, "-c", "import sys; from overprov.cli import main; sys.exit(main())"]
    proc = subprocess.Popen(
        # the random plan's budget (the resumed simulated drive's re-fill, its state not
        # stored, is outside the budget since sim_refill.py: test_stopped_early.py)
        [*cmd, "calibrate", SIM, "--out", str(out), "--extra-op", "0,40", "--budget", "6dw"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 300
    try:
        while not _levels(out / "measurement.json"):
            assert proc.poll() is None, "calibrate ended before its first segment was kept"
            assert time.monotonic() < deadline
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)  # mid-measurement: the 40% segment is running
    finally:
        proc.kill()
        proc.wait()
    killed = json.loads((out / "measurement.json").read_text())
    assert killed["status"] == "running"  # it never got to say otherwise
    assert [lv["extra_op_percent"] for lv in killed["levels"]] == [0.0]
    assert not (out / "prediction.json").exists()
    # --from fits what was kept, even partial
    capsys.readouterr()

    assert main(["calibrate", "--resume", str(out), "--extra-op", "0,40"]) == 0
    done = json.loads((out / "measurement.json").read_text())
    assert done["status"] == "complete"
    assert [(lv["extra_op_percent"], lv.get("queue_depth")) for lv in done["levels"]] == [
        (0.0, None), (40.0, None), (40.0, 4)
    ]  # none twice: 40% at the plan's QD32, then the QD4 probe  # fmt: skip
    assert done["levels"][0] == killed["levels"][0]  # the finished segment, as it was
    assert done["rounds"][: len(killed["rounds"])] == killed["rounds"]  # nothing lost
    resumed = [r for r in done["rounds"] if r["run"] == 1]
    assert resumed and not any(r["label"].startswith("op0-") for r in resumed)
    assert resumed[0]["label"] == "fill-again"  # a simulated drive's state is not kept
    assert [r["resumed"] for r in done["runs"]] == [False, True]
    # every byte written counts, the kill's lost round aside
    total = sum(r["bytes_written"] for r in done["rounds"])
    assert done["bytes_written"] == total
    pred = json.loads((out / "prediction.json").read_text())
    assert [p["extra_op_percent"] for p in pred["fit"]["points"]] == [0.0, 40.0]
    assert [(p["extra_op_percent"], p["queue_depth"])
            for p in pred["fit"]["points_other_queue_depth"]] == [(40.0, 4)]  # fmt: skip


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    """A finished measurement of SIM, kept as calibrate keeps it."""
    out = tmp_path_factory.mktemp("kept")
    plan = design([0, 40], parse_budget(None))
    with SimTarget(SIM) as t:
        measure(t, plan, journal=lambda m: measurement_file.save(m, out / "measurement.json"))
    return out


def test_resume_refuses_another_target(measured, tmp_path, capsys):
    folder = tmp_path / "other"
    folder.mkdir()
    doc = json.loads((measured / "measurement.json").read_text())
    doc["status"] = "running"
    doc["levels"] = doc["levels"][:1]
    (folder / "measurement.json").write_text(json.dumps(doc))
    # another TARGET named
    assert main(["calibrate", "sim:older-mlc-sata@1GiB", "--resume", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "is a calibration of 'sim:consumer-tlc-sata@1GiB', not 'sim:older-mlc-sata@1GiB'" in err
    # the same name, another drive behind it (its identity differs)
    doc["identity"]["capacity_bytes"] += 4096
    (folder / "measurement.json").write_text(json.dumps(doc))
    assert main(["calibrate", "--resume", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "not the target of" in err and "capacity_bytes differs" in err
    # and a resume keeps its folder and its plan
    assert main(["calibrate", "--resume", str(folder), "--out", str(tmp_path / "x")]) == 2
    assert "do not also give --out" in capsys.readouterr().err
    assert main(["calibrate", "--resume", str(folder), "--budget", "9dw"]) == 2
    assert "keeps its plan" in capsys.readouterr().err
    assert main(["calibrate", "--resume", str(tmp_path)]) == 2
    assert "no measurement.json" in capsys.readouterr().err


def test_measurement_is_written_as_it_goes(measured):
    doc = json.loads((measured / "measurement.json").read_text())
    assert doc["status"] == "complete" and doc["fill_done"]
    assert doc["plan"]["segments"] and doc["identity"]["kind"] == "sim"
    assert doc["drive_writes"] == pytest.approx(
        sum(r["bytes_written"] for r in doc["rounds"]) / doc["capacity_bytes"]
    )
    assert not list(measured.glob(".measurement.json.*"))  # no temporary file left


@pytest.mark.parametrize("budget", ["3.4dw", "2.2dw"])
def test_drive_write_budget_is_a_cap(budget):
    """Counted from the rounds recorded: never more host writes than the budget (each
    segment used to run to a full window past it)."""
    cap = parse_budget(budget).drive_writes
    plan = design([0, 40], parse_budget(budget))
    assert plan.planned_drive_writes() <= cap + 1e-9
    with SimTarget(SIM) as t:
        m = measure(t, plan)
    written = sum(r.bytes_written for r in m.rounds) / m.capacity_bytes
    assert written == pytest.approx(m.drive_writes)
    assert m.levels and written <= cap


def test_resume_refuses_a_replaced_file(measured, tmp_path, capsys):
    """A file target resumes only on the very file it was measuring (as profile's resume):
    the same path holding another file is refused, naming what differs."""
    from overprov.profile.target_kinds import make_target

    img = tmp_path / "disk.img"
    img.touch()
    os.truncate(img, 64 * 2**20)
    target = make_target(str(img), tmp_path / "fio")
    target.open()
    identity = target.identity()
    target.close()
    doc = json.loads((measured / "measurement.json").read_text())
    doc.update(target=str(img), kind="file", identity=identity, status="running")
    doc.update(capacity_bytes=identity["capacity_bytes"], levels=doc["levels"][:1])
    folder = tmp_path / "cal"
    folder.mkdir()
    (folder / "measurement.json").write_text(json.dumps(doc))
    other = tmp_path / "other.img"  # another file in its place
    other.touch()
    os.truncate(other, 64 * 2**20)
    os.replace(other, img)
    assert main(["calibrate", "--resume", str(folder)]) == 2
    err = capsys.readouterr().err
    assert f"not the target of {folder}" in err and "inode: recorded" in err
    assert "run identifier in its first 4096 bytes" in err
    assert img.stat().st_blocks == 0  # nothing was written to it


def test_ctrl_c_keeps_the_measurement_and_says_how_to_resume(tmp_path):
    out = tmp_path / "cal"
    cmd = [sys.executable, "-c", "import sys; from overprov.cli import main; sys.exit(main())"]
    proc = subprocess.Popen(
        # the random plan's budget (the resumed simulated drive's re-fill, its state not
        # stored, is outside the budget since sim_refill.py: test_stopped_early.py)
        [*cmd, "calibrate", SIM, "--out", str(out), "--extra-op", "0,40", "--budget", "6dw"],
        env={**os.environ, "PYTHONPATH": str(PACKAGE)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_default,  # Ctrl-C reaches it however this run was started
    )
    deadline = time.monotonic() + 300
    try:
        while not _levels(out / "measurement.json"):
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert f"continue with overprov calibrate --resume {out}" in err
    doc = json.loads((out / "measurement.json").read_text())
    assert doc["status"] == "interrupted" and doc["runs"][-1]["ended"] == "interrupted"
    assert [lv["extra_op_percent"] for lv in doc["levels"]] == [0.0]
