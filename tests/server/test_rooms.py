"""Live rooms over real HTTP: one server on its own, then two replicas sharing a real
`redis-server` (Debian's), with a lecturer on one and students on both, and a replica
killed while its students reconnect to the other."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from bench.redis_server import redis_server

from gradtrace.language.limits import Limits

from .helpers import LiveServer, start_server, stop_server

pytestmark = pytest.mark.anyio

PROGRAM = "import torch\nx = torch.tensor(3.0, requires_grad=True)\ny = x * x\ny.backward()\n"
WAIT_S = 10


@dataclass
class Follower:
    """A room's event stream, read in the background: the events in order of arrival."""

    events: list[dict[str, Any]] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def wait_for(self, predicate: Any) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT_S
        while True:
            for event in self.events:
                if predicate(event):
                    return event
            self.arrived.clear()
            left = deadline - time.monotonic()
            assert left > 0, f"no such event among {self.events}"
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), left)


@contextlib.asynccontextmanager
async def follow(base: str, code: str, token: str = "") -> AsyncIterator[Follower]:
    follower = Follower()
    query = f"?token={token}" if token else ""

    async def read() -> None:
        async with (
            httpx.AsyncClient(timeout=None) as client,
            client.stream("GET", f"{base}/api/rooms/{code}/events{query}") as response,
        ):
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/event-stream")
            async for line in response.aiter_lines():
                if line.startswith("data: "):
                    follower.events.append(json.loads(line[6:]))
                    follower.arrived.set()

    task = asyncio.create_task(read())
    try:
        await follower.wait_for(lambda e: e["type"] == "state")  # connected
        yield follower
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, httpx.HTTPError):
            await task


def _state_at(step: int) -> Any:
    return lambda e: e["type"] == "state" and e["state"]["view"]["step"] == step


async def _open_room(client: httpx.AsyncClient, base: str) -> tuple[str, str]:
    created = await client.post(f"{base}/api/rooms", json={"source": PROGRAM})
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["url"] == f"/?room={body['code']}"
    return body["code"], body["token"]


async def _show(
    client: httpx.AsyncClient, base: str, code: str, token: str, **view: Any
) -> httpx.Response:
    return await client.put(
        f"{base}/api/rooms/{code}/view",
        json={"source": PROGRAM, **view},
        headers={"authorization": f"Bearer {token}"},
    )


@pytest.fixture(scope="module")
def single() -> Iterator[LiveServer]:
    server = start_server("--workers", "1")
    try:
        yield server
    finally:
        stop_server(server)


async def test_a_class_follows_the_lecturer_and_answers_a_poll(single: LiveServer) -> None:
    base = single.url
    async with httpx.AsyncClient(timeout=30) as lecturer, httpx.AsyncClient(timeout=30) as student:
        code, token = await _open_room(lecturer, base)
        async with follow(base, code, token) as desk, follow(base, code) as seat:
            await desk.wait_for(lambda e: e["type"] == "followers" and e["count"] == 1)
            shown = await _show(lecturer, base, code, token, step=4, selected="t2")
            assert shown.status_code == 200 and shown.json()["version"] == 2
            event = await seat.wait_for(_state_at(4))
            assert event["state"]["view"]["selected"] == "t2"

            poll = {"id": 7, "node": "t1", "step": 5}
            assert (await _show(lecturer, base, code, token, step=5, poll=poll)).status_code == 200
            await seat.wait_for(_state_at(5))
            answer = await student.post(
                f"{base}/api/rooms/{code}/answers", json={"poll": 7, "value": 6}
            )
            assert answer.status_code == 204
            late = await student.post(
                f"{base}/api/rooms/{code}/answers", json={"poll": 6, "value": 1}
            )
            assert late.status_code == 409  # not the open question
            shown = await desk.wait_for(lambda e: e["type"] == "answers" and e["answers"]["count"])
            assert shown["answers"] == {"poll": 7, "count": 1, "values": [6.0]}
            # Followers never see the answers nor the count: only the lecturer does.
            assert {e["type"] for e in seat.events} == {"state"}

            snapshot = (await student.get(f"{base}/api/rooms/{code}")).json()
            assert snapshot["followers"] == 1 and snapshot["state"]["view"]["step"] == 5

            ended = await lecturer.delete(
                f"{base}/api/rooms/{code}", headers={"authorization": f"Bearer {token}"}
            )
            assert ended.status_code == 204
            closed = await seat.wait_for(lambda e: e["type"] == "closed")
            assert closed["reason"] == "ended"
        assert (await student.get(f"{base}/api/rooms/{code}")).status_code == 404


async def test_students_cannot_drive_a_room(single: LiveServer) -> None:
    base = single.url
    async with httpx.AsyncClient(timeout=30) as client:
        code, _ = await _open_room(client, base)
        assert (await _show(client, base, code, "not-the-token", step=1)).status_code == 403
        no_token = await client.put(f"{base}/api/rooms/{code}/view", json={"source": PROGRAM})
        assert no_token.status_code == 403
        assert (await client.delete(f"{base}/api/rooms/{code}")).status_code == 403
        forged = await client.get(f"{base}/api/rooms/{code}/events?token=guess")
        assert forged.status_code == 403
        assert (await client.get(f"{base}/api/rooms/AAAAAA")).status_code == 404
        assert (await client.get(f"{base}/api/rooms/not-a-code")).status_code == 422
        too_long = {"source": "x" * (Limits().source_chars + 1)}
        assert (await client.post(f"{base}/api/rooms", json=too_long)).status_code == 422


async def test_the_lecturers_updates_are_bounded(single: LiveServer) -> None:
    base = single.url
    async with httpx.AsyncClient(timeout=30) as client:
        code, token = await _open_room(client, base)
        statuses = [
            (await _show(client, base, code, token, step=i)).status_code for i in range(100)
        ]
        assert statuses[0] == 200 and 429 in statuses  # 30 a second, in bursts of 60


async def test_opening_rooms_is_bounded_per_client(single: LiveServer) -> None:
    async with httpx.AsyncClient(timeout=30) as client:
        await client.get(f"{single.url}/api/health")  # a browser: it keeps its cookie
        statuses = [
            (await client.post(f"{single.url}/api/rooms", json={"source": PROGRAM})).status_code
            for _ in range(12)
        ]
    assert statuses.count(201) <= 10 and statuses[-1] == 429


# ---------------------------------------------------------------------------- replicas


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    if shutil.which("redis-server") is None:
        pytest.skip("needs Debian's redis-server (make redis-setup)")
    with redis_server() as url:
        yield url


@pytest.fixture
def replicas(redis_url: str) -> Iterator[tuple[LiveServer, LiveServer]]:
    env = {"GRADTRACE_REDIS_URL": redis_url}
    first = start_server("--workers", "1", env=env)
    try:
        second = start_server("--workers", "1", env=env)
        try:
            yield first, second
        finally:
            stop_server(second)
    finally:
        stop_server(first)


async def test_a_room_is_followed_across_replicas(replicas: tuple[LiveServer, LiveServer]) -> None:
    one, two = (server.url for server in replicas)
    async with httpx.AsyncClient(timeout=30) as lecturer, httpx.AsyncClient(timeout=30) as student:
        code, token = await _open_room(lecturer, one)
        async with (
            follow(one, code, token) as desk,
            follow(one, code) as near,
            follow(two, code) as far,
        ):
            await desk.wait_for(lambda e: e["type"] == "followers" and e["count"] == 2)
            assert (await _show(lecturer, one, code, token, step=3)).status_code == 200
            await near.wait_for(_state_at(3))
            await far.wait_for(_state_at(3))
            # The lecturer may drive from either replica; a student answers on the other.
            poll = {"id": 1, "node": "t1", "step": 4}
            assert (await _show(lecturer, two, code, token, step=4, poll=poll)).status_code == 200
            await near.wait_for(_state_at(4))
            await student.get(f"{two}/api/health")  # its cookie, as a browser has
            answered = await student.post(
                f"{two}/api/rooms/{code}/answers", json={"poll": 1, "value": 6}
            )
            assert answered.status_code == 204
            event = await desk.wait_for(lambda e: e["type"] == "answers" and e["answers"]["count"])
            assert event["answers"]["values"] == [6.0]


async def test_students_reconnect_to_the_other_replica_when_one_dies(
    replicas: tuple[LiveServer, LiveServer],
) -> None:
    first, second = replicas
    async with httpx.AsyncClient(timeout=30) as lecturer:
        code, token = await _open_room(lecturer, second.url)
        async with follow(first.url, code) as doomed:
            await _show(lecturer, second.url, code, token, step=2)
            await doomed.wait_for(_state_at(2))
            first.process.kill()  # mid-room
            first.process.wait(timeout=10)
        # What a browser's EventSource does when its stream ends: connect again (here,
        # the load balancer sends it to the replica that is left).
        async with follow(second.url, code) as moved:
            assert moved.events[0]["state"]["view"]["step"] == 2  # the room as it is
            await _show(lecturer, second.url, code, token, step=9)
            await moved.wait_for(_state_at(9))


async def test_a_trace_computed_on_one_replica_is_a_hit_on_the_other(
    replicas: tuple[LiveServer, LiveServer],
) -> None:
    one, two = (server.url for server in replicas)
    body = {"source": PROGRAM + "print(x.grad)\n"}
    async with httpx.AsyncClient(timeout=60) as client:
        first = await client.post(f"{one}/api/trace", json=body)
        # The first replica gives the trace to Redis and announces it after answering;
        # the other hears of it a round trip later (then asks for it, and finds it).
        await asyncio.sleep(1.0)
        second = await client.post(f"{two}/api/trace", json=body)
    assert (first.headers["x-cache"], second.headers["x-cache"]) == ("miss", "hit")
    assert first.content == second.content and first.headers["etag"] == second.headers["etag"]
