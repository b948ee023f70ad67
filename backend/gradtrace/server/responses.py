"""Ready-made JSON answers: bytes, their gzip and ETag computed once, served with 304s."""

from __future__ import annotations

import gzip
import hashlib
from dataclasses import dataclass

import orjson
from starlette.requests import Request
from starlette.responses import Response

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


def json_bytes_response(
    request: Request,
    body: bytes,
    packed: bytes | None,
    etag: str,
    cache_control: str,
    extra: dict[str, str] | None = None,
) -> Response:
    """The bytes as they are (no re-encoding), gzipped if the client takes it, or a 304."""
    headers = {"ETag": f'"{etag}"', "Cache-Control": cache_control, "Vary": "Accept-Encoding"}
    if extra:
        headers.update(extra)
    if _matches(request, etag):
        return Response(status_code=304, headers=headers)
    if packed is not None and accepts_gzip(request):
        headers["Content-Encoding"] = "gzip"
        return Response(packed, media_type=JSON, headers=headers)
    return Response(body, media_type=JSON, headers=headers)


def prepared_response(request: Request, prepared: Prepared, cache_control: str) -> Response:
    return json_bytes_response(request, prepared.body, prepared.gzip, prepared.etag, cache_control)


def error_response(status: int, detail: str, headers: dict[str, str] | None = None) -> Response:
    return Response(
        orjson.dumps({"detail": detail}), status_code=status, media_type=JSON, headers=headers
    )
