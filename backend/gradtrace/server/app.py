"""The FastAPI app: routes of docs/API.md over the trace service."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import inspect
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from pydantic import BaseModel, ValidationError
from starlette.responses import Response
from starlette.routing import Match, Route

from gradtrace.devices import DeviceError
from gradtrace.examples import load_examples
from gradtrace.gradcheck import GradCheck
from gradtrace.language.reference import Reference, reference
from gradtrace.sandbox import PoolSaturated
from gradtrace.sandbox.failures import bug_failure, failure_body
from gradtrace.sandbox.fair_queue import Client
from gradtrace.sandbox.pool import JobResult, TooManyJobs
from gradtrace.sandbox.protocol import Job
from gradtrace.server.cache import CacheKey
from gradtrace.server.clients import ClientTokens, shared_client_key
from gradtrace.server.frontend import FrontendFiles, index_response
from gradtrace.server.http import GONE
from gradtrace.server.logsafe import escape
from gradtrace.server.middleware import GuardMiddleware
from gradtrace.server.models import (
    CacheHealth,
    ErrorResponse,
    ExampleOut,
    GradCheckRequest,
    Health,
    PoolHealth,
    ProgramRequest,
    ServerLimits,
    TraceRequest,
)
from gradtrace.server.responses import (
    JSON,
    Prepared,
    accepts_binary_trace,
    accepts_gzip,
    error_response,
    json_bytes_response,
    prepared_response,
)
from gradtrace.server.rooms import MemoryStore, RedisStore, RoomHub, RoomStore, rooms_router
from gradtrace.server.service import Outcome, TraceService
from gradtrace.server.settings import Settings
from gradtrace.trace.binary import MEDIA_TYPE as BINARY_TRACE
from gradtrace.trace.models import Trace
from gradtrace.version import __version__

log = logging.getLogger("gradtrace.server")

# Same request, same trace: clients may keep it but should check the ETag.
TRACE_CACHE_CONTROL = "no-cache"
UNCACHEABLE = "no-store"
STATIC_DATA_CACHE_CONTROL = "public, max-age=300"


# What FastAPI documents for a body it validates (its component, listed while another
# endpoint takes a validated body), for an endpoint that validates its body itself.
_VALIDATION_ERROR_DOC: dict[str, Any] = {
    "description": "Validation Error",
    "content": {JSON: {"schema": {"$ref": "#/components/schemas/HTTPValidationError"}}},
}


def _error_doc(description: str) -> dict[str, Any]:
    return {"model": ErrorResponse, "description": description}


_METHODS = ("DELETE", "GET", "PATCH", "POST", "PUT")
# The frontend's catch-all route: GET on every path (the 405's own caller).
_FRONTEND_PATH = "/{path:path}"


def _api_method_not_allowed(app: FastAPI, path: str) -> Response:
    """GET on an API path that takes only POST: 405 naming what it takes (the catch-all
    frontend route would otherwise answer 404); 404 for an API path that does not exist.
    The methods are those the router would take on this path, routers included in it too."""
    methods = [
        method
        for method in _METHODS
        if any(
            getattr(route, "path", None) != _FRONTEND_PATH
            and route.matches({"type": "http", "path": path, "method": method})[0] is Match.FULL
            for route in app.router.routes
        )
    ]
    if not methods:
        return error_response(404, "Not Found")
    return error_response(405, "Method Not Allowed", headers={"Allow": ", ".join(methods)})


# FastAPI 0.16x asks OpenTelemetry on every request whether a provider is set; gradtrace
# sets none (its access log says what each request cost), so the question is skipped.
_NO_TELEMETRY: dict[str, Any] = (
    {"telemetry": {"tracing": False, "metrics": False, "logs": False}}
    if "telemetry" in inspect.signature(FastAPI.__init__).parameters
    else {}
)


def _json_body(model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAPI request body of an endpoint that reads `model` itself (see `documented`)."""
    schema = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {"requestBody": {"required": True, "content": {JSON: {"schema": schema}}}}


def documented(app: FastAPI, *models: type[BaseModel]) -> None:
    """Add to the app's OpenAPI document the models of bodies its endpoints read themselves."""
    made = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schemas = made().setdefault("components", {}).setdefault("schemas", {})
            for model in models:
                schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
                # As FastAPI writes a body it validates: no `default: null`, so the
                # generated TypeScript keeps such a field optional.
                for field in schema.get("properties", {}).values():
                    if "default" in field and field["default"] is None:
                        del field["default"]
                schemas[model.__name__] = schema
        return app.openapi_schema or made()

    app.openapi = openapi  # type: ignore[method-assign]


async def _disconnected(request: Request) -> None:
    """Returns when the client has gone (the body was read already: nothing else comes)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def _unless_client_leaves(request: Request, work: Awaitable[Outcome]) -> Outcome | None:
    """The outcome, or None as soon as the client hangs up: then this request stops
    waiting, and a job no one else waits for is dropped (TraceService.outcome)."""
    gone: asyncio.Future[None] | None = request.scope.get(GONE)
    if gone is None:  # not our protocol (tests over ASGI): watch with a task of its own
        return await _watching_receive(request, work)
    handler = asyncio.current_task()
    assert handler is not None
    waiting = [True]

    def hang_up(_: object) -> None:
        if waiting[0]:  # not once the handler has gone on to answer
            handler.cancel()

    gone.add_done_callback(hang_up)
    try:
        return await work
    except asyncio.CancelledError:
        if not gone.done():
            raise
        handler.uncancel()
        return None
    finally:
        waiting[0] = False
        gone.remove_done_callback(hang_up)


async def _watching_receive(request: Request, work: Awaitable[Outcome]) -> Outcome | None:
    job = asyncio.ensure_future(work)
    watch = asyncio.ensure_future(_disconnected(request))
    try:
        await asyncio.wait((job, watch), return_when=asyncio.FIRST_COMPLETED)
    finally:
        watch.cancel()
        if not job.done():
            job.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await job
    return job.result() if not job.cancelled() else None


def _program_failure(job: Job, problem: str) -> JobResult:
    """A failing program's answer (200, ok false) for what went wrong around it."""
    body = failure_body(job, bug_failure(problem))
    etag = hashlib.blake2b(body, digest_size=12).hexdigest()
    return JobResult(body, None, etag, cacheable=False, queue_ms=0.0, run_ms=0.0)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    service = TraceService(settings)  # raises DeviceError for a device this machine lacks
    limits = settings.limits()
    examples = Prepared.of([example.model_dump() for example in load_examples()])
    store: RoomStore = (
        RedisStore(settings.redis_url, settings.room_idle_timeout)
        if settings.redis_url
        else MemoryStore(settings.room_idle_timeout)
    )
    hub = RoomHub(store)
    tokens = ClientTokens()  # its key stays in this process (or in the replicas' Redis)
    prepared: dict[str, Prepared] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        prepared["reference"] = Prepared.of(reference().model_dump())
        await service.start()
        if settings.redis_url:  # every replica signs client tokens with the same key
            tokens.use_key(await shared_client_key(settings.redis_url))
        await hub.start()
        app.state.service = service
        # torch, pydantic and FastAPI leave ~200,000 objects that live as long as the
        # server: under load a full collection over them ran about every 10 s and stalled
        # every request in flight for ~100 ms. Frozen, they are left out of collections.
        gc.collect()
        gc.freeze()
        try:
            yield
        finally:
            await hub.stop()
            await service.stop()

    app = FastAPI(
        title="gradtrace",
        version=__version__,
        summary="Run a PyTorch program and get its real autograd graph, forward then backward.",
        lifespan=lifespan,
        **_NO_TELEMETRY,
    )

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> Response:
        # FastAPI's own handler echoes the input, which may be the whole source or hold
        # lone surrogates that no UTF-8 encoder accepts; say where and what, not the input.
        detail = [
            {"loc": list(item["loc"]), "msg": str(item["msg"]), "type": str(item["type"])}
            for item in error.errors()
        ]
        body = json.dumps({"detail": detail}, ensure_ascii=True)
        return Response(body, status_code=422, media_type=JSON)

    @app.post(
        "/api/trace",
        operation_id="trace",
        response_model=Trace,
        summary="Run a program and return its trace",
        description="A program that fails is still a 200, with `ok: false` and the error.",
        openapi_extra=_json_body(TraceRequest),
        responses={
            200: {
                "description": "the Trace: JSON, or its binary form (API.md) for a client "
                f"whose Accept names {BINARY_TRACE}",
                "content": {BINARY_TRACE: {"schema": {"type": "string", "format": "binary"}}},
            },
            304: {"description": "the trace matches If-None-Match"},
            400: _error_doc("a device this server does not have"),
            422: _VALIDATION_ERROR_DOC,
            413: _error_doc("the source (or the request body) is too long"),
            429: _error_doc("this client has too many programs waiting; retry after Retry-After"),
            503: _error_doc("the server is saturated; retry after Retry-After seconds"),
        },
    )
    async def trace(request: Request) -> Response:
        # Read and checked here, not by FastAPI's dependency machinery: a cache hit took
        # ~9 % less of the server's CPU (0.25 against 0.27 ms, side by side). Refused
        # as FastAPI refuses a body (422, `loc` from "body").
        try:
            body = TraceRequest.model_validate_json(await request.body())
        except ValidationError as error:
            raise RequestValidationError(
                [{**item, "loc": ("body", *item["loc"])} for item in error.errors()]
            ) from None
        binary = accepts_binary_trace(request)
        return await answer(
            body,
            request,
            lambda device: Job(
                kind="trace",
                source=body.source,
                device=device,
                seed=body.seed,
                iteration=body.iteration,
                binary=binary,
            ),
        )

    @app.post(
        "/api/gradcheck",
        operation_id="gradcheck",
        response_model=GradCheck,
        summary="Check every leaf's gradient against central finite differences",
        description=(
            "Replays the program with each leaf element moved by ±eps up to its first backward "
            "pass; a failing program is a 200 with `ok: false`."
        ),
        responses={
            400: _error_doc("a device this server does not have"),
            413: _error_doc("the source (or the request body) is too long"),
            429: _error_doc("this client has too many programs waiting; retry after Retry-After"),
            503: _error_doc("the server is saturated; retry after Retry-After seconds"),
        },
    )
    async def gradcheck(body: GradCheckRequest, request: Request) -> Response:
        return await answer(
            body,
            request,
            lambda device: Job(kind="gradcheck", source=body.source, device=device, seed=body.seed),
        )

    async def answer(
        body: ProgramRequest, request: Request, key_for: Callable[[str], CacheKey]
    ) -> Response:
        if len(body.source) > limits.source_chars:
            return error_response(
                413, f"the source has {len(body.source)} characters; at most {limits.source_chars}"
            )
        try:
            device = service.resolve(body.device)
        except DeviceError as error:
            return error_response(400, str(error))
        key = key_for(device)
        client: Client = getattr(request.state, "client", ("", ""))
        gzip = accepts_gzip(request)
        try:
            # A cache hit answers at once; a job is waited for only while its client stays.
            outcome = service.cached(key) or await _unless_client_leaves(
                request, service.outcome(key, client, gzip)
            )
        except PoolSaturated as error:
            status = 429 if isinstance(error, TooManyJobs) else 503
            return error_response(
                status, str(error), headers={"Retry-After": str(error.retry_after_s)}
            )
        except Exception as error:  # last resort: no program may cause a 500
            log.error("no answer for a program: %s", escape(repr(error)))
            problem = f"the server could not use its worker's answer ({type(error).__name__})"
            outcome = Outcome(_program_failure(key, problem), "miss")
        if outcome is None:  # the client left: nobody reads this
            return Response(status_code=499)
        result = outcome.result
        if gzip:
            result = await service.gzipped(key, result)
        request.state.cache = outcome.cache
        request.state.queue_ms = result.queue_ms if outcome.cache == "miss" else 0.0
        # The program's time in its worker, only for the request that ran it.
        request.state.run_ms = result.run_ms if outcome.cache == "miss" else None
        cache_control = TRACE_CACHE_CONTROL if result.cacheable else UNCACHEABLE
        # A request that waited for the same job already running for another was no hit.
        headers = {
            "X-Cache": "hit" if outcome.cache == "hit" else "miss",
            "Vary": "Accept, Accept-Encoding",
        }
        return json_bytes_response(
            request,
            result.body,
            result.gzip,
            result.etag,
            cache_control,
            headers,
            BINARY_TRACE if key.binary else JSON,
        )

    @app.get("/api/health", operation_id="health", response_model=Health)
    async def health() -> Response:
        answer = Health(
            version=__version__,
            devices=["auto", *service.devices],
            default_device=service.default_device,
            limits=ServerLimits(
                timeout_s=settings.timeout,
                memory_mb=settings.memory,
                source_chars=limits.source_chars,
                max_body_bytes=settings.max_body_bytes(),
                queue=settings.queue,
                program=limits,
            ),
            workers=[
                PoolHealth(
                    device=stats.device,
                    size=stats.size,
                    idle=stats.idle,
                    busy=stats.busy,
                    queued=stats.queued,
                    starting=stats.starting,
                    jobs=stats.jobs,
                )
                for stats in (pool.stats() for pool in service.pools.values())
            ],
            cache=CacheHealth(**vars(service.cache.stats())),
        )
        return Response(
            answer.model_dump_json(), media_type=JSON, headers={"Cache-Control": UNCACHEABLE}
        )

    @app.get("/api/examples", operation_id="examples", response_model=list[ExampleOut])
    async def list_examples(request: Request) -> Response:
        return prepared_response(request, examples, STATIC_DATA_CACHE_CONTROL)

    @app.get("/api/reference", operation_id="reference", response_model=Reference)
    async def get_reference(request: Request) -> Response:
        return prepared_response(request, prepared["reference"], STATIC_DATA_CACHE_CONTROL)

    app.include_router(rooms_router(hub, settings))

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return index_response(settings.static_dir)

    frontend = FrontendFiles(settings.static_dir)

    # A route, not a mount at "/": a mount would answer every method on every path, so
    # OPTIONS /api/trace would get the static files' 405 instead of the API's.
    @app.get(_FRONTEND_PATH, include_in_schema=False)
    async def frontend_file(path: str, request: Request) -> Response:
        if path.startswith("api/"):
            return _api_method_not_allowed(app, "/" + path)
        return await frontend.response(path, request)

    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["GET", "POST"],
            allow_headers=["content-type", "if-none-match"],
            expose_headers=["etag", "retry-after"],
        )
    app.add_middleware(
        GuardMiddleware,
        max_body_bytes=settings.max_body_bytes(),
        log_requests=settings.access_log,
        tokens=tokens,
    )
    documented(app, TraceRequest)
    # FastAPI's route above documents /api/trace; this plain route, ahead of it, serves it.
    # The endpoint reads its own body, so FastAPI's work around each call (dependencies,
    # the route's wrapper) only cost: a cache hit took 0.25 ms of the server's CPU with
    # it, 0.20 ms without (8 rounds each, side by side).
    app.router.routes.insert(0, Route("/api/trace", trace, methods=["POST"]))
    return app
