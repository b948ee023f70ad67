"""The rooms' HTTP side: create, update, follow (server-sent events), answer, end.

The lecturer holds the token `POST /api/rooms` returned: `Authorization: Bearer` on
updates and on ending the room, `?token=` on its own events stream (an EventSource sets
no headers; the access log never records query strings). Students need only the code.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import StreamingResponse

from gradtrace.server.models import ErrorResponse
from gradtrace.server.responses import JSON, error_response
from gradtrace.server.rooms.hub import RoomHub
from gradtrace.server.rooms.models import (
    CODE_ALPHABET,
    CODE_LENGTH,
    AnswerIn,
    Code,
    RoomCreated,
    RoomEvent,
    RoomSnapshot,
    RoomState,
    StateEvent,
    View,
)
from gradtrace.server.rooms.throttle import Throttle
from gradtrace.server.settings import Settings

_HEARTBEAT_S = 15.0
_SSE_HEADERS = {
    "Cache-Control": "no-store",
    "X-Accel-Buffering": "no",  # nginx: pass each event on at once
}


class EventStream(StreamingResponse):
    media_type = "text/event-stream"


def _hash(token: str) -> str:
    return hashlib.blake2b(token.encode(), digest_size=16).hexdigest()


def _bearer(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    why = {
        400: "the body is not JSON",
        403: "only the room's lecturer may do this",
        404: "no such room: it ended, or never was",
        409: "this question is not open",
        413: "the request is larger than the longest program takes",
        429: "too many requests; retry after Retry-After",
        503: "the server holds as many rooms (or followers) as it may",
    }
    return {status: {"model": ErrorResponse, "description": why[status]} for status in statuses}


def rooms_router(hub: RoomHub, settings: Settings) -> APIRouter:
    router = APIRouter(prefix="/api/rooms", tags=["rooms"])
    creations = Throttle(rate=settings.rooms_per_minute / 60, burst=settings.rooms_per_minute)
    updates = Throttle(rate=settings.room_updates_per_s, burst=2 * settings.room_updates_per_s)
    answering = Throttle(rate=2, burst=5)

    def client_of(request: Request) -> str:
        address, token = getattr(request.state, "client", ("", ""))
        return f"{address}|{token}"

    async def lecturer_room(code: str, token: str) -> RoomState | Response:
        stored = await hub.store.load(code)
        if stored is None:
            return error_response(404, "no such room: it ended, or never was")
        if not token or not hmac.compare_digest(stored.token_hash, _hash(token)):
            return error_response(403, "only the room's lecturer may do this")
        return RoomState.model_validate_json(stored.state)

    @router.post(
        "",
        operation_id="create_room",
        response_model=RoomCreated,
        status_code=201,
        responses=_errors(400, 413, 429, 503),
    )
    async def create_room(view: View, request: Request) -> Response:
        if not creations.allow(client_of(request)):
            return error_response(
                429, "too many rooms opened; wait a minute", {"Retry-After": "60"}
            )
        if await hub.store.count() >= settings.max_rooms:
            return error_response(
                503, "this server holds as many rooms as it may", {"Retry-After": "60"}
            )
        token = secrets.token_urlsafe(24)
        for _ in range(16):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            state = RoomState(code=code, version=1, view=view)
            if await hub.store.create(code, _hash(token), state.model_dump_json()):
                break
        else:
            return error_response(503, "no free room code; try again", {"Retry-After": "1"})
        created = RoomCreated(
            code=code,
            token=token,
            url=f"/?room={code}",
            idle_timeout_s=int(settings.room_idle_timeout),
        )
        return Response(created.model_dump_json(), status_code=201, media_type=JSON)

    @router.get("/{code}", operation_id="room", response_model=RoomSnapshot, responses=_errors(404))
    async def room(code: Code) -> Response:
        stored = await hub.store.load(code)
        if stored is None:
            return error_response(404, "no such room: it ended, or never was")
        followers = await hub.store.set_followers(code, hub.replica, hub.followers_here(code))
        snapshot = RoomSnapshot(
            state=RoomState.model_validate_json(stored.state), followers=followers
        )
        return Response(
            snapshot.model_dump_json(), media_type=JSON, headers={"Cache-Control": "no-store"}
        )

    @router.put(
        "/{code}/view",
        operation_id="update_room",
        response_model=RoomState,
        responses=_errors(400, 403, 404, 413, 429),
    )
    async def update_room(code: Code, view: View, request: Request) -> Response:
        current = await lecturer_room(code, _bearer(request))
        if isinstance(current, Response):
            return current
        if not updates.allow(code):
            return error_response(429, "too many updates a second", {"Retry-After": "1"})
        state = RoomState(code=code, version=current.version + 1, view=view)
        if not await hub.store.save_state(code, state.model_dump_json()):
            return error_response(404, "no such room: it ended, or never was")
        await hub.publish_state(state)
        return Response(state.model_dump_json(), media_type=JSON)

    @router.delete("/{code}", operation_id="end_room", status_code=204, responses=_errors(403, 404))
    async def end_room(code: Code, request: Request) -> Response:
        current = await lecturer_room(code, _bearer(request))
        if isinstance(current, Response):
            return current
        await hub.store.delete(code)
        await hub.publish_closed(code, "ended")
        return Response(status_code=204)

    @router.post(
        "/{code}/answers",
        operation_id="answer",
        status_code=204,
        responses=_errors(400, 404, 409, 413, 429),
    )
    async def answer(code: Code, body: AnswerIn, request: Request) -> Response:
        client = client_of(request)
        if not answering.allow((code, client)):
            return error_response(429, "too many answers; wait a moment", {"Retry-After": "1"})
        stored = await hub.store.load(code)
        if stored is None:
            return error_response(404, "no such room: it ended, or never was")
        poll = RoomState.model_validate_json(stored.state).view.poll
        if poll is None or poll.id != body.poll or poll.revealed:
            return error_response(409, "this question is not open")
        if not await hub.store.answer(code, body.poll, client, body.value, settings.max_answers):
            return error_response(429, "this question has all the answers it can take")
        hub.answers_changed(code, body.poll)
        return Response(status_code=204)

    @router.get(
        "/{code}/events",
        operation_id="room_events",
        response_model=RoomEvent,
        responses={
            200: {"content": {"text/event-stream": {}}, "description": "the room's events"},
            **_errors(403, 404, 503),
        },
        description="Server-sent events: each event's `data` is one RoomEvent as JSON.",
    )
    async def events(code: Code, token: str = "") -> Response:
        stored = await hub.store.load(code)
        if stored is None:
            return error_response(404, "no such room: it ended, or never was")
        lecturer = bool(token) and hmac.compare_digest(stored.token_hash, _hash(token))
        if token and not lecturer:
            return error_response(403, "this is not the room's lecturer token")
        if not lecturer and hub.followers_here(code) >= settings.max_followers:
            return error_response(503, "this room is full", {"Retry-After": "30"})
        return EventStream(_stream(hub, code, lecturer), headers=_SSE_HEADERS)

    # Starlette's 405 names the methods of the first route that matches the path only:
    # /{code} has two (GET, DELETE), so the other methods are answered here.
    @router.api_route(
        "/{code}", methods=["POST", "PUT", "PATCH", "OPTIONS"], include_in_schema=False
    )
    async def room_methods(code: str) -> Response:
        return error_response(405, "Method Not Allowed", {"Allow": "DELETE, GET"})

    return router


async def _stream(hub: RoomHub, code: str, lecturer: bool) -> AsyncIterator[bytes]:
    async with hub.stream(code, lecturer=lecturer) as stream:
        # Read once the stream is listening: no update can fall between the two.
        stored = await hub.store.load(code)
        if stored is None:
            yield b'event: closed\ndata: {"type":"closed","reason":"ended"}\n\n'
            return
        first = StateEvent(state=RoomState.model_validate_json(stored.state)).model_dump_json()
        yield b"retry: 2000\nevent: state\ndata: " + first.encode() + b"\n\n"
        while True:
            try:
                await asyncio.wait_for(stream.wake.wait(), _HEARTBEAT_S)
            except TimeoutError:
                yield b": still here\n\n"  # keeps proxies from closing an idle stream
                continue
            for kind, data in stream.take():
                yield f"event: {kind}\ndata: {data}\n\n".encode()
                if kind == "closed":
                    return
