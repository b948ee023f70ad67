"""The seccomp filters' conditions, each loaded into a forked child of this process.

The child loads the filter a worker loads (the allowlist, or the GPU workers' denylist)
and makes raw system calls: what passes a rule is what a hostile program past the
language could do to the zygote or a sibling worker, which share its user and its pid
namespace. Each call below only touches the child itself even where it passes.
"""

from __future__ import annotations

import ctypes
import os
import socket
from collections.abc import Callable

import pytest

from gradtrace.sandbox import seccomp_filter

pytestmark = pytest.mark.skipif(
    not seccomp_filter.available(), reason="no seccomp or no libseccomp bindings here"
)

SYS_FCNTL = 72
SYS_PRCTL = 157
PR_GET_DUMPABLE, PR_SET_DUMPABLE = 3, 4
F_GETFL, F_SETFL, F_SETOWN, F_SETSIG = 3, 4, 8, 10
HIGH_BIT = 1 << 32  # the kernel reads these arguments as 32-bit ints: it drops the bit


def _in_filtered_child(threads: bool) -> dict[str, int]:
    """Each call's return value (-1: refused) in a child that loaded the filter."""
    read_end, write_end = os.pipe()
    ours, servers = socket.socketpair()  # as a worker's socket to the server
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.close(read_end)
            libc = ctypes.CDLL(None, use_errno=True)
            libc.syscall.restype = ctypes.c_long
            libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)  # as confine() leaves a worker
            module = seccomp_filter.bindings()
            seccomp_filter.build(module, threads=threads, pid=os.getpid()).load()
            fd = os.open("/proc/self/statm", os.O_RDONLY)

            def raw(number: int, *args: int) -> int:
                return int(libc.syscall(*(ctypes.c_long(a) for a in (number, *args))))

            def attempt(call: Callable[[], object]) -> int:
                try:
                    call()
                except OSError:
                    return -1
                return 0

            me = os.getpid()
            results = {
                "send": attempt(lambda: ours.send(b"frame")),
                "send a descriptor": attempt(lambda: socket.send_fds(ours, [b"x"], [fd])),
                "F_GETFL": raw(SYS_FCNTL, fd, F_GETFL),
                "F_SETFL O_NONBLOCK": raw(SYS_FCNTL, fd, F_SETFL, os.O_NONBLOCK),
                "F_SETFL O_ASYNC": raw(SYS_FCNTL, fd, F_SETFL, os.O_ASYNC),
                "F_SETOWN": raw(SYS_FCNTL, fd, F_SETOWN, me),
                "F_SETOWN high bit": raw(SYS_FCNTL, fd, HIGH_BIT | F_SETOWN, me),
                "F_SETSIG": raw(SYS_FCNTL, fd, F_SETSIG, 9),
                "PR_SET_DUMPABLE": raw(SYS_PRCTL, PR_SET_DUMPABLE, 1, 0, 0, 0),
                "PR_SET_DUMPABLE high bit": raw(SYS_PRCTL, HIGH_BIT | PR_SET_DUMPABLE, 1, 0, 0, 0),
                "dumpable": int(libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0)),
            }
            os.write(write_end, repr(results).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    ours.close()
    servers.close()
    with os.fdopen(read_end, "rb") as answer:
        text = answer.read().decode()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, text
    import ast

    parsed: dict[str, int] = ast.literal_eval(text)
    return parsed


@pytest.mark.parametrize("threads", [False, True], ids=["cpu allowlist", "gpu denylist"])
def test_a_descriptor_cannot_name_another_process_to_signal(threads: bool) -> None:
    results = _in_filtered_child(threads)
    assert results["F_GETFL"] >= 0 and results["F_SETFL O_NONBLOCK"] == 0  # what workers use
    for call in ("F_SETOWN", "F_SETOWN high bit", "F_SETSIG"):
        assert results[call] == -1, (call, results)
    if not threads:
        assert results["F_SETFL O_ASYNC"] == -1


@pytest.mark.parametrize("threads", [False, True], ids=["cpu allowlist", "gpu denylist"])
def test_a_refused_prctl_option_is_refused_with_high_bits_set(threads: bool) -> None:
    results = _in_filtered_child(threads)
    assert results["PR_SET_DUMPABLE"] == -1
    assert results["PR_SET_DUMPABLE high bit"] == -1
    assert results["dumpable"] == 0


def test_a_cpu_worker_cannot_hand_the_server_a_descriptor() -> None:
    """SCM_RIGHTS rides on sendmsg: a worker writes its answers with send (sendto) only."""
    results = _in_filtered_child(threads=False)
    assert results["send"] == 0
    assert results["send a descriptor"] == -1
