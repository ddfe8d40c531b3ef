"""Parallel sweeps on local threads give the serial run's results, and Ctrl-C keeps the points
that finished. Every run here is the real simulator core."""

from __future__ import annotations

import contextlib
import json
import os
import pty
import select
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from ctrl_c import sigint_default
from overprov import engine, sweep
from overprov.cli import main

PYTHON_DIR = Path(__file__).resolve().parents[2] / "python"


def small(seed: int, **over: object) -> dict:
    cfg = {
        "geometry": {"user_pages": 32768, "op_ratio": 0.15, "pages_per_block": 64},
        "run": {"warmup_drive_writes": 1.0, "drive_writes": 1.0, "seed": seed},
    }
    return engine.merge(cfg, over)


def figures(doc: dict) -> str:
    """The reports as JSON text without their wall-clock fields."""
    return json.dumps([sweep.without_wall_clock(r) for r in doc["runs"]], sort_keys=True)


def test_cli_parallel_sweep_equals_serial(tmp_path: Path) -> None:
    common = [
        "simulate",
        "--user-pages",
        "65536",
        "--pages-per-block",
        "64",
        "--rho",
        "0.07,0.1,0.15,0.2,0.28,0.4,0.6",
        "--hot",
        "80/20",
        "--drive-writes",
        "1",
        "--warmup",
        "1",
        "--no-progress",
    ]
    docs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.json"
        assert main([*common, "--jobs", jobs, "--json", str(out)]) == 0
        docs[jobs] = json.loads(out.read_text())
    assert len(docs["1"]["runs"]) == 7
    assert figures(docs["1"]) == figures(docs["2"])
    # the seven points are seven OP levels, in the order given
    rhos = [r["geometry"]["rho"] for r in docs["2"]["runs"]]
    assert rhos == sorted(rhos) and len(set(rhos)) == 7
    # only the wall-clock fields are left out of the comparison, and they are there
    assert all(r["wall_seconds"] > 0 for r in docs["2"]["runs"])


def test_library_mixed_points_in_config_order() -> None:
    configs = [
        small(1, ftl={"policy": "greedy"}),
        small(2, ftl={"policy": "fifo"}, workload={"pattern": "zipf"}),
        small(3, ftl={"policy": "cost-benefit"}, workload={"pattern": "hot-cold"}),
        small(4, ftl={"policy": "d-choices"}),
        small(5, workload={"pattern": "jesd219"}),
    ]
    serial = sweep.run_points(configs, jobs=1)
    parallel = sweep.run_points(configs, jobs=3)
    assert not serial.interrupted and not parallel.interrupted
    assert [sweep.without_wall_clock(r) for r in serial] == [
        sweep.without_wall_clock(r) for r in parallel
    ]
    assert [r["config"]["run"]["seed"] for r in parallel] == [1, 2, 3, 4, 5]
    # different seeds and policies do give different figures: the comparison can fail
    assert len({r["measured"]["waf"] for r in parallel}) == 5


def test_a_failing_point_raises_its_error() -> None:
    bad = small(1, geometry={"pages_per_block": 0})
    with pytest.raises(Exception, match="pages_per_block"):
        sweep.run_points([small(2), bad], jobs=2)


def test_jobs_below_one_is_refused() -> None:
    with pytest.raises(Exception, match="--jobs"):
        sweep.run_points([small(1)], jobs=0)


def test_jobs_and_a_cluster_are_refused_together() -> None:
    with pytest.raises(Exception, match="--jobs and --dask-scheduler"):
        sweep.run_points([small(1)], jobs=2, dask_scheduler="tcp://127.0.0.1:9")


def test_default_jobs_is_the_affinity() -> None:
    assert sweep.default_jobs() == len(os.sched_getaffinity(0))


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_keeps_finished_points(tmp_path: Path, jobs: int) -> None:
    """Two quick points and one that runs for minutes; Ctrl-C (SIGINT to the whole process
    group, as a terminal sends it) after the quick ones are done keeps them and stops the rest.
    Each point says on stderr when it starts and when it is done (the real ``engine.run``,
    wrapped); Ctrl-C comes once both quick points are done and the long one has started."""
    script = textwrap.dedent(
        f"""
        import json, sys
        from overprov import engine, sweep
        real_run = engine.run
        def say(text):  # one write: lines of two threads do not interleave
            sys.stderr.write(text + "\\n")
            sys.stderr.flush()
        def said_run(config, **kw):
            say(f"started {{config['run']['seed']}}")
            report = real_run(config, **kw)
            say(f"done {{config['run']['seed']}}")
            return report
        sweep.engine.run = said_run
        def cfg(seed, pages, dw):
            return {{"geometry": {{"user_pages": pages, "op_ratio": 0.1}},
                    "run": {{"warmup_drive_writes": 1.0, "drive_writes": dw, "seed": seed}}}}
        configs = [cfg(1, 16384, 1.0), cfg(2, 2**22, 500.0), cfg(3, 16384, 1.0)]
        if {jobs} == 1:
            configs = [configs[0], configs[2], configs[1]]
        reports = sweep.run_points(configs, jobs={jobs})
        print(json.dumps({{"indices": reports.indices, "interrupted": reports.interrupted,
                          "seeds": [r["config"]["run"]["seed"] for r in reports]}}))
        """
    )
    env = {**os.environ, "PYTHONPATH": str(PYTHON_DIR)}
    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
        preexec_fn=sigint_default,  # Ctrl-C reaches it however this run was started
    )
    said: list[str] = []
    try:
        while not {"done 1", "done 3", "started 2"} <= set(said):
            line = proc.stderr.readline()  # the long point runs for minutes: no EOF here
            assert line, (said, proc.communicate())
            said.append(line.strip())
        assert proc.poll() is None, proc.communicate()
        os.killpg(proc.pid, signal.SIGINT)
        started = time.monotonic()
        out, err = proc.communicate(timeout=60)
        stopped_s = time.monotonic() - started
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 0, err
    result = json.loads(out.strip().splitlines()[-1])
    assert result["interrupted"] is True
    assert sorted(result["seeds"]) == [1, 3]
    assert "interrupted: 2 of 3 points finished" in err
    assert stopped_s < 30


def test_ctrl_c_while_the_threads_start_keeps_finished_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ctrl-C can land while the sweep still starts its threads (``Thread.start`` waits for
    the new thread): the points finished by then are kept and the rest stop, as for a Ctrl-C
    later on. Here the second thread's start returns only once the first thread has finished
    a point, and then raises KeyboardInterrupt as the signal would."""
    finished = threading.Event()
    real_run = engine.run

    def noting_run(config: dict, **kw: object) -> dict:
        report = real_run(config, **kw)
        finished.set()
        return report

    class InterruptedStart(threading.Thread):
        def start(self) -> None:
            super().start()
            if self.name == "sweep-1":
                assert finished.wait(120)
                raise KeyboardInterrupt

    monkeypatch.setattr(sweep.engine, "run", noting_run)
    monkeypatch.setattr(sweep.threading, "Thread", InterruptedStart)
    # the costliest point first: thread sweep-0 takes the long one, so it must be stopped
    configs = [small(1, geometry={"user_pages": 2**20}, run={"drive_writes": 50.0})]
    configs += [small(2), small(3)]
    try:
        reports = sweep.run_points(configs, jobs=2)
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C while the threads started escaped run_points")
    assert reports.interrupted
    assert 0 not in reports.indices and 1 <= len(reports.indices) <= 2
    assert not any(t.name.startswith("sweep-") for t in threading.enumerate())


@pytest.mark.slow
def test_simulate_ctrl_c_writes_the_finished_points(tmp_path: Path) -> None:
    """`overprov simulate` stopped by Ctrl-C prints and writes the points that finished and
    exits 130. Two points: ρ = 1 (WAF near 1.2) and ρ = 0.01 (WAF near 50, 40 times longer).
    stderr is a terminal (a pty), so the sweep draws its points bar; Ctrl-C comes once it shows
    one point of two finished."""
    out = tmp_path / "partial.json"
    cmd = [sys.executable, "-m", "overprov.cli", "simulate", "--user-pages", "16384"]
    cmd += ["--pages-per-block", "16", "--rho", "1.0,0.01", "--drive-writes", "100"]
    cmd += ["--jobs", "2", "--json", str(out)]
    env = {**os.environ, "PYTHONPATH": str(PYTHON_DIR)}
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=slave, text=True, env=env, start_new_session=True,
        preexec_fn=sigint_default,  # Ctrl-C reaches it however this run was started
    )  # fmt: skip
    os.close(slave)
    seen = b""

    def read_for(seconds: float) -> None:
        nonlocal seen
        ready, _, _ = select.select([master], [], [], seconds)
        if ready:
            with contextlib.suppress(OSError):  # OSError: the other end closed
                seen += os.read(master, 4096)

    try:
        deadline = time.monotonic() + 300
        while b" 50.0% points" not in seen:
            assert proc.poll() is None and time.monotonic() < deadline, seen
            read_for(0.2)
        os.killpg(proc.pid, signal.SIGINT)
        stdout, _ = proc.communicate(timeout=60)
        read_for(1.0)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(master)
    assert proc.returncode == 130, seen
    assert b"interrupted: 1 of 2 points finished" in seen
    runs = json.loads(out.read_text())["runs"]
    assert [r["config"]["geometry"]["op_ratio"] for r in runs] == [1.0]
    assert "full reports written to" in stdout


def test_parallel_points_start_costliest_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """With 2 threads the two costliest points (lowest OP) start first; reports come back in
    config order."""
    started: list[float] = []
    real_run = engine.run

    def recording_run(config: dict, **kw: object) -> dict:
        started.append(config["geometry"]["op_ratio"])
        return real_run(config, **kw)

    monkeypatch.setattr(sweep.engine, "run", recording_run)
    rhos = [0.6, 0.1, 0.3, 0.05, 0.9]
    configs = [small(1, geometry={"op_ratio": r}) for r in rhos]
    reports = sweep.run_points(configs, jobs=2)
    assert sorted(started[:2]) == [0.05, 0.1] and sorted(started) == sorted(rhos)
    assert [round(r["geometry"]["rho"], 2) for r in reports] == rhos


def test_a_script_without_a_main_guard_runs_a_parallel_sweep(tmp_path: Path) -> None:
    """Threads, not spawned processes: a plain script (no ``if __name__ == "__main__"``) runs
    its sweep once; a spawned pool would import the script again in every worker."""
    script = tmp_path / "sweep_script.py"
    script.write_text(
        textwrap.dedent(
            """
            from overprov import sweep
            configs = [{"geometry": {"user_pages": 4096, "op_ratio": r, "pages_per_block": 64},
                        "run": {"warmup_drive_writes": 0.5, "drive_writes": 0.5}}
                       for r in (0.1, 0.2, 0.3)]
            print("points", len(sweep.run_points(configs, jobs=2)))
            """
        )
    )
    env = {**os.environ, "PYTHONPATH": str(PYTHON_DIR)}
    proc = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["points 3"] and "Traceback" not in proc.stderr
