"""`gradtrace doctor`: which layers of the sandbox this host gives its workers.

It does not trust configuration: it starts a process exactly as a worker starts
(`confined_call`), and that process looks at itself: its namespaces, capabilities,
seccomp mode, environment, what it can see, and what it is refused.
"""

from __future__ import annotations

import ctypes
import errno
import os
import resource
import socket
import sys
from dataclasses import dataclass

from gradtrace.sandbox import bwrap, layers
from gradtrace.sandbox.confined import ConfinedCallError, confined_call

_NAMESPACES = ("user", "mnt", "pid", "net", "ipc", "uts")
# The probe goes past the audit hook (a tripwire, which would refuse ctypes loading later):
# raw libc, loaded when the confined process imports this module, before it confines itself.
_libc = ctypes.CDLL(None, use_errno=True)
# What bwrap itself sets besides the allowlist.
_SET_BY_BWRAP = frozenset({"PWD"})


@dataclass(frozen=True)
class Check:
    layer: str
    active: bool
    detail: str
    fix: str = ""
    required: bool = True


def _status() -> dict[str, str]:
    with open("/proc/self/status") as file:
        return dict(line.split(":\t", 1) for line in file.read().splitlines() if ":\t" in line)


def _namespaces() -> dict[str, str]:
    return {ns: os.readlink(f"/proc/self/ns/{ns}") for ns in _NAMESPACES}


def _other_processes() -> list[int]:
    """The processes it can see besides itself and bwrap's init (pid 1 of its namespace)."""
    others = [n for n in os.listdir("/proc") if n.isdigit() and int(n) != os.getpid()]
    with open("/proc/1/comm") as comm:
        if comm.read().strip() == "bwrap":
            others.remove("1")
    return sorted(int(n) for n in others)


def _refused(attempt: str) -> bool:
    """Whether raw libc is refused `attempt`."""
    if attempt == "socket":
        fd = _libc.socket(socket.AF_INET, socket.SOCK_STREAM, 0)
    elif attempt == "fork":
        fd = _libc.fork()
        if fd == 0:
            os._exit(0)
    else:  # writing a file a process's own user may write
        fd = _libc.open(b"/proc/self/comm", os.O_WRONLY)
    if fd >= 0:  # it was allowed: clean up
        if attempt == "fork":
            os.waitpid(fd, 0)
        else:
            os.close(fd)
        return False
    return ctypes.get_errno() in (errno.EPERM, errno.EACCES, errno.EROFS, errno.EAGAIN)


def probe_inside() -> dict[str, object]:
    """Run in the confined process: what it is, sees and may do."""
    status = _status()
    return {
        "namespaces": _namespaces(),
        "seccomp": status.get("Seccomp", "?"),
        "no_new_privs": status.get("NoNewPrivs", "?"),
        "capabilities": status.get("CapEff", "?"),
        "uid": os.getuid(),
        "nproc": resource.getrlimit(resource.RLIMIT_NPROC)[0],
        "sees_etc_passwd": os.path.exists("/etc/passwd"),
        "sees_others": _other_processes(),
        "environment": sorted(os.environ),
        "socket_refused": _refused("socket"),
        "fork_refused": _refused("fork"),
        "write_refused": _refused("write"),
    }


def _seen(others: object) -> str:
    assert isinstance(others, list)
    if not others:
        return "sees only itself (and bwrap's init)"
    if len(others) > 8:
        return f"sees {len(others)} other processes"
    return f"sees pids {others}"


def checks() -> list[Check]:
    """Every layer, probed in a confined process."""
    missing = {m.layer.split(" ")[0]: m for m in layers.missing()}
    try:
        inside = confined_call(probe_inside, timeout_s=180)
    except (ConfinedCallError, OSError) as error:
        return [Check("confined process", False, f"could not start one: {error}")]
    ours = _namespaces()
    theirs = inside["namespaces"]
    assert isinstance(theirs, dict)
    shared = [ns for ns in _NAMESPACES if theirs[ns] == ours[ns]]
    why_bwrap = missing["namespaces"].why if "namespaces" in missing else ""
    # In a user namespace the process cannot see its uid outside (bwrap may nest two
    # namespaces): it is the uid bwrap runs as. Without bwrap, its own.
    outer_uid = bwrap.outer_uid() if "user" not in shared else inside["uid"]
    environment = inside["environment"]
    assert isinstance(environment, list)
    beyond = sorted(set(environment) - set(bwrap.environment([])) - _SET_BY_BWRAP)
    result = [
        Check(
            "namespaces (bubblewrap): user, mount, pid, net, ipc, uts",
            not shared,
            "own namespaces" if not shared else f"shares {', '.join(shared)}. {why_bwrap}",
            layers.BWRAP_FIX,
        ),
        Check(
            "filesystem: only the Python runtime, read-only",
            not inside["sees_etc_passwd"] and bool(inside["write_refused"]),
            "/etc/passwd is "
            + ("visible" if inside["sees_etc_passwd"] else "not there")
            + ", writing is "
            + ("refused" if inside["write_refused"] else "allowed"),
            layers.BWRAP_FIX,
        ),
        Check(
            "processes: sees no other",
            not inside["sees_others"],
            _seen(inside["sees_others"]),
            layers.BWRAP_FIX,
        ),
        Check(
            "network: none",
            bool(inside["socket_refused"]) and "net" not in shared,
            ("sockets refused" if inside["socket_refused"] else "may open sockets")
            + (", the server's network namespace" if "net" in shared else ", no network"),
            layers.BWRAP_FIX + "; " + layers.SECCOMP_FIX,
        ),
        Check(
            "environment: allowlist only",
            not beyond,
            f"{len(environment)} variables, all allowlisted" if not beyond else f"also {beyond}",
        ),
        Check(
            "seccomp filter (libseccomp)",
            inside["seccomp"] == "2",
            f"Seccomp: {inside['seccomp']}",
            layers.SECCOMP_FIX,
        ),
        Check(
            "no privileges",
            inside["no_new_privs"] == "1" and int(str(inside["capabilities"]), 16) == 0,
            f"NoNewPrivs {inside['no_new_privs']}, capabilities {inside['capabilities']}",
        ),
        Check(
            "no new processes",
            bool(inside["fork_refused"]),
            f"fork refused, RLIMIT_NPROC {inside['nproc']}",
        ),
        Check(
            "runs as an unprivileged user outside its namespace",
            outer_uid != 0,
            f"uid {outer_uid} outside",
            "run the server as an ordinary user, or install Python where others can read it "
            "(then a root server starts its sandboxes as nobody)",
            required=False,
        ),
    ]
    return result


def main() -> int:
    """Print each layer, active or not, and how to enable the missing ones; exit 1 if any
    layer is missing."""
    print("gradtrace sandbox layers on this host (probed in a confined process):")
    found = checks()
    for check in found:
        mark = "active " if check.active else "MISSING" if check.required else "weaker "
        print(f"  [{mark}] {check.layer}: {check.detail}")
    fixes: dict[str, list[str]] = {}
    for check in found:
        if check.fix and not check.active:
            fixes.setdefault(check.fix, []).append(check.layer.split(":")[0])
    for fix, names in fixes.items():
        print(f"  for {'; '.join(names)}: {fix}")
    absent = [check for check in found if check.required and not check.active]
    if absent:
        print(
            f"{len(absent)} layer(s) missing: a program that got past the language could use that."
        )
        return 1
    print("every layer is active.")
    return 0


if __name__ == "__main__":
    # Through its import name: the probe travels to the confined process by name.
    from gradtrace.sandbox import doctor

    sys.exit(doctor.main())
