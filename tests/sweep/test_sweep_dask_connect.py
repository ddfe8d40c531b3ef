"""``--dask-scheduler`` checked before it is used: a malformed address is refused at once
(exit 2); a refused connection, a port that accepts and never speaks, an HTTP server, or a
service that greets as no Dask scheduler does are each reported within 5 s (exit 1), naming the
address; without Dask the error names the install command."""

from __future__ import annotations

import http.server
import socket
import sys
import threading
import time
from collections.abc import Iterator

import pytest
from overprov.cli import main

TINY_SWEEP = [
    "simulate",
    "--user-pages",
    "4096",
    "--pages-per-block",
    "64",
    "--rho",
    "0.1,0.2",
    "--drive-writes",
    "1",
    "--no-progress",
]


def simulate_on(address: str, capsys) -> tuple[int, float, str]:
    t0 = time.monotonic()
    code = main([*TINY_SWEEP, "--dask-scheduler", address])
    return code, time.monotonic() - t0, capsys.readouterr().err


@pytest.mark.parametrize(
    "address",
    [
        "garbage",
        "tcp://",
        "tcp://127.0.0.1",
        "tcp://127.0.0.1:99999",
        "http://127.0.0.1:8786",
        "tcp://127.0.0.1:8786/path",
        "tcp://-bad-:8786",
    ],
)
def test_malformed_address_refused_at_once(address, capsys):
    code, took, err = simulate_on(address, capsys)
    assert code == 2, err
    assert f"--dask-scheduler {address!r}" in err and "tcp://HOST:PORT" in err, err
    assert took < 5.0, took


def _listening(greeting: bytes | None = None) -> Iterator[int]:
    """A TCP port on 127.0.0.1 that accepts connections and sends ``greeting`` (None: nothing,
    ever), holding each connection open."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            held.append(conn)
            if greeting is not None:
                conn.sendall(greeting)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join(timeout=5)
        for conn in held:
            conn.close()
        server.close()


@pytest.fixture
def silent_port() -> Iterator[int]:
    yield from _listening(None)


@pytest.fixture
def ssh_like_port() -> Iterator[int]:
    yield from _listening(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")


@pytest.fixture
def http_port() -> Iterator[int]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_silent_port_reported_within_5s(silent_port, capsys):
    code, took, err = simulate_on(f"tcp://127.0.0.1:{silent_port}", capsys)
    assert code == 1, err
    assert "said nothing" in err and f"127.0.0.1:{silent_port}" in err, err
    assert took < 5.0, took


def test_http_server_reported_within_5s(http_port, capsys):
    code, took, err = simulate_on(f"tcp://127.0.0.1:{http_port}", capsys)
    assert code == 1, err
    assert "said nothing" in err and "not its dashboard or another service" in err, err
    assert took < 5.0, took


def test_service_greeting_otherwise_reported(ssh_like_port, capsys):
    code, took, err = simulate_on(f"127.0.0.1:{ssh_like_port}", capsys)
    assert code == 1, err
    assert "not as a Dask scheduler does" in err and "SSH-2.0" in err, err
    assert took < 5.0, took


def test_refused_connection_reported_at_once(capsys):
    with socket.create_server(("127.0.0.1", 0)) as s:
        port = s.getsockname()[1]  # closed again: nothing listens there now
    code, took, err = simulate_on(f"tcp://127.0.0.1:{port}", capsys)
    assert code == 1, err
    assert "connection refused" in err, err
    assert took < 5.0, took


def test_without_dask_the_install_command_is_named(monkeypatch, silent_port, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    code, _took, err = simulate_on(f"tcp://127.0.0.1:{silent_port}", capsys)
    assert code == 2, err
    assert "pip install 'overprov[dask]'" in err, err
