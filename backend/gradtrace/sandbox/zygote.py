"""The zygote: one warm process per CPU pool that forks workers on request.

Spawning a worker means importing torch (about 2 s); forking one from a warm parent
takes milliseconds, so a worker that died or retired is replaced almost at once.

Control messages travel on a SOCK_SEQPACKET socket, one JSON message per packet:
server → zygote `{"op": "fork", "id": n}`; zygote → server `{"op": "ready"}`,
`{"op": "forked", "id": n, "pid": p}` with the worker's socket and pidfd attached
(SCM_RIGHTS; p is a pid in the zygote's namespace, the pidfd names it anywhere),
and `{"op": "exit", "pid": p, "code": c}` when a worker ends (c < 0: killed by signal -c).

Run as `python -m gradtrace.sandbox.zygote CONFIG_JSON FD`.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import sys
from typing import Any

import orjson

from gradtrace.sandbox.config import WorkerConfig
from gradtrace.sandbox.confine import die_with_parent, prctl_not_dumpable
from gradtrace.sandbox.worker import prepare_process, serve_jobs


def _send(control: socket.socket, message: dict[str, Any], fds: list[int] | None = None) -> None:
    socket.send_fds(control, [orjson.dumps(message)], fds or [])


def _fork_worker(
    config: WorkerConfig, control: socket.socket, wakeup: tuple[int, int], request_id: Any
) -> int:
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    pid = os.fork()
    if pid == 0:  # the worker
        try:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            control.close()
            ours.close()
            for fd in wakeup:
                os.close(fd)
            serve_jobs(config, theirs, parent=os.getppid())
        finally:
            os._exit(70)
    theirs.close()
    try:
        pidfd: int | None = os.pidfd_open(pid)
    except (AttributeError, OSError):  # then the server is not sandboxing (layers.py)
        pidfd = None
    try:
        fds = [ours.fileno()] if pidfd is None else [ours.fileno(), pidfd]
        _send(control, {"op": "forked", "id": request_id, "pid": pid}, fds)
    finally:
        ours.close()
        if pidfd is not None:
            os.close(pidfd)
    return pid


def _reap(control: socket.socket, children: set[int]) -> None:
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        children.discard(pid)
        _send(control, {"op": "exit", "pid": pid, "code": os.waitstatus_to_exitcode(status)})


def serve(config: WorkerConfig, control: socket.socket) -> None:
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so the wakeup fd hears it
    children: set[int] = set()
    _send(control, {"op": "ready", "pid": os.getpid()})
    try:
        while True:
            readable, _, _ = select.select([control.fileno(), wake_r], [], [])
            if wake_r in readable:
                os.read(wake_r, 4096)
                _reap(control, children)
            if control.fileno() in readable:
                packet = control.recv(4096)
                if not packet:  # the server is gone or shutting down
                    return
                request = orjson.loads(packet)
                if request.get("op") == "fork":
                    pid = _fork_worker(config, control, (wake_r, wake_w), request.get("id"))
                    children.add(pid)
    finally:
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def main(argv: list[str]) -> None:
    config = WorkerConfig.model_validate_json(argv[0])
    control = socket.socket(fileno=int(argv[1]))
    control.setblocking(True)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    die_with_parent(os.getppid())
    # Not dumpable, nor are the workers it forks: none can read another's (or its) memory.
    prctl_not_dumpable()
    prepare_process(config)
    serve(config, control)


if __name__ == "__main__":
    main(sys.argv[1:])
