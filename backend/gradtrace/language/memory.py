"""A bound on the memory a program's objects take, read from the process's resident size.

Tensors are counted element by element, but Python containers (a `tolist()` copy, rows
of `zip(*...)`, lists of strings) are bounded only one by one. What they hold in all is
bounded here: the resident size now against the size when the program started, read
from /proc/self/statm (a few microseconds), every so many steps and after each large
container. tracemalloc would be exact but slows every allocation.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
from typing import Any

from gradtrace.language.errors import LimitError

_PAGE = resource.getpagesize()
# Opened once per process, before a sandbox may forbid opening files; kept open. Keyed by
# pid: the file opened as /proc/self/statm stays the opener's, so a forked child (a
# worker forked from the zygote) must open its own.
_statm: dict[int, int] = {}
# glibc keeps freed heap pages resident and hands them out again without the resident
# size growing: a program could fill what earlier work freed unseen. Trimming that heap
# before each run (malloc_trim) made every page the next run touched fault in anew (a
# third of an MLP's recording, measured side by side), so the free heap is read instead
# (mallinfo2, glibc 2.33+, all arenas): what a program takes of it is charged as if the
# resident size had grown. Where mallinfo2 is missing, the free heap is trimmed.
# Looked up at import, before a sandbox forbids loading libraries.


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd",
            "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost",
        )
    ]  # fmt: skip


_libc = ctypes.CDLL(None)
_malloc_trim: Any = getattr(_libc, "malloc_trim", None)
_mallinfo2: Any = getattr(_libc, "mallinfo2", None)
if _mallinfo2 is not None:
    _mallinfo2.restype = _MallInfo2


def _free_heap() -> int:
    """Bytes glibc holds free for reuse (0 where that cannot be read: trimmed instead)."""
    if _mallinfo2 is not None:
        return int(_mallinfo2().fordblks)
    if _malloc_trim is not None:
        _malloc_trim(0)
    return 0


def _resident() -> int:
    """Resident bytes of this process; its peak where /proc cannot be read."""
    pid = os.getpid()
    fd = _statm.get(pid)
    if fd is None:
        for inherited in _statm.values():  # the parent's, after a fork: not ours
            if inherited >= 0:
                with contextlib.suppress(OSError):
                    os.close(inherited)
        _statm.clear()
        try:
            fd = os.open("/proc/self/statm", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            fd = -1
        _statm[pid] = fd
    if fd >= 0:
        try:
            return int(os.pread(fd, 64, 0).split()[1]) * _PAGE
        except (OSError, ValueError, IndexError):
            pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


class MemoryBound:
    """What a program may add to the process's memory: its resident size, plus what it
    took of the heap glibc held free when it started."""

    __slots__ = ("base", "base_free", "limit", "limit_mb")

    def __init__(self, limit_mb: int) -> None:
        self.limit_mb = limit_mb
        self.limit = limit_mb * 1024 * 1024
        self.base_free = _free_heap()
        self.base = _resident()

    def grown(self) -> int:
        """Bytes the process's resident size grew since the bound was made (a few us)."""
        return _resident() - self.base

    def used(self) -> int:
        """Bytes the program added; an allocation from free heap that was not resident
        counts twice, so this errs on the side of the bound."""
        taken_from_free = self.base_free - _free_heap() if self.base_free else 0
        return _resident() - self.base + max(taken_from_free, 0)

    def check(self) -> None:
        # What the program can have taken of the free heap unseen is at most what was free
        # when it started: only when that much more could pass the bound is the free heap
        # read (mallinfo2 walks every free chunk: 0.4 ms a check at 10,000 ops).
        if _resident() - self.base + self.base_free <= self.limit:
            return
        if self.used() > self.limit:
            raise LimitError(
                f"the program's objects took more than {self.limit_mb:,} MB of memory "
                "(memory_mb); keep fewer or smaller lists and tensors alive"
            )


def kept_fds() -> list[int]:
    """The descriptor to keep open when a worker closes the others before its jobs."""
    _resident()
    return [fd for fd in _statm.values() if fd >= 0]
