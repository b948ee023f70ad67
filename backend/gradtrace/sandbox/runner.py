"""The process behind `confined_call`: `python -m gradtrace.sandbox.runner CONFIG FD`.

It warms up as a worker does, reads the call from its socket (the function's module and
name, and its arguments as plain data), imports the function, confines itself exactly as
a worker does, calls the function, and writes back the pickled outcome: (True, result)
or (False, exception).
"""

from __future__ import annotations

import importlib
import os
import pickle
import socket
import sys
from typing import Any

from gradtrace.sandbox import confine
from gradtrace.sandbox.config import WorkerConfig
from gradtrace.sandbox.confined import read_plain, receive_all
from gradtrace.sandbox.worker import prepare_process


def main(argv: list[str]) -> None:
    config = WorkerConfig.model_validate_json(argv[0])
    sock = socket.socket(fileno=int(argv[1]))
    sock.setblocking(True)
    prepare_process(config)  # warmed up as a worker is: torch and what it loads lazily
    module, name, args = read_plain(receive_all(sock))
    fn: Any = importlib.import_module(module)
    for part in name.split("."):
        fn = getattr(fn, part)
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
