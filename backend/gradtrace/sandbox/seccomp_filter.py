"""The last wall: a seccomp filter (libseccomp) on the system calls a worker may make.

Loaded by the worker itself, after warm-up and before its first job, so it costs
nothing per job. A CPU worker gets an allowlist: the calls a warm Python and torch
make while running programs (memory, time, signals to itself, reading files, its own
descriptors); anything else fails with EPERM, a call the kernel gains tomorrow
included. A GPU worker's driver makes calls no list can foresee (ioctls on its device
files, threads of its own): it gets a denylist, which refuses whatever the language or
the process's namespaces allow of new sockets and connections, new processes, exec,
writing or creating files, namespaces and mounts, tracing other processes, signalling
anyone but itself, and the kernel interfaces a sandbox has no use for. Docker's
default profile refuses the same families.
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
# What a CPU worker may call (its allowlist): what a warm CPython and torch use while a
# program runs and its trace is written (seen with strace over every test program, its
# gradient check and failing jobs), and their neighbours of the same kind.
ALLOWED = (
    # memory
    "brk", "mmap", "munmap", "mremap", "mprotect", "madvise", "mbind", "get_mempolicy",
    "membarrier",
    # waiting and the thread it is (it starts none)
    "futex", "futex_waitv", "set_robust_list", "rseq", "set_tid_address",
    "sched_yield", "sched_getaffinity", "sched_getparam", "sched_getscheduler",
    "sched_get_priority_max", "sched_get_priority_min", "getcpu",
    # time, and the job's wall-clock alarm
    "clock_gettime", "clock_getres", "clock_nanosleep", "nanosleep", "gettimeofday", "time",
    "setitimer", "getitimer", "alarm", "times",
    # signal handling (sending one: to itself only, below)
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigpending", "rt_sigsuspend",
    "rt_sigtimedwait", "sigaltstack", "restart_syscall",
    # the descriptors it holds (its socket, /proc/self/statm, stderr) and reading files
    "read", "readv", "pread64", "preadv", "preadv2", "write", "writev", "lseek", "close",
    "close_range", "dup", "dup2", "dup3", "fstat", "newfstatat", "stat", "lstat",
    "statx", "fstatfs", "statfs", "access", "faccessat", "faccessat2", "getdents64",
    "readlink", "readlinkat", "getcwd", "fadvise64",
    "recvfrom", "sendto", "shutdown", "getsockname", "getpeername",
    "getsockopt", "poll", "ppoll", "select", "pselect6",
    # about itself
    "getpid", "getppid", "gettid", "getuid", "geteuid", "getgid", "getegid", "getgroups",
    "getresuid", "getresgid", "getpgrp", "getpgid", "getsid", "uname", "sysinfo",
    "getrusage", "getrlimit", "getpriority", "arch_prctl", "capget", "getrandom",
    "exit", "exit_group",
)  # fmt: skip
# ioctl: isatty's, a socket's blocking mode and pending bytes, a terminal's size.
_IOCTLS = (0x5401, 0x5421, 0x541B, 0x5413)  # TCGETS, FIONBIO, FIONREAD, TIOCGWINSZ
# prctl: reading its own state, naming a thread or a mapping (glibc, allocators).
_PRCTLS = (3, 16, 15, 39, 0x53564D41)  # GET_DUMPABLE, GET/SET_NAME, GET_NO_NEW_PRIVS, SET_VMA
# Whose flags live in a struct the filter cannot read: ENOSYS, so that libc falls back
# to the older call the filter can check (clone3 → clone; openat2 → openat).
NOT_IMPLEMENTED = ("clone3", "openat2")
_QUERY_PERSONALITY = 0xFFFFFFFF
# fcntl commands a worker may use: duplicating, close-on-exec and status flags (its
# blocking mode; O_ASYNC refused below). Not F_SETOWN/F_SETOWN_EX/F_SETSIG, which make the
# kernel signal any process of the same user when the descriptor is ready (SIGKILL to a
# sibling worker or the zygote, past the kill rule), nor leases, notifications or locks.
_FCNTLS = (0, 1, 2, 3, 1030)  # F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_DUPFD_CLOEXEC
_F_SETFL = 4
_F_SETOWN, _F_SETSIG, _F_SETOWN_EX, _F_SETLEASE, _F_NOTIFY = 8, 10, 15, 1024, 1026
# setpriority and ioprio_set take (which, who): who 0 is the caller only when `which`
# names a process; of a process group or a user it is all of the caller's, the zygote
# and every sibling worker included.
_PRIO_PROCESS = 0
_IOPRIO_WHO_PROCESS = 1
# A command or option the kernel reads as a 32-bit int: a rule that refuses one value
# must compare the low 32 bits only, or the value with any high bit set passes the rule
# and is truncated to the refused one by the kernel.
_LOW_32 = 0xFFFFFFFF
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


def _new_filter(module: ModuleType, default: Any) -> Any:
    f = module.SyscallFilter(defaction=default)
    # Every thread, not just the caller: a GPU worker's driver threads exist already.
    f.set_attr(module.Attr.CTL_TSYNC, 1)
    # A binary search over the system call numbers, not a list (libseccomp 2.5+).
    with contextlib.suppress(OSError, ValueError, AttributeError):
        f.set_attr(module.Attr.CTL_OPTIMIZE, 2)
    return f


def build(module: ModuleType, *, threads: bool, pid: int) -> Any:
    """The filter for a worker whose process id (in its namespace) is `pid`: the
    allowlist, or the denylist where threads are allowed (GPU workers)."""
    return _denylist(module, pid) if threads else _allowlist(module, pid)


def _allowlist(module: ModuleType, pid: int) -> Any:
    f = _new_filter(module, module.ERRNO(errno.EPERM))
    allow = module.ALLOW
    for name in ALLOWED:
        _add(f, allow, name)
    # Reading files (lazy imports, /proc/self/statm), never writing or creating one.
    write_flags = 0
    for flag in _WRITE_FLAGS:
        write_flags |= flag
    _add(f, allow, "open", module.Arg(1, module.MASKED_EQ, write_flags, 0))
    _add(f, allow, "openat", module.Arg(2, module.MASKED_EQ, write_flags, 0))
    # Signals to itself only (raise(), an alarm's handler): workers forked from one
    # zygote share a pid namespace.
    for name in ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo"):
        _add(f, allow, name, module.Arg(0, module.EQ, pid))
    # Its own limits (0 means itself): the job's CPU limit is lowered before each job.
    for name, index in _SELF_ONLY:
        if name == "setpriority":
            _add(
                f, allow, name, module.Arg(0, module.EQ, _PRIO_PROCESS), module.Arg(1, module.EQ, 0)
            )
        elif name == "ioprio_set":
            _add(
                f,
                allow,
                name,
                module.Arg(0, module.EQ, _IOPRIO_WHO_PROCESS),
                module.Arg(1, module.EQ, 0),
            )
        else:
            _add(f, allow, name, module.Arg(index, module.EQ, 0))
    for command in _FCNTLS:
        _add(f, allow, "fcntl", module.Arg(1, module.EQ, command))
    _add(
        f,
        allow,
        "fcntl",
        module.Arg(1, module.EQ, _F_SETFL),
        module.Arg(2, module.MASKED_EQ, os.O_ASYNC, 0),
    )
    for request in _IOCTLS:
        _add(f, allow, "ioctl", module.Arg(1, module.EQ, request))
    for option in _PRCTLS:
        _add(f, allow, "prctl", module.Arg(0, module.EQ, option))
    _add(f, allow, "personality", module.Arg(0, module.EQ, _QUERY_PERSONALITY))
    # No thread or process: what pthread_create reports, and clone3 unknown so that
    # libc falls back to clone.
    _add(f, module.ERRNO(errno.EAGAIN), "clone")
    _add(f, module.ERRNO(errno.ENOSYS), "clone3")
    return f


def _denylist(module: ModuleType, pid: int) -> Any:
    f = _new_filter(module, module.ALLOW)
    deny = module.ERRNO(errno.EPERM)
    for name in DENIED:
        _add(f, deny, name)
    for name in NOT_IMPLEMENTED:
        _add(f, module.ERRNO(errno.ENOSYS), name)
    # Threads (GPU drivers start their own), never a new process.
    _add(f, deny, "clone", module.Arg(0, module.MASKED_EQ, _CLONE_THREAD, 0))
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
    # Of a process group or a user: the zygote and sibling workers too.
    _add(f, deny, "setpriority", module.Arg(0, module.NE, _PRIO_PROCESS))
    _add(f, deny, "ioprio_set", module.Arg(0, module.NE, _IOPRIO_WHO_PROCESS))
    for option in (_PR_SET_DUMPABLE, _PR_SET_MM, _PR_SET_PTRACER):
        _add(f, deny, "prctl", module.Arg(0, module.MASKED_EQ, _LOW_32, option))
    # Another process as the one the kernel signals when a descriptor is ready.
    for command in (_F_SETOWN, _F_SETSIG, _F_SETOWN_EX, _F_SETLEASE, _F_NOTIFY):
        _add(f, deny, "fcntl", module.Arg(1, module.MASKED_EQ, _LOW_32, command))
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
