"""One pure-ASGI layer in front of the app: body size limit, security headers, and a
log line per request. (Pure ASGI: BaseHTTPMiddleware would cost throughput.)"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

access_log = logging.getLogger("gradtrace.access")

APP_CSP = (
    "default-src 'self'; script-src 'self'; worker-src 'self' blob:; "
    "img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; font-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)
# FastAPI's /docs page loads Swagger UI from a CDN and starts it with an inline script.
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "img-src 'self' data: https://fastapi.tiangolo.com; frame-ancestors 'none'"
)
_DOCS_PATHS = ("/docs", "/redoc")


def _headers(csp: str) -> list[tuple[bytes, bytes]]:
    return [
        (b"content-security-policy", csp.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-frame-options", b"DENY"),
        (b"cross-origin-opener-policy", b"same-origin"),
    ]


_APP_HEADERS = _headers(APP_CSP)
_DOCS_HEADERS = _headers(DOCS_CSP)


class _BodyTooLarge(Exception):
    pass


class GuardMiddleware:
    def __init__(self, app: ASGIApp, *, max_body_bytes: int, log_requests: bool) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.log_requests = log_requests

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        path: str = scope["path"]
        extra = _DOCS_HEADERS if path.startswith(_DOCS_PATHS) else _APP_HEADERS
        status = 0

        async def send_with_headers(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        try:
            if scope["method"] in ("POST", "PUT", "PATCH"):
                try:
                    receive = await self._buffered_body(scope, receive)
                except _BodyTooLarge:
                    await self._refuse_too_large(send_with_headers)
                    return
            await self.app(scope, receive, send_with_headers)
        finally:
            if self.log_requests:
                self._log(scope, status, started)

    async def _buffered_body(self, scope: Scope, receive: Receive) -> Receive:
        """Read the whole body, refusing it as soon as it is too large (by its declared
        Content-Length, or by what actually arrives), then replay it to the app."""
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > self.max_body_bytes:
                    raise _BodyTooLarge
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return _replay([message])
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                raise _BodyTooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return _replay([{"type": "http.request", "body": b"".join(chunks), "more_body": False}])

    async def _refuse_too_large(self, send: Send) -> None:
        body = orjson.dumps(
            {
                "detail": f"the request is larger than {self.max_body_bytes} bytes; the source is too long"
            }
        )
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    @staticmethod
    def _log(scope: Scope, status: int, started: float) -> None:
        state = scope.get("state") or {}
        cache = state.get("cache", "-")
        queue_ms = state.get("queue_ms")
        queue = "-" if queue_ms is None else f"{queue_ms:.1f}ms"
        run_ms = state.get("run_ms")
        run = "-" if run_ms is None else f"{run_ms:.1f}ms"
        access_log.info(
            "%s %s %d %.1fms cache=%s queue=%s run=%s",
            scope["method"],
            scope["path"],
            status,
            (time.perf_counter() - started) * 1000,
            cache,
            queue,
            run,
        )


def _replay(messages: list[Message]) -> Receive:
    pending = list(messages)

    async def receive() -> Message:
        if pending:
            return pending.pop(0)
        return {"type": "http.disconnect"}

    return receive
