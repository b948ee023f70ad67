"""The wall behind the language: raw Python and raw libc in a confined process gain nothing.

Every attempt runs through `confined_call`, the same command and the same `confine()` as
a service worker; where this host lacks a layer the tests that need it are skipped (and
`gradtrace doctor` says why).
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator

import pytest

import gradtrace
from gradtrace.sandbox import confined_call, layers

from . import escapes

pytestmark = pytest.mark.skipif(
    bool(layers.missing()), reason=f"sandbox layers missing here: {layers.missing()}"
)

SECRET = "GRADTRACE_TEST_SECRET"


@pytest.fixture(scope="module")
def listener() -> Iterator[int]:
    """A TCP listener on 127.0.0.1 that answers whoever connects."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            with conn:
                conn.sendall(b"hello")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield int(server.getsockname()[1])
    stop.set()
    thread.join()
    server.close()


@pytest.fixture(scope="module")
def results(listener: int) -> dict[str, str]:
    os.environ[SECRET] = "hunter2"
    try:
        package = os.path.dirname(gradtrace.__file__)
        return confined_call(escapes.attempts, os.getpid(), listener, SECRET, package)
    finally:
        del os.environ[SECRET]


ATTEMPTS = [
    "read /etc/shadow",
    "read /etc/passwd",
    "read /root/.bashrc",
    "read /root/.profile",
    "list /home",
    "list /tmp",
    "open /dev/ptmx",
    "open /dev/pts/ptmx",
    "open /dev/tty",
    "reopen its stderr to read it",
    "reopen /dev/stderr to read it",
    "reopen pid 1's stderr to read it",
    "secret in os.environ",
    "secret in /proc/self/environ",
    "see another process",
    "connect to 127.0.0.1",
    "libc socket()",
    "AF_UNIX socket",
    "os.fork",
    "libc fork",
    "raw clone",
    "raw clone3",
    "thread",
    "execv",
    "kill the server's pid",
    "kill pid 1 (bwrap's init)",
    "kill the process group",
    "kill everyone",
    "ptrace pid 1 (bwrap's init)",
    "ptrace the server",
    "lower pid 1's CPU limit",
    "renice pid 1",
    "renice its process group",
    "renice its user's processes",
    "idle I/O for its process group",
    "idle I/O for its user's processes",
    "F_SETOWN pid 1",
    "F_SETOWN its process group",
    "F_SETSIG SIGKILL",
    "process_vm_readv",
    "write /tmp",
    "write /dev/shm",
    "write cwd",
    "write the package",
    "write /proc/sys",
    "mkdir",
    "mount",
    "unshare",
    "pipe (outside the allowlist)",
    "eventfd (outside the allowlist)",
]


@pytest.mark.parametrize("attempt", ATTEMPTS)
def test_an_escape_attempt_is_refused(results: dict[str, str], attempt: str) -> None:
    assert results[attempt].startswith("refused"), results[attempt]


def test_every_attempt_is_checked(results: dict[str, str]) -> None:
    assert sorted(results) == sorted(ATTEMPTS)


def test_the_secret_was_set_here(results: dict[str, str]) -> None:
    """The environment the attempts ran beside did hold the secret (the check is real)."""
    assert SECRET not in os.environ  # removed after the call; it was set during it
    assert results["secret in os.environ"] == "refused: absent"


def test_nothing_was_written_outside() -> None:
    package = os.path.dirname(gradtrace.__file__)
    for path in ("/tmp/gradtrace-escape", "/dev/shm/gradtrace-escape"):
        assert not os.path.exists(path)
    assert not os.path.exists(os.path.join(package, "gradtrace-escape.py"))


def test_torch_works_inside() -> None:
    grad, value = confined_call(escapes.torch_works)
    assert grad == [7.0, 11.0, 9.0, 13.0]  # d/dx sum(x @ x) = 1 x^T + x^T 1 row/column sums
    assert value == 54.0


def test_an_exception_inside_is_raised_here() -> None:
    with pytest.raises(ValueError, match="from inside"):
        confined_call(escapes.raise_value_error, "from inside")


def test_the_confined_process_has_every_layer() -> None:
    status = confined_call(escapes.status)
    assert status["Seccomp"] == "2"
    assert status["NoNewPrivs"] == "1"
    assert status["CapEff"] == "0000000000000000"
    assert status["NSpid"].split()[-1] == "2"  # in its own namespace, after bwrap's init


def test_a_local_function_is_refused() -> None:
    def local() -> None:
        pass

    with pytest.raises(ValueError, match="module-level"):
        confined_call(local)


def test_a_forged_answer_cannot_make_the_caller_import_anything() -> None:
    import pickle

    from gradtrace.sandbox.confined import read_plain

    forged = pickle.dumps((True, os.getcwd))  # names os.getcwd: a class-free answer may not
    with pytest.raises(pickle.UnpicklingError):
        read_plain(forged)
    plain = pickle.dumps((True, {"a": [1, 2.5, "x", b"y", {3}], "e": ValueError("v")}))
    ok, value = read_plain(plain)
    assert ok and value["a"][4] == {3} and isinstance(value["e"], ValueError)


def test_a_call_with_other_than_plain_data_is_refused_before_it_starts() -> None:
    with pytest.raises(TypeError, match="plain data"):
        confined_call(escapes.status, os.getcwd)
