"""A sweep on a real Dask cluster: a ``dask scheduler`` and two ``dask worker`` processes on
127.0.0.1, started here, give the same result figures as the local run, byte for byte.

The workers run without a nanny (``--no-nanny``): a nanny is one more process per worker that
imports dask (about 1.5 CPU s each, 3 CPU s a cluster, three clusters a run; docs/testing.md,
Round 9), and it is not what these tests are about: overprov talks to the scheduler, and a
worker killed with its process group is lost with or without one."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from overprov import engine, sweep, sweep_dask
from overprov.cli import main

# dask's distributed is imported by the tests, not at collection: every worker collects this
# module, and the import costs about 1 CPU s (docs/testing.md, "Round 14"); the dask tests are
# one group, so that one worker imports it
pytestmark = [
    pytest.mark.dask,
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("distributed") is None,
        reason="needs pip install 'overprov[dask]'",
    ),
    pytest.mark.xdist_group("dask"),
]

PYTHON_DIR = Path(__file__).resolve().parents[2] / "python"


def _dask_cli() -> list[str]:
    exe = Path(sys.executable).with_name("dask")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("dask")
    if found is None:
        pytest.skip("the dask command (pip install 'overprov[dask]') is not on PATH")
    return [found]


@dataclass
class Cluster:
    address: str
    scheduler: subprocess.Popen
    workers: list[subprocess.Popen]


def kill(proc: subprocess.Popen) -> None:
    """SIGKILL a process this test started, with its process group (a ``dask worker`` runs its
    worker in a child process)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=20)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    """A scheduler and two single-thread workers on ephemeral ports of 127.0.0.1; the workers
    import this tree's overprov (PYTHONPATH). Everything is stopped afterwards."""
    env = {**os.environ, "PYTHONPATH": str(PYTHON_DIR)}
    sched_file = tmp_path / "scheduler.json"
    dask = _dask_cli()
    procs: list[subprocess.Popen] = []
    logs = []

    def start(args: list[str], name: str) -> None:
        log = (tmp_path / f"{name}.log").open("w")
        logs.append(log)
        procs.append(
            subprocess.Popen(
                [*dask, *args],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                cwd=tmp_path,
            )
        )

    try:
        start(
            [
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(sched_file),
            ],
            "scheduler",
        )
        deadline = time.monotonic() + 60
        while not sched_file.exists() or not sched_file.read_text().strip():
            assert procs[0].poll() is None, (tmp_path / "scheduler.log").read_text()
            assert time.monotonic() < deadline, "the scheduler did not start in 60 s"
            time.sleep(0.2)
        address = json.loads(sched_file.read_text())["address"]
        for i in range(2):
            start(
                [
                    "worker",
                    "--scheduler-file",
                    str(sched_file),
                    "--host",
                    "127.0.0.1",
                    "--nworkers",
                    "1",
                    "--nthreads",
                    "1",
                    "--no-nanny",
                    "--no-dashboard",
                    "--name",
                    f"overprov-test-{i}",
                ],
                f"worker{i}",
            )
        from distributed import Client

        with Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=90)
            assert len(client.scheduler_info()["workers"]) == 2
        yield Cluster(address, procs[0], procs[1:])
    finally:
        # SIGKILL at once: nothing here tests a graceful stop, and on a loaded host the workers'
        # graceful close after SIGTERM took up to two 20 s waits (a 40 s teardown in the suite)
        for p in reversed(procs):
            kill(p)
        for log in logs:
            log.close()


@pytest.fixture
def local_cluster(cluster: Cluster) -> str:
    return cluster.address


def test_dask_sweep_equals_local(local_cluster: str, tmp_path: Path) -> None:
    ops = ",".join(f"{0.05 + 0.03 * i:.2f}" for i in range(16))
    common = [
        "simulate",
        "--user-pages",
        "32768",
        "--pages-per-block",
        "64",
        "--rho",
        ops,
        "--zipf-theta",
        "0.9",
        "--drive-writes",
        "1",
        "--warmup",
        "1",
        "--no-progress",
    ]
    local, remote = tmp_path / "local.json", tmp_path / "dask.json"
    assert main([*common, "--jobs", "1", "--json", str(local)]) == 0
    assert main([*common, "--dask-scheduler", local_cluster, "--json", str(remote)]) == 0
    docs = [json.loads(p.read_text()) for p in (local, remote)]
    figures = [
        json.dumps([sweep.without_wall_clock(r) for r in d["runs"]], sort_keys=True) for d in docs
    ]
    assert len(docs[1]["runs"]) == 16
    assert figures[0] == figures[1]
    assert len({r["measured"]["waf"] for r in docs[1]["runs"]}) == 16
    # the points ran on the two workers, not here
    from distributed import Client

    with Client(local_cluster, timeout=30) as client:
        executed = client.run(lambda dask_worker: dask_worker.state.executed_count)
    assert sum(executed.values()) == 16 and len(executed) == 2


# Twelve points of about a second each on this 2-core VM: the sweep is still running when a
# third point has finished.
LONG_SWEEP = [
    "simulate",
    "--user-pages",
    "1048576",
    "--pages-per-block",
    "64",
    "--rho",
    ",".join(f"{0.08 + 0.02 * i:.2f}" for i in range(12)),
    "--drive-writes",
    "2",
    "--warmup",
    "1",
    "--no-progress",
]


def kill_after_points(address: str, points: int, victims: list[subprocess.Popen]) -> dict:
    """In a thread: once ``points`` points have run on the workers, SIGKILL ``victims``;
    the returned dict gets the monotonic time of the kill."""
    when: dict = {}

    def watch() -> None:
        from distributed import Client

        with Client(address, timeout=30, set_as_default=False) as client:
            while True:
                counts = client.run(lambda dask_worker: dask_worker.state.executed_count)
                if sum(counts.values()) >= points:
                    break
                time.sleep(0.2)
        when["killed_at"] = time.monotonic()
        for proc in victims:
            kill(proc)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    when["thread"] = thread
    return when


def check_kept_runs(path: Path) -> list[dict]:
    """The runs written after the loss: real results, each equal to the same config run here."""
    runs = json.loads(path.read_text())["runs"]
    assert 1 <= len(runs) < 12, len(runs)
    again = engine.run(runs[0]["config"])
    assert again["measured"] == runs[0]["measured"]
    return runs


@pytest.mark.parametrize("lose", ["workers", "scheduler"])
def test_dask_losing_the_cluster_keeps_finished_points(
    lose, cluster, tmp_path, monkeypatch, capsys
):
    monkeypatch.setattr(sweep_dask, "NO_WORKERS_S", 3.0)
    victims = cluster.workers if lose == "workers" else [cluster.scheduler]
    said = "no worker on the scheduler" if lose == "workers" else "lost the scheduler"
    out = tmp_path / "sweep.json"
    when = kill_after_points(cluster.address, 3, victims)
    code = main([*LONG_SWEEP, "--dask-scheduler", cluster.address, "--json", str(out)])
    ended = time.monotonic()
    when["thread"].join(timeout=30)
    for worker in cluster.workers:  # cut off from their scheduler, they would run on: no use
        kill(worker)
    err = capsys.readouterr().err
    assert code == 1, err
    assert said in err and re.search(r"; [1-9][0-9]* finished runs? kept", err), err
    # no worker: NO_WORKERS_S; the scheduler: at most its reconnect time, twice
    assert ended - when["killed_at"] < 2 * sweep_dask.CONNECT_TIMEOUT_S + 10.0
    runs = check_kept_runs(out)
    print(f"{lose} killed: exit 1 {ended - when['killed_at']:.1f} s later, {len(runs)} kept")
