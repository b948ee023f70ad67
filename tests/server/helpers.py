"""Shared by the service's tests: programs, the in-process reference, and comparisons."""

from __future__ import annotations

import functools
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson
from fastapi import FastAPI

import gradtrace
from gradtrace.examples import load_examples
from gradtrace.server import Settings, create_app

REPO = Path(__file__).resolve().parents[2]
SHARED_SEEDS = REPO.parent / "shared" / "programs" / "seeds"
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
# elapsed_ms is timing; sequence_nr is torch's per-thread counter of autograd nodes, so it
# depends on what the process ran before (the worker ran a warm-up and earlier jobs).
TIMING_KEYS = frozenset({"elapsed_ms", "sequence_nr"})

# A program the language accepts that keeps a worker busy for a while, for tests that need
# a busy server. The constant makes each one distinct (no cache, no coalescing).
SLOW_PROGRAM = """\
import torch
x = torch.tensor({n}.0, requires_grad=True)
total = x
for i in range(60000):
    total = total + 0
print(total)
"""

# Runs until the wall-time limit: a plain `while True` ends in milliseconds at the
# loop-iteration limit, and a step-bound loop ends sooner on a faster machine, so tests
# that need a job still running later use this one (each determinant takes some ms in C).
UNTIL_THE_TIME_LIMIT = (
    "import torch\na = torch.randn(400, 400)\n"
    "for i in range(100000):\n    d = torch.linalg.det(a)\n"
)


def seed_programs() -> list[Path]:
    return sorted(SHARED_SEEDS.glob("*.py")) if SHARED_SEEDS.is_dir() else []


def example_sources() -> dict[str, str]:
    return {example.id: example.source for example in load_examples()}


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in TIMING_KEYS}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    if isinstance(value, str):
        return ADDRESS.sub("0x?", value)
    return value


def comparable(trace_json: bytes | str | dict[str, Any]) -> Any:
    """A trace as JSON data, minus timing fields and object addresses (which differ
    between processes and runs)."""
    data = trace_json if isinstance(trace_json, dict) else orjson.loads(trace_json)
    return _strip(data)


@functools.cache
def reference_trace(source: str, seed: int = 0) -> Any:
    """What the engine gives in this process: the reference the service must match."""
    return comparable(gradtrace.run_json(source, device="cpu", seed=seed))


# Short limits keep the hostile tests quick; the messages name whatever limit is set.
TEST_TIMEOUT_S = 2.0


def make_settings(**overrides: object) -> Settings:
    values: dict[str, object] = {
        "workers": 2,
        "timeout": TEST_TIMEOUT_S,
        "queue": 64,
        "cache_mb": 64,
    }
    values.update(overrides)
    return Settings(**values)  # type: ignore[arg-type]


@dataclass
class AppClient:
    app: FastAPI
    client: httpx.AsyncClient
    settings: Settings


async def open_app(settings: Settings) -> AsyncIterator[AppClient]:
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://test", timeout=60
        ) as client:
            yield AppClient(app, client, settings)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class LiveServer:
    url: str
    process: subprocess.Popen[bytes]


def start_server(
    *flags: str, env: dict[str, str] | None = None, python: str | Path = sys.executable
) -> LiveServer:
    """`gradtrace serve` in its own process, on a free port of 127.0.0.1 (run by `python`:
    another environment's, to test an installed package)."""
    port = _free_port()
    command = [str(python), "-m", "gradtrace.cli", "serve", "--port", str(port), *flags]
    process = subprocess.Popen(
        command,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gradtrace serve exited with {process.returncode}")
        try:
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                return LiveServer(url, process)
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    process.kill()
    raise RuntimeError("gradtrace serve did not answer within 90 s")


def stop_server(server: LiveServer) -> None:
    server.process.terminate()
    try:
        server.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()
