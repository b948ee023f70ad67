"""How the server gets a new worker: forked by a zygote (CPU) or spawned (GPUs).

Both start their process inside bubblewrap (bwrap.py) where this host allows it; the
zygote's workers are in its pid namespace, so the zygote sends each one's pidfd along
with its socket and the server signals the worker through it (a pid from another
namespace would name another process here)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import signal
import socket
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from gradtrace.sandbox import layers
from gradtrace.sandbox.children import ChildProcess, start_child
from gradtrace.sandbox.config import WorkerConfig
from gradtrace.sandbox.protocol import read_frame
from gradtrace.sandbox.stderr import relay, stderr_pair

log = logging.getLogger("gradtrace.sandbox")

#: A worker spawned from scratch imports torch and warms up: give it time.
START_TIMEOUT_S = 120.0
#: A worker forked from a warm zygote is ready in milliseconds.
FORK_TIMEOUT_S = 30.0


class LaunchError(RuntimeError):
    """A worker (or the zygote) could not be started."""


@dataclass(eq=False)
class WorkerHandle:
    """The server's side of one worker process."""

    pid: int
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    exited: asyncio.Future[int] = field(repr=False)
    jobs: int = 0
    pidfd: int | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.pidfd is not None:
            self.exited.add_done_callback(lambda _: self._close_pidfd())

    def _close_pidfd(self) -> None:
        pidfd, self.pidfd = self.pidfd, None
        if pidfd is not None:
            os.close(pidfd)

    def kill(self) -> None:
        if not self.exited.done():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                if self.pidfd is not None:
                    signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
                else:
                    os.kill(self.pid, signal.SIGKILL)

    def close(self) -> None:
        """Close our end: an idle worker reads EOF and exits by itself."""
        self.writer.close()


async def _connect(
    sock: socket.socket, pid: int, exited: asyncio.Future[int], pidfd: int | None = None
) -> WorkerHandle:
    reader, writer = await asyncio.open_connection(sock=sock, limit=1 << 20)
    handle = WorkerHandle(pid=pid, reader=reader, writer=writer, exited=exited, pidfd=pidfd)
    try:
        header, _ = await asyncio.wait_for(read_frame(reader), START_TIMEOUT_S)
    except (asyncio.IncompleteReadError, ConnectionError, TimeoutError) as error:
        handle.kill()
        writer.close()
        raise LaunchError(f"worker {pid} did not start") from error
    except asyncio.CancelledError:  # the pool stopped while this worker was starting
        handle.kill()
        writer.close()
        raise
    if not header.get("ready"):
        handle.kill()
        writer.close()
        raise LaunchError(f"worker {pid} sent {header!r} instead of ready")
    return handle


async def _start_process(
    module: str, config: WorkerConfig, fd: int
) -> tuple[ChildProcess, bool, Callable[[], None]]:
    """`python -m module CONFIG FD` in the sandbox (or, where the host has no bwrap, as a
    plain child with the same environment); whether it is sandboxed; and what to call
    once it has exited (the end of its stderr's relay)."""
    command = layers.process_command(
        module, config.model_dump_json(), str(fd), device=config.device
    )
    # Its stderr is a socket of its own that we copy to ours (stderr.py), not our stderr.
    ours, theirs = stderr_pair()
    with theirs:
        try:
            process = await start_child(
                command.argv, pass_fds=[fd], stderr=theirs.fileno(), **command.popen_kwargs()
            )
        except BaseException:
            ours.close()
            raise
    return process, command.sandboxed, relay(ours)


def _exit_code(code: int, sandboxed: bool) -> int:
    """bwrap exits 128 + n when its command was killed by signal n: say it as Popen does."""
    return -(code - 128) if sandboxed and 128 < code < 128 + 65 else code


def host_pid(pidfd: int) -> int | None:
    """The pid, in our namespace, of the process a pidfd names (None once it has gone)."""
    try:
        with open(f"/proc/self/fdinfo/{pidfd}") as info:
            for line in info:
                if line.startswith("Pid:"):
                    pid = int(line.split()[1])
                    return pid if pid > 0 else None
    except OSError:
        return None
    return None


class Launcher(ABC):
    def __init__(self, config: WorkerConfig) -> None:
        self.config = config

    async def start(self) -> None:
        """Get ready to launch workers (start the zygote). Warns, loudly, of every layer
        of the sandbox this host cannot give the workers."""
        await asyncio.get_running_loop().run_in_executor(None, layers.warn_if_missing)

    @abstractmethod
    async def launch(self) -> WorkerHandle:
        """A new worker, confined, warm and ready for its first job."""

    async def stop(self) -> None:  # noqa: B027 (optional hook)
        """Release what start() acquired."""


class SpawnLauncher(Launcher):
    """Each worker is a fresh interpreter: slow to start, but the only way for CUDA
    (a forked child of a process that touched CUDA cannot use it)."""

    def __init__(self, config: WorkerConfig) -> None:
        super().__init__(config)
        # The workers not yet exited, with what ends their stderr's relay.
        self._running: dict[ChildProcess, Callable[[], None]] = {}

    async def launch(self) -> WorkerHandle:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        with theirs:
            process, sandboxed, stderr_done = await _start_process(
                "gradtrace.sandbox.worker", self.config, theirs.fileno()
            )
        self._running[process] = stderr_done

        async def exit_code() -> int:
            code = await process.wait()
            self._running.pop(process, None)
            stderr_done()
            return _exit_code(code, sandboxed)

        # The pid is bwrap's: killing it kills the sandbox (--die-with-parent). It is
        # signalled through a pidfd, opened before the loop can reap it: the handle learns
        # of the exit a few turns after the reap, when the pid may already be another's.
        pidfd = os.pidfd_open(process.pid) if layers.pidfds_work() else None
        return await _connect(ours, process.pid, asyncio.ensure_future(exit_code()), pidfd)

    async def stop(self) -> None:
        """Once the pool has closed their sockets the workers exit by themselves: each is
        waited for (as the zygote is), killed if it has not gone within 5 s."""
        running, self._running = self._running, {}
        if running:
            _, late = await asyncio.wait(
                [asyncio.ensure_future(p.wait()) for p in running], timeout=5.0
            )
            for process in running:
                process.kill()
            for task in late:
                await task
        for stderr_done in running.values():
            stderr_done()


_Forked = tuple[int, socket.socket, "asyncio.Future[int]", int | None]


class ZygoteLauncher(Launcher):
    """Workers forked from one warm zygote process; the zygote is restarted if it dies."""

    def __init__(self, config: WorkerConfig) -> None:
        super().__init__(config)
        self._control: socket.socket | None = None
        self._process: ChildProcess | None = None
        self._stderr_done: Callable[[], None] | None = None
        self._ready: asyncio.Future[None] | None = None
        self._forks: dict[int, asyncio.Future[_Forked]] = {}
        self._exits: dict[int, asyncio.Future[int]] = {}
        self._ids = itertools.count()
        self._lock = asyncio.Lock()

    @property
    def zygote_pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    async def start(self) -> None:
        await super().start()
        async with self._lock:
            if self._control is None:
                await self._start_zygote()

    async def _start_zygote(self) -> None:
        loop = asyncio.get_running_loop()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with theirs:
            self._process, _, self._stderr_done = await _start_process(
                "gradtrace.sandbox.zygote", self.config, theirs.fileno()
            )
        ours.setblocking(False)
        self._control = ours
        self._ready = loop.create_future()
        loop.add_reader(ours.fileno(), self._on_control)
        try:
            await asyncio.wait_for(asyncio.shield(self._ready), START_TIMEOUT_S)
        except BaseException:
            await self._stop_zygote()
            raise

    def _on_control(self) -> None:
        control = self._control
        if control is None:
            return
        while True:
            try:
                packet, fds, _, _ = socket.recv_fds(control, 4096, 4)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                packet, fds = b"", []
            if not packet:
                self._zygote_gone()
                return
            self._handle(orjson.loads(packet), fds)

    def _handle(self, message: dict[str, Any], fds: list[int]) -> None:
        op = message.get("op")
        if op == "ready" and self._ready is not None and not self._ready.done():
            self._ready.set_result(None)
        elif op == "forked":
            sock = socket.socket(fileno=fds[0])
            pidfd = fds[1] if len(fds) > 1 else None
            waiter = self._forks.pop(int(message["id"]), None)
            if waiter is None or waiter.done():
                sock.close()  # nobody waits any more; closing it ends the worker
                if pidfd is not None:
                    os.close(pidfd)
            else:
                pid = int(message["pid"])  # in the zygote's pid namespace
                # Made now, before an exit message for this pid can arrive.
                waiter.set_result((pid, sock, self._exit_future(pid), pidfd))
        elif op == "exit":
            exited = self._exit_future(int(message["pid"]))
            if not exited.done():
                exited.set_result(int(message["code"]))
        else:
            for fd in fds:
                os.close(fd)

    def _exit_future(self, pid: int) -> asyncio.Future[int]:
        future = self._exits.get(pid)
        if future is None:
            future = self._exits[pid] = asyncio.get_running_loop().create_future()
            # Dropped once resolved and seen, so the table does not grow forever.
            future.add_done_callback(lambda _: self._exits.pop(pid, None))
        return future

    def _zygote_gone(self) -> None:
        log.warning("the zygote (pid %s) is gone; it will be restarted", self.zygote_pid)
        if self._control is not None:
            asyncio.get_running_loop().remove_reader(self._control.fileno())
            self._control.close()
            self._control = None
        error = LaunchError("the zygote stopped")
        for waiter in self._forks.values():
            if not waiter.done():
                waiter.set_exception(error)
        self._forks.clear()
        if self._ready is not None and not self._ready.done():
            self._ready.set_exception(error)
        self._workers_gone()

    def _workers_gone(self) -> None:
        # Its workers die with it (PR_SET_PDEATHSIG): no exit codes will come for them.
        # Resolving their ends also closes their pidfds (WorkerHandle).
        for exited in list(self._exits.values()):
            if not exited.done():
                exited.set_result(-signal.SIGKILL)

    async def launch(self) -> WorkerHandle:
        async with self._lock:
            if self._control is None:
                await self._stop_zygote()
                await self._start_zygote()
            control = self._control
            assert control is not None
            request_id = next(self._ids)
            waiter: asyncio.Future[_Forked]
            waiter = asyncio.get_running_loop().create_future()
            self._forks[request_id] = waiter
            control.send(orjson.dumps({"op": "fork", "id": request_id}))
        try:
            pid, sock, exited, pidfd = await asyncio.wait_for(waiter, FORK_TIMEOUT_S)
        finally:
            self._forks.pop(request_id, None)
        # The server's logs, stats and tests name the worker by its pid here.
        ours = host_pid(pidfd) if pidfd is not None else None
        return await _connect(sock, ours or pid, exited, pidfd)

    async def _stop_zygote(self) -> None:
        if self._control is not None:
            asyncio.get_running_loop().remove_reader(self._control.fileno())
            self._control.close()  # the zygote reads EOF, kills its workers and exits
            self._control = None
        process, self._process = self._process, None
        if process is not None and process.returncode is None:
            try:
                await asyncio.wait_for(process.wait(), 5.0)
            except TimeoutError:
                process.kill()
                await process.wait()
        self._workers_gone()
        stderr_done, self._stderr_done = self._stderr_done, None
        if stderr_done is not None:
            stderr_done()

    async def stop(self) -> None:
        async with self._lock:
            await self._stop_zygote()
