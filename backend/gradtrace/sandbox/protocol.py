"""Framing of the messages between the server and its workers.

A frame is a 4-byte big-endian length, a JSON header of that length, then the blobs
the header's `sizes` announces. Only JSON and raw bytes cross the boundary: user text
is never pickled.
"""

from __future__ import annotations

import asyncio
import socket
import struct
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict

_LENGTH = struct.Struct(">I")
Header = dict[str, Any]


class Job(BaseModel):
    """What a worker is asked: trace a program (optionally one iteration), or check its
    gradients. The one shape of a request from the server's endpoint to the engine, and,
    frozen, the key of its answer in the caches."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["trace", "gradcheck"] = "trace"
    source: str
    device: str = "cpu"
    seed: int = 0
    iteration: int | None = None
    # A trace in the binary form (trace/binary.py) rather than JSON: a different answer,
    # so a different key.
    binary: bool = False


def job_frame(job: Job, job_id: int, *, gzip: bool) -> bytes:
    """The frame asking a worker for `job`; `gzip`: the asker takes gzip, so compress it."""
    return encode_frame({"job": job.model_dump(), "id": job_id, "gzip": gzip})


class Answer(BaseModel):
    """A worker's answer to a job, as the server reads it (anything else is a bug)."""

    model_config = ConfigDict(extra="ignore")

    id: int | None = None
    skipped: bool = False
    retire: bool = False
    internal_error: str | None = None
    etag: str = ""
    cacheable: bool = False
    run_ms: float = 0.0
    sizes: list[int] = []

    def complete(self, blobs: list[bytes]) -> bool:
        """A trace answer carries its body and gzip (empty when small)."""
        return bool(self.etag) and len(blobs) == 2 and bool(blobs[0])


def encode_frame(header: Header, blobs: tuple[bytes, ...] = ()) -> bytes:
    head = orjson.dumps({**header, "sizes": [len(blob) for blob in blobs]})
    return b"".join((_LENGTH.pack(len(head)), head, *blobs))


def _recv_exactly(sock: socket.socket, size: int) -> bytes | None:
    """Blocking read of exactly `size` bytes; None at a clean end of stream."""
    chunks: list[bytes] = []
    left = size
    while left:
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def recv_frame(sock: socket.socket) -> tuple[Header, list[bytes]] | None:
    """Read one frame from a blocking socket (the worker side); None when the peer left."""
    prefix = _recv_exactly(sock, _LENGTH.size)
    if prefix is None:
        return None
    head = _recv_exactly(sock, _LENGTH.unpack(prefix)[0])
    if head is None:
        return None
    header: Header = orjson.loads(head)
    blobs: list[bytes] = []
    for size in header.get("sizes", []):
        blob = _recv_exactly(sock, size) if size else b""
        if blob is None:
            return None
        blobs.append(blob)
    return header, blobs


async def read_frame(reader: asyncio.StreamReader) -> tuple[Header, list[bytes]]:
    """Read one frame (the server side); raises IncompleteReadError when the worker died."""
    (length,) = _LENGTH.unpack(await reader.readexactly(_LENGTH.size))
    header: Header = orjson.loads(await reader.readexactly(length))
    blobs = [await reader.readexactly(size) if size else b"" for size in header.get("sizes", [])]
    return header, blobs
