"""One client against the server (issue 15): slow or endless heads, floods of idle
connections, huge request lines and headers, huge bodies, jobs whose clients left, and
one client's slow jobs against another's quick one. Real uvicorn on 127.0.0.1, bounded
in connections and seconds; other loopback addresses (127.0.0.2, ...) stand for other
machines where a test needs them."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import orjson
import pytest
from bench.server_bench import PROGRAM

from .helpers import SLOW_PROGRAM, UNTIL_THE_TIME_LIMIT, LiveServer, start_server, stop_server

pytestmark = pytest.mark.anyio

REQUEST_TIMEOUT_S = 1.5
# The bench's 20-node program: what a student's request looks like.
TWENTY_NODES = PROGRAM
# Runs until its worker is killed, so that its client can hang up first even under load.
FOREVER = UNTIL_THE_TIME_LIMIT


@pytest.fixture(scope="module")
def guarded() -> Iterator[LiveServer]:
    """Small caps and a short request timeout, so that the tests stay small and quick."""
    server = start_server(
        "--workers",
        "2",
        "--timeout",
        "10",
        env={
            "GRADTRACE_REQUEST_TIMEOUT": str(REQUEST_TIMEOUT_S),
            "GRADTRACE_CONNECTIONS_PER_ADDRESS": "40",
            "GRADTRACE_MAX_CONNECTIONS": "100",
        },
    )
    try:
        yield server
    finally:
        stop_server(server)


def _port(server: LiveServer) -> int:
    return int(server.url.rsplit(":", 1)[1])


async def _connect(
    server: LiveServer, source: str = "127.0.0.1"
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", _port(server), local_addr=(source, 0))


async def _closed_within(reader: asyncio.StreamReader, seconds: float) -> bytes | None:
    """What the server sent before closing the connection, or None if it is still open."""
    try:
        return await asyncio.wait_for(reader.read(), seconds)
    except TimeoutError:
        return None
    except ConnectionError:  # reset by the server, or our own write to it failed
        return b""


@contextlib.asynccontextmanager
async def _client(
    server: LiveServer, source: str = "127.0.0.1"
) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.AsyncHTTPTransport(local_address=source)
    async with httpx.AsyncClient(base_url=server.url, transport=transport, timeout=30) as client:
        yield client


async def _health(client: httpx.AsyncClient) -> dict[str, Any]:
    health = (await client.get("/api/health")).json()
    return dict(health["workers"][0])


async def _served(server: LiveServer, source: str = "127.0.0.1") -> None:
    """A normal request is answered (once the connections just cut have closed)."""
    deadline = time.monotonic() + 5
    async with _client(server, source) as client:
        while True:
            try:
                assert await _timed_trace(client, int(deadline * 1000)) < 5
                return
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.2)


async def _timed_trace(client: httpx.AsyncClient, n: int) -> float:
    started = time.monotonic()
    response = await client.post("/api/trace", json={"source": TWENTY_NODES.format(c=n)})
    assert response.status_code == 200 and response.json()["ok"] is True
    return time.monotonic() - started


async def test_slowloris_heads_are_cut_after_the_request_timeout(guarded: LiveServer) -> None:
    await _served(guarded)  # connections of the tests before have closed
    streams = [await _connect(guarded) for _ in range(30)]
    head = b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 1000

    async def drip(writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            for byte in head:
                writer.write(bytes([byte]))
                await writer.drain()
                await asyncio.sleep(0.1)

    drips = [asyncio.ensure_future(drip(writer)) for _, writer in streams]
    try:
        async with _client(guarded) as client:  # served while the heads drip in
            assert await _timed_trace(client, 1) < 5
        answers = await asyncio.gather(
            *(_closed_within(reader, REQUEST_TIMEOUT_S + 3) for reader, _ in streams)
        )
        assert all(answer is not None for answer in answers)  # none is held open
        assert sum(b" 408 " in (answer or b"") for answer in answers) >= 25
        await _served(guarded)
    finally:
        for task in drips:
            task.cancel()
        for _, writer in streams:
            writer.close()


async def test_idle_connections_beyond_the_caps_are_refused_and_the_rest_cut(
    guarded: LiveServer,
) -> None:
    # 60 from one address (cap 40), then 3 more addresses of 25 (total cap 100). An
    # address of its own: other tests' connections may still be closing.
    sources = ["127.0.0.6"] * 60 + [f"127.0.0.{n}" for n in (3, 4, 5) for _ in range(25)]
    streams = []
    for source in sources:
        streams.append(await _connect(guarded, source))
    # Each is closed: the ones over a cap at once, with nothing said (a reset or an
    # empty end); the others after the request timeout, with a 408.
    answers = await asyncio.gather(
        *(_closed_within(reader, REQUEST_TIMEOUT_S + 5) for reader, _ in streams)
    )
    assert all(answer is not None for answer in answers)
    refused = [not answer for answer in answers]
    assert sum(refused[:60]) == 20, sum(refused[:60])
    # 15 over the total cap, fewer if some of the first had timed out meanwhile.
    assert sum(refused[60:]) >= 5, sum(refused[60:])
    assert all(answer.startswith(b"HTTP/1.1 408 ") for answer in answers if answer)
    for _, writer in streams:
        writer.close()
    await _served(guarded)  # the server is up and has room again


async def test_a_huge_request_line_is_refused_without_stalling_the_server(
    guarded: LiveServer,
) -> None:
    await _served(guarded, "127.0.0.2")
    reader, writer = await _connect(guarded)
    sent = 0

    async def flood() -> None:
        nonlocal sent
        with contextlib.suppress(ConnectionError):
            writer.write(b"GET /")
            for _ in range(300):  # up to 300 MB: the server stops reading long before
                writer.write(b"a" * 1_000_000)
                sent += 1_000_000
                await writer.drain()

    flooding = asyncio.ensure_future(flood())
    try:
        async with _client(guarded, "127.0.0.2") as client:
            latencies = [await _timed_trace(client, 10 + n) for n in range(5)]
        answer = await _closed_within(reader, 5)
        # The 414, or a reset: a client that goes on sending after it is cut off.
        assert answer == b"" or (answer or b"").startswith(b"HTTP/1.1 414 "), answer
        assert max(latencies) < 3, latencies  # a 300 MB line stalled the server for seconds
        assert sent < 100_000_000
    finally:
        flooding.cancel()
        writer.close()


@pytest.mark.parametrize(
    ("head", "status"),
    [
        (b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 100_000 + b"\r\n\r\n", 431),
        (b"GET /api/health HTTP/1.1\r\nHost: x\r\n" + b"X-Many: b\r\n" * 20_000 + b"\r\n", 431),
        (b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        # Whole heads a little over the 32 KiB cap: each arrives in one read, parsed in one go.
        (b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 34_000 + b"\r\n\r\n", 431),
        (b"GET /" + b"a" * 34_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
    ],
    ids=["long header", "many headers", "long path", "whole head over", "whole line over"],
)
async def test_oversized_heads_get_a_4xx_at_once(
    guarded: LiveServer, head: bytes, status: int
) -> None:
    reader, writer = await _connect(guarded)
    started = time.monotonic()
    with contextlib.suppress(ConnectionError):
        writer.write(head)
        await writer.drain()
    answer = await _closed_within(reader, 5)
    writer.close()
    assert answer is not None and answer.startswith(b"HTTP/1.1 %d " % status), answer[:80]
    assert time.monotonic() - started < 2


async def test_an_oversized_body_is_refused_before_it_is_sent(guarded: LiveServer) -> None:
    reader, writer = await _connect(guarded)
    writer.write(
        b"POST /api/trace HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 300000000\r\n\r\n{"
    )
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(200), 5)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 413 "), answer


async def _post_and_leave(server: LiveServer, source: str) -> asyncio.StreamWriter:
    """A client that posts a program; closing the writer hangs up."""
    _, writer = await _connect(server)
    body = orjson.dumps({"source": source})
    writer.write(
        b"POST /api/trace HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body) + body
    )
    await writer.drain()
    return writer


async def _wait_for(
    server: LiveServer, check: Callable[[dict[str, Any]], bool], seconds: float
) -> float:
    """Polls the health endpoint until `check(pool)` holds; the time it took."""
    started = time.monotonic()
    async with _client(server, "127.0.0.9") as client:
        while time.monotonic() - started < seconds:
            if check(await _health(client)):
                return time.monotonic() - started
            await asyncio.sleep(0.05)
    raise AssertionError("the server did not get there in time")


async def test_jobs_of_clients_that_left_are_dropped(guarded: LiveServer) -> None:
    async with _client(guarded) as client:
        before = await _health(client)
    # Two endless programs take both workers (each request is its own anonymous client
    # only from its own address: here they share 127.0.0.1, so the second is lined up
    # or queued), then four more wait; every client hangs up.
    writers = [await _post_and_leave(guarded, FOREVER + f"# {n}\n") for n in range(6)]
    await _wait_for(guarded, lambda pool: pool["busy"] >= 1 and pool["queued"] >= 1, 10)
    for writer in writers:
        writer.close()
    took = await _wait_for(guarded, lambda pool: pool["busy"] == 0 and pool["queued"] == 0, 8)
    async with _client(guarded) as client:
        after = await _health(client)
        assert await _timed_trace(client, 20) < 5
    # The endless ones would hold a worker 10 s each: they were cut short, the waiting
    # ones never ran.
    assert took < 3, took
    assert after["jobs"] - before["jobs"] <= 3, (before, after)


async def test_one_client_with_slow_jobs_does_not_hold_up_another(guarded: LiveServer) -> None:
    async with _client(guarded) as heavy, _client(guarded) as student:
        await heavy.get("/api/health")  # each gets its token (a cookie), as a browser does
        await student.get("/api/health")
        assert heavy.cookies.get("gradtrace_client") != student.cookies.get("gradtrace_client")
        slow = [
            asyncio.ensure_future(
                heavy.post("/api/trace", json={"source": SLOW_PROGRAM.format(n=100 + n)})
            )
            for n in range(8)
        ]
        await _wait_for(guarded, lambda pool: pool["queued"] >= 6, 10)
        took = await _timed_trace(student, 30)
        finished = sum(task.done() for task in slow)
        print(f"the student's 20-node trace took {took * 1000:.0f} ms behind 8 slow jobs")
        assert finished <= 1, finished  # served before the heavy client's queued jobs
        assert took < 3, took  # generous: measured well under 1 s
        for task in slow:
            task.cancel()
    await _wait_for(guarded, lambda pool: pool["busy"] == 0 and pool["queued"] == 0, 15)
