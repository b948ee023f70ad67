"""Sandbox processes start and end under uvloop, the server's loop, as another user too
(children.py): uvloop's own subprocesses refuse a user, which broke a server started as
root with a Python nobody can read (Debian's, the python image's)."""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest
import uvloop

from gradtrace.sandbox.bwrap import NOBODY, SandboxCommand
from gradtrace.sandbox.children import start_child


def _run(argv: list[str], **user: object) -> tuple[str, int]:
    """What `argv` writes to fd 3 (its stdout is /dev/null), and its exit code."""
    read, write = os.pipe()

    async def main() -> tuple[str, int]:
        child = await start_child(
            [a.replace("FD", str(write)) for a in argv],
            pass_fds=[write],
            stderr=2,
            env={"PATH": "/usr/bin:/bin"},
            **user,  # type: ignore[arg-type]
        )
        os.close(write)
        code = await child.wait()
        assert child.returncode == code
        return os.read(read, 4096).decode(), code

    try:
        return uvloop.run(main())
    finally:
        os.close(read)


def test_a_child_runs_and_its_exit_code_is_awaited_under_uvloop() -> None:
    out, code = _run(["/bin/bash", "-c", "echo hello >&FD; exit 7"])
    assert (out, code) == ("hello\n", 7)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can start a process as nobody")
def test_a_server_run_as_root_starts_its_sandbox_as_nobody_under_uvloop() -> None:
    # What the launchers pass for a sandbox that bwrap.run_as puts under nobody.
    as_nobody = SandboxCommand([], {}, user=NOBODY).popen_kwargs()
    del as_nobody["env"]
    out, code = _run(["/bin/bash", "-c", "id -u >&FD; id -g >&FD; id -G >&FD"], **as_nobody)
    assert code == 0
    # No group of root's kept: only nobody's own.
    assert out.split() == [str(NOBODY)] * 3


def test_a_killed_child_is_reaped_with_its_signal() -> None:
    async def main() -> int:
        child = await start_child(
            ["/bin/sleep", "60"], pass_fds=[], stderr=2, env={"PATH": "/usr/bin:/bin"}
        )
        child.kill()
        code = await child.wait()
        child.kill()  # once it has gone: nothing, and no other process is signalled
        return code

    assert uvloop.run(main()) == -signal.SIGKILL


# A child that lets its own child trace it, then exits: until that tracer (which never
# waits for it) has gone, the child is a zombie its parent cannot reap, and its pidfd is
# readable all along. Writes the attach's result to fd FD.
_TRACED = """
import ctypes, os, time
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl(0x59616D61, ctypes.c_ulong(-1), 0, 0, 0)  # PR_SET_PTRACER, any
parent = os.getpid()
if os.fork() == 0:
    attached = libc.ptrace(16, parent, None, None) == 0  # PTRACE_ATTACH
    os.write(FD, b"attached" if attached else b"refused")
    time.sleep(0.3)
    libc.ptrace(7, parent, None, None)  # PTRACE_CONT
    time.sleep(2)
    os._exit(0)
time.sleep(0.2)
os._exit(3)
"""


def test_a_child_that_cannot_be_reaped_yet_does_not_spin_the_loop() -> None:
    read, write = os.pipe()

    async def main() -> tuple[int, float]:
        child = await start_child(
            [sys.executable, "-c", _TRACED.replace("FD", str(write))],
            pass_fds=[write],
            stderr=2,
            env={},
        )
        os.close(write)
        cpu = time.process_time()
        code = await child.wait()
        return code, time.process_time() - cpu

    try:
        code, cpu_s = uvloop.run(main())
        attached = os.read(read, 64)
    finally:
        os.close(read)
    if attached != b"attached":
        pytest.skip("this host does not let a process trace its parent")
    assert code == 3
    # Spinning on the readable pidfd took the whole 2 s of CPU; waiting takes next to none.
    assert cpu_s < 0.5
