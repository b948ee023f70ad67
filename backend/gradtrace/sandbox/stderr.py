"""A sandboxed process's stderr: one end of a socket pair whose other end this process
reads and copies to its own stderr, never a descriptor of this process's.

A pipe, a tty or a file given as stderr can be opened again, read-only, through
/proc/self/fd/2 (or /dev/stderr): a reopened pipe reads what any other writer wrote to
it, so a worker holding the server's stderr could read, and take from the log, the
server's own lines and the other workers'. A socket cannot be opened through /proc
(ENXIO), and this one carries only what the sandbox itself writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
from collections.abc import Callable

_CHUNK = 1 << 16


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

    def forward() -> bool:
        """One chunk copied; False at the end (or once closed)."""
        if ours.fileno() == -1:
            return False
        try:
            chunk = ours.recv(_CHUNK)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            chunk = b""
        if not chunk:
            close()
            return False
        with contextlib.suppress(OSError):  # a closed stderr loses the text, as before
            view = memoryview(chunk)
            while view:
                view = view[os.write(to_fd, view) :]
        return True

    def close() -> None:
        if ours.fileno() != -1:
            loop.remove_reader(fd)
            ours.close()

    def finish() -> None:
        while forward():
            pass
        close()

    loop.add_reader(fd, forward)
    return finish
