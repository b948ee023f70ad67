"""A sandboxed process's stderr: one end of a socket pair whose other end this process
reads and copies to its own stderr, never a descriptor of this process's.

A pipe, a tty or a file given as stderr can be opened again, read-only, through
/proc/self/fd/2 (or /dev/stderr): a reopened pipe reads what any other writer wrote to
it, so a worker holding the server's stderr could read, and take from the log, the
server's own lines and the other workers'. A socket cannot be opened through /proc
(ENXIO), and this one carries only what the sandbox itself writes, at a bounded rate.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import Callable

CHUNK_BYTES = 1 << 16  # read at a time
# What a sandbox may write to the server's stderr: a burst (tracebacks, warnings are a few
# KB), then a trickle. Past it the relay stops reading for a while: the sandbox's writes
# fill the socket and block it, and a flood costs the server's loop nothing more.
BURST_BYTES = 256 << 10
BYTES_PER_S = 32 << 10
# What is copied once the sandbox has gone: more than its socket can hold.
_LEFT_CHUNKS = 64


def stderr_pair() -> tuple[socket.socket, socket.socket]:
    """(ours, theirs): `theirs` is the child's stderr; read `ours` for what it writes."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    ours.shutdown(socket.SHUT_WR)  # nothing to read back on the child's stderr
    return ours, theirs


def relay(ours: socket.socket, to_fd: int = 2) -> Callable[[], None]:
    """Copy what arrives on `ours` to `to_fd` (this process's stderr) from the running
    loop, until every holder of the other end has closed it. Returns what ends it sooner
    (once the child has exited): what is already waiting is copied, then `ours` closed."""
    loop = asyncio.get_running_loop()
    ours.setblocking(False)
    fd = ours.fileno()
    allowance = float(BURST_BYTES)
    last = loop.time()
    paused = False

    def forward(limited: bool = True) -> bool:
        """One chunk copied; False at the end (or once closed, or paused)."""
        nonlocal allowance, last, paused
        if ours.fileno() == -1:
            return False
        if limited:
            now = loop.time()
            allowance = min(float(BURST_BYTES), allowance + (now - last) * BYTES_PER_S)
            last = now
            if allowance <= 0:
                loop.remove_reader(fd)
                paused = True
                loop.call_later(-allowance / BYTES_PER_S + 0.05, resume)
                return False
        try:
            chunk = ours.recv(CHUNK_BYTES)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            chunk = b""
        if not chunk:
            close()
            return False
        allowance -= len(chunk)
        with contextlib.suppress(OSError):  # a closed stderr loses the text, as before
            view = memoryview(chunk)
            while view:
                view = view[os.write(to_fd, view) :]
        return True

    def resume() -> None:
        nonlocal paused
        if paused and ours.fileno() != -1:
            paused = False
            loop.add_reader(fd, forward)

    def close() -> None:
        if ours.fileno() != -1:
            if not paused:
                loop.remove_reader(fd)
            ours.close()

    def finish() -> None:
        # The sandbox has exited: what it left in the socket (a buffer's worth) is copied.
        for _ in range(_LEFT_CHUNKS):
            if not forward(limited=False):
                break
        close()

    loop.add_reader(fd, forward)
    return finish
