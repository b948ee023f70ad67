"""A pool of warm workers for one device, with a bounded queue in front of it."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import itertools
import logging
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from gradtrace.sandbox.config import WorkerConfig
from gradtrace.sandbox.failures import bug_failure, death_failure, failure_body, time_failure
from gradtrace.sandbox.fair_queue import Client, FairQueue, Ticket
from gradtrace.sandbox.launchers import Launcher, LaunchError, WorkerHandle
from gradtrace.sandbox.protocol import Answer, Job, encode_frame, job_frame, read_frame
from gradtrace.trace.models import ErrorInfo

log = logging.getLogger("gradtrace.sandbox")

_RELAUNCH_DELAYS_S = (0.0, 0.5, 1.0, 2.0, 5.0)
# A job lined up behind one running longer than this goes to the next worker that is free,
# before the queue's first (most jobs take a few milliseconds).
_SLOW_JOB_S = 0.05
# A running job whose every client has gone is left this long to finish (cheaper than a
# new worker), then its worker is killed.
_ABANDONED_GRACE_S = 0.1


class PoolSaturated(Exception):
    """Every worker is busy and the queue is full: ask the client to come back later."""

    def __init__(self, retry_after_s: int) -> None:
        super().__init__("the server is busy")
        self.retry_after_s = retry_after_s


class TooManyJobs(PoolSaturated):
    """One client (or one address) already has as many jobs as it may: 429, not 503."""

    def __init__(self, retry_after_s: int, what: str) -> None:
        super().__init__(retry_after_s)
        self.args = (f"{what} has too many programs running or waiting",)


class InternalError(Exception):
    """No longer raised: an engine that raises is answered with a SystemError trace
    (no program may cause a 500). Kept for those who import it."""


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
    abandoned: int = 0  # jobs whose clients all left: dropped from the queue, or cut short


@dataclass(eq=False)
class _Lane:
    """A worker and the jobs sent to it, which it answers in order: the first is running,
    a second may be lined up behind it."""

    worker: WorkerHandle
    tickets: deque[Ticket] = field(default_factory=deque)
    timer: asyncio.TimerHandle | None = None
    killed_for: Ticket | None = None  # the job that ran past the time limit, or was abandoned
    garbled: bool = False  # it sent an answer the server could not read
    succeeded: bool = False  # its successor was started with its last job (max_jobs)

    def lined_up(self) -> list[Ticket]:
        """The jobs behind the running one that this worker is still meant to run."""
        return [t for t in itertools.islice(self.tickets, 1, None) if not t.stolen]


class WorkerPool:
    """Requests wait in a fair queue (FairQueue) for the pool's workers.

    Under load each worker gets the next job while it still runs one, so it goes straight
    on to it instead of sleeping until the server, sharing the same cores, gets round to
    sending it (measured side by side on 2 cores: 15-33 % more requests a second at 32
    connections). A job lined up behind one that turns out slow is taken back for the first
    worker that comes free.

    A client already running a job never takes the last idle worker: whoever comes next
    gets it at once, however many slow jobs one client has sent (a job cannot be paused,
    so this is the only way a newcomer does not wait for one to end).
    """

    def __init__(
        self,
        device: str,
        size: int,
        max_queue: int,
        launcher: Launcher,
        config: WorkerConfig,
        *,
        max_jobs_per_client: int = 64,
        max_jobs_per_address: int = 256,
    ) -> None:
        self.device = device
        self.size = size
        self.max_queue = max_queue
        self.max_jobs_per_client = max_jobs_per_client
        self.max_jobs_per_address = max_jobs_per_address
        self.config = config
        self._launcher = launcher
        self._lanes: list[_Lane] = []
        self._queue = FairQueue()
        self._starting = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self._jobs = 0
        self._abandoned = 0
        self._ids = itertools.count(1)
        self._per_client: Counter[Client] = Counter()
        self._per_address: Counter[str] = Counter()

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
            abandoned=self._abandoned,
        )

    async def run(self, job: Job, client: Client | None = None, gzip: bool = True) -> JobResult:
        """`submit`, awaited: cancelling the wait drops the job or cuts it short."""
        return await self.submit(job, client, gzip)

    def submit(
        self, job: Job, client: Client | None = None, gzip: bool = True
    ) -> asyncio.Future[JobResult]:
        """Queue one program for the next free worker in turn; its answer comes in the
        future. Raises PoolSaturated when the queue is full, TooManyJobs when the client
        or its address has too many jobs. Cancelling the future drops a job still
        waiting, and cuts a running one short."""
        retry_after_s = max(1, round(self.config.timeout_s / 2))
        if not any(not x.tickets for x in self._lanes) and self._waiting() >= self.max_queue:
            raise PoolSaturated(retry_after_s)
        if client is None:  # no one to be fair to: a client of its own
            client = ("", f"#{next(self._ids)}")
        address = client[0]
        if self._per_client[client] >= self.max_jobs_per_client:
            raise TooManyJobs(retry_after_s, "this client" if client[1] else "this address")
        if self._per_address[address] >= self.max_jobs_per_address:
            raise TooManyJobs(retry_after_s, "this address")
        loop = asyncio.get_running_loop()
        ticket = Ticket(job, loop.create_future(), loop.time(), client, gzip)
        self._per_client[client] += 1
        self._per_address[address] += 1
        ticket.future.add_done_callback(functools.partial(self._settled, ticket))
        self._queue.append(ticket)
        self._pump()
        return ticket.future

    def _settled(self, ticket: Ticket, future: asyncio.Future[JobResult]) -> None:
        _decrement(self._per_client, ticket.client)
        _decrement(self._per_address, ticket.client[0])
        if future.cancelled():
            self._abandon(ticket)

    def _abandon(self, ticket: Ticket) -> None:
        """Every request for this job went away: it will not run, or not for long."""
        self._abandoned += 1
        if self._queue.remove(ticket):
            return
        for lane in self._lanes:
            for position, sent in enumerate(lane.tickets):
                if sent.future is not ticket.future or sent.stolen:
                    continue
                if position == 0:
                    self._cut_short(lane)
                else:  # lined up: the worker skips it if it has not begun it
                    sent.stolen = sent.abandoned = True
                    lane.worker.writer.write(encode_frame({"cancel": sent.id}))

    def _cut_short(self, lane: _Lane) -> None:
        """The running job has no client left: kill its worker once a short grace is over."""
        ticket = lane.tickets[0]
        if lane.timer is not None:
            lane.timer.cancel()
        grace = max(0.0, ticket.started + _ABANDONED_GRACE_S - time.perf_counter())
        lane.timer = asyncio.get_running_loop().call_later(grace, self._kill_for, lane, ticket)

    def _kill_for(self, lane: _Lane, ticket: Ticket) -> None:
        if lane.tickets and lane.tickets[0] is ticket and lane.killed_for is None:
            lane.killed_for = ticket
            lane.worker.kill()  # its reader sees the end of the stream and answers the job

    # ------------------------------------------------------------------ dispatch

    def _waiting(self) -> int:
        """Requests not yet running: in the queue, or lined up behind a running job."""
        return len(self._queue) + sum(len(lane.lined_up()) for lane in self._lanes)

    def _in_service(self) -> dict[Client, int]:
        """Jobs at the workers (running or lined up), by client."""
        counts: dict[Client, int] = {}
        for lane in self._lanes:
            for ticket in lane.tickets:
                if not ticket.stolen:
                    counts[ticket.client] = counts.get(ticket.client, 0) + 1
        return counts

    def _holds_worker(self, client: Client) -> bool:
        """Whether a job of this client is running (not merely lined up)."""
        return any(
            lane.tickets and lane.tickets[0].client == client and not lane.tickets[0].stolen
            for lane in self._lanes
        )

    def _may_take_idle(self, client: Client, idle: int) -> bool:
        return idle > 1 or self.size < 2 or not self._holds_worker(client)

    def _may_run(self, client: Client, *, idle: int, can_line_up: bool) -> bool:
        return can_line_up or self._may_take_idle(client, idle)

    def _pump(self) -> None:
        """Hand out queued jobs: to idle workers first, then lined up behind running jobs."""
        # A job lined up behind a slow one has waited longer than any in the queue.
        self._take_over(behind_slow_only=True)
        while self._queue:
            lanes = self._open_lanes()
            idle = [lane for lane in lanes if not lane.tickets]
            behind = self._lane_to_line_up(lanes)
            if not idle and behind is None:
                break
            ticket = self._queue.take(
                self._in_service(),
                functools.partial(self._may_run, idle=len(idle), can_line_up=behind is not None),
            )
            if ticket is None:
                break
            if idle and self._may_take_idle(ticket.client, len(idle)):
                self._send(idle[0], ticket)
            else:
                assert behind is not None
                self._send(behind, ticket)
        if not self._queue:
            self._take_over(behind_slow_only=False)

    def _open_lanes(self) -> list[_Lane]:
        # A worker that died while idle (its zygote went) is dropped when its reader sees it.
        return [x for x in self._lanes if not (x.worker.exited.done() or x.worker.reader.at_eof())]

    def _lane_to_line_up(self, lanes: list[_Lane]) -> _Lane | None:
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
        for busy, spare in spares:
            if not idle_lanes:
                break
            if spare.future.done() or not self._may_take_idle(spare.client, len(idle_lanes)):
                continue
            spare.stolen = True
            busy.worker.writer.write(encode_frame({"cancel": spare.id}))
            self._send(idle_lanes.pop(0), spare.again())

    def _send(self, lane: _Lane, ticket: Ticket) -> None:
        ticket.id = next(self._ids)
        lane.worker.jobs += 1
        self._jobs += 1
        lane.tickets.append(ticket)
        lane.worker.writer.write(job_frame(ticket.job, ticket.id, gzip=ticket.gzip))
        if len(lane.tickets) == 1:
            self._begin(lane)
        if lane.worker.jobs >= self.config.max_jobs and not lane.succeeded:
            # Its last job: the worker that takes its place starts now, while it runs, so
            # the pool is never a worker short (a replica of one worker had none for the
            # ~0.1 s a start takes, every max_jobs jobs).
            lane.succeeded = True
            self._start_replacement()

    def _begin(self, lane: _Lane) -> None:
        """The lane's first job is now running: its clock starts."""
        ticket = lane.tickets[0]
        loop = asyncio.get_running_loop()
        ticket.started = time.perf_counter()
        ticket.queue_ms = (loop.time() - ticket.queued_at) * 1000
        lane.timer = loop.call_later(self.config.kill_after_s, self._time_out, lane)
        if ticket.abandoned:  # its clients left while it was lined up, and it was begun
            self._cut_short(lane)

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
                answer = Answer.model_validate(header)
                if not lane.tickets:
                    raise ConnectionError("an answer to no job")
                ticket = lane.tickets.popleft()
                if lane.timer is not None:
                    lane.timer.cancel()
                if not answer.skipped:
                    self._deliver(ticket, answer, blobs)
                if answer.retire:
                    self._drop(lane, kill=False)
                    return
                if lane.tickets:
                    self._begin(lane)
                self._pump()
        except (asyncio.IncompleteReadError, ConnectionError):
            await self._lost(lane)
        except ValueError as error:  # not JSON, or not an answer: the worker is not to be trusted
            log.error("worker %d sent an unreadable answer: %r", lane.worker.pid, str(error)[:500])
            lane.garbled = True
            await self._lost(lane)

    def _deliver(self, ticket: Ticket, answer: Answer, blobs: list[bytes]) -> None:
        if ticket.future.done():  # a spare answer, or its request went away
            return
        if answer.internal_error is not None:
            # %r: the traceback holds the program's words; one escaped line cannot forge others.
            log.error("the engine failed on a program: %r", answer.internal_error)
            lines = answer.internal_error.strip().splitlines() or ["an unknown error"]
            problem = f"the engine raised {lines[-1][:300]}"
            ticket.future.set_result(self._synthesized(ticket, bug_failure(problem)))
            return
        if not answer.complete(blobs):
            log.error("a worker's answer has no trace: %r", answer.model_dump())
            problem = "its worker's answer had no trace"
            ticket.future.set_result(self._synthesized(ticket, bug_failure(problem)))
            return
        body, packed = blobs
        ticket.future.set_result(
            JobResult(
                body=body,
                gzip=packed or None,
                etag=answer.etag,
                cacheable=answer.cacheable,
                queue_ms=ticket.queue_ms,
                run_ms=answer.run_ms,
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
        if lane.garbled:
            error = bug_failure("its worker sent an answer the server could not read")
        elif lane.killed_for is running:
            error = time_failure(self.config.timeout_s)
        else:
            code = await self._exit_code(lane.worker)
            log.warning("worker %d died mid-job (exit code %s)", lane.worker.pid, code)
            error = death_failure(
                code, memory_mb=self.config.memory_mb, timeout_s=self.config.timeout_s
            )
        if not running.future.done():
            running.future.set_result(self._synthesized(running, error))

    def _synthesized(self, ticket: Ticket, error: ErrorInfo) -> JobResult:
        body = failure_body(ticket.job, error)
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
        for ticket in reversed(unstarted):
            self._queue.append(ticket.again(), front=True)
        if not lane.succeeded:
            self._start_replacement()
        self._pump()

    def _start_replacement(self) -> None:
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
                        self._add(worker)
                    return
                log.warning("could not start a %s worker (attempt %d)", self.device, attempt + 1)
        finally:
            self._starting -= 1


def _decrement(counter: Counter[Any], key: object) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]
