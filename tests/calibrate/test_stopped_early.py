"""A fit from levels that did not settle says so (stdout, prediction.json), one such level alone
is refused (exit 3), and a resumed simulated drive's re-fill is outside the budget. (A newcomer's
review of calibrate, 2026-11-29: a ``--resume``d ``sim:`` target ran out of its 2 drive writes
after the re-fill and fitted one unsettled level with a narrow band, exit 0.)"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from overprov import measurement_file
from overprov.calibrate import stopped_early
from overprov.calibrate.measure import measure
from overprov.calibrate.plan import design, parse_budget
from overprov.calibrate.sim_refill import FILL_AGAIN, filled_again
from overprov.cli import main
from overprov.profile.sim_target import SimTarget

SIM = "sim:consumer-tlc-sata@1GiB"
BUDGET = "2dw"  # calibrate's default on a drive that reports its NAND writes (the graded plan)


@pytest.fixture(scope="module")
def resumed(tmp_path_factory) -> Path:
    """SIM measured under 2 drive writes, interrupted once its fill was kept, then resumed as
    ``calibrate --resume`` resumes it (a fresh simulated drive); the folder keeps both runs."""
    out = tmp_path_factory.mktemp("resumed")
    path = out / measurement_file.NAME
    plan = design([0, 40], parse_budget(BUDGET), second_queue_depth=None)
    stop = {"armed": True}

    def journal(m):
        measurement_file.save(m, path)
        if m.fill_done and stop["armed"]:  # Ctrl-C right after the fill was kept
            stop["armed"] = False
            raise KeyboardInterrupt

    with SimTarget(SIM) as t, pytest.raises(KeyboardInterrupt):
        measure(t, plan, journal=journal)
    stored = measurement_file.load(path)
    assert stored.status == "interrupted" and stored.fill_done and not stored.levels
    with SimTarget(SIM) as t:
        measure(t, plan, journal=lambda m: measurement_file.save(m, path), resume=stored)
    return out


def test_a_resumed_sims_refill_is_outside_the_budget(resumed):
    """The re-fill restores what the first run's fill left (a real drive keeps it): charged,
    it left no room for the levels (0.33 drive writes of 2 after it) and no level was measured."""
    m = measurement_file.load(resumed / measurement_file.NAME)
    assert m.status == "complete"
    assert [r.label for r in m.rounds if r.run == 1][0] == FILL_AGAIN
    again, _ = filled_again(m)
    assert again == pytest.approx(1.0, abs=0.01)
    assert [lv.extra_op_percent for lv in m.levels] == [0.0, 40.0]
    charged = m.drive_writes - again
    assert charged <= 2.0 < m.drive_writes  # every byte recorded; the budget holds the rest


def _one_unsettled_level(resumed: Path, folder: Path, *, stop_reason: str | None) -> Path:
    """``resumed``'s measurement with its first level alone, not settled, stopped so."""
    m = measurement_file.load(resumed / measurement_file.NAME)
    m.levels = [dataclasses.replace(m.levels[0], settled=False)]
    m.stop_reason = stop_reason
    cut = stop_reason is not None and "cut the" in stop_reason  # as measure.py records it
    m.cut_levels = [{"extra_op_percent": m.levels[0].extra_op_percent, "queue_depth": None}] * cut
    folder.mkdir()
    measurement_file.save(m, folder / measurement_file.NAME)
    return folder


def test_one_unsettled_level_is_refused(resumed, tmp_path, capsys):
    """Stopped by the budget after one level: no twin from one figure nothing else can check."""
    cut = "the budget cut the 0% segment short (2 drive writes)"  # the one level's segment
    folder = _one_unsettled_level(resumed, tmp_path / "one", stop_reason=cut)
    out = tmp_path / "fit"
    assert main(["calibrate", "--from", str(folder), "--out", str(out)]) == 3
    err = capsys.readouterr().err
    assert "the one level measured at the plan's queue depth, 0%, did not settle" in err
    assert cut in err and not (out / "prediction.json").exists()
    m = measurement_file.load(folder / measurement_file.NAME)
    assert stopped_early.refusal(m) is not None
    m.stop_reason, m.cut_levels = None, []  # a graded level reads "NOT settled" by design
    assert stopped_early.refusal(m) is None and stopped_early.warning(m) is None
    m.plan = {**m.plan, "precondition": "random"}  # a random-plan level that did not agree
    assert "did not agree within ±3%" in stopped_early.refusal(m)
    assert "fitted from levels that did not settle: 0%" in stopped_early.warning(m)


def test_a_fit_from_a_measurement_stopped_early_says_so(resumed, tmp_path, capsys):
    """Its table is followed by the warning on stdout, and prediction.json keeps it with the
    stop reason. (The stop reason is set on a copy: what is tested is what the fit says of it.)"""
    m = measurement_file.load(resumed / measurement_file.NAME)
    m.stop_reason = "the budget cut the 40% segment short (2 drive writes)"
    m.cut_levels = [{"extra_op_percent": 40.0, "queue_depth": None}]
    folder = tmp_path / "stopped"
    folder.mkdir()
    measurement_file.save(m, folder / measurement_file.NAME)
    out = tmp_path / "fit"
    argv = ["calibrate", "--from", str(folder), "--out", str(out), "--extra-op", "40",
            "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    printed = capsys.readouterr().out
    said = stopped_early.warning(m)
    assert said.startswith("WARNING: measuring stopped early (the budget cut the 40% segment")
    assert "did not settle: " in said and " ".join(said.split()) == said
    assert " ".join(printed.split()).count(said) == 1  # wrapped on stdout, whole
    doc = json.loads((out / "prediction.json").read_text())
    assert doc["measurement"]["stop_reason"] == m.stop_reason
    assert doc["measurement"]["warning"] == said
