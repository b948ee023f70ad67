"""The binary trace over real HTTP: the same trace as the JSON one, its floats as buffers.

Each program is asked of a real uvicorn in both forms; the binary answer is read as
docs/API.md describes it (here with struct and numpy, not with the server's own code),
and every value it carries must equal the JSON's, as float32 (float64 for float64
tensors), exactly; everything else in its head must equal the JSON.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from typing import Any

import httpx
import numpy as np
import orjson
import pytest

from gradtrace.language.limits import Limits
from gradtrace.sandbox.failures import MemoryRelabel
from gradtrace.trace.session import trace_program

from .helpers import LiveServer, comparable, start_server, stop_server

BINARY = "application/vnd.gradtrace.trace+binary"

MATMUL = """\
import torch
torch.manual_seed(0)
a = torch.randn({n}, {n}, requires_grad=True)
b = torch.randn({n}, {n}, requires_grad=True)
c = (a @ b).tanh()
c.sum().backward()
print(c.shape)
"""

CHAIN = """\
import torch
x = torch.tensor(0.5, requires_grad=True)
y = x
for i in range(5000):
    y = y * 0.999 + 0.001
y.backward()
print(x.grad)
"""

RNN = """\
import torch
torch.manual_seed(0)
Wh = torch.randn(16, 16, requires_grad=True)
Wx = torch.randn(4, 16, requires_grad=True)
b = torch.zeros(16, requires_grad=True)
xs = torch.randn(160, 1, 4)
h = torch.zeros(1, 16)
for t in range(160):
    h = torch.tanh(h @ Wh * 0.1 + xs[t] @ Wx + b)
loss = h.sum()
loss.backward()
print(loss.item())
"""

# Each kind of values: float64, float16, integers, booleans, NaN and infinity, empty.
KINDS = """\
import torch
w = torch.tensor([1.5, -2.25, 3.0], dtype=torch.float64, requires_grad=True)
half = torch.tensor([0.1, 0.2, 0.3, 0.4], dtype=torch.float16)
ints = torch.arange(6).reshape(2, 3)
flags = ints > 2
odd = torch.tensor([1.0, float("nan"), float("inf"), -float("inf")])
empty = torch.zeros(0, 3)
y = (w * w).sum() + half.float().sum().double()
y.backward()
print(w.grad, odd)
"""

# Complex values (a (real, imag) pair per element), views with strides, a 0-dim tensor,
# bfloat16, values changed in place after they were recorded.
SHAPES = """\
import torch
z = torch.tensor([1 + 2j, 3 + 4j, 5 + 6j])
w = z * 2
m = torch.ones(2, 3, dtype=torch.complex128) * (1 - 1j)
a = torch.arange(12.0).reshape(3, 4)
t = a.t()
col = a[:, 1]
step = a[::2, ::3]
row = torch.tensor([1.0, 2.0]).expand(3, 2)
bf = torch.tensor([0.5, 1.5, 2.5, 3.5, 4.5], dtype=torch.bfloat16)
zero = torch.tensor(3.0)
p = torch.zeros(4, requires_grad=True)
(p * 2).sum().backward()
a.add_(1)
print(w.abs(), t.sum())
"""

PROGRAMS = {
    "complex, views, 0-dim, bfloat16": SHAPES,
    "matmul 64x64": MATMUL.format(n=64),  # 4,096 elements: values in full, at the limit
    "matmul 120x120": MATMUL.format(n=120),  # past it: stats and a preview
    "chain 10,000 ops": CHAIN,
    "rnn 1,000 ops": RNN,
    "kinds of values": KINDS,
}

_HEADER = struct.Struct("<4sIII")
_NUMPY = {"float32": np.dtype("<f4"), "float64": np.dtype("<f8")}


def read_binary(body: bytes) -> tuple[dict[str, Any], bytes]:
    magic, version, head_length, size = _HEADER.unpack_from(body)
    assert (magic, version) == (b"GTRB", 1)
    assert head_length % 8 == 0
    start = _HEADER.size + head_length
    assert len(body) == start + size
    return orjson.loads(body[_HEADER.size : start]), body[start:]


def _same(binary: Any, text: Any, buffers: bytes, seen: list[int]) -> None:
    """`binary` (a head's part) says what `text` (the JSON's part) says."""
    if isinstance(binary, dict) and set(binary) == {
        "shape",
        "dtype",
        "numel",
        "values",
        "preview",
        "stats",
    }:
        ref = binary["values"]
        if isinstance(ref, dict):
            assert set(ref) == {"offset", "length", "dtype"}
            assert ref["offset"] % 8 == 0 and ref["length"] == binary["numel"]
            kind = _NUMPY[ref["dtype"]]
            values = np.frombuffer(buffers, kind, count=ref["length"], offset=ref["offset"])
            wanted = np.array(text["values"], dtype=np.float64).astype(kind).reshape(-1)
            assert values.tobytes() == wanted.tobytes()
            assert ref["dtype"] == ("float64" if binary["dtype"] == "float64" else "float32")
            seen.append(ref["length"])
            binary = {**binary, "values": text["values"]}
        assert binary == text
    elif isinstance(binary, dict):
        assert isinstance(text, dict) and binary.keys() == text.keys()
        for key in binary:
            _same(binary[key], text[key], buffers, seen)
    elif isinstance(binary, list):
        assert isinstance(text, list) and len(binary) == len(text)
        for b, t in zip(binary, text):
            _same(b, t, buffers, seen)
    else:
        assert binary == text


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    started = start_server("--workers", "2", "--timeout", "30")
    try:
        yield started
    finally:
        stop_server(started)


def _post(server: LiveServer, source: str, **headers: str) -> httpx.Response:
    response = httpx.post(
        f"{server.url}/api/trace", json={"source": source}, headers=headers, timeout=60
    )
    assert response.status_code == 200
    return response


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_binary_values_equal_the_json_values(server: LiveServer, name: str) -> None:
    source = PROGRAMS[name]
    text = _post(server, source, accept="application/json")
    assert text.headers["content-type"] == "application/json"
    binary = _post(server, source, accept=BINARY)
    assert binary.headers["content-type"] == BINARY
    head, buffers = read_binary(binary.content)
    seen: list[int] = []
    _same(comparable(head), comparable(text.content), buffers, seen)
    # A scalar's one number stays in the head, and so does the preview of a tensor past
    # 4,096 elements (it carries no values): those two programs have no buffers.
    assert bool(seen) == (name not in ("chain 10,000 ops", "matmul 120x120"))
    if name == "matmul 64x64":
        assert 4096 in seen


def test_each_form_is_cached_on_its_own(server: LiveServer) -> None:
    source = MATMUL.format(n=9).replace("print(c.shape)", "print('cached forms')")
    first = _post(server, source, accept=BINARY)
    assert first.headers["x-cache"] == "miss"
    text = _post(server, source)  # no Accept: JSON, a job of its own
    assert text.headers["x-cache"] == "miss"
    assert text.headers["content-type"] == "application/json"
    again = _post(server, source, accept=BINARY)
    assert again.headers["x-cache"] == "hit" and again.content == first.content
    assert again.headers["etag"] != text.headers["etag"]
    assert "Accept" in again.headers["vary"]
    assert _post(server, source, accept="application/json").headers["x-cache"] == "hit"
    # One form's ETag is no validator of the other: a 304 would leave the client with the
    # body it has, in the form it did not ask for.
    for asked, other in ((BINARY, text), ("application/json", again)):
        response = httpx.post(
            f"{server.url}/api/trace",
            json={"source": source},
            headers={"accept": asked, "if-none-match": other.headers["etag"]},
            timeout=60,
        )
        assert response.status_code == 200
        assert response.headers["content-type"] == asked


def test_the_binary_form_is_gzipped(server: LiveServer) -> None:
    source = MATMUL.format(n=40).replace("print(c.shape)", "print('gzipped')")
    plain = _post(server, source, accept=BINARY)
    packed = httpx.post(
        f"{server.url}/api/trace",
        json={"source": source},
        headers={"accept": BINARY, "accept-encoding": "gzip"},
        timeout=60,
    )
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.headers["content-type"] == BINARY
    assert packed.content == plain.content  # httpx took the gzip off
    assert int(packed.headers["content-length"]) < len(plain.content)
    read_binary(packed.content)


@pytest.mark.parametrize(
    "accept",
    [
        "application/vnd.gradtrace.trace+binary;q=banana",
        "application/vnd.gradtrace.trace+binary;q=0",
        "application/json, application/vnd.gradtrace.trace+binary;q=0.5",
        ";;,,=",
        "*/*",
        "text/html",
        # Numbers float() reads that are no quality: NaN, infinities, past the range, -0.
        f"{BINARY};q=nan",
        f"{BINARY};q=inf",
        f"{BINARY};q=-inf",
        f"{BINARY};q=1e400",
        f"{BINARY};q=-0",
        f"{BINARY};q=1_0",
        f"{BINARY};q=0x1",
        # The first q counts; many entries, up to the head's 32 KiB cap, read in one pass.
        f"{BINARY};q=0;q=1",
        ", ".join(["text/plain;q=0.5"] * 1500 + [f"{BINARY};q=0"]),
    ],
)
def test_other_or_malformed_accept_gets_json(server: LiveServer, accept: str) -> None:
    response = _post(server, "import torch\nprint(torch.ones(3) * 2)\n", accept=accept)
    assert response.headers["content-type"] == "application/json"
    assert orjson.loads(response.content)["ok"] is True


def test_a_long_accept_still_names_the_binary_form(server: LiveServer) -> None:
    accept = ", ".join(["text/plain;q=0.5", "application/json;q=nan"] * 600 + [BINARY])
    response = _post(server, "import torch\nprint(torch.ones(4) / 3)\n", accept=accept)
    assert response.headers["content-type"] == BINARY
    assert read_binary(response.content)[0]["ok"] is True


def test_binary_preferred_by_quality(server: LiveServer) -> None:
    accept = f"application/json;q=0.5, {BINARY}"
    response = _post(server, "import torch\nprint(torch.ones(5) * 3)\n", accept=accept)
    assert response.headers["content-type"] == BINARY
    head, buffers = read_binary(response.content)
    assert head["ok"] is True and len(buffers) > 0


def test_a_failing_program_in_binary_form(server: LiveServer) -> None:
    response = _post(server, "import torch\nx = torch.ones(3)\nx.backward()\n", accept=BINARY)
    head, _ = read_binary(response.content)
    assert head["ok"] is False and head["error"]["type"] == "RuntimeError"


def test_a_memory_error_is_relabelled_in_the_head_and_the_buffers_kept() -> None:
    # A program whose own error names memory, after tensors that went to the buffers.
    source = (
        "import torch\nx = torch.arange(6.0).reshape(2, 3)\n"
        "raise RuntimeError('DefaultCPUAllocator: can\\'t allocate memory')\n"
    )
    body = trace_program(source, device="cpu", seed=0, limits=Limits(), binary=True)
    before, buffers = read_binary(body)
    assert before["error"]["type"] == "RuntimeError" and buffers
    relabel = MemoryRelabel(memory_mb=512)
    relabelled = trace_program(
        source, device="cpu", seed=0, limits=Limits(), binary=True, relabel=relabel
    )
    assert relabel.hit
    head, kept = read_binary(relabelled)
    assert head["error"]["type"] == "LimitError" and "512 MiB" in head["error"]["message"]
    assert kept == buffers
    assert head["nodes"] == before["nodes"]
    # Another error is left as it is, and not counted as a memory failure.
    other = MemoryRelabel(memory_mb=512)
    plain = trace_program(
        "import torch\nx = torch.ones(3)\nx.backward()\n",
        device="cpu",
        seed=0,
        limits=Limits(),
        binary=True,
        relabel=other,
    )
    assert read_binary(plain)[0]["error"]["type"] == "RuntimeError" and not other.hit
