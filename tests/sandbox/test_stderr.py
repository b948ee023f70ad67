"""A sandboxed process's stderr reaches the server's stderr through a socket (stderr.py)."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import IO

import pytest

from gradtrace.sandbox.stderr import BURST_BYTES, BYTES_PER_S, CHUNK_BYTES, relay, stderr_pair

pytestmark = pytest.mark.anyio

WRITER = """
import os, sys
sys.stderr.write("a traceback of ours\\n")
sys.stderr.flush()
os.write(2, b"x" * 300000)  # more than a socket buffer holds: the relay keeps reading
print(os.readlink("/proc/self/fd/2"))
"""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def _relayed_child(
    source: str, log: IO[bytes]
) -> tuple[asyncio.subprocess.Process, socket.socket, Callable[[], None]]:
    """A Python child running `source` whose stderr is relayed to `log`: the process,
    our end of its stderr, and what ends the relay."""
    ours, theirs = stderr_pair()
    with theirs:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", source, stdout=subprocess.PIPE, stderr=theirs.fileno()
        )
    return process, ours, relay(ours, log.fileno())


async def test_what_the_child_writes_to_stderr_reaches_ours(anyio_backend: str) -> None:
    with tempfile.TemporaryFile() as log:
        process, ours, _ = await _relayed_child(WRITER, log)
        stdout, _ = await process.communicate()
        # Closed by the relay at the end of the child's stderr (within 30 s, or it failed).
        for _ in range(3000):
            if ours.fileno() == -1:
                break
            await asyncio.sleep(0.01)
        assert ours.fileno() == -1, "the relay never saw the end of the child's stderr"
        log.seek(0)
        assert log.read() == b"a traceback of ours\n" + b"x" * 300000
    assert stdout.decode().startswith("socket:")


FLOOD = """
import os
os.write(2, b"y" * (4 << 20))
print("all written")
"""


async def test_a_flood_of_stderr_is_held_back_not_copied_at_full_speed(anyio_backend: str) -> None:
    loop = asyncio.get_running_loop()
    with tempfile.TemporaryFile() as log:
        started = loop.time()
        process, ours, finish = await _relayed_child(FLOOD, log)
        await asyncio.sleep(1.5)
        # Past its burst the relay reads at BYTES_PER_S (and one chunk past it, read
        # before the allowance is checked again): the writer is blocked on a full socket,
        # not done, and far less than its 4 MiB has been copied.
        assert process.returncode is None
        copied = os.fstat(log.fileno()).st_size
        allowed = BURST_BYTES + (loop.time() - started) * BYTES_PER_S + CHUNK_BYTES
        assert BURST_BYTES <= copied <= allowed
        process.kill()
        await process.wait()
        finish()
        assert ours.fileno() == -1
        log.seek(0)
        text = log.read()
    assert text == b"y" * len(text)  # what was copied arrived whole, in order
