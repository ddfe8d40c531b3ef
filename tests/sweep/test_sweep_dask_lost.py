"""A scheduler lost while a finished point's result is fetched: said as the lost scheduler
(exit 1, finished points kept by the caller), not as the point failing on its worker.

The race (the scheduler killed between a future turning done and its result arriving) cannot be
forced on a real cluster, so the future here is a stand-in whose ``result`` raises what
Dask's client raised in that race: ``CommClosedError`` wrapping ``ConnectionResetError``."""

from __future__ import annotations

import importlib.util

import pytest
from overprov import sweep_dask
from overprov.errors import RunError

# distributed imported by the test, not at collection (tests/sweep/test_sweep_dask.py says why)
pytestmark = [
    pytest.mark.skipif(
        importlib.util.find_spec("distributed") is None,
        reason="needs pip install 'overprov[dask]'",
    ),
    pytest.mark.xdist_group("dask"),
]


class _DoneFuture:
    status = "error"

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def result(self, timeout: float | None = None) -> str:
        raise self.exc


def test_a_connection_reset_while_fetching_a_result_is_the_lost_scheduler():
    from distributed.comm.core import CommClosedError

    exc = CommClosedError(
        "in <TCP (closed) ConnectionPool.gather local=tcp://127.0.0.1:38092 "
        "remote=tcp://127.0.0.1:42109>: ConnectionResetError: [Errno 104] Connection reset by peer"
    )
    with pytest.raises(sweep_dask._Lost) as got:
        sweep_dask._result(_DoneFuture(exc), 3, "tcp://127.0.0.1:42109", "core")
    assert str(got.value).startswith("lost the scheduler at tcp://127.0.0.1:42109")
    assert "point 4's result" in str(got.value) and "CommClosedError" in str(got.value)
    with pytest.raises(sweep_dask._Lost):
        sweep_dask._result(_DoneFuture(ConnectionResetError(104, "reset")), 0, "a", "core")


def test_a_point_that_fails_on_its_worker_is_still_said_as_its_failure():
    with pytest.raises(RunError) as got:
        sweep_dask._result(_DoneFuture(ValueError("bad config")), 1, "tcp://h:1", "core")
    assert "point 2 failed on its worker: ValueError: bad config" in str(got.value)
