"""Sandbox processes start and end under uvloop, the server's loop, as another user too
(children.py): uvloop's own subprocesses refuse a user, which broke a server started as
root with a Python nobody can read (Debian's, the python image's)."""

from __future__ import annotations

import os
import signal

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
