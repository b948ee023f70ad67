"""What HTTP adds around a trace: cache and coalescing, ETag, gzip, headers, the other
endpoints, the frontend files and the request log."""

from __future__ import annotations

import asyncio
import gc
import logging
import warnings
from pathlib import Path

import orjson
import pytest

from gradtrace.examples import load_examples
from gradtrace.language.reference import reference
from gradtrace.version import __version__

from .helpers import AppClient, make_settings, open_app, reference_trace

pytestmark = pytest.mark.anyio


def _program(n: int) -> str:
    return f"import torch\nx = torch.tensor({n}.0, requires_grad=True)\ny = x * x\ny.backward()\nprint(x.grad)\n"


async def _jobs(api: AppClient) -> int:
    health = (await api.client.get("/api/health")).json()
    return sum(pool["jobs"] for pool in health["workers"])


async def test_a_repeated_request_is_served_from_the_cache(api: AppClient) -> None:
    source = _program(101)
    before = await _jobs(api)
    first = await api.client.post("/api/trace", json={"source": source})
    second = await api.client.post("/api/trace", json={"source": source})
    assert await _jobs(api) == before + 1
    assert first.content == second.content
    assert first.headers["etag"] == second.headers["etag"]
    assert (first.headers["x-cache"], second.headers["x-cache"]) == ("miss", "hit")


async def test_identical_requests_in_flight_cost_one_run(api: AppClient) -> None:
    source = _program(102)
    before = await _jobs(api)
    responses = await asyncio.gather(
        *(api.client.post("/api/trace", json={"source": source}) for _ in range(12))
    )
    assert {r.status_code for r in responses} == {200}
    assert len({r.content for r in responses}) == 1
    assert await _jobs(api) == before + 1


async def test_seed_and_device_are_part_of_the_cache_key(api: AppClient) -> None:
    source = "import torch\nprint(torch.rand(2))\n"
    a = await api.client.post("/api/trace", json={"source": source, "seed": 1})
    b = await api.client.post("/api/trace", json={"source": source, "seed": 2})
    assert a.json()["stdout"] != b.json()["stdout"]
    assert orjson.loads(a.content)["stdout"] == reference_trace(source, 1)["stdout"]


async def test_if_none_match_gives_304(api: AppClient) -> None:
    source = _program(103)
    first = await api.client.post("/api/trace", json={"source": source})
    etag = first.headers["etag"]
    assert etag.startswith('"') and etag.endswith('"')
    assert first.headers["cache-control"] == "no-cache"
    again = await api.client.post(
        "/api/trace", json={"source": source}, headers={"if-none-match": etag}
    )
    assert again.status_code == 304
    assert again.content == b""
    other = await api.client.post(
        "/api/trace", json={"source": source}, headers={"if-none-match": '"nope"'}
    )
    assert other.status_code == 200


async def test_large_traces_are_gzipped_for_clients_that_accept_it(api: AppClient) -> None:
    source = "import torch\nw = torch.randn(40, 40, requires_grad=True)\n(w @ w).sum().backward()\n"
    plain = await api.client.post(
        "/api/trace", json={"source": source}, headers={"accept-encoding": "identity"}
    )
    packed = await api.client.post(
        "/api/trace", json={"source": source}, headers={"accept-encoding": "gzip"}
    )
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert int(packed.headers["content-length"]) < len(plain.content) / 2
    assert packed.content == plain.content  # httpx decodes it
    assert packed.headers["vary"] == "Accept, Accept-Encoding"  # JSON or binary (Accept)
    # The worker ran it for a client without gzip, so it did not compress it; the server
    # made the gzip on the first request for it and answers later ones from its cache.
    assert plain.headers["x-cache"] == "miss" and packed.headers["x-cache"] == "hit"
    again = await api.client.post(
        "/api/trace", json={"source": source}, headers={"accept-encoding": "gzip"}
    )
    assert again.headers["x-cache"] == "hit"
    assert again.headers["content-length"] == packed.headers["content-length"]


async def test_a_trace_first_asked_with_gzip_is_compressed_by_its_worker(api: AppClient) -> None:
    source = "import torch\nw = torch.randn(30, 30, requires_grad=True)\n(w * w).sum().backward()\n"
    packed = await api.client.post(
        "/api/trace", json={"source": source}, headers={"accept-encoding": "gzip"}
    )
    plain = await api.client.post(
        "/api/trace", json={"source": source}, headers={"accept-encoding": "identity"}
    )
    assert packed.headers["x-cache"] == "miss" and packed.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in plain.headers and plain.headers["x-cache"] == "hit"
    assert packed.content == plain.content


async def test_server_objects_are_left_out_of_collections(anyio_backend: str) -> None:
    # A full collection over what torch and FastAPI load takes ~100 ms, paid by every
    # request in flight; the server freezes those objects once it has started.
    gc.unfreeze()
    # Unfrozen, the garbage an earlier app in this test process froze is collected here:
    # the transports of worker processes another test killed warn as they go. Theirs,
    # not this test's.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()
    async for opened in open_app(make_settings(workers=1)):
        assert gc.get_freeze_count() > 50_000, gc.get_freeze_count()
        assert (await opened.client.get("/api/health")).status_code == 200


async def test_security_headers_and_no_cors_by_default(api: AppClient) -> None:
    for path in ("/", "/api/health"):
        response = await api.client.get(path, headers={"origin": "https://elsewhere.example"})
        csp = response.headers["content-security-policy"]
        assert "default-src 'self'" in csp
        assert "frame-ancestors 'none'" in csp
        assert "worker-src 'self' blob:" in csp
        assert "'unsafe-inline'" not in csp.split("script-src")[1].split(";")[0]
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"
        assert "access-control-allow-origin" not in response.headers
    docs = await api.client.get("/docs")
    assert docs.status_code == 200
    assert "cdn.jsdelivr.net" in docs.headers["content-security-policy"]


async def test_cors_when_configured(anyio_backend: str) -> None:
    origin = "https://class.example"
    async for opened in open_app(make_settings(workers=1, cors_origins=[origin])):
        response = await opened.client.get("/api/health", headers={"origin": origin})
        assert response.headers["access-control-allow-origin"] == origin


async def test_examples_endpoint_lists_the_example_files(api: AppClient) -> None:
    response = await api.client.get("/api/examples")
    assert response.status_code == 200
    assert response.json() == [example.model_dump() for example in load_examples()]
    ids = [example["id"] for example in response.json()]
    assert "leaf_and_non_leaf" in ids
    assert len(ids) >= 13
    again = await api.client.get(
        "/api/examples", headers={"if-none-match": response.headers["etag"]}
    )
    assert again.status_code == 304


async def test_reference_endpoint_is_the_languages_allowlist(api: AppClient) -> None:
    response = await api.client.get("/api/reference")
    assert response.status_code == 200
    assert response.json() == orjson.loads(orjson.dumps(reference().model_dump()))


async def test_health_lists_devices_limits_and_workers(api: AppClient) -> None:
    health = (await api.client.get("/api/health")).json()
    assert health["status"] == "ok"
    assert health["version"] == __version__
    assert health["devices"][0] == "auto"
    assert "cpu" in health["devices"]
    assert health["limits"]["timeout_s"] == api.settings.timeout
    assert health["limits"]["memory_mb"] == api.settings.memory
    cpu = next(pool for pool in health["workers"] if pool["device"] == "cpu")
    assert cpu["size"] == api.settings.workers


async def test_frontend_not_built_page(anyio_backend: str, tmp_path: Path) -> None:
    async for opened in open_app(make_settings(workers=1, static_dir=tmp_path / "missing")):
        response = await opened.client.get("/")
        assert response.status_code == 200
        assert "frontend is not built" in response.text
        assert (await opened.client.get("/app.js")).status_code == 404


async def test_built_frontend_is_served(anyio_backend: str, tmp_path: Path) -> None:
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text("<!doctype html><title>app</title>")
    script = "console.log('gradtrace');\n" * 200
    (tmp_path / "assets" / "app.js").write_text(script)
    async for opened in open_app(make_settings(workers=1, static_dir=tmp_path)):
        index = await opened.client.get("/")
        assert index.text == "<!doctype html><title>app</title>"
        asset = await opened.client.get("/assets/app.js", headers={"accept-encoding": "gzip"})
        assert asset.status_code == 200
        assert asset.text == script
        assert asset.headers["content-encoding"] == "gzip"
        assert asset.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert int(asset.headers["content-length"]) < len(script) / 4


async def test_one_log_line_per_request_says_what_it_cost(
    api: AppClient, caplog: pytest.LogCaptureFixture
) -> None:
    source = _program(104)
    with caplog.at_level(logging.INFO, logger="gradtrace.access"):
        await api.client.post("/api/trace", json={"source": source})
        await api.client.post("/api/trace", json={"source": source})
    lines = [r.getMessage() for r in caplog.records if r.name == "gradtrace.access"]
    assert len(lines) == 2
    assert lines[0].startswith("POST /api/trace 200 ")
    assert "cache=miss" in lines[0] and "queue=" in lines[0] and "ms" in lines[0]
    run = lines[0].split("run=", 1)[1]
    assert run.endswith("ms") and float(run.removesuffix("ms")) > 0  # the worker's own time
    assert "cache=hit" in lines[1] and lines[1].endswith("run=-")
