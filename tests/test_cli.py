"""`gradtrace run` in its three formats, as a user runs it (a real subprocess)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

import gradtrace
from gradtrace.export.dot import FUNCTION, LEAF, OUTPUT, to_dot
from gradtrace.trace.models import FunctionNode, TensorNode

PROGRAM = """\
import torch
x = torch.tensor(3.0, requires_grad=True)
y1 = x + 1
y2 = 2 * x
loss = (y1 - y2) ** 2
loss.backward()
print(x.grad)
"""
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def _gradtrace(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "gradtrace.cli", *args], capture_output=True, timeout=120
    )


def _comparable(body: bytes) -> object:
    data = orjson.loads(body)
    data.pop("elapsed_ms", None)
    for node in data["nodes"]:
        node.pop("sequence_nr", None)
    return orjson.loads(ADDRESS.sub("0x?", orjson.dumps(data).decode()))


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "program.py"
    path.write_text(PROGRAM)
    return path


def test_run_json_prints_the_trace(program: Path) -> None:
    result = _gradtrace("run", str(program), "--device", "cpu", "--seed", "3")
    assert result.returncode == 0, result.stderr
    assert _comparable(result.stdout) == _comparable(gradtrace.run_json(PROGRAM, seed=3))


def test_run_exits_1_when_the_program_fails(tmp_path: Path) -> None:
    path = tmp_path / "bad.py"
    path.write_text("import torch\nx = torch.ones(2) @ torch.ones(3)\n")
    result = _gradtrace("run", str(path))
    assert result.returncode == 1
    assert orjson.loads(result.stdout)["ok"] is False


def test_run_dot_prints_the_graph_coloured_as_torchviz(program: Path) -> None:
    result = _gradtrace("run", str(program), "--format", "dot")
    assert result.returncode == 0, result.stderr
    dot = result.stdout.decode()
    trace = gradtrace.run(PROGRAM)
    assert dot == to_dot(trace)
    assert dot.startswith("digraph gradtrace {") and dot.rstrip().endswith("}")
    for node in trace.nodes:
        assert f'"{node.id}" [' in dot
        if isinstance(node, FunctionNode):
            assert f'"{node.id}" [label="{node.op}", fillcolor={FUNCTION}]' in dot
        elif isinstance(node, TensorNode) and node.name == "x":
            assert f"fillcolor={LEAF}" in dot.split(f'"{node.id}" [', 1)[1].split("\n")[0]
    roots = {p.root for p in trace.passes}
    for root in roots:
        assert f"fillcolor={OUTPUT}" in dot.split(f'"{root}" [', 1)[1].split("\n")[0]
    for edge in trace.edges:
        assert f'"{edge.source}" -> "{edge.target}"' in dot


def test_run_reads_standard_input() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gradtrace.cli", "run", "-", "--format", "dot"],
        input=PROGRAM.encode(),
        capture_output=True,
        timeout=120,
    )
    assert result.returncode == 0
    assert result.stdout.decode() == to_dot(gradtrace.run(PROGRAM))


def test_run_html_is_the_standalone_page_or_says_it_needs_the_frontend(program: Path) -> None:
    result = _gradtrace("run", str(program), "--format", "html")
    if result.returncode == 0:
        assert b"<html" in result.stdout.lower()
        assert importlib.util.find_spec("gradtrace.export.html") is not None
    else:
        assert result.returncode == 2
        assert b"html export needs the built frontend" in result.stderr
        assert result.stdout == b""


def test_run_refuses_a_device_this_machine_lacks(program: Path) -> None:
    if "mps" in gradtrace.available_devices():
        pytest.skip("this machine has mps")
    result = _gradtrace("run", str(program), "--device", "mps")
    assert result.returncode == 2
    assert b"not available here" in result.stderr


def test_serve_help_lists_its_flags() -> None:
    result = _gradtrace("serve", "--help")
    for flag in ("--host", "--port", "--workers", "--device", "--timeout", "--memory"):
        assert flag.encode() in result.stdout
