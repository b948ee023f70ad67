"""What one client can hold of the HTTP server: connections, time, and head bytes.

uvicorn's httptools protocol has none of these for a request's head: a connection that
never completes a request is kept forever (no header timeout; its keep-alive timer only
starts after a response), every connection is accepted (`limit_concurrency` answers 503
to the requests of accepted connections, so idle ones still take descriptors), and the
request line is collected with `url += piece`, so an unterminated 300 MB line stalls the
event loop for seconds. This subclass adds, for each connection:

- a cap on open connections, in all and per address: one over it is closed at once;
- a request timeout: a request's head and body must arrive within it from its first
  byte (from the connection's start for the first request), else 408 (slowloris);
- a cap on the request line and headers together: 414 or 431 as soon as it is passed,
  so a line never grows past it.

The body's size is limited by server/middleware.py. Normal requests pay one timer per
request (as uvicorn's keep-alive does) and a length sum per read.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: The scope key of a future that is done when the request's client has gone: the app
#: stops waiting for its job with a callback on it, which costs less than a task per
#: request reading `http.disconnect`.
GONE = "gradtrace.gone"


@dataclass(frozen=True)
class ConnectionLimits:
    max_connections: int
    per_address: int
    request_timeout_s: float
    max_head_bytes: int


def _refusal(status: bytes, text: bytes) -> bytes:
    return (
        b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"content-length: %d\r\nconnection: close\r\n\r\n" % len(text) + text
    )


# After a refusal the connection is half-closed, and what still arrives is thrown away
# until the client closes, for at most this long and this much: closing at once, with
# unread data, would reset it before the client has read the answer.
_LINGER_S = 1.0
_LINGER_BYTES = 256 * 1024
_TIMEOUT = _refusal(b"408 Request Timeout", b"the request took too long to arrive")
_LINE_TOO_LONG = _refusal(b"414 URI Too Long", b"the request line is too long")
_HEAD_TOO_LARGE = _refusal(
    b"431 Request Header Fields Too Large", b"the request's headers are too large"
)


class _HeadTooLarge(Exception):
    pass


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the limits above (see `guarded_protocol`)."""

    limits: ClassVar[ConnectionLimits]
    open_per_address: ClassVar[Counter[str]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._address: str | None = None  # counted in open_per_address while open
        self._deadline: asyncio.TimerHandle | None = None
        self._in_head = True
        self._head_bytes = 0  # received while in a head (a bound for unterminated ones)
        self._parsed_bytes = 0  # of this request's line and headers
        self._refused = False
        self._too_large: bytes | None = None  # the refusal, when a callback found it so
        self._gone: asyncio.Future[None] | None = None  # of the current request

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else ""
        count = self.open_per_address
        if len(self.connections) > self.limits.max_connections or (
            count[address] >= self.limits.per_address
        ):
            transport.abort()  # no answer: it has not asked anything, and this is cheapest
            return
        count[address] += 1
        self._address = address
        self._arm()  # until the first request is in (later, keep-alive closes idle ones)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._gone is not None and not self._gone.done():
            self._gone.set_result(None)
        if self._address is not None:
            count = self.open_per_address
            count[self._address] -= 1
            if count[self._address] <= 0:
                del count[self._address]
            self._address = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            self._head_bytes += len(data)
            if self._head_bytes > _LINGER_BYTES:
                self.transport.abort()  # it does not stop: it loses the answer
            return
        if self._in_head:
            self._head_bytes += len(data)
            if self._deadline is None:  # a request's first bytes: its time starts
                self._arm()
        super().data_received(data)
        # Checked after parsing: a read may end the head and start the body, and each
        # read is bounded by the transport, so a line grows by at most one read past this.
        too_large = self._in_head and self._head_bytes > self.limits.max_head_bytes
        if too_large and not self.transport.is_closing() and not self._refused:
            self._refuse(_HEAD_TOO_LARGE if self.headers else _LINE_TOO_LONG)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._parsed_bytes = 0

    def _count(self, size: int, refusal: bytes) -> None:
        self._parsed_bytes += size
        if self._parsed_bytes > self.limits.max_head_bytes:
            self._too_large = refusal
            raise _HeadTooLarge  # httptools stops and raises HttpParserCallbackError

    def send_400_response(self, msg: str) -> None:
        if self._too_large is not None:  # the parser stopped because we said so
            self._refuse(self._too_large)
        else:
            super().send_400_response(msg)

    def on_headers_complete(self) -> None:
        # A head that arrived whole in one read was parsed in one go, before the check
        # in data_received: measured here, once, before the app sees it (a read is
        # bounded by the transport, so what uvicorn stored meanwhile is too).
        self._count(len(self.url), _LINE_TOO_LONG)
        self._count(
            sum(len(name) + len(value) + 4 for name, value in self.headers), _HEAD_TOO_LARGE
        )
        self._in_head = False
        self._head_bytes = 0
        self._gone = self.loop.create_future()
        self.scope[GONE] = self._gone  # type: ignore[literal-required]
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm()  # the request is in: the app's time is not the client's
        super().on_message_complete()
        self._in_head = True

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.limits.request_timeout_s, self._timed_out)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _timed_out(self) -> None:
        self._deadline = None
        if not self.transport.is_closing() and not self._refused:
            self._refuse(_TIMEOUT)

    def _refuse(self, response: bytes) -> None:
        # The request never reached the app, unless its body was slow: then the app sees
        # the client leave (connection_lost) and stops waiting.
        self._refused = True
        self._head_bytes = 0  # now what arrives after the refusal
        self.transport.write(response)
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.transport.resume_reading()  # uvicorn may have paused it (a body being read)
        self._disarm()
        self._deadline = self.loop.call_later(_LINGER_S, self.transport.close)


def guarded_protocol(limits: ConnectionLimits) -> type[GuardedHttpToolsProtocol]:
    """A protocol class for uvicorn's `http=`, with its own limits and counts."""
    return type(
        "GuardedHttpToolsProtocol",
        (GuardedHttpToolsProtocol,),
        {"limits": limits, "open_per_address": Counter()},
    )
