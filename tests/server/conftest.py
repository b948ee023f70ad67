"""Fixtures: the app in process (httpx over ASGI, with its lifespan) and a real uvicorn."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from .helpers import (
    TEST_TIMEOUT_S,
    AppClient,
    LiveServer,
    make_settings,
    open_app,
    start_server,
    stop_server,
)


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def api(anyio_backend: str) -> AsyncIterator[AppClient]:
    """The app with 2 workers, shared by a module's tests."""
    async for opened in open_app(make_settings()):
        yield opened


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    server = start_server("--workers", "2", "--timeout", str(TEST_TIMEOUT_S))
    try:
        yield server
    finally:
        stop_server(server)
