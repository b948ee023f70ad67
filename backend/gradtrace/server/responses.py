"""Ready-made JSON answers: bytes, their gzip and ETag computed once, served with 304s."""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass

import orjson
from starlette.requests import Request
from starlette.responses import Response

from gradtrace.trace.binary import MEDIA_TYPE as BINARY_TRACE

JSON = "application/json"


@dataclass(frozen=True)
class Prepared:
    body: bytes
    gzip: bytes | None
    etag: str  # without quotes

    @classmethod
    def of(cls, value: object, gzip_min_bytes: int = 1024) -> Prepared:
        body = orjson.dumps(value)
        packed = gzip.compress(body, mtime=0) if len(body) >= gzip_min_bytes else None
        return cls(body, packed, hashlib.blake2b(body, digest_size=12).hexdigest())


def _matches(request: Request, etag: str) -> bool:
    wanted = request.headers.get("if-none-match")
    if not wanted:
        return False
    return wanted.strip() == "*" or f'"{etag}"' in (tag.strip() for tag in wanted.split(","))


def accepts_gzip(request: Request) -> bool:
    return "gzip" in request.headers.get("accept-encoding", "")


def _quality(params: list[str]) -> float | None:
    """An Accept entry's q (1 when absent); None when it is not a number from 0 to 1."""
    for param in params:
        name, _, value = param.partition("=")
        if name.strip().lower() == "q":
            try:
                q = float(value.strip())
            except ValueError:
                return None
            return q if 0.0 <= q <= 1.0 else None
    return 1.0


def accepts_binary_trace(request: Request) -> bool:
    """Whether the client asks for the binary trace (trace/binary.py): it names its media
    type, at least as much wanted as JSON. Anything else, or an Accept header this cannot
    read, gets JSON."""
    wanted: dict[str, float] = {}
    for entry in request.headers.get("accept", "").split(","):
        media, *params = entry.split(";")
        q = _quality(params)
        if q is not None:
            wanted[media.strip().lower()] = q
    binary = wanted.get(BINARY_TRACE, 0.0)
    return binary > 0.0 and binary >= wanted.get(JSON, 0.0)


def json_bytes_response(
    request: Request,
    body: bytes,
    packed: bytes | None,
    etag: str,
    cache_control: str,
    extra: dict[str, str] | None = None,
    media_type: str = JSON,
) -> Response:
    """The bytes as they are (no re-encoding), gzipped if the client takes it, or a 304."""
    headers = {"ETag": f'"{etag}"', "Cache-Control": cache_control, "Vary": "Accept-Encoding"}
    if extra:
        headers.update(extra)
    if _matches(request, etag):
        return Response(status_code=304, headers=headers)
    if packed is not None and accepts_gzip(request):
        headers["Content-Encoding"] = "gzip"
        return Response(packed, media_type=media_type, headers=headers)
    return Response(body, media_type=media_type, headers=headers)


def prepared_response(request: Request, prepared: Prepared, cache_control: str) -> Response:
    return json_bytes_response(request, prepared.body, prepared.gzip, prepared.etag, cache_control)


def error_response(status: int, detail: str, headers: dict[str, str] | None = None) -> Response:
    return Response(
        orjson.dumps({"detail": detail}), status_code=status, media_type=JSON, headers=headers
    )
