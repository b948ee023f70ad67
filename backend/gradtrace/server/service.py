"""Traces on demand: devices, one worker pool per device, the cache, and coalescing."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
from dataclasses import dataclass
from typing import Literal

from gradtrace.devices import DeviceError, available_devices, resolve_device
from gradtrace.sandbox import JobResult, SpawnLauncher, WorkerPool, ZygoteLauncher
from gradtrace.sandbox.compression import gzip_trace
from gradtrace.sandbox.fair_queue import Client
from gradtrace.sandbox.launchers import Launcher
from gradtrace.sandbox.protocol import Job
from gradtrace.server.cache import CacheKey, TraceCache
from gradtrace.server.settings import Settings
from gradtrace.server.shared_cache import SharedTraceCache
from gradtrace.version import __version__

log = logging.getLogger("gradtrace.server")

CacheStatus = Literal["hit", "miss", "coalesced"]
# Under this, gzip (level 1, ~0.1 ms at 20 KB) is cheaper than a hop to a thread.
_COMPRESS_INLINE_BYTES = 64 << 10


@dataclass(frozen=True)
class Outcome:
    result: JobResult
    cache: CacheStatus


@dataclass(eq=False)
class _Flight:
    """A job in flight and how many requests wait for it."""

    future: asyncio.Future[JobResult]
    waiters: int = 0


def offered_devices(setting: str) -> tuple[list[str], str]:
    """The device names requests may use here (concrete ones, 'auto' aside) and what
    'auto' means. Raises DeviceError for a setting this machine cannot honour."""
    default = resolve_device(setting)
    if setting == "auto":
        return [name for name in available_devices() if name != "auto"], default
    return [default], default


class TraceService:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.devices, self.default_device = offered_devices(settings.device)
        self.cache = TraceCache(settings.cache_mb * 2**20)
        self.shared = SharedTraceCache(settings.redis_url) if settings.redis_url else None
        self.pools: dict[str, WorkerPool] = {}
        self._inflight: dict[CacheKey, _Flight] = {}

    def _pool_device(self, device: str) -> str:
        """Every name of the same device shares a pool: 'cuda' is 'cuda:0'."""
        return "cuda:0" if device == "cuda" else device

    def _launcher(self, device: str) -> Launcher:
        config = self.settings.worker_config(device)
        if device == "cpu" and self.settings.cpu_start == "fork":
            return ZygoteLauncher(config)
        return SpawnLauncher(config)  # CUDA and MPS cannot be used from a forked child

    async def start(self) -> None:
        for device in dict.fromkeys(self._pool_device(name) for name in self.devices):
            size = self.settings.workers if device == "cpu" else self.settings.gpu_workers
            self.pools[device] = WorkerPool(
                device=device,
                size=size,
                max_queue=self.settings.queue,
                launcher=self._launcher(device),
                config=self.settings.worker_config(device),
                max_jobs_per_client=self.settings.jobs_per_client,
                max_jobs_per_address=self.settings.jobs_per_address,
            )
        await asyncio.gather(*(pool.start() for pool in self.pools.values()))
        if self.shared is not None:
            self.shared.start()
        log.info(
            "gradtrace %s ready: devices %s, %s",
            __version__,
            ", ".join(self.devices),
            ", ".join(f"{pool.size} {name} worker(s)" for name, pool in self.pools.items()),
        )

    async def stop(self) -> None:
        await asyncio.gather(*(pool.stop() for pool in self.pools.values()))
        if self.shared is not None:
            await self.shared.close()

    def resolve(self, requested: str) -> str:
        """The concrete device for a request; DeviceError names the ones offered here."""
        device = self.default_device if requested == "auto" else requested
        if device not in self.devices:
            raise DeviceError(requested, ["auto", *self.devices])
        return device

    def cached(self, key: CacheKey) -> Outcome | None:
        hit = self.cache.get(key)
        return None if hit is None else Outcome(hit, "hit")

    async def trace(
        self,
        source: str,
        device: str,
        seed: int,
        iteration: int | None = None,
        client: Client | None = None,
    ) -> Outcome:
        job = Job(kind="trace", source=source, device=device, seed=seed, iteration=iteration)
        return await self.outcome(job, client)

    async def gradcheck(
        self, source: str, device: str, seed: int, client: Client | None = None
    ) -> Outcome:
        job = Job(kind="gradcheck", source=source, device=device, seed=seed)
        return await self.outcome(job, client)

    async def outcome(
        self, key: CacheKey, client: Client | None = None, gzip: bool = True
    ) -> Outcome:
        """The answer for `key`: from the cache, from the same job already running for
        another request, or from a new job (its worker gzips the trace if `gzip`).
        Cancelled by the last request waiting for it, the job is dropped (or cut short:
        WorkerPool.run)."""
        hit = self.cached(key)
        if hit is not None:
            return hit
        flight = self._inflight.get(key)
        if flight is None and self.shared is not None:  # computed by another replica?
            result = await self.shared.get(key)
            if result is not None:
                self.cache.put(key, result)
                return Outcome(result, "hit")
            flight = self._inflight.get(key)  # the same request may have begun meanwhile
        status: CacheStatus = "coalesced"
        if flight is None:
            status = "miss"
            # Its future is shared by the requests that wait for it; PoolSaturated and
            # TooManyJobs reach the first of them from here.
            future = self.pools[self._pool_device(key.device)].submit(key, client, gzip)
            future.add_done_callback(functools.partial(self._landed, key))
            flight = self._inflight[key] = _Flight(future)
        flight.waiters += 1
        try:
            return Outcome(await asyncio.shield(flight.future), status)
        finally:
            flight.waiters -= 1
            if not flight.waiters and not flight.future.done():  # no one wants it any more
                flight.future.cancel()  # the pool drops the job, or cuts it short
                if self._inflight.get(key) is flight:
                    del self._inflight[key]

    async def gzipped(self, key: CacheKey, result: JobResult) -> JobResult:
        """`result` with its gzip, for a trace first computed for a client without gzip:
        made once, then kept in the cache with the trace."""
        if result.gzip is not None or len(result.body) < self.settings.gzip_min_bytes:
            return result
        if len(result.body) < _COMPRESS_INLINE_BYTES:
            packed = gzip_trace(result.body)
        else:  # a large trace would hold up every other request on the event loop
            packed = await asyncio.to_thread(gzip_trace, result.body)
        result = dataclasses.replace(result, gzip=packed)
        if result.cacheable:
            self.cache.refresh(key, result)
        return result

    def _landed(self, key: CacheKey, future: asyncio.Future[JobResult]) -> None:
        flight = self._inflight.get(key)
        if flight is not None and flight.future is future:
            del self._inflight[key]
        # Read a failure even when every waiter has gone (no "never retrieved" noise).
        if future.cancelled() or future.exception() is not None:
            return
        result = future.result()
        if result.cacheable:
            self.cache.put(key, result)
            if self.shared is not None:
                self.shared.put(key, result)
