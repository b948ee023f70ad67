"""The HTTP service under load: requests per second and latency of POST /api/trace.

Starts `gradtrace serve` and a bare reference service (reference_server.py) on 127.0.0.1
(free ports) and sends traffic only there, from a small keep-alive HTTP/1.1 client
written on asyncio streams (an httpx client would cost more CPU than the server on a
2-core machine). Every scenario is bounded in requests and seconds; the whole bench
takes about five minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import orjson
import uvloop

from bench.sandbox_cost import markdown_lines, pre_sandbox_backend
from bench.tables import table

# About 20 nodes: 2 leaves, their intermediates, and the function nodes between them.
PROGRAM = """\
import torch
w = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
b = torch.tensor([0.1, {c}], requires_grad=True)
x = torch.tensor([1.0, 2.0])
h = torch.tanh(w @ x + b)
loss = (h * h).sum() + b.pow(2).mean()
loss.backward()
print(w.grad)
"""
HOSTILE = [
    "import torch\nx = torch.zeros(100000, 100000 + {c})\n",
    "import os\nos.fork()\nprint({c})\n",
    "def f(n):\n    return f(n + {c})\n\nf(0)\n",
    "x = " + "(" * 3000 + "{c}" + ")" * 3000 + "\n",
    "rows = [[{c}] * 1000000 for i in range(1000)]\n",
]
CONCURRENCY = (1, 8, 32, 64)
MISS_ROUNDS = 9  # with three servers, each runs first in three rounds
SCENARIO_SECONDS = 3.0
SCENARIO_REQUESTS = 4000


@dataclass
class Result:
    label: str
    connections: int
    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    errors: int
    # CPU seconds each side spent in the scenario: (server, workers and zygote, client).
    cpu_s: tuple[float, float, float] | None = None

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


def _request(source: str) -> bytes:
    body = orjson.dumps({"source": source, "device": "cpu"})
    head = (
        f"POST /api/trace HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def _connection(
    port: int,
    bodies: Iterator[tuple[bytes, bool]],
    deadline: float,
    budget: list[int],
    good_ms: list[float],
    bad_ms: list[float],
    errors: list[int],
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        # Each connection is a browser: it keeps the client token the server gives it.
        cookie = await _client_cookie(reader, writer)
        while time.perf_counter() < deadline and budget[0] > 0:
            budget[0] -= 1
            request, hostile = next(bodies)
            if cookie:
                request = request.replace(b"\r\n\r\n", cookie + b"\r\n\r\n", 1)
            started = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            await reader.readexactly(length)
            elapsed = (time.perf_counter() - started) * 1000
            if not head.startswith(b"HTTP/1.1 200"):
                errors[0] += 1
            (bad_ms if hostile else good_ms).append(elapsed)
    finally:
        writer.close()


async def _client_cookie(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bytes:
    """The `Cookie:` line for the token a GET of /api/health sets, if the server sets one."""
    writer.write(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    head = await reader.readuntil(b"\r\n\r\n")
    cookie = b""
    length = 0
    for line in head.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
        elif name.lower() == b"set-cookie":
            cookie = b"\r\nCookie: " + value.split(b";", 1)[0].strip()
    await reader.readexactly(length)
    return cookie


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat_fields(pid: int | str) -> list[str]:
    # The command name in parentheses may hold spaces: the fields follow its last ')'.
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _process_cpu_s(pid: int, *, with_children: bool) -> float:
    fields = _stat_fields(pid)
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    if with_children:
        ticks += int(fields[13]) + int(fields[14])  # of children it reaped (old workers)
    return ticks / _TICKS


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parent = int(_stat_fields(entry)[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry))
    found, stack = [], list(children.get(pid, []))
    while stack:
        child = stack.pop()
        found.append(child)
        stack.extend(children.get(child, []))
    return found


def _cpu_now(server_pid: int) -> tuple[float, float, float] | None:
    """CPU seconds so far of the server process, of its workers (with the zygote and what
    it reaped), and of this client; None where /proc cannot tell."""
    if not os.path.isdir("/proc"):
        return None
    try:
        server = _process_cpu_s(server_pid, with_children=False)
        workers = 0.0
        for pid in _descendants(server_pid):
            # One that exited meanwhile is counted by its zygote once reaped.
            with contextlib.suppress(OSError):
                workers += _process_cpu_s(pid, with_children=True)
    except OSError:
        return None
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return server, workers, usage.ru_utime + usage.ru_stime


async def _scenario(
    port: int,
    label: str,
    connections: int,
    bodies: Iterator[tuple[bytes, bool]],
    server_pid: int | None = None,
) -> Result:
    good: list[float] = []
    bad: list[float] = []
    errors = [0]
    budget = [SCENARIO_REQUESTS]
    # Requests made before the clock starts: the load generator shares the cores, so it
    # should spend them on sending and reading only.
    bodies = iter(list(itertools.islice(bodies, SCENARIO_REQUESTS)))
    cpu_before = _cpu_now(server_pid) if server_pid is not None else None
    started = time.perf_counter()
    deadline = started + SCENARIO_SECONDS
    await asyncio.gather(
        *(
            _connection(port, bodies, deadline, budget, good, bad, errors)
            for _ in range(connections)
        )
    )
    seconds = time.perf_counter() - started
    cpu_after = _cpu_now(server_pid) if server_pid is not None else None
    cpu = None
    if cpu_before is not None and cpu_after is not None:
        cpu = (
            cpu_after[0] - cpu_before[0],
            cpu_after[1] - cpu_before[1],
            cpu_after[2] - cpu_before[2],
        )
    return Result(
        label,
        connections,
        len(good) + len(bad),
        seconds,
        _percentile(good, 0.5),
        _percentile(good, 0.99),
        errors[0],
        cpu,
    )


def _hits() -> Iterator[tuple[bytes, bool]]:
    request = _request(PROGRAM.format(c=0.2))
    return itertools.repeat((request, False))


def _misses(start: int) -> Iterator[tuple[bytes, bool]]:
    for n in itertools.count(start):
        yield _request(PROGRAM.format(c=f"0.{n}")), False


def _mixed(start: int) -> Iterator[tuple[bytes, bool]]:
    for n in itertools.count(start):
        if n % 10 == 0:
            yield _request(HOSTILE[(n // 10) % len(HOSTILE)].format(c=n)), True
        else:
            yield _request(PROGRAM.format(c=f"0.{n}")), False


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """A server process on a free port of 127.0.0.1: `gradtrace serve`, or another
    module run with the port (and `args`) on its command line."""

    def __init__(
        self, env: dict[str, str], module: str | None = None, args: tuple[str, ...] = ()
    ) -> None:
        self.port = _free_port()
        command = (
            [sys.executable, "-m", module, str(self.port), *args]
            if module
            else [sys.executable, "-m", "gradtrace.cli", "serve", "--port", str(self.port)]
        )
        self.process = subprocess.Popen(
            command,
            env={**os.environ, **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/health", timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"{' '.join(command[2:4])} did not start")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def load(self, label: str, connections: int, bodies: Iterator[tuple[bytes, bool]]) -> Result:
        # uvloop, as the server uses: the load generator's own cost, on the cores it
        # shares with the server, is a third lower than with asyncio's loop.
        return uvloop.run(_scenario(self.port, label, connections, bodies, self.process.pid))


def _run(
    env: dict[str, str], plan: Callable[[int], list[tuple[str, int, Iterator[tuple[bytes, bool]]]]]
) -> list[Result]:
    with Server(env) as server:
        return [server.load(*scenario) for scenario in plan(server.port)]


REFERENCE = "bench.reference_server"
REFERENCE_LABEL = "reference: bare FastAPI, plain torch"


BASELINE_LABEL = "cache miss, before issue 15"


def compare_misses(
    connections: tuple[int, ...],
    baseline: Path | None,
    rounds: int = 1,
    baseline_label: str = BASELINE_LABEL,
) -> list[Result]:
    """Cache-miss rows of ours, of the reference and (given the `backend` folder of another
    checkout) of that version of gradtrace, run row by row while all are up."""
    workers = str(os.cpu_count() or 1)
    base = {"GRADTRACE_WORKERS": workers, "GRADTRACE_TIMEOUT": "5"}
    rows: list[Result] = []
    with contextlib.ExitStack() as stack:
        servers = [("cache miss", stack.enter_context(Server(base)))]
        if baseline is not None:
            path = os.pathsep.join([str(baseline.resolve()), os.environ.get("PYTHONPATH", "")])
            servers.append(
                (baseline_label, stack.enter_context(Server({**base, "PYTHONPATH": path})))
            )
        servers.append((REFERENCE_LABEL, stack.enter_context(Server({}, REFERENCE, (workers,)))))
        for _, server in servers:
            server.load("warm-up", 8, _misses(10**6))
        for round_ in range(rounds):
            # The first of a row runs measurably slower (same server twice: up to 25 %
            # fewer req/s): which server goes first turns from round to round.
            turn = round_ % len(servers)
            order = servers[turn:] + servers[:turn]
            for count in connections:
                for label, server in order:
                    rows.append(server.load(label, count, _misses((round_ * 10 + count) * 10**5)))
    return rows


def run_server_bench() -> dict[str, object]:
    workers = str(os.cpu_count() or 1)
    base = {"GRADTRACE_WORKERS": workers, "GRADTRACE_TIMEOUT": "5"}
    # Both up at once, each miss row run on ours then on the reference: the VM this runs
    # on changes speed by up to 1.7x from one minute to the next, so only rows run next
    # to each other compare.
    # The service before issue 15 beside them (sandbox_cost.py); the ratio of a row is the
    # median of its rounds.
    with tempfile.TemporaryDirectory() as folder:
        pool = compare_misses(CONCURRENCY, pre_sandbox_backend(Path(folder)), MISS_ROUNDS)
    with Server(base) as ours:
        for connections in CONCURRENCY:
            pool.append(ours.load("cache hit", connections, _hits()))
        pool.append(ours.load("miss, 10% hostile", 32, _mixed(9 * 10**6)))
        pool.append(ours.load("miss, 10% hostile", 64, _mixed(8 * 10**6)))

    def fresh_plan(port: int) -> list[tuple[str, int, Iterator[tuple[bytes, bool]]]]:
        return [
            ("warm-up", 8, _misses(10**6)),
            ("cache miss, fresh process per job", 1, _misses(2 * 10**6)),
            ("cache miss, fresh process per job", 32, _misses(3 * 10**6)),
        ]

    fresh = [
        r
        for r in _run({**base, "GRADTRACE_MAX_JOBS_PER_WORKER": "1"}, fresh_plan)
        if r.label != "warm-up"
    ]
    return {
        "cpus": os.cpu_count(),
        "results": [
            {
                "label": r.label,
                "connections": r.connections,
                "requests": r.requests,
                "rps": round(r.rps, 1),
                "p50_ms": round(r.p50_ms, 2),
                "p99_ms": round(r.p99_ms, 2),
                "errors": r.errors,
                "cpu_ms_per_request": (
                    [round(seconds * 1000 / r.requests, 2) for seconds in r.cpu_s]
                    if r.cpu_s is not None and r.requests
                    else None
                ),
            }
            for r in [*pool, *fresh]
        ],
    }


def markdown(report: dict[str, object]) -> str:
    lines = [
        f"`gradtrace serve` on 127.0.0.1 with {report['cpus']} CPU workers; a 20-node program; "
        f"keep-alive connections; each row at most {SCENARIO_REQUESTS} requests or "
        f"{SCENARIO_SECONDS:g} s. A miss changes a constant in the source; p50/p99 are the "
        "good requests' latencies. The load generator (requests built before the clock starts, "
        "on uvloop) shares the machine's cores. The CPU "
        "columns divide what each side used in the scenario (from /proc) by its requests: "
        "the server process, the workers (with their zygote), and the load generator; "
        "req/s can reach at most the cores' count over their sum.",
        "",
        f"The `{REFERENCE_LABEL}` rows are a floor, run right after ours on the same cores "
        "(bench/reference_server.py): one FastAPI endpoint handing each request to a "
        "pre-started worker process behind a FIFO queue, which does the program's maths in "
        "plain torch and returns every tensor's value and gradient, with no interpreter, "
        "sandbox, recorder or cache. It is lighter than the endpoint issue 3's targets were "
        "set from (a 20-op chain traced at p50 3.4 ms, 700–740 req/s); it says how fast this "
        "machine is while the rows next to it ran.",
        "",
    ]
    results = report["results"]
    assert isinstance(results, list)
    lines += markdown_lines(results, "cache miss", BASELINE_LABEL, REFERENCE_LABEL, MISS_ROUNDS)
    header = [
        "scenario", "connections", "requests", "req/s", "p50 ms", "p99 ms", "non-200",
        "CPU ms/request: server", "workers", "client",
    ]  # fmt: skip
    rows = (
        [
            r["label"],
            r["connections"],
            r["requests"],
            r["rps"],
            r["p50_ms"],
            r["p99_ms"],
            r["errors"],
            *(r.get("cpu_ms_per_request") or ["-", "-", "-"]),
        ]
        for r in results
    )
    lines.append(table(header, rows))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--misses-only",
        action="store_true",
        help="only the cache-miss rows next to the reference's (and the baseline's)",
    )
    parser.add_argument("--connections", default="1,8,32,64", help="for --misses-only")
    parser.add_argument("--rounds", type=int, default=1, help="for --misses-only")
    parser.add_argument(
        "--baseline",
        type=Path,
        help="the backend/ folder of another checkout: its gradtrace runs beside ours",
    )
    args = parser.parse_args(argv)
    if not args.misses_only:
        print("## HTTP service (bench/server_bench.py)\n")
        print(markdown(run_server_bench()))
        return
    counts = tuple(int(part) for part in args.connections.split(","))
    rows = compare_misses(counts, args.baseline, args.rounds, "cache miss, baseline")
    header = [
        "scenario", "connections", "requests", "req/s", "p50 ms", "p99 ms", "non-200",
        "CPU ms/request: server", "workers",
    ]  # fmt: skip
    print(
        table(
            header,
            (
                [r.label, r.connections, r.requests, round(r.rps, 1), round(r.p50_ms, 2),
                 round(r.p99_ms, 2), r.errors,
                 *([round(c * 1000 / r.requests, 3) for c in r.cpu_s[:2]]
                   if r.cpu_s and r.requests else ["-", "-"])]
                for r in rows
            ),
        )
    )  # fmt: skip


if __name__ == "__main__":
    main()
