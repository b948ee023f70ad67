"""The process behind `confined_call`: `python -m gradtrace.sandbox.runner CONFIG FD`.

It warms up as a worker does, reads a pickled (function, args) from its socket (importing
the function's module), confines itself exactly as a worker does, calls the function, and writes back the pickled
outcome: (True, result) or (False, exception).
"""

from __future__ import annotations

import os
import pickle
import socket
import sys

from gradtrace.sandbox import confine
from gradtrace.sandbox.config import WorkerConfig
from gradtrace.sandbox.confined import receive_all
from gradtrace.sandbox.worker import prepare_process


def main(argv: list[str]) -> None:
    config = WorkerConfig.model_validate_json(argv[0])
    sock = socket.socket(fileno=int(argv[1]))
    sock.setblocking(True)
    prepare_process(config)  # warmed up as a worker is: torch and what it loads lazily
    fn, args = pickle.loads(receive_all(sock))  # from our caller: trusted
    confine.confine(config, keep_fds=[sock.fileno()], parent=os.getppid())
    confine.set_job_cpu_limit(config)
    try:
        outcome = (True, fn(*args))
    except BaseException as error:  # the caller re-raises it
        outcome = (False, error)
    try:
        answer = pickle.dumps(outcome)
    except Exception as error:
        answer = pickle.dumps((False, TypeError(f"the outcome cannot be pickled: {error}")))
    sock.sendall(answer)
    sock.close()
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
