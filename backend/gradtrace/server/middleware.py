"""One pure-ASGI layer in front of the app: body size limit, security headers, who the
client is, and a log line per request. (Pure ASGI: BaseHTTPMiddleware would cost
throughput.)"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson

from gradtrace.server.clients import ClientTokens
from gradtrace.server.logsafe import escape

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
    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body_bytes: int,
        log_requests: bool,
        tokens: ClientTokens | None = None,
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.log_requests = log_requests
        self.tokens = tokens or ClientTokens()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        path: str = scope["path"]
        extra = _DOCS_HEADERS if path.startswith(_DOCS_PATHS) else _APP_HEADERS
        status = 0
        # The client, for fair turns at the workers: its token, or "" (its address's
        # requests without one); a browser without a token gets one for its next requests.
        token = self.tokens.verified(scope["headers"])
        address = scope["client"][0] if scope.get("client") else ""
        scope.setdefault("state", {})["client"] = (address, token or "")

        async def send_with_headers(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [*message.get("headers", ()), *extra]
                # Never on what shared caches keep (the assets): one browser's token
                # would be handed to others.
                if token is None and not _public(headers):
                    headers.append(self.tokens.set_cookie(self.tokens.issue()))
                message["headers"] = headers
            await send(message)

        try:
            if scope["method"] in ("POST", "PUT", "PATCH"):
                try:
                    buffered = await self._buffered_body(scope, receive)
                except _BodyTooLarge:
                    await self._refuse_too_large(send_with_headers)
                    return
                if buffered is None:  # the client left before its body arrived: no one to answer
                    status = 499
                    return
                receive = buffered
            await self.app(scope, receive, send_with_headers)
        finally:
            if self.log_requests:
                self._log(scope, status, started)

    async def _buffered_body(self, scope: Scope, receive: Receive) -> Receive | None:
        """Read the whole body, refusing it as soon as it is too large (by its declared
        Content-Length, or by what actually arrives), then replay it to the app; None
        if the client went away first."""
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
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                raise _BodyTooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        return _replay(body, receive)

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
            escape(scope["path"]),  # percent-decoded: it may hold a newline
            status,
            (time.perf_counter() - started) * 1000,
            cache,
            queue,
            run,
        )


def _public(headers: list[tuple[bytes, bytes]]) -> bool:
    return any(name.lower() == b"cache-control" and b"public" in value for name, value in headers)


def _replay(body: Message, receive: Receive) -> Receive:
    """The buffered body first, then the server's own messages: the app can still
    learn that its client went away (app.py stops waiting for its job then)."""
    pending = [body]

    async def replayed() -> Message:
        if pending:
            return pending.pop()
        return await receive()

    return replayed
