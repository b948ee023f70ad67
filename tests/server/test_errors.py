"""The error model of API.md: which status each refusal gets, and what it says."""

from __future__ import annotations

import asyncio
import socket

import httpx
import pytest

from gradtrace.devices import available_devices
from gradtrace.language.limits import Limits

from .helpers import SLOW_PROGRAM, AppClient, LiveServer, make_settings, open_app, reference_trace

pytestmark = pytest.mark.anyio
SOURCE_CHARS = Limits().source_chars


async def test_syntax_error_is_200_with_the_engines_error(api: AppClient) -> None:
    source = "import torch\nx = torch.ones(2\nprint(x)\n"
    response = await api.client.post("/api/trace", json={"source": source})
    assert response.status_code == 200
    trace = response.json()
    assert trace["ok"] is False
    assert trace["error"]["type"] == "SyntaxError"
    assert isinstance(trace["error"]["line"], int)
    assert isinstance(trace["error"]["col"], int)
    assert trace["error"] == reference_trace(source)["error"]


async def test_source_over_the_limit_is_413(api: AppClient) -> None:
    source = "x = 1\n" + "#" * SOURCE_CHARS
    response = await api.client.post("/api/trace", json={"source": source})
    assert response.status_code == 413
    assert str(SOURCE_CHARS) in response.json()["detail"]


async def test_body_over_the_byte_limit_is_413_before_parsing(api: AppClient) -> None:
    body = b'{"source": "' + b"1" * (api.settings.max_body_bytes() + 10)  # not even JSON
    response = await api.client.post(
        "/api/trace", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


def test_streamed_body_over_the_limit_is_413_over_real_http(live: LiveServer) -> None:
    """No Content-Length (chunked): the size is counted as the body arrives."""

    def chunks() -> object:
        for _ in range(200):
            yield b"x" * 4096

    response = httpx.post(
        f"{live.url}/api/trace",
        content=chunks(),  # type: ignore[arg-type]
        headers={"content-type": "application/json"},
        timeout=30,
    )
    assert response.status_code == 413


def test_declared_content_length_over_the_limit_is_413_over_real_http(live: LiveServer) -> None:
    """A Content-Length past the limit is refused before the body is read."""
    host, port = live.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(
            b"POST /api/trace HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
            b"Content-Length: 10000000\r\n\r\n{}"
        )
        answer = sock.recv(65536)
    assert answer.startswith(b"HTTP/1.1 413 ")


@pytest.mark.parametrize(
    "body",
    [
        b"{}",
        b'{"source": 3}',
        b'{"source": "print(1)", "seed": -1}',
        b'{"source": "print(1)", "seed": "zero"}',
        b'{"source": "print(1)", "seed": 18446744073709551616}',
        b'{"source": "print(1)", "unknown": true}',
        b'{"source": "\\ud800"}',
        b"{not json",
    ],
    ids=[
        "missing",
        "number",
        "negative-seed",
        "text-seed",
        "huge-seed",
        "extra",
        "surrogate",
        "not-json",
    ],
)
async def test_malformed_body_is_422(api: AppClient, body: bytes) -> None:
    response = await api.client.post(
        "/api/trace", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    # Where and what, as FastAPI words a body's errors, never the input echoed.
    for item in response.json()["detail"]:
        assert set(item) == {"loc", "msg", "type"}
        assert item["loc"][0] == "body"


@pytest.mark.parametrize("path", ["/api/trace", "/api/gradcheck"])
async def test_get_on_an_endpoint_that_takes_post_is_405_naming_post(
    api: AppClient, path: str
) -> None:
    response = await api.client.get(path)
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"
    assert response.json()["detail"] == "Method Not Allowed"


@pytest.mark.parametrize("device", ["tpu", "cuda:7", "mps", "cuda"])
async def test_device_this_server_lacks_is_400_naming_its_devices(
    api: AppClient, device: str
) -> None:
    if device in available_devices():
        pytest.skip(f"this machine has {device}")
    response = await api.client.post("/api/trace", json={"source": "print(1)", "device": device})
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert device in detail
    for offered in available_devices():
        assert offered in detail


async def test_auto_runs_on_the_servers_default_device(api: AppClient) -> None:
    response = await api.client.post(
        "/api/trace", json={"source": "import torch\nx = torch.ones(1)\n"}
    )
    health = (await api.client.get("/api/health")).json()
    assert response.json()["device"] == health["default_device"]


async def test_saturated_server_answers_503_with_retry_after(anyio_backend: str) -> None:
    async for opened in open_app(make_settings(workers=1, queue=1, timeout=5.0)):
        client = opened.client
        requests = [
            client.post("/api/trace", json={"source": SLOW_PROGRAM.format(n=n)}) for n in range(6)
        ]
        responses = await asyncio.gather(*requests)
        statuses = sorted(r.status_code for r in responses)
        # One running, one queued: the other four are refused at once.
        assert statuses == [200, 200, 503, 503, 503, 503]
        for response in responses:
            if response.status_code == 503:
                assert int(response.headers["retry-after"]) >= 1
                assert response.json()["detail"]
        assert (await client.get("/api/health")).status_code == 200
