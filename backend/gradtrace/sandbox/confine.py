"""The second wall: what a worker process can do once it is ready for user programs.

The language already refuses everything dangerous; this is for a program that gets
past it. The process already lives in bubblewrap's namespaces (bwrap.py); applied here,
once per worker, after warm-up and before the first job: a closed set of descriptors,
no privileges, resource limits (memory, CPU, no files, no processes, few descriptors),
not dumpable (no other process of the same user may read its memory or environment),
the seccomp filter (seccomp_filter.py), and an audit hook refusing process, file and
network operations (a tripwire that names what was refused; seccomp is the wall).
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import sys
import sysconfig
from collections.abc import Sequence
from typing import Any

from gradtrace.sandbox import seccomp_filter
from gradtrace.sandbox.bwrap import reachable_by_others
from gradtrace.sandbox.config import WorkerConfig

_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_KEEPCAPS = 8
_CAP_DAC_READ_SEARCH = 2
_CAPABILITY_VERSION_3 = 0x20080522
_NOBODY = 65534
_MAX_DESCRIPTORS = 64
_MAX_GPU_DESCRIPTORS = 1024

# Audit events a program has no business raising (PEP 578 names).
_DENIED_EVENTS = frozenset(
    {
        "os.fork",
        "os.forkpty",
        "os.system",
        "os.exec",
        "os.posix_spawn",
        "os.spawn",
        "os.kill",
        "os.killpg",
        "os.putenv",
        "os.unsetenv",
        "subprocess.Popen",
        "pty.spawn",
        "socket.bind",
        "socket.connect",
        "socket.sendto",
        "os.remove",
        "os.rename",
        "os.rmdir",
        "os.mkdir",
        "os.chmod",
        "os.chown",
        "os.truncate",
        "os.link",
        "os.symlink",
        "os.utime",
        "shutil.rmtree",
        "ctypes.dlopen",
    }
)
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def _libc() -> Any:
    return ctypes.CDLL(None, use_errno=True)


def die_with_parent(expected_parent: int) -> None:
    """Ask the kernel to kill this process when its parent goes (Linux only)."""
    if sys.platform.startswith("linux"):
        _libc().prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != expected_parent:  # the parent died before the request took effect
        os._exit(1)


def open_descriptors() -> list[int]:
    """Every descriptor this process has open (Linux's /proc, else the BSDs' /dev/fd)."""
    folder = "/proc/self/fd" if os.path.isdir("/proc/self/fd") else "/dev/fd"
    return [int(name) for name in os.listdir(folder)]


def close_descriptors(keep: Sequence[int]) -> None:
    """Standard streams to /dev/null (stderr stays, for tracebacks of our own bugs);
    every descriptor but `keep` closed."""
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    low = 3
    for fd in sorted({fd for fd in keep if fd >= low}):
        # Never an empty range: CPython closes every descriptor from 3 up for
        # os.closerange(3, 3) or (3, 0) (a GPU driver's among them).
        if fd > low:
            os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, resource.getrlimit(resource.RLIMIT_NOFILE)[0])


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def _installation_readable_by_nobody() -> bool:
    paths = sysconfig.get_paths()
    wanted = [paths["stdlib"], paths["platstdlib"], paths["purelib"], paths["platlib"]]
    wanted.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return all(reachable_by_others(path) for path in wanted)


def _keep_only_read_search(libc: Any) -> None:
    header = _CapHeader(_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    data[0].effective = data[0].permitted = 1 << _CAP_DAC_READ_SEARCH
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset failed")


def drop_privileges() -> None:
    """Root ignores RLIMIT_NPROC and may do anything else: become nobody.

    Where Python itself lies where nobody cannot read it (a pyenv under /root), torch's
    lazy imports would fail; then the worker keeps one capability, reading files, and
    nothing else (in particular not CAP_SYS_RESOURCE, so RLIMIT_NPROC binds)."""
    if os.geteuid() != 0:
        return
    libc = _libc()
    keep_reading = not _installation_readable_by_nobody()
    if keep_reading:
        libc.prctl(_PR_SET_KEEPCAPS, 1, 0, 0, 0)
    os.setgroups([])
    os.setgid(_NOBODY)
    os.setuid(_NOBODY)
    if keep_reading:
        _keep_only_read_search(libc)


def _status_bytes(field: bytes) -> int | None:
    """A size from /proc/self/status (`VmSize:`, `VmData:`), in bytes."""
    try:
        with open("/proc/self/status", "rb") as status:
            for line in status:
                if line.startswith(field):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def _set_limit(kind: int, soft: int, hard: int | None = None) -> None:
    resource.setrlimit(kind, (soft, soft if hard is None else hard))


# What a GPU driver may still map for itself once warm (libraries loaded on first use,
# handles, staging buffers), on top of a job's share.
_DRIVER_MB = 512


def apply_rlimits(config: WorkerConfig, *, cpu_device: bool) -> None:
    _set_limit(resource.RLIMIT_CORE, 0)
    _set_limit(resource.RLIMIT_FSIZE, 0)  # writing any file raises SIGXFSZ
    # A GPU driver opens descriptors as it goes (device nodes per context and stream).
    _set_limit(resource.RLIMIT_NOFILE, _MAX_DESCRIPTORS if cpu_device else _MAX_GPU_DESCRIPTORS)
    if cpu_device:
        # GPU drivers start threads lazily and threads count as processes; CPU workers
        # need none (torch runs single-threaded here), so no new process or thread at all.
        _set_limit(resource.RLIMIT_NPROC, 0)
        # CUDA reserves far more address space than it uses, so only CPU workers get
        # an address-space limit; GPU workers get a memory fraction instead.
        baseline = _status_bytes(b"VmSize:")
        if baseline is not None:
            _set_limit(resource.RLIMIT_AS, baseline + config.memory_mb * 2**20)
    else:
        # Host memory still needs a wall: RLIMIT_DATA counts private writable mappings
        # (the heap, numpy's and torch's CPU buffers) and not the driver's reservations,
        # which are not writable, nor its shared mappings of device memory.
        data = _status_bytes(b"VmData:")
        if data is not None:
            _set_limit(resource.RLIMIT_DATA, data + (config.memory_mb + _DRIVER_MB) * 2**20)
    used = cpu_seconds()
    # Lifetime CPU budget as a hard limit; each job lowers the soft limit (set_job_cpu_limit).
    hard = int(used + config.cpu_budget_s + config.kill_after_s + 2)
    _set_limit(resource.RLIMIT_CPU, hard, hard)


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _next_job_cpu_limit(config: WorkerConfig) -> int:
    return int(cpu_seconds() + config.kill_after_s + 1)


def cpu_left_for_another_job(config: WorkerConfig) -> bool:
    """Whether the worker's lifetime CPU budget covers one more job at its full limit."""
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    return hard == resource.RLIM_INFINITY or _next_job_cpu_limit(config) < hard


def set_job_cpu_limit(config: WorkerConfig) -> None:
    """Soft CPU limit for the next job: past it, SIGXCPU ends the worker."""
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = _next_job_cpu_limit(config)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event in _DENIED_EVENTS:
        raise PermissionError(f"{event} is not allowed in the gradtrace sandbox")
    if event == "open":
        mode, flags = args[1], args[2]
        writes = isinstance(mode, str) and any(c in mode for c in "wax+")
        if writes or (isinstance(flags, int) and flags & _WRITE_FLAGS):
            raise PermissionError("writing files is not allowed in the gradtrace sandbox")


def prctl_not_dumpable() -> None:
    """No process of the same user may read this one's memory or environment in /proc
    (nor ptrace it); inherited by forked children."""
    if sys.platform.startswith("linux"):
        _libc().prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)


def threads_allowed(config: WorkerConfig) -> bool:
    """GPU drivers start threads of their own; a CPU worker needs none."""
    return config.device != "cpu"


_M_PERTURB = -6


def zero_fresh_memory() -> None:
    """Every block malloc hands out from now on is zeroed, and every freed block wiped
    (glibc's M_PERTURB: allocations are filled with the byte's complement, frees with
    the byte). The language zero-fills what a program asks for empty, but torch's own
    uninitialised buffers reach the trace too (MKL-DNN's RNN workspace, saved for
    backward): without this they show bytes of the previous job's tensors."""
    if sys.platform.startswith("linux"):
        _libc().mallopt(_M_PERTURB, 0xFF)


def confine(config: WorkerConfig, *, keep_fds: Sequence[int], parent: int) -> None:
    """Everything a worker does to itself before its first job, in an order that works:
    privileges first (root would ignore NPROC; the death signal is reset by setuid), the
    seccomp filter after every call it refuses (prctl, setrlimit is allowed) and before
    the audit hook (which refuses the ctypes loading of libseccomp's bindings)."""
    close_descriptors(keep_fds)
    zero_fresh_memory()
    if config.drop_privileges:
        drop_privileges()
    if sys.platform.startswith("linux"):
        _libc().prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    prctl_not_dumpable()
    die_with_parent(parent)
    apply_rlimits(config, cpu_device=config.device == "cpu")
    if seccomp_filter.available():  # else the launcher warned (layers.py)
        seccomp_filter.install(threads=threads_allowed(config))
    sys.addaudithook(_audit)
