"""A throwaway `redis-server` (Debian's) on a free port: no persistence, gone on exit.
Used by the rooms bench and by the tests of replicas."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator

_PIDS: dict[str, int] = {}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """The URL of a fresh Redis; RuntimeError where redis-server is not installed."""
    server = shutil.which("redis-server")
    if server is None:
        raise RuntimeError("redis-server is not installed (make redis-setup)")
    port = _free_port()
    with tempfile.TemporaryDirectory() as data:
        process = subprocess.Popen(
            [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
             "no", "--dir", data, "--maxmemory", "512mb", "--maxmemory-policy", "allkeys-lru"],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 10
            while True:
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", port)) == 0:
                        probe.sendall(b"PING\r\n")
                        if probe.recv(16).startswith(b"+PONG"):
                            break
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start")
                time.sleep(0.05)
            url = f"redis://127.0.0.1:{port}/0"
            _PIDS[url] = process.pid
            yield url
        finally:
            _PIDS.pop(f"redis://127.0.0.1:{port}/0", None)
            process.terminate()
            process.wait(timeout=10)


def server_pid(url: str) -> int | None:
    """The pid of the redis-server that redis_server() started for `url`."""
    return _PIDS.get(url)
