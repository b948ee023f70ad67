"""A sandbox's process (the zygote, a spawned worker), started and awaited from the loop.

asyncio's subprocesses cannot serve under uvloop, which the server runs on: its
`subprocess_exec` refuses `user`, `group` and `extra_groups`, and a server started as root
starts its sandboxes as nobody (bwrap.run_as) wherever nobody can read what they bind, as
with a system Python (Debian's, the python image's). So the process is started by
`subprocess.Popen`, which changes user and groups in C between fork and exec, and its
exit is read from a pidfd on the running loop: no child watcher, no thread waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
from collections.abc import Sequence
from typing import Protocol

from gradtrace.sandbox.layers import pidfds_work

_NOT_YET_REAPABLE_S = 0.1


class ChildProcess(Protocol):
    """What the launchers use of a process: asyncio's Process has it too."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    async def wait(self) -> int: ...

    def kill(self) -> None: ...


class Child:
    """A Popen'd process whose exit resolves a future of the running loop."""

    def __init__(self, popen: subprocess.Popen[bytes], pidfd: int) -> None:
        self._popen = popen
        self._pidfd = pidfd
        self._loop = asyncio.get_running_loop()
        self._exited: asyncio.Future[int] = self._loop.create_future()
        self._loop.add_reader(pidfd, self._reap)

    @property
    def pid(self) -> int:
        return self._popen.pid

    @property
    def returncode(self) -> int | None:
        return self._popen.returncode

    def _reap(self) -> None:
        # Readable once the process has exited; reaped here and nowhere else, so its pid
        # is not reused while kill() may still signal it.
        code = self._popen.poll()
        if code is None:
            # Exited but not ours to reap yet (another process traces it and reaps it
            # first): look again shortly, rather than spin the loop on a readable pidfd.
            self._loop.remove_reader(self._pidfd)
            self._loop.call_later(
                _NOT_YET_REAPABLE_S, self._loop.add_reader, self._pidfd, self._reap
            )
            return
        self._loop.remove_reader(self._pidfd)
        os.close(self._pidfd)
        if not self._exited.done():
            self._exited.set_result(code)

    async def wait(self) -> int:
        return await asyncio.shield(self._exited)

    def kill(self) -> None:
        if self._popen.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self._popen.kill()


async def start_child(
    argv: Sequence[str],
    *,
    pass_fds: Sequence[int],
    stderr: int,
    env: dict[str, str],
    user: int | None = None,
    group: int | None = None,
    extra_groups: list[int] | None = None,
) -> ChildProcess:
    """`argv` with stdin and stdout on /dev/null, as `user` if given (with no other
    groups). Where this kernel has no pidfds (before Linux 5.3, where the sandbox is off
    and no user is given) asyncio's own subprocess serves."""
    if user is None and not pidfds_work():
        return await asyncio.create_subprocess_exec(
            *argv,
            pass_fds=pass_fds,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env=env,
        )
    popen = subprocess.Popen(
        list(argv),
        pass_fds=pass_fds,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        env=env,
        user=user,
        group=group,
        extra_groups=extra_groups,
    )
    try:
        pidfd = os.pidfd_open(popen.pid)
    except BaseException:
        popen.kill()
        popen.wait()
        raise
    return Child(popen, pidfd)
