"""The service benchmark's floor, run side by side with `gradtrace serve` on the same
cores: what the machine does at that moment for a bare service of the same request.

One async endpoint on uvicorn (uvloop, httptools) hands each program to a pre-started
worker process behind a FIFO queue (a ProcessPoolExecutor) and returns the worker's
orjson bytes as they are. The worker does the bench program's maths in plain torch
(one thread) and returns every tensor's value and gradient: what any tracing service
must at least do, without an interpreter, a sandbox, a recorder or a cache. It reads the
program's one varying constant from the source and runs nothing else of it.

`python -m bench.reference_server PORT WORKERS`
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import re
import sys
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from typing import Any

import orjson
import uvicorn
from fastapi import FastAPI
from pydantic import BaseModel
from starlette.responses import Response

# The constant of `b = torch.tensor([0.1, {c}], requires_grad=True)` in server_bench.PROGRAM.
_CONSTANT = re.compile(r"\[0\.1, ([0-9.]+)\]")


class TraceRequest(BaseModel):
    source: str
    device: str = "cpu"


def _warm_up() -> None:
    import torch

    torch.set_num_threads(1)
    for _ in range(20):
        trace_program("b = torch.tensor([0.1, 0.5])")


def trace_program(source: str) -> bytes:
    """server_bench.PROGRAM's maths, every intermediate kept with its gradient."""
    import torch

    found = _CONSTANT.search(source)
    c = float(found.group(1)) if found else 0.0
    w = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
    b = torch.tensor([0.1, c], requires_grad=True)
    x = torch.tensor([1.0, 2.0])
    wx = w @ x
    pre = wx + b
    h = torch.tanh(pre)
    squares = h * h
    total = squares.sum()
    b2 = b.pow(2)
    mean = b2.mean()
    loss = total + mean
    named = {
        "w": w, "b": b, "x": x, "wx": wx, "pre": pre, "h": h, "squares": squares,
        "total": total, "b2": b2, "mean": mean, "loss": loss,
    }  # fmt: skip
    for tensor in named.values():
        if tensor.requires_grad and not tensor.is_leaf:
            tensor.retain_grad()
    loss.backward()
    nodes: list[dict[str, Any]] = [
        {
            "name": name,
            "shape": list(tensor.shape),
            "value": tensor.tolist(),
            "grad": None if tensor.grad is None else tensor.grad.tolist(),
            "grad_fn": None if tensor.grad_fn is None else type(tensor.grad_fn).__name__,
        }
        for name, tensor in named.items()
    ]
    return orjson.dumps({"ok": True, "output": f"{w.grad}\n", "nodes": nodes})


def create_app(workers: int) -> FastAPI:
    # Spawned, not forked from a server that has started threads.
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_warm_up,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        pool.shutdown(cancel_futures=True)

    app = FastAPI(lifespan=lifespan)

    @app.get("/api/health")
    async def health() -> Response:
        return Response(b'{"ok":true}', media_type="application/json")

    @app.post("/api/trace")
    async def trace(body: TraceRequest) -> Response:
        result = await asyncio.get_running_loop().run_in_executor(pool, trace_program, body.source)
        return Response(result, media_type="application/json")

    # Workers start on demand: start them all (each warms up as it starts) before the
    # first request is timed.
    for future in [pool.submit(os.getpid) for _ in range(workers)]:
        future.result()
    return app


def main(argv: list[str]) -> None:
    port, workers = int(argv[0]), int(argv[1])
    uvicorn.run(
        create_app(workers),
        host="127.0.0.1",
        port=port,
        loop="uvloop",
        http="httptools",
        access_log=False,
        log_level="warning",
    )


if __name__ == "__main__":
    main(sys.argv[1:])
