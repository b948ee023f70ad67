"""`confined_call`: one function run under every layer a service worker gets.

It starts the same command a worker starts (layers.process_command: the same bwrap
arguments), and the process confines itself with the same `confine()` (the same rlimits,
seccomp filter and audit hook) before it calls the function. Operators use it to check
that a deployment's wall holds (`gradtrace doctor` does).
"""

from __future__ import annotations

import io
import os
import pickle
import socket
import subprocess
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from gradtrace.sandbox import layers
from gradtrace.sandbox.config import WorkerConfig
from gradtrace.sandbox.stderr import stderr_pair

T = TypeVar("T")


class ConfinedCallError(RuntimeError):
    """The confined process ended without an answer (killed, or crashed)."""


class PlainDataUnpickler(pickle.Unpickler):
    """Reads plain data only: numbers, strings, bytes, lists, tuples, dicts, sets and
    builtin exceptions. It may name no other class, so a forged pickle cannot make the
    reader import or call anything. Both sides of a confined call read with it: the
    answer comes from a process that may have run hostile code, and the call itself
    names its function rather than pickling it."""

    _CONTAINERS = frozenset({"set", "frozenset", "complex", "bytearray", "slice", "range"})

    def find_class(self, module: str, name: str) -> Any:
        import builtins

        value = getattr(builtins, name, None) if module == "builtins" else None
        if name in self._CONTAINERS or (
            isinstance(value, type) and issubclass(value, BaseException)
        ):
            return value
        raise pickle.UnpicklingError(f"not plain data: {module}.{name}")


def read_plain(data: bytes) -> Any:
    return PlainDataUnpickler(io.BytesIO(data)).load()


def _module_root(fn: Callable[..., Any]) -> str:
    """The directory from which `fn`'s module is imported (bound into the sandbox)."""
    module = sys.modules[fn.__module__]
    path: str | None = getattr(module, "__file__", None)
    if fn.__module__ == "__main__" or path is None or "<locals>" in fn.__qualname__:
        raise ValueError(f"{fn!r} is not a module-level function of an importable module")
    root = os.path.dirname(os.path.realpath(path))
    for _ in range(fn.__module__.count(".") + (os.path.basename(path) == "__init__.py")):
        root = os.path.dirname(root)
    return root


def receive_all(sock: socket.socket) -> bytes:
    """Everything the peer sends until it shuts its end."""
    chunks: list[bytes] = []
    while chunk := sock.recv(1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def confined_call(
    fn: Callable[..., T],
    *args: Any,
    config: WorkerConfig | None = None,
    timeout_s: float = 120.0,
) -> T:
    """Run `fn(*args)` in a process confined as a CPU service worker is, and return its
    result or raise its exception.

    `fn` must be a module-level function of an importable module (it travels by name;
    its module's directory is bound read-only into the sandbox). `args` and the result
    must be plain data (numbers, strings, bytes, lists, tuples, dicts, sets) or builtin
    exceptions: each side reads what the other sent naming no other class (the answer
    comes from a process that may have run hostile code)."""
    config = config or WorkerConfig(device="cpu")
    root = _module_root(fn)
    payload = pickle.dumps((fn.__module__, fn.__qualname__, args))
    try:
        read_plain(payload)  # refused here, with the reason, rather than in the child
    except pickle.UnpicklingError as error:
        raise TypeError(f"confined_call's arguments must be plain data ({error})") from None
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    # Its stderr as a service worker's is (a socket, stderr.py), read after its answer.
    errors, their_errors = stderr_pair()
    with ours, errors:
        with theirs, their_errors:
            command = layers.process_command(
                "gradtrace.sandbox.runner",
                config.model_dump_json(),
                str(theirs.fileno()),
                device=config.device,
                extra_imports=(root,),
            )
            process = subprocess.Popen(
                command.argv,
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=their_errors.fileno(),
                **command.popen_kwargs(),
            )
        try:
            ours.settimeout(timeout_s)
            ours.sendall(payload)
            ours.shutdown(socket.SHUT_WR)
            answer = receive_all(ours)
            errors.settimeout(timeout_s)
            stderr = receive_all(errors)
            process.wait(timeout=timeout_s)
        except (TimeoutError, subprocess.TimeoutExpired) as error:
            process.kill()
            process.wait()
            raise ConfinedCallError(f"the confined call ran longer than {timeout_s} s") from error
    if not answer:
        raise ConfinedCallError(
            f"the confined process ended with {process.returncode} and no answer: "
            + stderr.decode(errors="replace")[-2000:]
        )
    ok, value = read_plain(answer)
    if not ok:
        raise value
    result: T = value
    return result
