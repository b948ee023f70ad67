"""A pool of warm workers for one device, with a bounded queue in front of it."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import logging
import time
from collections import deque
from dataclasses import dataclass

from gradtrace.sandbox.config import WorkerConfig
from gradtrace.sandbox.failures import death_failure, gradcheck_failure, time_failure
from gradtrace.sandbox.launchers import Launcher, LaunchError, WorkerHandle
from gradtrace.sandbox.protocol import Job, encode_frame, read_frame

log = logging.getLogger("gradtrace.sandbox")

_RELAUNCH_DELAYS_S = (0.0, 0.5, 1.0, 2.0, 5.0)


class PoolSaturated(Exception):
    """Every worker is busy and the queue is full: ask the client to come back later."""

    def __init__(self, retry_after_s: int) -> None:
        super().__init__("the server is busy")
        self.retry_after_s = retry_after_s


class InternalError(Exception):
    """The engine raised instead of returning a trace: a bug, reported as a 500."""


@dataclass(frozen=True)
class JobResult:
    body: bytes
    gzip: bytes | None
    etag: str
    cacheable: bool
    queue_ms: float
    run_ms: float


@dataclass(frozen=True)
class PoolStats:
    device: str
    size: int
    idle: int
    busy: int
    queued: int
    starting: int
    jobs: int
    pids: list[int]


class WorkerPool:
    def __init__(
        self, device: str, size: int, max_queue: int, launcher: Launcher, config: WorkerConfig
    ) -> None:
        self.device = device
        self.size = size
        self.max_queue = max_queue
        self.config = config
        self._launcher = launcher
        self._idle: deque[WorkerHandle] = deque()
        # Requests waiting for a worker, oldest first (see _acquire).
        self._waiters: deque[asyncio.Future[WorkerHandle]] = deque()
        self._busy: set[WorkerHandle] = set()
        self._live: set[WorkerHandle] = set()
        self._starting = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self._jobs = 0

    async def start(self) -> None:
        await self._launcher.start()
        workers = await asyncio.gather(*(self._launcher.launch() for _ in range(self.size)))
        for worker in workers:
            self._live.add(worker)
            self._release(worker)

    async def stop(self) -> None:
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        while self._idle:
            self._idle.popleft().close()
        for worker in list(self._busy):
            worker.kill()
            worker.close()
        await self._launcher.stop()

    def stats(self) -> PoolStats:
        return PoolStats(
            device=self.device,
            size=self.size,
            idle=len(self._idle),
            busy=len(self._busy),
            queued=len(self._waiters),
            starting=self._starting,
            jobs=self._jobs,
            pids=sorted(worker.pid for worker in self._live),
        )

    async def run(self, job: Job) -> JobResult:
        """Run one program on the next free worker; raise PoolSaturated when the queue is full."""
        if not self._idle and len(self._waiters) >= self.max_queue:
            raise PoolSaturated(retry_after_s=max(1, round(self.config.timeout_s / 2)))
        loop = asyncio.get_running_loop()
        queued_at = loop.time()
        worker = await self._acquire()
        queue_ms = (loop.time() - queued_at) * 1000
        self._busy.add(worker)
        try:
            return await self._run_on(worker, job, queue_ms)
        except BaseException:
            # Cancelled or failed mid-protocol: the worker's state is unknown, replace it.
            self._discard(worker, kill=True)
            raise

    async def _acquire(self) -> WorkerHandle:
        """The next free worker, first come first served.

        Not an asyncio.Queue: a waiter woken for a freed worker can lose it there to a
        request that asks before the waiter runs, and then waits again at the back of the
        line. Here a freed worker is handed to the oldest waiter itself."""
        retry = False
        while True:
            if self._idle and not self._waiters:
                worker = self._idle.popleft()
            else:
                future: asyncio.Future[WorkerHandle] = asyncio.get_running_loop().create_future()
                if retry:  # this request was first in line: it stays there
                    self._waiters.appendleft(future)
                else:
                    self._waiters.append(future)
                try:
                    worker = await future
                except asyncio.CancelledError:
                    if future.done() and not future.cancelled():
                        self._release(future.result())  # handed over as we were cancelled
                    else:
                        with contextlib.suppress(ValueError):
                            self._waiters.remove(future)
                    raise
            if not (worker.exited.done() or worker.reader.at_eof()):
                return worker
            self._discard(worker, kill=False)  # died while idle (its zygote went)
            retry = True

    def _release(self, worker: WorkerHandle) -> None:
        """A worker is free: to the oldest waiter, or into the idle line."""
        while self._waiters:
            future = self._waiters.popleft()
            if not future.done():
                future.set_result(worker)
                return
        self._idle.append(worker)

    async def _run_on(self, worker: WorkerHandle, job: Job, queue_ms: float) -> JobResult:
        seed = job.seed
        started = time.perf_counter()
        worker.jobs += 1
        self._jobs += 1
        worker.writer.write(encode_frame(job.header(self.device)))
        try:
            header, blobs = await asyncio.wait_for(
                read_frame(worker.reader), self.config.kill_after_s
            )
        except TimeoutError:
            log.info("worker %d ran past %.1f s; killed", worker.pid, self.config.kill_after_s)
            self._discard(worker, kill=True)
            body = time_failure(device=self.device, seed=seed, timeout_s=self.config.timeout_s)
            return self._synthesized(job, body, queue_ms, started)
        except (asyncio.IncompleteReadError, ConnectionError):
            code = await self._exit_code(worker)
            log.warning("worker %d died mid-job (exit code %s)", worker.pid, code)
            self._discard(worker, kill=True)
            body = death_failure(
                device=self.device,
                seed=seed,
                exit_code=code,
                memory_mb=self.config.memory_mb,
                timeout_s=self.config.timeout_s,
            )
            return self._synthesized(job, body, queue_ms, started)
        if header.get("retire"):
            self._discard(worker, kill=False)
        else:
            self._busy.discard(worker)
            self._release(worker)
        if "internal_error" in header:
            raise InternalError(str(header["internal_error"]))
        body, packed = blobs
        return JobResult(
            body=body,
            gzip=packed or None,
            etag=str(header["etag"]),
            cacheable=bool(header["cacheable"]),
            queue_ms=queue_ms,
            run_ms=float(header["run_ms"]),
        )

    def _synthesized(self, job: Job, body: bytes, queue_ms: float, started: float) -> JobResult:
        if job.kind == "gradcheck":
            body = gradcheck_failure(body)
        return JobResult(
            body=body,
            gzip=None,
            etag=hashlib.blake2b(body, digest_size=12).hexdigest(),
            cacheable=False,  # a kill depends on load and luck: never cache it
            queue_ms=queue_ms,
            run_ms=(time.perf_counter() - started) * 1000,
        )

    @staticmethod
    async def _exit_code(worker: WorkerHandle) -> int | None:
        try:
            return await asyncio.wait_for(asyncio.shield(worker.exited), 2.0)
        except TimeoutError:
            return None

    def _discard(self, worker: WorkerHandle, *, kill: bool) -> None:
        if worker not in self._live:
            return
        self._busy.discard(worker)
        self._live.discard(worker)
        if kill:
            worker.kill()
        worker.close()
        if not self._closed:
            task = asyncio.get_running_loop().create_task(self._replace())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _replace(self) -> None:
        self._starting += 1
        try:
            for attempt in itertools.count():
                await asyncio.sleep(_RELAUNCH_DELAYS_S[min(attempt, len(_RELAUNCH_DELAYS_S) - 1)])
                with contextlib.suppress(LaunchError, OSError, TimeoutError):
                    worker = await self._launcher.launch()
                    if self._closed:
                        worker.close()
                    else:
                        self._live.add(worker)
                        self._release(worker)
                    return
                log.warning("could not start a %s worker (attempt %d)", self.device, attempt + 1)
        finally:
            self._starting -= 1
