"""Escape attempts run inside `confined_call`: raw Python and raw libc, past the language.

Each returns "refused: ..." when the wall held, anything else when it did not. They run
in the confined process, so they must be module-level functions of this module.
"""

from __future__ import annotations

import ctypes
import errno
import os
import signal
import socket
from collections.abc import Callable
from typing import Any

# Loaded when the module is imported, before the process confines itself: an attacker gets
# the same handle at any time from `ctypes.pythonapi`, with no audit event.
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
SYS_CLONE = 56
SYS_CLONE3 = 435
SYS_UNSHARE = 272
SYS_PTRACE = 101
SYS_PRLIMIT64 = 302
CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
MS_BIND = 4096


def _errno_text() -> str:
    return f"refused: {errno.errorcode.get(ctypes.get_errno(), ctypes.get_errno())}"


def _python(attempt: Callable[[], Any]) -> str:
    try:
        result = attempt()
    except (OSError, PermissionError, RuntimeError) as error:
        return f"refused: {type(error).__name__}: {error}"
    return f"escaped: {result!r}"


def _read(path: str) -> Callable[[], Any]:
    def attempt() -> Any:
        with open(path, "rb") as file:
            return file.read(64)

    return attempt


def _open_only(path: str) -> Callable[[], Any]:
    """Opening, read-only, is the attack: /dev/ptmx makes a new pseudo-terminal."""

    def attempt() -> Any:
        os.close(os.open(path, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK))
        return "opened"

    return attempt


def _libc_status(value: int, what: str) -> str:
    return _errno_text() if value < 0 else f"escaped: {what} returned {value}"


def _write(path: str) -> str:
    def attempt() -> int:
        with open(path, "w") as file:
            return file.write("x")

    python = _python(attempt)
    fd = libc.open(path.encode(), os.O_WRONLY | os.O_CREAT, 0o644)
    raw = _libc_status(fd, "open")
    if fd >= 0:
        raw += f" wrote {libc.write(fd, b'x', 1)}"
    return python if not python.startswith("refused") else raw


def _connect(port: int) -> str:
    def attempt() -> Any:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
            return sock.recv(16)

    return _python(attempt)


def _kill(pid: int) -> str:
    python = _python(lambda: os.kill(pid, 0))
    raw = libc.kill(pid, 0)
    return _libc_status(raw, f"kill({pid})") if python.startswith("refused") else python


def _fork_python() -> str:
    def attempt() -> int:
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        return pid

    return _python(attempt)


def _fork_libc() -> str:
    pid = libc.fork()
    if pid == 0:
        os._exit(0)
    return _libc_status(pid, "fork")


def _clone_raw() -> str:
    pid = libc.syscall(SYS_CLONE, signal.SIGCHLD, 0, 0, 0, 0)
    if pid == 0:
        os._exit(0)
    return _libc_status(pid, "clone")


def _thread() -> str:
    import threading

    def attempt() -> str:
        thread = threading.Thread(target=lambda: None)
        thread.start()
        thread.join()
        return "a thread ran"

    return _python(attempt)


def _exec() -> str:
    python = _python(lambda: os.execv("/bin/sh", ["sh", "-c", "true"]))
    raw = libc.execve(b"/work/bin/sh", None, None)
    return _libc_status(raw, "execve") if python.startswith("refused") else python


def _mount() -> str:
    return _libc_status(libc.mount(b"/", b"/proc", None, MS_BIND, None), "mount")


def _unshare() -> str:
    raw = libc.unshare(CLONE_NEWUSER | CLONE_NEWNET)
    return _libc_status(raw, "unshare")


def _ptrace(pid: int) -> str:
    return _libc_status(libc.syscall(SYS_PTRACE, 16, pid, 0, 0), "ptrace attach")  # ATTACH


def _prlimit(pid: int) -> str:
    """prlimit64(pid, RLIMIT_CPU, {0, 0}, NULL): another process's CPU limit to nothing."""
    limit = (ctypes.c_uint64 * 2)(0, 0)
    return _libc_status(libc.syscall(SYS_PRLIMIT64, pid, 0, limit, None), "prlimit64")


def _socket_libc() -> str:
    return _libc_status(libc.socket(socket.AF_INET, socket.SOCK_STREAM, 0), "socket")


def _unix_socket() -> str:
    return _python(lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))


F_SETOWN, F_SETSIG = 8, 10
PRIO_PGRP, PRIO_USER = 1, 2
IOPRIO_WHO_PGRP, IOPRIO_WHO_USER = 2, 3
SYS_IOPRIO_SET = 251
IOPRIO_IDLE = 3 << 13


def _fcntl(command: int, argument: int) -> str:
    """A command on a descriptor of its own that names another process (the kernel would
    signal it whenever the descriptor is ready): refused whatever the descriptor."""
    fd = os.open("/proc/self/statm", os.O_RDONLY)
    try:
        return _libc_status(libc.fcntl(fd, command, argument), "fcntl")
    finally:
        os.close(fd)


def _environ(secret_name: str) -> str:
    with open("/proc/self/environ", "rb") as file:
        return "escaped" if secret_name.encode() in file.read() else "refused: absent"


def _others() -> str:
    """The processes in /proc other than itself and bwrap's init (pid 1 of its namespace):
    none, in its own pid namespace."""
    others = sorted(
        int(n) for n in os.listdir("/proc") if n.isdigit() and int(n) not in (1, os.getpid())
    )
    with open("/proc/1/comm") as comm:
        if comm.read().strip() != "bwrap":
            others.append(1)
    return f"escaped: sees {others}" if others else "refused: sees only itself"


def _listdir(path: str) -> str:
    try:
        return f"listed: {sorted(os.listdir(path))}"
    except OSError as error:
        return f"refused: {error}"


def attempts(server_pid: int, port: int, secret_name: str, package_dir: str) -> dict[str, str]:
    """Every attempt, each as "refused: ..." or what it got."""
    me = os.getpid()
    results = {
        "read /etc/shadow": _python(_read("/etc/shadow")),
        "read /etc/passwd": _python(_read("/etc/passwd")),
        "read /root/.bashrc": _python(_read("/root/.bashrc")),
        "read /root/.profile": _python(_read("/root/.profile")),
        "list /home": _listdir("/home"),
        "list /tmp": _listdir("/tmp"),
        "open /dev/ptmx": _python(_open_only("/dev/ptmx")),
        "open /dev/pts/ptmx": _python(_open_only("/dev/pts/ptmx")),
        "open /dev/tty": _python(_open_only("/dev/tty")),
        # A pipe given as stderr, reopened read-only, reads what every writer put there.
        "reopen its stderr to read it": _python(_open_only("/proc/self/fd/2")),
        "reopen /dev/stderr to read it": _python(_open_only("/dev/stderr")),
        "reopen pid 1's stderr to read it": _python(_open_only("/proc/1/fd/2")),
        "secret in os.environ": "refused: absent"
        if secret_name not in os.environ
        else "escaped: " + os.environ[secret_name],
        "secret in /proc/self/environ": _environ(secret_name),
        "see another process": _others(),
        "connect to 127.0.0.1": _connect(port),
        "libc socket()": _socket_libc(),
        "AF_UNIX socket": _unix_socket(),
        "os.fork": _fork_python(),
        "libc fork": _fork_libc(),
        "raw clone": _clone_raw(),
        "raw clone3": _libc_status(libc.syscall(SYS_CLONE3, 0, 0), "clone3"),
        "thread": _thread(),
        "execv": _exec(),
        "kill the server's pid": _kill(server_pid),
        "kill pid 1 (bwrap's init)": _kill(1),
        "kill the process group": _kill(0),
        "kill everyone": _kill(-1),
        "ptrace pid 1 (bwrap's init)": _ptrace(1),
        "ptrace the server": _ptrace(server_pid),
        "lower pid 1's CPU limit": _prlimit(1),
        "renice pid 1": _libc_status(libc.setpriority(0, 1, 19), "setpriority"),
        # who 0 of a group or a user is every process of it (bwrap's init here; the
        # zygote and the sibling workers in a pool), though 0 of a process is itself.
        "renice its process group": _libc_status(libc.setpriority(PRIO_PGRP, 0, 19), "setpriority"),
        "renice its user's processes": _libc_status(
            libc.setpriority(PRIO_USER, 0, 19), "setpriority"
        ),
        "idle I/O for its process group": _libc_status(
            libc.syscall(SYS_IOPRIO_SET, IOPRIO_WHO_PGRP, 0, IOPRIO_IDLE), "ioprio_set"
        ),
        "idle I/O for its user's processes": _libc_status(
            libc.syscall(SYS_IOPRIO_SET, IOPRIO_WHO_USER, 0, IOPRIO_IDLE), "ioprio_set"
        ),
        "F_SETOWN pid 1": _fcntl(F_SETOWN, 1),
        "F_SETOWN its process group": _fcntl(F_SETOWN, -os.getpgrp()),
        "F_SETSIG SIGKILL": _fcntl(F_SETSIG, signal.SIGKILL),
        "process_vm_readv": _libc_status(libc.syscall(310, 1, 0, 0, 0, 0, 0), "process_vm_readv"),
        "write /tmp": _write("/tmp/gradtrace-escape"),
        "write /dev/shm": _write("/dev/shm/gradtrace-escape"),
        "write cwd": _write(os.path.join(os.getcwd(), "gradtrace-escape")),
        "write the package": _write(os.path.join(package_dir, "gradtrace-escape.py")),
        "write /proc/sys": _write("/proc/sys/kernel/hostname"),
        "mkdir": _python(lambda: os.mkdir("/gradtrace-escape")),
        "mount": _mount(),
        "unshare": _unshare(),
        # Harmless calls, but outside the CPU workers' allowlist: refused by default,
        # as a call the kernel gains tomorrow would be.
        "pipe (outside the allowlist)": _python(os.pipe),
        "eventfd (outside the allowlist)": _libc_status(libc.eventfd(0, 0), "eventfd"),
    }
    assert os.getpid() == me
    return results


def torch_works() -> tuple[list[float], float]:
    """A matmul and a backward pass: what a worker is for."""
    import torch

    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = (x @ x).sum()
    y.backward()
    assert x.grad is not None
    return x.grad.flatten().tolist(), float(y)


def raise_value_error(text: str) -> None:
    raise ValueError(text)


def status() -> dict[str, str]:
    with open("/proc/self/status") as file:
        return dict(line.split(":\t", 1) for line in file.read().splitlines() if ":\t" in line)
