"""Stopping a launcher, as a service shutdown does (the pool closes each worker's socket,
then stops its launcher), leaves the server no worker, no zombie and no descriptor."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import os
import warnings

import pytest
import uvloop

from gradtrace.sandbox.config import WorkerConfig
from gradtrace.sandbox.launchers import Launcher, SpawnLauncher, ZygoteLauncher


def _children() -> list[str]:
    """Our children's states (a zombie is 'Z')."""
    states = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == os.getpid():
                states.append(fields[0])
    return states


@pytest.mark.parametrize("launcher_class", [SpawnLauncher, ZygoteLauncher])
def test_stop_leaves_no_worker_no_zombie_and_no_descriptor(
    launcher_class: type[Launcher],
) -> None:
    async def main() -> tuple[list[bool], list[str], list[int | None], int, int]:
        before = len(os.listdir("/proc/self/fd"))
        launcher = launcher_class(WorkerConfig(device="cpu"))
        await launcher.start()
        workers = [await launcher.launch() for _ in range(2)]
        signalled_by_pidfd = [w.pidfd is not None for w in workers]
        for worker in workers:
            worker.close()
        await launcher.stop()
        # Every worker's end is known once its launcher has stopped (and its pidfd closed).
        codes = [w.exited.result() if w.exited.done() else None for w in workers]
        await asyncio.sleep(0.1)  # the workers' sockets' transports close on the next turns
        return signalled_by_pidfd, _children(), codes, before, len(os.listdir("/proc/self/fd"))

    signalled_by_pidfd, children, codes, before, after = uvloop.run(main())
    # Each worker is signalled through a pidfd, never by a pid that the loop may already
    # have reaped (a few turns before its handle learns of it) and the system reused.
    assert signalled_by_pidfd == [True, True]
    assert children == []
    assert None not in codes
    assert after <= before + 1  # the loop's executor may hold /dev/null until it closes


def test_a_launch_cancelled_midway_leaves_no_open_stream() -> None:
    """A pool stopping cancels the launches of its replacement workers. One cancelled
    while its worker was starting up left its stream open: a ResourceWarning later, from
    the garbage collector, in whichever request ran then (warnings are errors here)."""

    async def main() -> tuple[int, int, int]:
        launcher = ZygoteLauncher(WorkerConfig(device="cpu"))
        await launcher.start()
        before = len(os.listdir("/proc/self/fd"))
        cancelled = 0
        # Cancel launches ever later, 0.1 ms apart, until one finishes first: some are
        # cancelled while their worker is connected and not yet ready. Three sweeps.
        for _ in range(3):
            for tenths_of_ms in itertools.count():
                launch = asyncio.ensure_future(launcher.launch())
                await asyncio.sleep(tenths_of_ms / 10_000)
                if launch.done():
                    launch.result().close()
                    break
                launch.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await launch
                if not launch.cancelled():  # it finished as it was cancelled
                    launch.result().close()
                cancelled += 1
        await launcher.stop()
        await asyncio.sleep(0.1)
        gc.collect()
        return cancelled, before, len(os.listdir("/proc/self/fd"))

    with warnings.catch_warnings():
        warnings.simplefilter("error", ResourceWarning)
        cancelled, before, after = asyncio.run(main())
    assert cancelled > 0
    assert after <= before
