"""A sandboxed process's stderr reaches the server's stderr through a socket (stderr.py)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import tempfile

import pytest

from gradtrace.sandbox.stderr import relay, stderr_pair

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


async def test_what_the_child_writes_to_stderr_reaches_ours(anyio_backend: str) -> None:
    with tempfile.TemporaryFile() as log:
        ours, theirs = stderr_pair()
        with theirs:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-c", WRITER, stdout=subprocess.PIPE, stderr=theirs.fileno()
            )
        relay(ours, log.fileno())
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
