"""A pool of warm workers for one device, with a bounded queue in front of it."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import logging
import time
from collections import deque
from dataclasses import dataclass, field

from gradtrace.sandbox.config import WorkerConfig
from gradtrace.sandbox.failures import death_failure, gradcheck_failure, time_failure
from gradtrace.sandbox.launchers import Launcher, LaunchError, WorkerHandle
from gradtrace.sandbox.protocol import Header, Job, encode_frame, read_frame

log = logging.getLogger("gradtrace.sandbox")

_RELAUNCH_DELAYS_S = (0.0, 0.5, 1.0, 2.0, 5.0)
# A job lined up behind one running longer than this goes to the next worker that is free,
# before the queue's first (most jobs take a few milliseconds).
_SLOW_JOB_S = 0.05


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


@dataclass(eq=False)
class _Ticket:
    """One request's job, from the queue to its answer."""

    job: Job
    future: asyncio.Future[JobResult]
    queued_at: float  # loop time
    id: int = 0
    started: float = 0.0  # perf_counter when it began on its worker
    queue_ms: float = 0.0
    stolen: bool = False  # taken back for another worker: this worker's answer is spare

    def again(self) -> _Ticket:
        """The same request, to be sent anew: to another worker, or back to the queue."""
        return _Ticket(self.job, self.future, self.queued_at)


@dataclass(eq=False)
class _Lane:
    """A worker and the jobs sent to it, which it answers in order: the first is running,
    a second may be lined up behind it."""

    worker: WorkerHandle
    tickets: deque[_Ticket] = field(default_factory=deque)
    timer: asyncio.TimerHandle | None = None
    killed_for: _Ticket | None = None  # the job that ran past the time limit

    def lined_up(self) -> list[_Ticket]:
        """The jobs behind the running one that this worker is still meant to run."""
        return [t for t in itertools.islice(self.tickets, 1, None) if not t.stolen]


class WorkerPool:
    """Requests wait in one first-come-first-served line for the pool's workers.

    Under load each worker gets the next job while it still runs one, so it goes straight
    on to it instead of sleeping until the server, sharing the same cores, gets round to
    sending it (measured side by side on 2 cores: 15-33 % more requests a second at 32
    connections). A job lined up behind one that turns out slow is taken back for the first
    worker that comes free.
    """

    def __init__(
        self, device: str, size: int, max_queue: int, launcher: Launcher, config: WorkerConfig
    ) -> None:
        self.device = device
        self.size = size
        self.max_queue = max_queue
        self.config = config
        self._launcher = launcher
        self._lanes: list[_Lane] = []
        self._queue: deque[_Ticket] = deque()
        self._starting = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self._jobs = 0
        self._ids = itertools.count(1)

    async def start(self) -> None:
        await self._launcher.start()
        workers = await asyncio.gather(*(self._launcher.launch() for _ in range(self.size)))
        for worker in workers:
            self._add(worker)

    async def stop(self) -> None:
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for lane in list(self._lanes):
            self._drop(lane, kill=bool(lane.tickets))
            for ticket in lane.tickets:
                ticket.future.cancel()
        for ticket in self._queue:
            ticket.future.cancel()
        self._queue.clear()
        await self._launcher.stop()

    def stats(self) -> PoolStats:
        busy = sum(1 for lane in self._lanes if lane.tickets)
        return PoolStats(
            device=self.device,
            size=self.size,
            idle=len(self._lanes) - busy,
            busy=busy,
            queued=self._waiting(),
            starting=self._starting,
            jobs=self._jobs,
            pids=sorted(lane.worker.pid for lane in self._lanes),
        )

    async def run(self, job: Job) -> JobResult:
        """Run one program on the next free worker; raise PoolSaturated when the queue is full."""
        if not any(not x.tickets for x in self._lanes) and self._waiting() >= self.max_queue:
            raise PoolSaturated(retry_after_s=max(1, round(self.config.timeout_s / 2)))
        loop = asyncio.get_running_loop()
        ticket = _Ticket(job, loop.create_future(), loop.time())
        self._queue.append(ticket)
        self._pump()
        try:
            return await ticket.future
        except asyncio.CancelledError:
            with contextlib.suppress(ValueError):
                self._queue.remove(ticket)  # a job already sent is answered to nobody
            raise

    # ------------------------------------------------------------------ dispatch

    def _waiting(self) -> int:
        """Requests not yet running: in the queue, or lined up behind a running job."""
        return len(self._queue) + sum(len(lane.lined_up()) for lane in self._lanes)

    def _pump(self) -> None:
        """Hand out queued jobs: to idle workers first, then lined up behind running jobs."""
        # A job lined up behind a slow one has waited longer than any in the queue.
        self._take_over(behind_slow_only=True)
        while self._queue:
            ticket = self._queue[0]
            if ticket.future.done():  # its request went away
                self._queue.popleft()
                continue
            lane = self._lane_for_next()
            if lane is None:
                break
            self._queue.popleft()
            self._send(lane, ticket)
        if not self._queue:
            self._take_over(behind_slow_only=False)

    def _open_lanes(self) -> list[_Lane]:
        # A worker that died while idle (its zygote went) is dropped when its reader sees it.
        return [x for x in self._lanes if not (x.worker.exited.done() or x.worker.reader.at_eof())]

    def _lane_for_next(self) -> _Lane | None:
        lanes = self._open_lanes()
        idle = next((lane for lane in lanes if not lane.tickets), None)
        if idle is not None:
            return idle
        # Not behind a worker's last job: it exits after it without reading the next.
        return next(
            (
                lane
                for lane in lanes
                if len(lane.tickets) == 1
                and lane.worker.jobs + 1 < self.config.max_jobs
                and lane.killed_for is None
            ),
            None,
        )

    def _take_over(self, *, behind_slow_only: bool) -> None:
        """Idle workers take over jobs lined up behind other workers' running ones.

        The worker first in line may already have started the job when our `cancel`
        reaches it: then both run it and the first answer is used."""
        slow_since = time.perf_counter() - _SLOW_JOB_S
        spares = [
            (lane, spare)
            for lane in self._lanes
            if not (behind_slow_only and lane.tickets and lane.tickets[0].started > slow_since)
            for spare in lane.lined_up()
        ]
        if not spares:  # the usual case: nothing is lined up
            return
        idle_lanes = [lane for lane in self._open_lanes() if not lane.tickets]
        for idle, (busy, spare) in zip(idle_lanes, spares):
            spare.stolen = True
            busy.worker.writer.write(encode_frame({"cancel": spare.id}))
            self._send(idle, spare.again())

    def _send(self, lane: _Lane, ticket: _Ticket) -> None:
        ticket.id = next(self._ids)
        lane.worker.jobs += 1
        self._jobs += 1
        lane.tickets.append(ticket)
        lane.worker.writer.write(encode_frame({**ticket.job.header(self.device), "id": ticket.id}))
        if len(lane.tickets) == 1:
            self._begin(lane)

    def _begin(self, lane: _Lane) -> None:
        """The lane's first job is now running: its clock starts."""
        ticket = lane.tickets[0]
        loop = asyncio.get_running_loop()
        ticket.started = time.perf_counter()
        ticket.queue_ms = (loop.time() - ticket.queued_at) * 1000
        lane.timer = loop.call_later(self.config.kill_after_s, self._time_out, lane)

    def _time_out(self, lane: _Lane) -> None:
        log.info("worker %d ran past %.1f s; killed", lane.worker.pid, self.config.kill_after_s)
        lane.killed_for = lane.tickets[0]
        lane.worker.kill()  # its reader sees the end of the stream and answers the job

    # ------------------------------------------------------------------ answers

    async def _read_answers(self, lane: _Lane) -> None:
        reader = lane.worker.reader
        try:
            while True:
                header, blobs = await read_frame(reader)
                if not lane.tickets:
                    raise ConnectionError("an answer to no job")
                ticket = lane.tickets.popleft()
                if lane.timer is not None:
                    lane.timer.cancel()
                if not header.get("skipped"):
                    self._deliver(ticket, header, blobs)
                if header.get("retire"):
                    self._drop(lane, kill=False)
                    return
                if lane.tickets:
                    self._begin(lane)
                self._pump()
        except (asyncio.IncompleteReadError, ConnectionError):
            await self._lost(lane)

    def _deliver(self, ticket: _Ticket, header: Header, blobs: list[bytes]) -> None:
        if ticket.future.done():  # a spare answer, or its request went away
            return
        if "internal_error" in header:
            ticket.future.set_exception(InternalError(str(header["internal_error"])))
            return
        body, packed = blobs
        ticket.future.set_result(
            JobResult(
                body=body,
                gzip=packed or None,
                etag=str(header["etag"]),
                cacheable=bool(header["cacheable"]),
                queue_ms=ticket.queue_ms,
                run_ms=float(header["run_ms"]),
            )
        )

    async def _lost(self, lane: _Lane) -> None:
        """The worker died, or was killed: its running job gets the reason."""
        running = lane.tickets.popleft() if lane.tickets else None
        if running is not None and lane.killed_for not in (None, running):
            # Killed for the job before it, whose answer was already on its way: not its fault.
            lane.tickets.appendleft(running)
            running = None
        self._drop(lane, kill=True)
        if running is None or running.stolen or running.future.done():
            return  # a spare run's request is answered by the worker that took the job over
        if lane.killed_for is running:
            body = time_failure(
                device=self.device, seed=running.job.seed, timeout_s=self.config.timeout_s
            )
        else:
            code = await self._exit_code(lane.worker)
            log.warning("worker %d died mid-job (exit code %s)", lane.worker.pid, code)
            body = death_failure(
                device=self.device,
                seed=running.job.seed,
                exit_code=code,
                memory_mb=self.config.memory_mb,
                timeout_s=self.config.timeout_s,
            )
        if not running.future.done():
            running.future.set_result(self._synthesized(running, body))

    def _synthesized(self, ticket: _Ticket, body: bytes) -> JobResult:
        if ticket.job.kind == "gradcheck":
            body = gradcheck_failure(body)
        return JobResult(
            body=body,
            gzip=None,
            etag=hashlib.blake2b(body, digest_size=12).hexdigest(),
            cacheable=False,  # a kill depends on load and luck: never cache it
            queue_ms=ticket.queue_ms,
            run_ms=(time.perf_counter() - ticket.started) * 1000,
        )

    @staticmethod
    async def _exit_code(worker: WorkerHandle) -> int | None:
        try:
            return await asyncio.wait_for(asyncio.shield(worker.exited), 2.0)
        except TimeoutError:
            return None

    # ------------------------------------------------------------------ workers come and go

    def _add(self, worker: WorkerHandle) -> None:
        lane = _Lane(worker)
        self._lanes.append(lane)
        reader = asyncio.get_running_loop().create_task(self._read_answers(lane))
        self._tasks.add(reader)
        reader.add_done_callback(self._tasks.discard)
        self._pump()

    def _drop(self, lane: _Lane, *, kill: bool) -> None:
        """Take a worker out of the pool; the jobs lined up behind go back to the queue's front."""
        if lane not in self._lanes:
            return
        self._lanes.remove(lane)
        if lane.timer is not None:
            lane.timer.cancel()
        unstarted = [t for t in lane.tickets if not t.stolen]
        if kill:
            lane.worker.kill()
        lane.worker.close()
        if self._closed:
            return
        self._queue.extendleft(t.again() for t in reversed(unstarted))
        task = asyncio.get_running_loop().create_task(self._replace())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        self._pump()

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
                        self._add(worker)
                    return
                log.warning("could not start a %s worker (attempt %d)", self.device, attempt + 1)
        finally:
            self._starting -= 1
