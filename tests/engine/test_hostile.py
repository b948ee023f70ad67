"""Hostile programs: each must fail fast, with the expected error type, and do nothing.

Each file in tests/hostile/ starts with `# expect: TYPE[|TYPE...]`. The program runs
through the worker's path (`trace_program` with limits=Limits(wall_time_s=2.0), its
JSON bytes read back against the schema) in a child forked from
this test process (so that an engine that hangs in C code, or allocates without limit,
fails this test instead of the whole suite): the child warms the engine up, counts its
open fds and threads, changes into a fresh directory holding a sentinel file, runs the
program under an address-space cap, and reports the trace, the time taken, and the
counts after. The test checks: finished within 2 s + 1 s, `ok` false, the expected
error type with a message and a line >= 1, the sentinel untouched, no new files, no
fds, threads or child processes left behind.

A second group runs state-changing programs in this very process, one after another,
and checks that the next program still sees a clean torch state (seed, default dtype,
grad mode, print options, torch's own functions).
"""

from __future__ import annotations

import json
import os
import re
import resource
import select
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from engine_support import HOSTILE

WALL = 2.0
SLACK = 1.0
HARD_KILL_S = 15.0
ADDRESS_SPACE = 3 * 1024**3
SENTINEL = "sentinel.txt"
SENTINEL_TEXT = "do not touch\n"
# Exercises what starts torch's persistent pool threads (big tensors, their stats), so
# that only threads a hostile program leaves behind count.
WARM_UP = (
    "import torch\nx = torch.ones(3, requires_grad=True)\n(x * 2).sum().backward()\n"
    "big = torch.ones(1000, 1000)\nprint((big @ big).sum())\n"
    # An optimizer's first use imports for seconds; the service's workers warm it up too.
    "opt = torch.optim.SGD([x], lr=0.1)\nopt.step()\n"
)

EXPECT = re.compile(r"^# expect: ([A-Za-z|]+)\s*$")


def hostile_files() -> list[Path]:
    return sorted(HOSTILE.glob("*.py"))


def expected_types(path: Path) -> set[str]:
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    m = EXPECT.match(first)
    assert m, f"{path.name}: first line must be '# expect: TYPE'"
    return set(m.group(1).split("|"))


def _count(path: str) -> int:
    return len(os.listdir(path))


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as f:
                stat = f.read()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces, so split after the last ')'
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry))
    return found


def _child_main(source: str, workdir: str, w: int) -> None:
    import torch

    import gradtrace

    torch.set_num_threads(1)  # the parent's OpenMP pool does not survive fork
    result: dict[str, Any] = {}
    try:
        from gradtrace.trace.session import trace_program

        gradtrace.run(WARM_UP)
        os.chdir(workdir)
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
        fds = _count("/proc/self/fd")
        threads = _count("/proc/self/task")
        t0 = time.monotonic()
        # The worker's path: the trace written as the JSON bytes it sends, then read back
        # against the schema (a value orjson or the schema refuses fails here).
        payload = trace_program(
            source, device="cpu", seed=0, limits=gradtrace.Limits(wall_time_s=WALL)
        )
        result["elapsed"] = time.monotonic() - t0
        gradtrace.Trace.model_validate_json(payload)
        result["trace"] = json.loads(payload)
        time.sleep(0.05)  # let threads that are on their way out finish
        result["fds"] = [fds, _count("/proc/self/fd")]
        result["threads"] = [threads, _count("/proc/self/task")]
        result["children"] = _children(os.getpid())
    except BaseException as exc:
        result["crash"] = f"{type(exc).__name__}: {exc}"
    data = json.dumps(result).encode()
    view = memoryview(data)
    while view:
        n = os.write(w, view)
        view = view[n:]
    os._exit(0)


_parent_warm: list[bool] = []


def _warm_parent() -> None:
    """The engine warmed up once in this process, before its first fork: each child
    inherits what the warm-up imported and made (~2 s a child otherwise)."""
    if not _parent_warm:
        import gradtrace

        gradtrace.run(WARM_UP)
        _parent_warm.append(True)


def run_in_child(source: str, workdir: Path) -> dict[str, Any]:
    _warm_parent()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.close(r)
            _child_main(source, str(workdir), w)
        finally:
            os._exit(1)
    os.close(w)
    chunks = []
    deadline = time.monotonic() + HARD_KILL_S
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                os.kill(pid, signal.SIGKILL)
                return {"hung": True}
            ready, _, _ = select.select([r], [], [], left)
            if ready:
                chunk = os.read(r, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
    finally:
        os.close(r)
        _, status = os.waitpid(pid, 0)
    if not chunks:
        return {"crash": f"the child died without a result (wait status {status})"}
    return json.loads(b"".join(chunks))  # type: ignore[no-any-return]


def test_enough_hostile_programs() -> None:
    assert len(hostile_files()) >= 70


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
@pytest.mark.parametrize("path", hostile_files(), ids=lambda p: p.stem)
def test_hostile(path: Path, tmp_path: Path) -> None:
    expected = expected_types(path)
    source = path.read_text(encoding="utf-8")
    workdir = tmp_path / "cwd"
    workdir.mkdir()
    (workdir / SENTINEL).write_text(SENTINEL_TEXT)
    before = sorted(os.listdir(workdir))

    result = run_in_child(source, workdir)

    assert not result.get("hung"), f"the job did not return within {HARD_KILL_S} s"
    assert "crash" not in result, result.get("crash")
    trace = result["trace"]
    err = trace["error"]
    assert not trace["ok"], f"ran to its end; stdout: {trace['stdout'][:300]!r}"
    assert err is not None
    assert err["type"] in expected, f"{err['type']}: {err['message']} (line {err['line']})"
    assert err["message"], "an error without a message"
    assert isinstance(err["line"], int) and err["line"] >= 1, f"line {err['line']}"
    assert result["elapsed"] <= WALL + SLACK, f"took {result['elapsed']:.2f} s"
    assert (workdir / SENTINEL).read_text() == SENTINEL_TEXT, "the sentinel file changed"
    assert sorted(os.listdir(workdir)) == before, "files appeared in the working directory"
    assert result["fds"][1] <= result["fds"][0], f"open fds {result['fds']}"
    assert result["threads"][1] <= result["threads"][0], f"threads {result['threads']}"
    assert not result["children"], f"child processes left running: {result['children']}"


# -- state must not leak from one run into the next --------------------------------------

PROBE = """import torch
print(torch.rand(3))
print(torch.get_default_dtype(), torch.is_grad_enabled())
print(torch.tensor([1.0 / 3.0, 12345.678901]))
print(torch.add(torch.ones(1), torch.ones(1)))
x = torch.ones(2, requires_grad=True)
y = (x * 3).sum()
y.backward()
print(x.grad, y.grad_fn.name())
w = torch.ones(2, requires_grad=True)
(w * w).sum().backward()
print(w.grad, torch.func.grad(lambda t: (t * t).sum())(torch.ones(2)))
with torch.autograd.forward_ad.dual_level():
    d = torch.autograd.forward_ad.make_dual(torch.ones(1), torch.ones(1))
    print(torch.autograd.forward_ad.unpack_dual(d * 2).tangent)
print(torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
"""

STATE_CHANGERS = [
    "import torch\ntorch.manual_seed(123)\nprint(torch.rand(1))\n",
    "import torch\ntorch.set_default_dtype(torch.float64)\nprint(torch.ones(1).dtype)\n",
    "import torch\ntorch.set_grad_enabled(False)\nprint(torch.is_grad_enabled())\n",
    "import torch\ntorch.set_printoptions(precision=10)\nprint(torch.tensor([1 / 3]))\n",
    "import torch\ntorch.add = torch.sub\n",
    "import torch\ntorch.Tensor.backward = print\n",
    "import torch\nx = torch.rand(5)\nwhile True:\n    x = x + 1\n",
    "import torch\nwith torch.no_grad():\n    while True:\n        pass\n",
    "import torch\ntorch.set_grad_enabled(False)\nx = 1 / 0\n",
    "import torch\nx = torch.ones(2, requires_grad=True)\nx.register_hook(lambda g: 1 / 0)\n"
    "(x * 2).sum().backward()\n",
    # stopped inside a transform, inside a dual level, inside saved-tensor hooks
    "import torch\ndef f(t):\n    while True:\n        pass\n"
    "with torch.autograd.graph.saved_tensors_hooks(print, print):\n"
    "    with torch.autograd.forward_ad.dual_level():\n"
    "        torch.func.vmap(torch.func.grad(f))(torch.ones(2, 2))\n",
    "import torch\nprint(torch.func.jacrev(lambda t: 1 / 0)(torch.ones(2)))\n",
    # the job's own cuDNN switches (language/backends.py), also when stopped by the clock
    "import torch\ntorch.backends.cudnn.deterministic = True\n"
    "torch.backends.cudnn.benchmark = True\n",
    "import torch\ntorch.backends.cudnn.deterministic = True\nwhile True:\n    pass\n",
]


def test_no_state_leaks_between_runs() -> None:
    import gradtrace

    limits = gradtrace.Limits(wall_time_s=WALL)
    clean = gradtrace.run(PROBE, limits=limits)
    assert clean.ok, clean.error
    for source in STATE_CHANGERS:
        gradtrace.run(source, limits=limits)
        after = gradtrace.run(PROBE, limits=limits)
        assert after.ok, (source, after.error)
        assert after.stdout == clean.stdout, f"after running:\n{source}"


def test_probe_matches_cpython(tmp_path: Path) -> None:
    """The state probe itself prints what CPython + torch prints after manual_seed(0)."""
    import subprocess

    import gradtrace

    script = tmp_path / "probe.py"
    script.write_text(PROBE)
    ref = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import torch, runpy; torch.manual_seed(0); runpy.run_path({str(script)!r})",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert gradtrace.run(PROBE).stdout == ref.stdout
