"""A sweep on a real Dask cluster: a ``dask scheduler`` and two ``dask worker`` processes on
127.0.0.1, started here, give the same result figures as the local run, byte for byte."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from overprov import sweep
from overprov.cli import main

distributed = pytest.importorskip("distributed", reason="needs pip install 'overprov[dask]'")

pytestmark = [pytest.mark.dask, pytest.mark.slow]

PYTHON_DIR = Path(__file__).resolve().parents[2] / "python"


def _dask_cli() -> list[str]:
    exe = Path(sys.executable).with_name("dask")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("dask")
    if found is None:
        pytest.skip("the dask command (pip install 'overprov[dask]') is not on PATH")
    return [found]


@pytest.fixture
def local_cluster(tmp_path: Path) -> Iterator[str]:
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
                    "--no-dashboard",
                    "--name",
                    f"overprov-test-{i}",
                ],
                f"worker{i}",
            )
        with distributed.Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=90)
            assert len(client.scheduler_info()["workers"]) == 2
        yield address
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in reversed(procs):
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        for log in logs:
            log.close()


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
    with distributed.Client(local_cluster, timeout=30) as client:
        executed = client.run(lambda dask_worker: dask_worker.state.executed_count)
    assert sum(executed.values()) == 16 and len(executed) == 2


def test_dask_scheduler_unreachable_names_the_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sweep, "DASK_CONNECT_TIMEOUT_S", 2.0)
    with pytest.raises(Exception, match="--dask-scheduler tcp://127.0.0.1:9: cannot reach"):
        sweep.run_points([{}], dask_scheduler="tcp://127.0.0.1:9")
