"""Long work: what a Ctrl-C keeps, the estimate before a long run, the memory refusal, and
progress lines when stderr is not a terminal."""

from __future__ import annotations

import io
import json

from overprov import engine
from overprov.progress import ProgressBar
from overprov.simulate import estimate as sim_estimate

from .commands import SMALL_SIMULATE


def test_ctrl_c_keeps_and_writes_the_finished_runs(overprov_cli, tmp_path, monkeypatch):
    real_run = engine.run
    calls = []

    def run_then_interrupt(cfg, progress=None, chunk_pages=None):
        calls.append(cfg)
        if len(calls) == 2:  # Ctrl-C while the second run is under way
            raise KeyboardInterrupt
        return real_run(cfg, progress=progress, chunk_pages=chunk_pages)

    monkeypatch.setattr(engine, "run", run_then_interrupt)
    out = tmp_path / "sweep.json"
    # --jobs 1: the runs stay in this process, where the test stands in for engine.run
    rc, text, err = overprov_cli(*SMALL_SIMULATE, "--jobs", "1", "--json", str(out))
    assert rc == 130
    assert "interrupted: 1 finished run kept" in err
    assert "interrupted; what was finished is kept" in err
    doc = json.loads(out.read_text())
    assert len(doc["runs"]) == 1 and doc["runs"][0]["measured"]["waf"] > 1
    assert doc["runs"][0]["config"]["geometry"]["extra_op_percent"] == 0


def test_a_run_that_would_not_fit_in_memory_is_refused_unless_forced(overprov_cli, monkeypatch):
    monkeypatch.setattr(sim_estimate, "available_memory_bytes", lambda: 100 * 2**20)
    args = ("simulate", "--advertised", "64G", "--extra-op", "0", "--no-progress")
    rc, _, err = overprov_cli(*args)
    assert rc == 1 and "of memory" in err and "--force" in err
    assert err.strip().splitlines()[-1].startswith("overprov simulate: the largest run needs")


def test_check_prints_the_drive_and_a_measured_estimate(overprov_cli):
    rc, out, _ = overprov_cli(*SMALL_SIMULATE, "--check")
    assert rc == 0
    lines = out.strip().splitlines()
    assert len(lines) == 2 and all("host page writes at" in line for line in lines)
    assert "measured here" in lines[0]


def test_progress_off_a_terminal_is_a_line_every_interval():
    stream = io.StringIO()  # not a terminal
    bar = ProgressBar("run 1/1", stream=stream, line_every_s=0.0)
    bar("warm-up", 50, 100)
    bar("measure", 100, 100)
    bar.close()
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("run 1/1: 50% (warm-up)") and "\r" not in stream.getvalue()
    assert lines[1].startswith("run 1/1: 100% (measure)")
    quiet = io.StringIO()
    ProgressBar("x", stream=quiet, line_every_s=10.0)("measure", 1, 2)
    assert quiet.getvalue() == ""  # the first line waits for the interval
