"""The binary form of a trace (API.md, "Binary traces"): a JSON head plus raw numbers.

    bytes 0-3    b"GTRB"
    bytes 4-7    the format's version, uint32 little-endian
    bytes 8-11   the head's length in bytes (a multiple of 8), uint32 little-endian
    bytes 12-15  the buffer section's length in bytes, uint32 little-endian
    the head     the Trace JSON, padded with spaces; each TensorData's `values` array of
                 floats is a BufferRef {offset, length, dtype} into the buffer section
    the buffers  little-endian float32/float64 arrays, each starting at a multiple of 8

Writing one is a copy of each array (numpy's buffers joined once), and a browser reads
each as a Float32Array view over the answer without parsing a number.
"""

from __future__ import annotations

import struct
import sys
from typing import Any

import numpy as np

MEDIA_TYPE = "application/vnd.gradtrace.trace+binary"
MAGIC = b"GTRB"
VERSION = 1
ALIGN = 8
_HEADER = struct.Struct("<4sIII")
_PADDING = bytes(ALIGN)

# numpy dtypes kept as they are; other floats (float16) travel as float32.
_FLOAT32 = np.dtype(np.float32)
_FLOAT64 = np.dtype(np.float64)
# numpy's native order is torch's: little-endian on every machine torch supports but s390x.
_NATIVE = sys.byteorder == "little"


class Buffers:
    """The buffer section as it is written: arrays, each 8-aligned, joined at the end."""

    def __init__(self) -> None:
        self.parts: list[Any] = []
        self.size = 0

    def add(self, values: np.ndarray[Any, Any]) -> dict[str, Any]:
        """Place a float array; the BufferRef that points to it. Runs once per tensor
        written, so the common case (a float32 array in row-major order) goes straight."""
        dtype = values.dtype
        if dtype == _FLOAT32:
            name = "float32"
        elif dtype == _FLOAT64:
            name = "float64"
        else:
            values, name = values.astype(_FLOAT32), "float32"
        if not (_NATIVE and values.flags.c_contiguous):
            values = np.ascontiguousarray(values, dtype=values.dtype.newbyteorder("<"))
        offset = self.size
        self.parts.append(values)  # bytes.join reads the array's own buffer: one copy
        end = offset + values.nbytes
        pad = -end % ALIGN
        if pad:
            self.parts.append(_PADDING[:pad])
        self.size = end + pad
        return {"offset": offset, "length": values.size, "dtype": name}


def pack(head: bytes, buffers: Buffers | memoryview | None = None) -> bytes:
    """The binary trace of `head` (JSON bytes) and its buffers (or a buffer section
    already written, as `split` gives it)."""
    pad = -len(head) % ALIGN
    if isinstance(buffers, Buffers):
        parts, size = buffers.parts, buffers.size
    else:
        parts = [buffers] if buffers is not None else []
        size = len(buffers) if buffers is not None else 0
    header = _HEADER.pack(MAGIC, VERSION, len(head) + pad, size)
    return b"".join((header, head, b" " * pad, *parts))


def split(body: bytes) -> tuple[bytes, memoryview]:
    """The head's JSON bytes and the buffer section of a binary trace."""
    if len(body) < _HEADER.size:
        raise ValueError("not a binary trace: too short")
    magic, version, head_length, size = _HEADER.unpack_from(body)
    if magic != MAGIC or version != VERSION:
        raise ValueError("not a binary trace of this version")
    start = _HEADER.size + head_length
    if start + size != len(body):
        raise ValueError("a binary trace's lengths do not add up")
    return body[_HEADER.size : start], memoryview(body)[start:]


def is_binary(body: bytes) -> bool:
    return body[:4] == MAGIC
