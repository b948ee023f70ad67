"""deploy/nginx.conf, the compose file's proxy, run by Debian's nginx in front of a real
replica: traces pass, a room's events stream through, and the limits hold.
Only the addresses differ from the deployment (a free port, the replica's address)."""

from __future__ import annotations

import asyncio
import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .helpers import LiveServer, _free_port, start_server, stop_server
from .test_rooms import PROGRAM, _open_room, _show, _state_at, follow

pytestmark = pytest.mark.anyio

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"


@pytest.fixture(scope="module")
def proxied() -> Iterator[str]:
    nginx = shutil.which("nginx") or shutil.which("/usr/sbin/nginx")
    if nginx is None:
        pytest.skip("needs Debian's nginx (make proxy-setup)")
    server: LiveServer = start_server("--workers", "1", env={"FORWARDED_ALLOW_IPS": "127.0.0.1"})
    port = _free_port()
    text = CONFIG.read_text()
    text = re.sub(r"resolver [^;]+;", "", text)  # the replica is an address, not a name
    text = text.replace("set $app http://gradtrace:8000;", f"set $app {server.url};")
    text = text.replace("listen 8000;", f"listen 127.0.0.1:{port};")
    with tempfile.TemporaryDirectory() as prefix:
        conf = Path(prefix) / "nginx.conf"
        conf.write_text(text)
        for temp in ("body", "proxy"):
            (Path(prefix) / temp).mkdir()
        text = text.replace(
            "http {",
            f"http {{\n    client_body_temp_path {prefix}/body;\n    proxy_temp_path {prefix}/proxy;",
        )
        conf.write_text(text)
        log = Path(prefix) / "error.log"
        process = subprocess.Popen(
            [nginx, "-p", prefix, "-c", str(conf), "-g",
             f"daemon off; master_process off; pid {prefix}/nginx.pid; error_log {log};"],
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 10
            while True:
                assert process.poll() is None, log.read_text() if log.exists() else "nginx exited"
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", port)) == 0:
                        break
                assert time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.1)
            yield f"http://127.0.0.1:{port}"
        finally:
            process.terminate()
            process.wait(timeout=10)
            stop_server(server)


async def test_traces_pass_through_the_proxy(proxied: str) -> None:
    async with httpx.AsyncClient(timeout=60) as client:
        answer = await client.post(f"{proxied}/api/trace", json={"source": PROGRAM})
    assert answer.status_code == 200 and answer.json()["ok"]
    assert answer.headers["x-cache"] in ("hit", "miss")


async def test_room_events_stream_through_the_proxy(proxied: str) -> None:
    async with httpx.AsyncClient(timeout=30) as lecturer:
        code, token = await _open_room(lecturer, proxied)
        async with follow(proxied, code) as seat:
            await _show(lecturer, proxied, code, token, step=6)
            await seat.wait_for(_state_at(6))


async def test_the_proxy_refuses_oversized_heads(proxied: str) -> None:
    async with httpx.AsyncClient(timeout=30) as client:
        long_line = await client.get(f"{proxied}/api/health?x=" + "a" * 20_000)
        assert long_line.status_code == 414
        big_header = await client.get(f"{proxied}/api/health", headers={"x-big": "b" * 20_000})
        assert big_header.status_code in (400, 431)
        body = await client.post(f"{proxied}/api/trace", content=b"{" + b" " * 300_000 + b"}")
        assert body.status_code == 413


async def test_the_proxy_cuts_slow_heads(proxied: str) -> None:
    host, port = proxied.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # and then nothing
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 30)  # closed after client_header_timeout
    writer.close()
    assert answer == b"" or answer.startswith(b"HTTP/1.1 408")
