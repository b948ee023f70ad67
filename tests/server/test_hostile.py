"""Hostile programs over HTTP: each gets a clear error within its limit, and the server
keeps answering."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from gradtrace.sandbox.failures import MemoryRelabel
from gradtrace.server.logsafe import EscapingFormatter

from .helpers import (
    SLOW_PROGRAM,
    TEST_TIMEOUT_S,
    AppClient,
    LiveServer,
    comparable,
    make_settings,
    open_app,
    reference_trace,
    start_server,
    stop_server,
)

pytestmark = pytest.mark.anyio

HOSTILE = {
    # Lists are not tensors, and these are not made by repetition (whose total is bounded):
    # only the process's memory limit stops this one.
    "memory_bomb": "x = [0] * 1000000\nrows = [x[:] for i in range(1000)]\nprint(len(rows))\n",
    "repetition_bomb": "rows = [[0] * 1000000 for i in range(1000)]\nprint(len(rows))\n",
    "tensor_bomb": "import torch\nx = torch.zeros(100000, 100000)\n",
    "infinite_loop": "while True:\n    pass\n",
    "fork": "import os\nos.fork()\n",
    "fork_through_torch": "import torch\np = torch.multiprocessing.Process(target=print)\np.start()\n",
    "deep_recursion": "def f(n):\n    return f(n + 1)\n\nf(0)\n",
    "parser_bomb_parens": "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n",
    "parser_bomb_chain": "x = 1" + " + 1" * 4000 + "\n",
    "write_file": "with open('/tmp/gradtrace-pwned', 'w') as f:\n    f.write('x')\n",
}
EXPECTED_TYPES = {
    "memory_bomb": {"LimitError"},
    "repetition_bomb": {"LimitError"},
    "tensor_bomb": {"LimitError"},
    "infinite_loop": {"LimitError"},
    "fork": {"ForbiddenError"},
    "fork_through_torch": {"ForbiddenError", "AttributeError"},
    "deep_recursion": {"LimitError", "RecursionError"},
    "parser_bomb_parens": {"SyntaxError", "LimitError"},
    "parser_bomb_chain": {"SyntaxError", "LimitError", "RecursionError"},
    "write_file": {"ForbiddenError", "NameError"},
}
# The engine's own limit, then the parent's kill after a grace period, then slack for a busy CI.
WITHIN_S = TEST_TIMEOUT_S + max(1.0, 0.2 * TEST_TIMEOUT_S) + 3.0


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_program_gets_a_clear_error_in_time(live: LiveServer, name: str) -> None:
    started = time.monotonic()
    response = httpx.post(f"{live.url}/api/trace", json={"source": HOSTILE[name]}, timeout=60)
    elapsed = time.monotonic() - started
    assert response.status_code == 200
    trace = response.json()
    assert trace["ok"] is False
    assert trace["error"]["type"] in EXPECTED_TYPES[name], trace["error"]
    assert trace["error"]["message"]
    assert elapsed < WITHIN_S
    assert httpx.get(f"{live.url}/api/health", timeout=5).status_code == 200
    assert not os.path.exists("/tmp/gradtrace-pwned")


def test_memory_bomb_names_the_memory_limit(live: LiveServer) -> None:
    response = httpx.post(
        f"{live.url}/api/trace", json={"source": HOSTILE["memory_bomb"]}, timeout=60
    )
    error = response.json()["error"]
    assert error["type"] == "LimitError"
    assert "512 MiB" in error["message"] or "memory" in error["message"].lower()


def test_the_server_still_computes_right_after_hostile_programs(live: LiveServer) -> None:
    source = "import torch\nx = torch.tensor(2.0, requires_grad=True)\n(x ** 3).backward()\nprint(x.grad)\n"
    for name in ("memory_bomb", "infinite_loop", "deep_recursion"):
        httpx.post(f"{live.url}/api/trace", json={"source": HOSTILE[name], "seed": 5}, timeout=60)
        response = httpx.post(f"{live.url}/api/trace", json={"source": source}, timeout=60)
        assert comparable(response.content) == reference_trace(source)


async def _busy_pid(api: AppClient) -> int:
    pool = api.app.state.service.pools["cpu"]
    for _ in range(200):
        if pool.stats().busy:
            return int(pool.stats().pids[0])
        await asyncio.sleep(0.02)
    raise AssertionError("the worker never became busy")


async def test_a_worker_killed_mid_job_is_replaced(anyio_backend: str) -> None:
    async for api in open_app(make_settings(workers=1, timeout=10.0)):
        pending = asyncio.ensure_future(
            api.client.post("/api/trace", json={"source": SLOW_PROGRAM.format(n=1)})
        )
        pid = await _busy_pid(api)
        os.kill(pid, signal.SIGKILL)
        response = await pending
        assert response.status_code == 200
        trace = response.json()
        assert trace["ok"] is False
        assert trace["error"]["type"] == "LimitError"
        assert "killed" in trace["error"]["message"]
        assert response.headers["cache-control"] == "no-store"
        source = "import torch\nprint(torch.ones(2) * 3)\n"
        after = await api.client.post("/api/trace", json={"source": source})
        assert comparable(after.content) == reference_trace(source)
        pids = api.app.state.service.pools["cpu"].stats().pids
        assert pids and pid not in pids


async def test_a_job_past_the_time_limit_is_killed_by_the_parent(anyio_backend: str) -> None:
    """The slow program outlasts a 0.3 s limit; the engine or the parent stops it."""
    async for api in open_app(make_settings(workers=1, timeout=0.3)):
        started = time.monotonic()
        response = await api.client.post("/api/trace", json={"source": SLOW_PROGRAM.format(n=2)})
        assert time.monotonic() - started < 0.3 + 1.0 + 2.0
        error = response.json()["error"]
        assert error["type"] == "LimitError"
        ok = await api.client.post("/api/trace", json={"source": "print(1)\n"})
        assert ok.json()["ok"] is True


async def test_a_dead_zygote_is_restarted(anyio_backend: str) -> None:
    async for api in open_app(make_settings(workers=1)):
        pool = api.app.state.service.pools["cpu"]
        zygote = pool._launcher.zygote_pid
        os.kill(zygote, signal.SIGKILL)
        await asyncio.sleep(0.5)
        source = "import torch\nprint(torch.arange(3))\n"
        response = await api.client.post("/api/trace", json={"source": source})
        assert comparable(response.content) == reference_trace(source)
        assert pool._launcher.zygote_pid != zygote


CORPUS = sorted((Path(__file__).resolve().parents[1] / "hostile").glob("*.py"))


async def test_no_hostile_program_gets_a_5xx(anyio_backend: str) -> None:
    """Every program of tests/hostile, on both endpoints: an answer, never a server error.
    One worker and a 1 s limit: the corpus burns CPU, and the other tests share the cores."""
    assert len(CORPUS) > 100
    server = start_server("--workers", "1", "--timeout", "1")
    try:
        answers = await _statuses(server)
    finally:
        stop_server(server)
    assert [answer for answer in answers if answer[1] >= 500] == []
    assert {code for _, code in answers} <= {200, 413}


ENDPOINTS = ("/api/trace", "/api/gradcheck")


async def _statuses(server: LiveServer) -> list[tuple[str, int]]:
    limit = asyncio.Semaphore(2)
    async with httpx.AsyncClient(base_url=server.url, timeout=120) as client:

        async def status(path: Path, endpoint: str) -> tuple[str, int]:
            async with limit:
                response = await client.post(endpoint, json={"source": path.read_text()})
            if response.status_code == 200:
                assert response.json()["ok"] in (True, False)
            return f"{endpoint} {path.name}", response.status_code

        return await asyncio.gather(
            *(status(path, endpoint) for path in CORPUS for endpoint in ENDPOINTS)
        )


# Runs once, then fails when a check run moves x: the probe raised, and was a 500.
PROBE_RAISES = """\
import torch
x = torch.tensor(1.0, requires_grad=True)
y = x * 2
if x.item() != 1.0:
    y = torch.ones(2)[5]
y.backward()
"""


async def test_a_gradient_check_whose_probe_run_fails_is_an_answer(api: AppClient) -> None:
    response = await api.client.post("/api/gradcheck", json={"source": PROBE_RAISES})
    assert response.status_code == 200
    check = response.json()
    assert check["ok"] is False
    assert check["error"]["type"] == "IndexError"


async def test_newlines_from_a_request_or_a_program_cannot_forge_log_lines(
    api: AppClient, caplog: pytest.LogCaptureFixture
) -> None:
    forged = "\n2026-01-01 gradtrace.access GET / 200 0.1ms cache=hit"
    with caplog.at_level(logging.INFO):
        await api.client.get("/x" + quote(forged))
    for record in caplog.records:
        text = logging.Formatter("%(message)s").format(record)
        assert "\n" not in text and "\r" not in text, text
    # What is logged unescaped (a library's message, a traceback) is indented after its
    # first line, so no line of it passes for a record.
    formatter = EscapingFormatter("%(asctime)s %(name)s %(message)s")
    record = logging.LogRecord("uvicorn", logging.ERROR, "", 0, "oops%s\r\x1b[2K", (forged,), None)
    _, *rest = formatter.format(record).split("\n")
    assert rest == ["    2026-01-01 gradtrace.access GET / 200 0.1ms cache=hit\\x0d\\x1b[2K"]


FAKE_MEMORY_FAILURES = {
    "runtime error": 'raise RuntimeError("DefaultCPUAllocator: can\'t allocate memory ({n})")\n',
    "key error": "d = {{}}\nd['out of memory {n}']\n",
    "own class": "class MemoryError(Exception):\n    pass\n\nraise MemoryError('{n}')\n",
}


@pytest.mark.parametrize("name", list(FAKE_MEMORY_FAILURES))
async def test_a_faked_memory_failure_does_not_retire_the_worker(
    anyio_backend: str, name: str
) -> None:
    """A program's own error may name memory: it is told the memory limit's words, but its
    warm worker is not replaced (else each such request costs the server a new worker)."""
    async for api in open_app(make_settings(workers=1, cache_mb=0)):
        pool = api.app.state.service.pools["cpu"]
        source = "import torch\nx = torch.ones(3) * 2\n" + FAKE_MEMORY_FAILURES[name]
        assert (await api.client.post("/api/trace", json={"source": "print(1)\n"})).is_success
        pids = pool.stats().pids
        assert len(pids) == 1
        for n in range(3):
            for endpoint in ("/api/trace", "/api/gradcheck"):
                response = await api.client.post(endpoint, json={"source": source.format(n=n)})
                assert response.status_code == 200
                assert response.json()["ok"] is False
                # A retired worker is gone from the pool as its answer arrives.
                assert pool.stats().pids == pids


def test_a_process_that_holds_most_of_its_ceiling_retires() -> None:
    """The other side: memory really held when the error is written retires the process."""
    words = {"type": "RuntimeError", "message": "DefaultCPUAllocator: can't allocate memory"}
    idle = MemoryRelabel(memory_mb=64)
    assert idle(dict(words))["type"] == "LimitError"
    assert idle.hit and not idle.retire
    full = MemoryRelabel(memory_mb=64)
    held = bytearray(56 * 2**20)
    held[::4096] = b"\1" * len(held[::4096])  # each page written, so resident
    assert full(dict(words))["type"] == "LimitError"
    assert full.hit and full.retire
    del held
