"""Which layers of the sandbox this host gives a worker, and the command that starts one.

A layer the host lacks (no bwrap, no user namespaces, no libseccomp bindings) does not
stop the service: it starts with the layers it has and says loudly which are missing.
"""

from __future__ import annotations

import functools
import logging
import os
import sys
from dataclasses import dataclass

from gradtrace.sandbox import bwrap, seccomp_filter

log = logging.getLogger("gradtrace.sandbox")


@dataclass(frozen=True)
class Missing:
    layer: str
    why: str
    fix: str


BWRAP_FIX = (
    "install bubblewrap (Debian: apt-get install bubblewrap) and allow user namespaces "
    "(sysctl kernel.unprivileged_userns_clone=1 where it exists; in Docker, the seccomp "
    "profile in deploy/seccomp.json, see docker-compose.yml)"
)
SECCOMP_FIX = (
    "install libseccomp (Debian: apt-get install libseccomp2) and its Python bindings "
    "(pip install pyseccomp, or Debian's python3-seccomp)"
)


@functools.cache
def missing() -> tuple[Missing, ...]:
    """The layers this host cannot give (probed once per process: bwrap is run once)."""
    found: list[Missing] = []
    why = bwrap.probe()
    if why is not None:
        found.append(
            Missing("namespaces (bubblewrap): own filesystem view, pid, network", why, BWRAP_FIX)
        )
    if seccomp_filter.bindings() is None:
        found.append(
            Missing("seccomp filter", "libseccomp's Python bindings are missing", SECCOMP_FIX)
        )
    elif not seccomp_filter.kernel_supports():
        found.append(
            Missing("seccomp filter", "this kernel has no seccomp filters", "CONFIG_SECCOMP_FILTER")
        )
    if not pidfds_work():
        # Without pidfds the server could only name a worker by a pid of the sandbox's
        # namespace, which here is another process: no sandbox then (see sandboxed()).
        found.append(
            Missing("namespaces (bubblewrap) and pidfds", "pidfd_open fails here", "Linux 5.3+")
        )
    return tuple(found)


def pidfds_work() -> bool:
    try:
        os.close(os.pidfd_open(os.getpid()))
    except (AttributeError, OSError):
        return False
    return True


def sandboxed() -> bool:
    return not any(m.layer.startswith("namespaces") for m in missing())


@functools.cache
def warn_if_missing() -> None:
    """Once per process (every pool's launcher calls it)."""
    for layer in missing():
        log.warning(
            "SANDBOX LAYER MISSING: %s (%s). Workers run without it. To enable: %s",
            layer.layer,
            layer.why,
            layer.fix,
        )


def process_command(
    module: str, *args: str, device: str = "cpu", extra_imports: tuple[str, ...] = ()
) -> bwrap.SandboxCommand:
    """`python -m module ARGS` as a worker process starts: in bwrap where the host allows,
    else a plain child; either way with the allowlisted environment only."""
    if sandboxed():
        return bwrap.wrap(
            bwrap.python_command(module, *args), device=device, extra_imports=extra_imports
        )
    env = bwrap.environment(bwrap.import_paths(extra_imports), sandboxed=False)
    return bwrap.SandboxCommand([sys.executable, "-m", module, *args], env, sandboxed=False)
