"""`--cluster ADDRESS` that leads nowhere useful is one line on standard
error and exit status 2, within --cluster-timeout: a protocol --cluster
does not take (tls://, ucx://), a listener that sends random bytes, one
that accepts and stays silent. The listeners are threads of this process
on 127.0.0.1."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time

import pytest
from conftest import ROOT

pytest.importorskip("distributed", reason="--cluster needs the [cluster] extra (Dask)")

LOG = ROOT / "replays" / "conforming" / "en-first.jsonl"


@pytest.fixture
def listener():
    """Start a listener of a kind on 127.0.0.1; its address. Closed after the test."""
    held: list[socket.socket] = []
    stop = threading.Event()

    def start(kind: str) -> str:
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        server.settimeout(0.2)
        held.append(server)

        def serve():
            while not stop.is_set():
                try:
                    conn, _ = server.accept()
                except OSError:
                    continue
                held.append(conn)
                if kind == "random":
                    try:
                        conn.sendall(os.urandom(1 << 16))
                    except OSError:
                        pass

        threading.Thread(target=serve, daemon=True).start()
        return f"tcp://127.0.0.1:{server.getsockname()[1]}"

    yield start
    stop.set()
    for s in held:
        s.close()


def _verify(address: str, *more: str) -> tuple[subprocess.CompletedProcess, float]:
    start = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "oracle", "verify", str(LOG), "--cluster", address, *more],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    return r, time.monotonic() - start


def _one_line(r) -> str:
    assert r.returncode == 2 and r.stdout == "", (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1, r.stderr
    return r.stderr


@pytest.mark.parametrize("protocol", ["tls", "ucx"])
def test_a_protocol_cluster_does_not_take_is_one_line(protocol):
    r, _ = _verify(f"{protocol}://127.0.0.1:8786")
    assert f"the {protocol}:// protocol is not supported" in _one_line(r)


def test_a_listener_sending_random_bytes_is_one_line(listener):
    r, _ = _verify(listener("random"), "--cluster-timeout", "20")
    assert "does not answer as a Dask scheduler" in _one_line(r)


def test_a_silent_listener_is_one_line_after_the_time_limit(listener):
    r, took = _verify(listener("silent"), "--cluster-timeout", "2")
    assert "no answer from the Dask scheduler" in _one_line(r) and "within 2 s" in r.stderr
    assert took < 60           # the limit, and the start of the command, not minutes


def test_bench_takes_the_time_limit_too(listener):
    start = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "oracle", "bench", "--games", "8", "--repeat", "1", "--no-instructions",
                        "--cluster", listener("silent"), "--cluster-timeout", "2"],
                       capture_output=True, text=True, cwd=ROOT, timeout=180)
    assert r.returncode == 2 and "no answer from the Dask scheduler" in r.stderr and "Traceback" not in r.stderr, \
        r.stderr
    assert time.monotonic() - start < 120
