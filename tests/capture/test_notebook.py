"""The example notebook runs (in a real kernel through nbclient, and as a plain script),
and show() puts the standalone player on the page or in a browser tab."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import webbrowser
from pathlib import Path

import pytest
import torch

import gradtrace
from gradtrace.export.html import NOT_BUILT, template

REPO = Path(__file__).resolve().parents[2]
RUNNER = REPO / "examples" / "run_notebook.py"


def _built() -> bool:
    try:
        template()
    except RuntimeError:
        return False
    return True


def _run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(RUNNER), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
        env={**os.environ, "BROWSER": "true"},  # a no-op command for webbrowser
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_notebook_runs_in_a_kernel(tmp_path: Path) -> None:
    pytest.importorskip("nbclient")
    out = tmp_path / "executed.ipynb"
    assert "with nbclient" in _run("--output", str(out))
    outputs = [o for c in json.loads(out.read_text())["cells"] for o in c.get("outputs", [])]
    assert not [o for o in outputs if o["output_type"] == "error"]
    html = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    text = "".join("".join(o.get("text", "")) for o in outputs)
    if _built():
        assert len(html) == 1 and "<iframe srcdoc=" in "".join(html[0])
        assert "gradtrace-trace" in "".join(html[0])
    else:
        assert NOT_BUILT in text and not html
    assert "MseLossBackward0 -> AddmmBackward0" in text


def test_the_notebook_runs_as_a_script() -> None:
    out = _run("--plain")
    assert "as a script" in out and "MseLossBackward0 -> AddmmBackward0" in out


def test_show_outside_a_notebook_opens_a_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not _built():
        pytest.skip(NOT_BUILT)
    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url, *a, **k: opened.append(url) or True)
    w = torch.randn(3, requires_grad=True)
    path = gradtrace.show((w * w).sum(), params={"w": w})
    assert path is not None and opened == [path.as_uri()]
    assert 'id="gradtrace-trace"' in path.read_text(encoding="utf-8")
    path.unlink()
