"""A real service worker, started through the pool, has every layer of the wall."""

from __future__ import annotations

import os

import pytest
from tests.server.helpers import make_settings, open_app

from gradtrace.sandbox import layers

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(bool(layers.missing()), reason="sandbox layers missing here"),
]

SECRET = "GRADTRACE_TEST_SERVER_SECRET"


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


def _status(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/status") as file:
        return dict(line.split(":\t", 1) for line in file.read().splitlines() if ":\t" in line)


@pytest.mark.parametrize("cpu_start", ["fork", "spawn"])
async def test_service_workers_are_walled_in(anyio_backend: str, cpu_start: str) -> None:
    os.environ[SECRET] = "hunter2"
    try:
        async for api in open_app(make_settings(workers=2, cpu_start=cpu_start)):
            response = await api.client.post("/api/trace", json={"source": "print(1)\n"})
            assert response.json()["ok"] is True
            pids = api.app.state.service.pools["cpu"].stats().pids
            assert len(pids) == 2
            if cpu_start == "spawn":  # the pool knows bwrap's pid: the worker is below it
                pids = [_below_bwrap(pid) for pid in pids]
            for pid in pids:
                status = _status(pid)
                assert status["Seccomp"] == "2"
                assert status["NoNewPrivs"] == "1"
                assert status["CapEff"] == "0000000000000000"
                for ns in ("net", "pid", "mnt", "user", "ipc"):
                    assert os.readlink(f"/proc/{pid}/ns/{ns}") != os.readlink(
                        f"/proc/self/ns/{ns}"
                    ), ns
                with open(f"/proc/{pid}/environ", "rb") as environ:
                    names = {e.split(b"=")[0] for e in environ.read().split(b"\0") if e}
                assert SECRET.encode() not in names
                assert {b"OPENBLAS_NUM_THREADS", b"OMP_NUM_THREADS"} <= names
                # Its stderr is a socket of its own, not ours: a pipe could be reopened
                # through /proc/self/fd/2 and read (the server's log, other workers').
                assert os.readlink(f"/proc/{pid}/fd/2").startswith("socket:")
                assert os.readlink(f"/proc/{pid}/fd/2") != os.readlink("/proc/self/fd/2")
    finally:
        del os.environ[SECRET]


def _below_bwrap(pid: int) -> int:
    """The first process under `pid` that is not bwrap (bwrap, then its init, then ours)."""
    while True:
        with open(f"/proc/{pid}/comm") as comm:
            if comm.read().strip() != "bwrap":
                return pid
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            (child,) = children.read().split()
        pid = int(child)
