"""A sweep's points on a Dask distributed cluster (``--dask-scheduler ADDRESS``): the address
checked before anything connects, a connection that fails said within
:data:`CONNECT_TIMEOUT_S`, and a cluster lost mid-sweep (every worker, or the scheduler) told
apart from a finished sweep, the points finished so far kept.

What a worker receives is a config as JSON text and what it sends back is the report as JSON
text (``sweep.run_point_json``): no simulator state crosses the network. Each report is fetched
as soon as its point finishes, because a result held by a worker is lost with the worker.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import logging
import re
import socket
import struct
import sys
import time
from collections.abc import Callable
from typing import Any

from overprov.errors import ConfigError, OverprovError, RunError

#: Time to reach the scheduler and hear it greet, and to reconnect to it once lost (seconds).
CONNECT_TIMEOUT_S = 4.0
#: How long a sweep waits with no worker on the scheduler before it stops (seconds).
NO_WORKERS_S = 30.0
#: How often the waiting process looks at the points and the cluster (seconds).
POLL_S = 0.1
#: Transports overprov connects to (Dask's ``tcp://``, ``tls://`` and websockets).
SCHEMES = ("tcp", "tls", "ws", "wss")
INSTALL = "pip install 'overprov[dask]'"

_ADDRESS = re.compile(
    r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?"
    r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)"
    r":(?P<port>[0-9]{1,5})"
)


def parse_address(text: str) -> tuple[str, str, int]:
    """``[SCHEME://]HOST:PORT`` → (scheme, host, port); scheme ``tcp`` when not given.
    Raises ConfigError (exit 2) for anything else, before any connection is tried."""
    example = "expected tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786"
    m = _ADDRESS.fullmatch(text.strip())
    if m is None:
        raise ConfigError(f"--dask-scheduler {text!r}: {example}")
    scheme = (m.group("scheme") or "tcp").lower()
    if scheme not in SCHEMES:
        raise ConfigError(
            f"--dask-scheduler {text!r}: scheme {scheme}:// is not one overprov connects "
            f"with ({', '.join(s + '://' for s in SCHEMES)}); {example}"
        )
    port = int(m.group("port"))
    if not 1 <= port <= 65535:
        raise ConfigError(f"--dask-scheduler {text!r}: port {port} is not 1-65535; {example}")
    return scheme, m.group("host").strip("[]"), port


def _probe(address: str, scheme: str, host: str, port: int, deadline: float) -> None:
    """Connect, and on ``tcp://`` hear the scheduler's greeting (a Dask server writes its
    handshake as soon as a connection opens; a silent port or an HTTP server says nothing)."""
    where = f"--dask-scheduler {address}"
    try:
        sock = socket.create_connection((host, port), timeout=max(0.1, deadline - time.monotonic()))
    except socket.gaierror as exc:
        raise RunError(f"{where}: cannot resolve {host}: {exc.strerror}") from None
    except ConnectionRefusedError:
        raise RunError(
            f"{where}: connection refused: no Dask scheduler listens on {host}:{port}"
        ) from None
    except TimeoutError:
        raise RunError(
            f"{where}: no answer to a connection in {CONNECT_TIMEOUT_S:g} s "
            "(host down, or a firewall dropping packets)"
        ) from None
    except OSError as exc:
        raise RunError(f"{where}: cannot connect: {exc.strerror or exc}") from None
    with sock:
        if scheme != "tcp":
            return  # the greeting is inside TLS or a websocket: the client's handshake checks it
        head = b""
        try:
            while len(head) < 8:
                sock.settimeout(max(0.01, deadline - time.monotonic()))
                chunk = sock.recv(8 - len(head))
                if not chunk:
                    break
                head += chunk
        except TimeoutError:
            pass
        except OSError as exc:
            raise RunError(f"{where}: the connection failed: {exc.strerror or exc}") from None
    if not head:
        raise RunError(
            f"{where}: {host}:{port} accepted the connection but said nothing in "
            f"{CONNECT_TIMEOUT_S:g} s; a Dask scheduler greets at once: is this the "
            "scheduler's port (default 8786), not its dashboard or another service?"
        )
    if len(head) < 8 or struct.unpack("<Q", head)[0] > 2**40:
        raise RunError(
            f"{where}: {host}:{port} answered {head!r}, not as a Dask scheduler does: "
            "is this the scheduler's port (default 8786)?"
        )


def check(address: str) -> str:
    """Check ``address`` before any work: well formed (exit 2), Dask installed (exit 2), and a
    Dask scheduler answering there within :data:`CONNECT_TIMEOUT_S` (exit 1). Returns the
    address in the form ``distributed.Client`` takes."""
    scheme, host, port = parse_address(address)
    try:  # whether it is there, without the second or two its import takes
        found = importlib.util.find_spec("distributed") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise ConfigError(f"--dask-scheduler {address}: Dask is not installed here; {INSTALL}")
    _probe(address, scheme, host, port, time.monotonic() + CONNECT_TIMEOUT_S)
    return f"{scheme}://{host if ':' not in host else f'[{host}]'}:{port}"


def connect(address: str) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address``, checked first (:func:`check`).
    Every failure is one line naming the address."""
    url = check(address)
    try:
        from distributed import Client
    except ImportError as exc:
        raise ConfigError(f"--dask-scheduler {address}: {exc}; {INSTALL}") from None

    try:
        return Client(url, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
    except Exception as exc:  # noqa: BLE001 - whatever the handshake met, one line
        raise RunError(
            f"--dask-scheduler {address}: no Dask scheduler there: {type(exc).__name__}: {exc}"
        ) from None


class _Lost(Exception):
    """The cluster can no longer run the sweep; the message says how."""


def _watch(client: Any, address: str, state: dict[str, float]) -> None:
    """Raise :class:`_Lost` when the scheduler is gone, or when no worker has been on it for
    :data:`NO_WORKERS_S`."""
    now = time.monotonic()
    if client.status != "running":
        since = state.setdefault("disconnected", now)
        if client.status in ("closing", "closed") or now - since > 2 * CONNECT_TIMEOUT_S:
            raise _Lost(f"lost the scheduler at {address} (connection closed, not regained)")
        return
    state.pop("disconnected", None)
    workers = (client.scheduler_info() or {}).get("workers") or {}
    if workers:
        state.pop("no_workers", None)
        return
    since = state.setdefault("no_workers", now)
    if not state.get("warned"):
        state["warned"] = 1
        print(
            f"dask: no worker on the scheduler at {address}; waiting up to {NO_WORKERS_S:g} s",
            file=sys.stderr,
        )
    if now - since > NO_WORKERS_S:
        raise _Lost(f"no worker on the scheduler at {address} for {NO_WORKERS_S:g} s")


def run(
    texts: list[str],
    order: list[int],
    address: str,
    run_point: Callable[[str], str],
    local_core: str,
    on_finished: Callable[[int], None],
) -> tuple[dict[int, dict[str, Any]], str | None]:
    """Run ``texts`` (configs as JSON) on the cluster, submitted in ``order``. Returns the
    finished reports by config index and, when the cluster was lost, what happened (None when
    every point finished or Ctrl-C stopped the sweep). A point that fails raises."""
    client = connect(address)
    done: dict[int, dict[str, Any]] = {}
    failure = None
    futures: list[Any] = []
    state: dict[str, float] = {}
    try:
        # pure=False: two equal configs are two points (the caller asked for both).
        futures = client.map(run_point, [texts[i] for i in order], pure=False)
        pending = {f.key: (f, i) for f, i in zip(futures, order, strict=True)}
        while pending:
            finished = [k for k, (f, _i) in pending.items() if f.done()]
            for key in finished:
                future, i = pending[key]
                if future.status == "cancelled":
                    raise _Lost(f"lost the scheduler at {address} (its work was cancelled)")
                report = _result(future, i, address, local_core)
                if report is not None:
                    del pending[key]
                    done[i] = report
                    on_finished(len(done))
            _watch(client, address, state)
            if not finished:
                time.sleep(POLL_S)
    except _Lost as exc:
        failure = str(exc)
    except KeyboardInterrupt:
        pass
    finally:
        _close(client, futures)
    return done, failure


def _result(future: Any, i: int, address: str, local_core: str) -> dict[str, Any] | None:
    """A finished point's report; None when its result went with its worker (Dask runs the
    point again if a worker is left)."""
    try:
        report = json.loads(future.result(timeout=1.0))
    except TimeoutError:
        return None
    except OverprovError:
        raise
    except Exception as exc:
        if future.status == "cancelled":
            raise _Lost(f"lost the scheduler at {address} (its work was cancelled)") from None
        if _connection_lost(exc):  # the result was being fetched when the scheduler went
            raise _Lost(
                f"lost the scheduler at {address} (the connection broke while point {i + 1}'s "
                f"result was fetched: {type(exc).__name__})"
            ) from None
        raise RunError(
            f"--dask-scheduler {address}: point {i + 1} failed on its worker: "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    if report.get("version") != local_core:
        raise ConfigError(
            f"--dask-scheduler {address}: a worker runs simulator core "
            f"{report.get('version')!r}, this machine {local_core!r}: install the same "
            "overprov on the workers"
        )
    return report


def _connection_lost(exc: BaseException) -> bool:
    """Whether ``exc`` is the client's connection to the scheduler breaking (Dask's
    ``CommClosedError``, an ``OSError``, or the socket's own ``ConnectionError``), not the
    point failing on its worker."""
    try:
        from distributed.comm.core import CommClosedError
    except ImportError:  # pragma: no cover - Dask is installed when a client ran
        return isinstance(exc, ConnectionError)
    return isinstance(exc, CommClosedError | ConnectionError)


def _close(client: Any, futures: list[Any]) -> None:
    """Cancel what is left and close, quietly when the scheduler is already gone."""
    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    try:
        if futures and client.status == "running":
            with contextlib.suppress(Exception):
                client.cancel(futures)
        with contextlib.suppress(Exception):
            client.close(timeout=CONNECT_TIMEOUT_S)
    finally:
        quiet.setLevel(level)
