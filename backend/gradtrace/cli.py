"""The `gradtrace` command: `serve` the app, or `run` one program and print its trace."""

from __future__ import annotations

import argparse
import importlib
import logging
import resource
import sys
from collections.abc import Callable, Sequence
from typing import Any

from gradtrace.version import __version__

FORMATS = ("json", "dot", "html")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gradtrace", description="Run PyTorch programs and watch their autograd graph."
    )
    parser.add_argument("--version", action="version", version=f"gradtrace {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser(
        "serve",
        help="serve the web app and its API",
        description="Serve the app. Flags override GRADTRACE_* environment variables.",
    )
    serve.add_argument("--host", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default 8000)")
    serve.add_argument("--workers", type=int, help="CPU worker processes (default: one a core)")
    serve.add_argument("--device", help="auto (every device here), cpu, cuda, cuda:N or mps")
    serve.add_argument("--timeout", type=float, help="seconds one program may run (default 5)")
    serve.add_argument("--memory", type=int, help="MiB one program may use (default 512)")

    run = commands.add_parser("run", help="run a program and print its trace")
    run.add_argument("file", help="the program, or - for standard input")
    run.add_argument("--format", choices=FORMATS, default="json")
    run.add_argument("--device", default="auto")
    run.add_argument("--seed", type=int, default=0)

    commands.add_parser(
        "doctor",
        help="say which sandbox layers this host gives its workers",
        description="Probe each layer of the workers' sandbox in a confined process, print "
        "which are active and how to enable the missing ones; exit 1 if one is missing.",
    )
    return parser


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from gradtrace.server import Settings, create_app
    from gradtrace.server.http import ConnectionLimits, guarded_protocol
    from gradtrace.server.logsafe import EscapingFormatter

    flags = ("host", "port", "workers", "device", "timeout", "memory")
    overrides: dict[str, Any] = {
        name: getattr(args, name) for name in flags if getattr(args, name) is not None
    }
    settings = Settings(**overrides)
    handler = logging.StreamHandler()
    handler.setFormatter(EscapingFormatter("%(asctime)s %(name)s %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler])
    max_connections = _descriptors_for(settings.max_connections)
    limits = ConnectionLimits(
        max_connections=max_connections,
        per_address=min(settings.connections_per_address, max_connections),
        request_timeout_s=settings.request_timeout,
        max_head_bytes=settings.max_head_bytes,
    )
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        loop="uvloop",
        http=guarded_protocol(limits),  # httptools, with what it lacks (server/http.py)
        timeout_keep_alive=settings.keep_alive,
        h11_max_incomplete_event_size=settings.max_head_bytes,  # should h11 ever be used
        access_log=False,  # ours says more: cache and queue wait (server/middleware.py)
        log_config=None,  # keep our escaping handler for uvicorn's records too
        log_level="info",
        backlog=4096,
    )
    return 0


# Descriptors kept for what is not a client connection: workers, the zygote, files, logs.
_RESERVED_FDS = 256


def _descriptors_for(connections: int) -> int:
    """Raise the descriptor limit as far as allowed, and cap connections below it, so a
    flood of connections is refused by the cap and never runs the server out of them."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + _RESERVED_FDS
    if soft != resource.RLIM_INFINITY and soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    if soft == resource.RLIM_INFINITY:
        return connections
    allowed = max(1, soft - _RESERVED_FDS)
    if allowed < connections:
        logging.getLogger("gradtrace.server").warning(
            "at most %d connections: the descriptor limit is %d", allowed, soft
        )
    return min(connections, allowed)


def _html_exporter() -> Callable[[Any], str] | None:
    try:
        module = importlib.import_module("gradtrace.export.html")
    except ModuleNotFoundError as error:
        if error.name != "gradtrace.export.html":
            raise
        return None
    exporter: Callable[[Any], str] | None = getattr(module, "to_html", None)
    return exporter


def _run(args: argparse.Namespace) -> int:
    import gradtrace
    from gradtrace.devices import DeviceError
    from gradtrace.export.dot import to_dot

    to_html = _html_exporter() if args.format == "html" else None
    if args.format == "html" and to_html is None:
        print("gradtrace: html export needs the built frontend", file=sys.stderr)
        return 2
    if args.file == "-":
        source = sys.stdin.read()
    else:
        with open(args.file, encoding="utf-8") as file:
            source = file.read()
    try:
        device = gradtrace.resolve_device(args.device)
    except DeviceError as error:
        print(f"gradtrace: {error}", file=sys.stderr)
        return 2
    body = gradtrace.run_json(source, device=device, seed=args.seed)
    if args.format == "json":
        sys.stdout.buffer.write(body + b"\n")
        ok = gradtrace.Trace.model_validate_json(body).ok
    else:
        trace = gradtrace.Trace.model_validate_json(body)
        ok = trace.ok
        if to_html is None:
            sys.stdout.write(to_dot(trace))
        else:
            try:
                page = to_html(trace)
            except RuntimeError as error:  # the exporter exists but its bundle is not built
                print(f"gradtrace: html export needs the built frontend ({error})", file=sys.stderr)
                return 2
            sys.stdout.write(page)
    sys.stdout.flush()
    return 0 if ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "serve":
        return _serve(args)
    if args.command == "doctor":
        from gradtrace.sandbox.doctor import main as doctor

        return doctor()
    return _run(args)


if __name__ == "__main__":
    sys.exit(main())
