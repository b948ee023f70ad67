"""The last wall: a seccomp filter (libseccomp) on the system calls a worker may make.

Loaded by the worker itself, after warm-up and before its first job, so it costs
nothing per job. Everything below is refused whatever the language or the process's
namespaces allow: new sockets and connections, new processes (and, for CPU workers,
threads), exec, writing or creating files, namespaces and mounts, tracing other
processes, signalling anyone but itself, and the kernel interfaces a sandbox has no
use for. Docker's default profile refuses the same families.
"""

from __future__ import annotations

import contextlib
import ctypes.util
import errno
import functools
import os
from collections.abc import Iterator
from types import ModuleType
from typing import Any

_CLONE_THREAD = 0x00010000
_O_TMPFILE = 0o20000000  # __O_TMPFILE, without O_DIRECTORY
_WRITE_FLAGS = (
    os.O_WRONLY,
    os.O_RDWR,
    os.O_CREAT,
    os.O_TRUNC,
    os.O_APPEND,
    _O_TMPFILE,
)
# prctl options that would undo a layer: dumpable again, another process as tracer.
_PR_SET_DUMPABLE = 4
_PR_SET_MM = 35
_PR_SET_PTRACER = 0x59616D61

NETWORK = ("socket", "socketpair", "connect", "bind", "listen", "accept", "accept4")
NEW_PROGRAMS = ("fork", "vfork", "execve", "execveat")
FILE_CHANGES = (
    "creat",
    "mkdir",
    "mkdirat",
    "mknod",
    "mknodat",
    "unlink",
    "unlinkat",
    "rmdir",
    "rename",
    "renameat",
    "renameat2",
    "link",
    "linkat",
    "symlink",
    "symlinkat",
    "chmod",
    "fchmod",
    "fchmodat",
    "fchmodat2",
    "chown",
    "fchown",
    "lchown",
    "fchownat",
    "truncate",
    "ftruncate",
    "utime",
    "utimes",
    "utimensat",
    "futimesat",
    "setxattr",
    "lsetxattr",
    "fsetxattr",
    "removexattr",
    "lremovexattr",
    "fremovexattr",
    "memfd_create",
    "memfd_secret",
)
# bwrap needs mount, umount2, pivot_root and unshare (deploy/seccomp.json allows them to
# the server's container); a worker needs none.
NAMESPACES = (
    "mount",
    "umount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
)
IDENTITY = (
    "setuid",
    "setgid",
    "setreuid",
    "setregid",
    "setresuid",
    "setresgid",
    "setfsuid",
    "setfsgid",
    "setgroups",
    "capset",
)
# Refused to the server's container too (deploy/seccomp.json; a test keeps them equal).
OTHER_PROCESSES = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "process_madvise",
    "pidfd_getfd",
    "kcmp",
)
KERNEL_INTERFACES = (
    "setns",
    "open_tree",
    "move_mount",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
    "name_to_handle_at",
    "open_by_handle_at",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "keyctl",
    "add_key",
    "request_key",
    "fanotify_init",
    "init_module",
    "finit_module",
    "delete_module",
    "kexec_load",
    "kexec_file_load",
    "reboot",
    "swapon",
    "swapoff",
    "acct",
    "quotactl",
    "quotactl_fd",
    "syslog",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
    "sethostname",
    "setdomainname",
    "iopl",
    "ioperm",
    "vhangup",
    "uselib",
    "ustat",
    "sysfs",
    "lookup_dcookie",
    "nfsservctl",
    "migrate_pages",
    "move_pages",
)
# A worker may also not reach another process by its pidfd (the server signals it by one).
WORKER_ONLY = ("pidfd_open", "pidfd_send_signal", "process_mrelease")
# Refused outright (EPERM). Names unknown to this libseccomp are skipped.
DENIED = (
    NETWORK
    + NEW_PROGRAMS
    + FILE_CHANGES
    + NAMESPACES
    + IDENTITY
    + OTHER_PROCESSES
    + KERNEL_INTERFACES
    + WORKER_ONLY
)
# Whose flags live in a struct the filter cannot read: ENOSYS, so that libc falls back
# to the older call the filter can check (clone3 → clone; openat2 → openat).
NOT_IMPLEMENTED = ("clone3", "openat2")
_QUERY_PERSONALITY = 0xFFFFFFFF
# System calls that name a process, and which argument names it.
_SELF_ONLY = (
    ("prlimit64", 0),
    ("setpriority", 1),
    ("ioprio_set", 1),
    ("sched_setaffinity", 0),
    ("sched_setscheduler", 0),
    ("sched_setparam", 0),
    ("sched_setattr", 0),
)


@contextlib.contextmanager
def _sonames_without_ldconfig() -> Iterator[None]:
    """pyseccomp finds libc and libseccomp with ctypes.util.find_library, which runs
    ldconfig: no program runs in a sandbox, so name the libraries directly."""
    original = ctypes.util.find_library
    known = {"c": "libc.so.6", "seccomp": "libseccomp.so.2"}

    def find(name: str) -> str | None:
        return known.get(name) or original(name)

    ctypes.util.find_library = find
    try:
        yield
    finally:
        ctypes.util.find_library = original


@functools.cache
def bindings() -> ModuleType | None:
    """libseccomp's Python bindings: its own `seccomp` module, else `pyseccomp` (the same
    API over ctypes); None where neither is installed or libseccomp is missing."""
    import importlib

    for name in ("seccomp", "pyseccomp"):
        try:
            with _sonames_without_ldconfig():
                return importlib.import_module(name)
        except (ImportError, OSError, RuntimeError):
            continue
    return None


def kernel_supports() -> bool:
    """Whether this kernel has seccomp (its status file shows a Seccomp line then)."""
    try:
        with open("/proc/self/status") as status:
            return any(line.startswith("Seccomp:") for line in status)
    except OSError:
        return False


def available() -> bool:
    return bindings() is not None and kernel_supports()


def _add(filter_: Any, action: Any, syscall: str, *args: Any) -> None:
    # A system call this libseccomp does not know: nothing to refuse.
    with contextlib.suppress(ValueError, OSError, RuntimeError):
        filter_.add_rule(action, syscall, *args)


def build(module: ModuleType, *, threads: bool, pid: int) -> Any:
    """The filter for a worker whose process id (in its namespace) is `pid`."""
    f = module.SyscallFilter(defaction=module.ALLOW)
    # Every thread, not just the caller: a GPU worker's driver threads exist already.
    f.set_attr(module.Attr.CTL_TSYNC, 1)
    # A binary search over the system call numbers, not a list (libseccomp 2.5+).
    with contextlib.suppress(OSError, ValueError, AttributeError):
        f.set_attr(module.Attr.CTL_OPTIMIZE, 2)
    deny = module.ERRNO(errno.EPERM)
    for name in DENIED:
        _add(f, deny, name)
    for name in NOT_IMPLEMENTED:
        _add(f, module.ERRNO(errno.ENOSYS), name)
    # Threads only where allowed (GPU drivers start their own); never a new process.
    if threads:
        _add(f, deny, "clone", module.Arg(0, module.MASKED_EQ, _CLONE_THREAD, 0))
    else:
        _add(f, module.ERRNO(errno.EAGAIN), "clone")  # what pthread_create reports
    # Opening for writing, creating, truncating or appending.
    for flag in _WRITE_FLAGS:
        _add(f, deny, "open", module.Arg(1, module.MASKED_EQ, flag, flag))
        _add(f, deny, "openat", module.Arg(2, module.MASKED_EQ, flag, flag))
    # Signals to itself only: workers forked from one zygote share a pid namespace.
    for name in ("kill", "rt_sigqueueinfo", "tgkill", "rt_tgsigqueueinfo"):
        _add(f, deny, name, module.Arg(0, module.NE, pid))
    _add(f, deny, "tkill")
    # Limits, priorities and CPUs of itself only (0 means itself): a sibling's RLIMIT_CPU
    # lowered to nothing would end another user's job.
    for name, index in _SELF_ONLY:
        _add(f, deny, name, module.Arg(index, module.NE, 0))
    for option in (_PR_SET_DUMPABLE, _PR_SET_MM, _PR_SET_PTRACER):
        _add(f, deny, "prctl", module.Arg(0, module.EQ, option))
    # Only reading the personality back: a new one (no randomization, executable data)
    # would take effect at exec, which is refused anyway.
    _add(f, deny, "personality", module.Arg(0, module.NE, _QUERY_PERSONALITY))
    return f


def install(*, threads: bool) -> None:
    """Load the filter into this process (and the threads it starts from now on)."""
    module = bindings()
    if module is None:
        raise RuntimeError("libseccomp's Python bindings are not installed")
    build(module, threads=threads, pid=os.getpid()).load()
