"""The first wall: a worker's world, built by bubblewrap.

Every sandboxed process (the CPU zygote, a spawned GPU worker, a `confined_call`) is
started by the same command: `bwrap` with new user, mount, pid, network, IPC, UTS and
cgroup namespaces, no capabilities, a new session, an environment built from an
allowlist, and a root that holds only read-only binds of what Python needs: the
interpreter, its prefixes, the directories on `sys.path` and the gradtrace package in
use, and the system's shared libraries. Descriptors that are not close-on-exec (the
control socket) pass through bwrap to the process.
"""

from __future__ import annotations

import functools
import glob
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import gradtrace

NOBODY = 65534
# Always set in a sandbox. The thread counts stop numpy's OpenBLAS (and OpenMP, MKL)
# from starting threads, which a CPU worker may not do.
_FIXED_ENV = {
    "PATH": "/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONNOUSERSITE": "1",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    # Large blocks (tensors) always mapped on their own and unmapped when freed: glibc's
    # default raises this threshold after the first free, after which freed tensors stay
    # in the heap, and a worker's address space (RLIMIT_AS) filled up across jobs: a
    # 48 MB job then failed after harmless ones (tests/server/test_state_leak.py).
    "MALLOC_MMAP_THRESHOLD_": "131072",
    # Fixing that threshold also fixes the heap top glibc keeps at 128 KiB: each job then
    # gave its top back and faulted it in again (5 % of a 20-node job). 8 MiB kept.
    "MALLOC_TRIM_THRESHOLD_": "8388608",
}
# An empty, read-only directory in every sandbox. torch creates its compiler cache
# directory when torch._dynamo is imported (lazily, by the warm-up): pointed here, that
# creation finds the directory there, and nothing is ever written.
EMPTY_DIR = "/var/empty"
_SANDBOX_ENV = {"TORCHINDUCTOR_CACHE_DIR": EMPTY_DIR, "TRITON_CACHE_DIR": EMPTY_DIR}
# Passed on from the server when set: nothing else of its environment is.
_PASSED_ENV = ("LC_ALL", "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "LD_LIBRARY_PATH")
# The system's shared libraries (libc, libstdc++, libseccomp; libcuda on GPU hosts).
_SYSTEM_LIBRARIES = ("/usr/lib", "/usr/lib64", "/usr/lib32", "/lib", "/lib64", "/lib32")
_LOADER_CACHE = "/etc/ld.so.cache"
# torch's cpuinfo reads the CPU topology at import.
_CPU_TOPOLOGY = "/sys/devices/system/cpu"


def executable() -> str | None:
    """bwrap's path, or None where it is not installed."""
    return shutil.which("bwrap")


def python_executable() -> str:
    """The interpreter as the sandbox names it: its directory resolved (the sandbox has no
    symlinked parents), its own name kept, so that a venv's python still finds its
    pyvenv.cfg next to it."""
    return os.path.join(
        os.path.realpath(os.path.dirname(sys.executable)), os.path.basename(sys.executable)
    )


def package_root() -> str:
    """The directory holding the gradtrace package this process imported."""
    return os.path.dirname(os.path.dirname(os.path.realpath(gradtrace.__file__)))


def import_paths(extra: Iterable[str] = ()) -> list[str]:
    """Where the sandboxed Python imports from, in order: the package in use first (it
    must win over another copy on the site path), then `extra`, then this process's
    `sys.path` entries, less the current directory (which may be anyone's home)."""
    try:
        here = os.path.realpath(os.getcwd())
    except OSError:  # a deleted working directory
        here = ""
    paths = [package_root(), *(os.path.realpath(entry) for entry in extra)]
    for entry in sys.path:
        real = os.path.realpath(entry) if entry else here
        if real != here and os.path.isdir(real):
            paths.append(real)
    return list(dict.fromkeys(paths))


def runtime_paths(imports: Sequence[str]) -> list[str]:
    """The directories to bind: Python's prefixes and every import path, the outermost
    of nested ones only."""
    wanted = {
        os.path.realpath(path)
        for path in (
            sys.prefix,
            sys.base_prefix,
            sys.exec_prefix,
            sys.base_exec_prefix,
            os.path.dirname(os.path.realpath(sys.executable)),
            *imports,
        )
    }
    wanted.discard("/")  # never the whole filesystem, whatever sys.path says
    kept: list[str] = []
    for path in sorted(wanted):
        if os.path.exists(path) and not any(path.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(path)
    return kept


def environment(imports: Sequence[str], *, sandboxed: bool = True) -> dict[str, str]:
    """The whole environment of a sandboxed process: an allowlist, never the server's.
    (Without bwrap, the cache directories keep torch's defaults: /var/empty is the
    host's own there.)"""
    env = dict(_FIXED_ENV) | (_SANDBOX_ENV if sandboxed else {})
    env["PYTHONPATH"] = os.pathsep.join(imports)
    for name in _PASSED_ENV:
        if name in os.environ:
            env[name] = os.environ[name]
    return env


def reachable_by_others(path: str) -> bool:
    """Whether a user who owns nothing can read `path` and search every directory above it."""
    current = os.path.realpath(path)
    while True:
        try:
            mode = os.stat(current).st_mode
        except OSError:
            return False
        if not mode & stat.S_IXOTH:
            return False
        parent = os.path.dirname(current)
        if parent == current:
            return True
        current = parent


def _system_binds() -> list[str]:
    args: list[str] = []
    for path in _SYSTEM_LIBRARIES:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for path in (_LOADER_CACHE, _CPU_TOPOLOGY):
        args += ["--ro-bind-try", path, path]
    return args


def _gpu_binds() -> list[str]:
    """The NVIDIA device nodes, /sys (the driver and NVML read it) and the driver's own
    libraries where they are outside the system's, for GPU workers."""
    args: list[str] = []
    for node in sorted(glob.glob("/dev/nvidia*")):
        args += ["--dev-bind", node, node]
    if os.path.isdir("/dev/dri"):
        args += ["--dev-bind", "/dev/dri", "/dev/dri"]
    for path in gpu_library_dirs():
        args += ["--ro-bind", path, path]
    return [*args, "--ro-bind", "/sys", "/sys"]


def _in_system_libraries(path: str) -> bool:
    return any(path == d or path.startswith(d + "/") for d in _SYSTEM_LIBRARIES)


@functools.cache
def gpu_library_dirs() -> list[str]:
    """Directories of the driver's libraries (libcuda, libnvidia-*) outside the system's
    library directories: GPU containers often mount them at /usr/local/nvidia/lib64 and
    name them on LD_LIBRARY_PATH or in the loader's cache, both of which a worker reads."""
    found = [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep) if d]
    ldconfig = shutil.which("ldconfig") or "/sbin/ldconfig"
    try:
        listing = subprocess.run(
            [ldconfig, "-p"], capture_output=True, text=True, timeout=10, check=False
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        listing = ""
    for line in listing.splitlines():
        name, _, path = line.strip().partition(" => ")
        if name.startswith(("libcuda.so", "libnvidia-")):
            found.append(os.path.dirname(path))
    real = dict.fromkeys(os.path.realpath(d) for d in found if os.path.isdir(d))
    return [d for d in real if not _in_system_libraries(d) and d != "/"]


@dataclass(frozen=True)
class SandboxCommand:
    """A command line to run as-is, and the user to run it as (None: this process's)."""

    argv: list[str]
    env: dict[str, str]
    user: int | None = None
    sandboxed: bool = True  # False: a plain child (the host has no working bwrap)

    def popen_kwargs(self) -> dict[str, Any]:
        """What subprocess.Popen and asyncio.create_subprocess_exec need besides argv."""
        if self.user is None:
            return {"env": self.env}
        return {"env": self.env, "user": self.user, "group": self.user, "extra_groups": []}


def run_as(binds: Sequence[str]) -> int | None:
    """Under root, bwrap runs as nobody where nobody can read everything it binds, so that
    no sandboxed process is root outside its namespace. Else (a Python under /root) it
    stays root outside, inside a user namespace that gives it no capability at all."""
    if os.geteuid() != 0:
        return None
    return NOBODY if all(reachable_by_others(path) for path in binds) else None


# The device nodes a worker may open: bwrap's own --dev would add /dev/pts and /dev/ptmx,
# where opening /dev/ptmx, even read-only, makes a pseudo-terminal (the tty layer is
# kernel code no job needs to reach). /dev/shm stays out: a worker writes no files.
_DEVICES = ("null", "zero", "full", "random", "urandom")


def _devices() -> list[str]:
    args = ["--tmpfs", "/dev"]
    for name in _DEVICES:
        if os.path.exists(f"/dev/{name}"):
            args += ["--dev-bind", f"/dev/{name}", f"/dev/{name}"]
    for name, target in (
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ):
        args += ["--symlink", target, f"/dev/{name}"]
    return args


def wrap(
    command: Sequence[str], *, device: str = "cpu", extra_imports: Iterable[str] = ()
) -> SandboxCommand:
    """`command` (a Python command line, with `python_executable()` first) inside bwrap."""
    bwrap = executable()
    if bwrap is None:
        raise FileNotFoundError("bwrap is not installed")
    imports = import_paths(extra_imports)
    binds = runtime_paths(imports)
    env = environment(imports)
    argv = [
        bwrap,
        "--unshare-all",  # user (try), mount, pid, net, ipc, uts, cgroup (try)
        "--unshare-user",
        "--uid",
        str(NOBODY),
        "--gid",
        str(NOBODY),
        # Not --as-pid-1: a namespace's init ignores signals it has no handler for, and the
        # kernel's SIGXCPU at a job's CPU limit must end a worker. bwrap's init is pid 1.
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--clearenv",
        *(arg for name, value in env.items() for arg in ("--setenv", name, value)),
        "--hostname",
        "gradtrace",
        *_system_binds(),
        *(arg for path in binds for arg in ("--ro-bind", path, path)),
        "--proc",
        "/proc",
        *_devices(),
        *(_gpu_binds() if device.startswith("cuda") else ()),
        "--remount-ro",
        "/dev",
        "--dir",
        EMPTY_DIR,
        "--remount-ro",
        "/",
        "--chdir",
        "/",
        "--",
        *command,
    ]
    return SandboxCommand(argv=argv, env=env, user=run_as(binds))


def outer_uid() -> int:
    """The uid a sandboxed process has outside its user namespace: bwrap's own."""
    user = run_as(runtime_paths(import_paths()))
    return os.geteuid() if user is None else user


def python_command(module: str, *args: str) -> list[str]:
    return [python_executable(), "-m", module, *args]


@functools.cache
def probe() -> str | None:
    """None if bwrap can build a sandbox on this host; else why not (bwrap's own words)."""
    if executable() is None:
        return "bwrap (bubblewrap) is not installed"
    sandbox = wrap([python_executable(), "-c", "pass"])
    try:
        result = subprocess.run(
            sandbox.argv,
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
            **sandbox.popen_kwargs(),
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap could not run: {error}"
    if result.returncode != 0:
        return f"bwrap failed: {result.stderr.strip()[-500:] or result.returncode}"
    return None
