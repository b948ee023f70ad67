"""A worker: a process with torch and the engine loaded that runs one program per job.

Started either forked from the zygote (CPU) or spawned as
`python -m gradtrace.sandbox.worker CONFIG_JSON FD` (GPUs, which cannot be forked after
CUDA is initialised). It confines itself (confine.py), says it is ready, then answers
jobs on its socket until the server closes it or it has done `max_jobs`.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import socket
import sys
import time
import traceback
from collections import deque
from collections.abc import Callable

from gradtrace.language import memory
from gradtrace.sandbox import confine, gpu_memory, seccomp_filter
from gradtrace.sandbox.compression import gzip_trace
from gradtrace.sandbox.config import WorkerConfig
from gradtrace.sandbox.failures import MemoryRelabel, failure_body, memory_failure
from gradtrace.sandbox.protocol import Header, Job, encode_frame, recv_frame


def prepare_process(config: WorkerConfig) -> None:
    """Import and warm up everything a job needs, once, before any fork or job."""
    import torch

    from gradtrace.engine import warm_up

    seccomp_filter.bindings()  # loaded while loading libraries is still allowed
    torch.set_num_threads(1)  # one core per worker: workers, not threads, scale it out
    with contextlib.suppress(RuntimeError):  # already set: inter-op threads were started
        torch.set_num_interop_threads(1)
    if config.device.startswith("cuda"):
        index = torch.device(config.device).index or 0
        total = torch.cuda.get_device_properties(index).total_memory
        fraction = min(1.0, config.memory_mb * 2**20 / total)
        torch.cuda.set_per_process_memory_fraction(fraction, index)
    elif config.device == "mps":
        torch.mps.set_per_process_memory_fraction(0.0)  # 0 means the platform's default cap
    # Optimizers, DataLoader and meta-device shape checks import or build things on first
    # use, which a confined worker could not do later.
    warm_up(config.device)
    gc.collect()
    gc.freeze()  # keep the warm objects out of later collections (and copy-on-write pages)


def _answer(
    job: Job, config: WorkerConfig, relabel: MemoryRelabel, release_later: list[Callable[[], None]]
) -> bytes:
    from gradtrace.gradcheck import check_gradients
    from gradtrace.trace.session import trace_program

    limits = config.limits_for_engine()
    if job.kind == "gradcheck":
        checked = check_gradients(job.source, device=job.device, seed=job.seed, limits=limits)
        return relabel.check(checked).model_dump_json().encode()
    return trace_program(
        job.source,
        device=job.device,
        seed=job.seed,
        limits=limits,
        iteration=job.iteration,
        binary=job.binary,
        relabel=relabel,
        release_later=release_later,
    )


def run_job(
    config: WorkerConfig,
    job: Job,
    *,
    gzip: bool,
    release_later: list[Callable[[], None]],
) -> tuple[Header, tuple[bytes, ...]]:
    """Run one program; the answer header and blobs (the trace, and its gzip when large:
    compressed here, in parallel with the other workers, when the asker takes gzip). The
    caller frees the job's objects through `release_later` once it has sent them."""
    started = time.perf_counter()
    retire = False
    relabel = MemoryRelabel(config.memory_mb)
    try:
        body = _answer(job, config, relabel, release_later)
    except MemoryError:
        error = memory_failure(config.memory_mb)
        body = failure_body(job, error)
        retire = True
    except Exception:
        # The engine turns every program error into a trace, so this is a bug of ours.
        return {"internal_error": traceback.format_exc(limit=20), "retire": True}, ()
    run_s = time.perf_counter() - started
    retire = retire or relabel.retire  # a process that hit its memory ceiling starts afresh
    # A job that grew the process by a quarter of its ceiling leaves that much free heap
    # behind once freed, in as many chunks as it had objects, and every later job's memory
    # bound reads the free heap by walking them (mallinfo2: 26 ms a walk after a
    # 10,000-op trace, several walks a job). A CPU worker starts afresh from the zygote
    # instead, in milliseconds; a GPU worker (seconds to warm up) keeps its heap.
    if config.device == "cpu" and relabel.before.grown() * 4 >= config.memory_mb * 2**20:
        retire = True
    packed = gzip_trace(body) if gzip and len(body) >= config.gzip_min_bytes else b""
    header: Header = {
        "etag": hashlib.blake2b(body, digest_size=12).hexdigest(),
        # A program stopped near the time limit might finish on a quieter server.
        "cacheable": run_s < config.timeout_s / 2,
        "run_ms": run_s * 1000,
        "retire": retire,
    }
    return header, (body, packed)


def serve_jobs(config: WorkerConfig, sock: socket.socket, *, parent: int) -> None:
    """The job loop of a confined worker. Never returns.

    The server may line a second job up behind the running one, so that the worker goes
    from one job to the next without waiting for the server; it may then take that job
    back (to give it to a worker that came free) with a `cancel` frame, which is answered
    `skipped` if it arrived before the job started."""
    # /proc/self/statm stays open: the memory bound reads it, and a confined worker may
    # not open files.
    keep = [sock.fileno(), *memory.kept_fds()]
    if config.device != "cpu":
        # The GPU driver's own descriptors (its device nodes, its threads' eventfds): closed
        # under it, every later kernel launch fails. main() closed what was inherited
        # before the driver opened them, so what is open now is ours and the driver's.
        keep += confine.open_descriptors()
    confine.confine(config, keep_fds=keep, parent=parent)
    sock.sendall(encode_frame({"ready": True, "pid": os.getpid()}))
    inbox: deque[Header] = deque()
    done = 0
    while True:
        if not inbox:
            _poll_for_next_frame(sock)
        frame = inbox.popleft() if inbox else _next_header(sock)
        if frame is None:  # the server closed our socket: it is done with us
            os._exit(0)
        if "cancel" in frame:  # for a job already answered
            continue
        if not _read_waiting(sock, inbox):
            os._exit(0)
        job_id = frame.get("id")
        cancel = next((h for h in inbox if job_id is not None and h.get("cancel") == job_id), None)
        if cancel is not None:
            inbox.remove(cancel)
            sock.sendall(encode_frame({"id": job_id, "skipped": True}))
            continue
        confine.set_job_cpu_limit(config)
        job = Job.model_validate(frame["job"])
        # The job's objects are freed once its answer is on its way, not before.
        release_later: list[Callable[[], None]] = []
        header, blobs = run_job(config, job, gzip=bool(frame["gzip"]), release_later=release_later)
        done += 1
        header["id"] = job_id
        header["retire"] = (
            bool(header["retire"])
            or done >= config.max_jobs
            or not confine.cpu_left_for_another_job(config)
        )
        sock.sendall(encode_frame(header, blobs))
        if header["retire"]:
            os._exit(0)
        _release(release_later)
        # The engine turns the cyclic GC off during runs: a job's reference cycles would
        # live on into the next job. They are collected once the answer is on its way.
        # The job's objects are young (generations 0 and 1: 2 us after a 20-node job); a
        # full collection also walks everything that outlived earlier jobs (0.12-0.16 ms,
        # 7 % of a job's CPU), which Python's own gen-2 collections keep doing.
        blobs = ()
        gc.collect(1)
        if config.device.startswith("cuda"):
            gpu_memory.zero_free_blocks(config.device)


def _release(release_later: list[Callable[[], None]]) -> None:
    while release_later:
        release_later.pop()()


# A vCPU that halts for more than about half a millisecond comes back cold on the VMs
# this was measured on: the next job costs up to twice as much (a 20-node job, one
# process: 2.0 ms back to back or after 0.5 ms idle, 3.3 ms after 1 ms, 4.1 ms after 4
# ms). So between jobs a worker polls its socket this long, yielding its core to anything
# runnable, before it blocks: at most this much CPU per job, and none when the next job
# is already lined up. Through the service (cache misses, with and without it, turn
# about, medians of 5-6 rounds): 1.14-1.18x the req/s at 1 connection; at 8 and 32
# connections, where the next job is mostly lined up, 0.91-1.2x and 0.97-1.08x.
_POLL_BEFORE_BLOCKING_S = 0.001


def _poll_for_next_frame(sock: socket.socket) -> None:
    """Returns when a frame (or the server's hang-up) is waiting, or after the poll time."""
    deadline = time.perf_counter() + _POLL_BEFORE_BLOCKING_S
    while time.perf_counter() < deadline:
        try:
            sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
            return
        except BlockingIOError:
            os.sched_yield()


def _next_header(sock: socket.socket) -> Header | None:
    frame = recv_frame(sock)
    return frame[0] if frame is not None else None


def _read_waiting(sock: socket.socket, inbox: deque[Header]) -> bool:
    """Move the frames already sent to us into `inbox`; False if the server has gone."""
    while True:
        try:
            if not sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT):
                return False
        except BlockingIOError:
            return True
        header = _next_header(sock)
        if header is None:
            return False
        inbox.append(header)


def main(argv: list[str]) -> None:
    """Entry point of a spawned worker: `python -m gradtrace.sandbox.worker CONFIG FD`."""
    config = WorkerConfig.model_validate_json(argv[0])
    sock = socket.socket(fileno=int(argv[1]))
    sock.setblocking(True)
    confine.close_descriptors([sock.fileno()])  # before a GPU driver opens its own
    prepare_process(config)
    serve_jobs(config, sock, parent=os.getppid())


if __name__ == "__main__":
    main(sys.argv[1:])
