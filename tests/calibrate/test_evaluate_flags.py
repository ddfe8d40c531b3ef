"""bench/foreign/evaluate.py's EVALUATE_FLAGS: a rule's arm sets calibrate flags in each
calibrate process the scoreboard starts (bench/foreign/results/scoreboard/run.py)."""

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "foreign"))
import evaluate  # noqa: E402


def _printed(code: str) -> list[str]:
    """The words ``code`` prints, run in a real process with the worktree's package."""
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True, text=True, check=True, cwd=root,
        env={"PYTHONPATH": str(root / "python")},
    )  # fmt: skip
    return out.stdout.split()


def test_flags_become_statements_that_set_them_in_a_real_process():
    text = "erase_reading.OFFERED=False; spare_near_onset.SPARE_NEAR_ONSET = True;"
    code = evaluate.flags_prelude(text)
    check = "from overprov.calibrate import erase_reading as e, spare_near_onset as s; "
    check += "print(e.OFFERED, s.SPARE_NEAR_ONSET)"
    assert _printed(code + check) == ["False", "True"]


def test_a_flag_the_module_does_not_have_fails_in_a_real_process():
    """A flag moved by a module split (measure.READ_OVER_BURSTS is now level_window's) must
    stop the run, not set a new attribute nobody reads."""
    root = Path(__file__).resolve().parents[2]
    code = evaluate.flags_prelude("measure.READ_OVER_BURSTS=False")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root,
        env={"PYTHONPATH": str(root / "python")},
    )  # fmt: skip
    assert out.returncode != 0 and "READ_OVER_BURSTS" in out.stderr


def test_empty_flags_set_nothing():
    assert evaluate.flags_prelude("") == ""
    assert evaluate.flags_prelude(" ; ") == ""


@pytest.mark.parametrize("bad", ["OFFERED=True", "erase_reading.OFFERED", "a.b=__import__('os')"])
def test_a_malformed_item_is_named(bad):
    with pytest.raises(ValueError, match="not module.NAME=value|malformed"):
        evaluate.flags_prelude(bad)


def test_the_low_mark_prelude_offers_its_design_in_a_real_process(monkeypatch):
    monkeypatch.setattr(evaluate, "LOW_MARK", True)
    monkeypatch.delenv(evaluate.FLAGS_ENV, raising=False)
    code = evaluate.closed_loop_on()[1]
    code = code[: code.index("from overprov.cli import main")]
    check = "from overprov.calibrate import gc_designs, low_mark, spare_readings; "
    check += "print(list(gc_designs.UNIFORM_DESIGNS)[-1], low_mark.NAME in spare_readings.DESIGNS)"
    assert _printed(code + check) == ["greedy-low-mark", "True"]
