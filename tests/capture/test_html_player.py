"""The page `to_html`/`show` write plays in a real browser from disk with no network:
Debian's chromium, driven by playwright-core from the frontend's node_modules."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import torch

import gradtrace
from gradtrace.export.html import NOT_BUILT, template

HERE = Path(__file__).resolve().parent
NODE_MODULES = HERE.parents[1] / "frontend" / "node_modules"
CHROMIUM = Path("/usr/bin/chromium")


def _skip_unless_ready() -> str:
    try:
        template()
    except RuntimeError:
        pytest.skip(NOT_BUILT)
    if not (NODE_MODULES / "playwright-core").is_dir():
        pytest.skip("playwright-core is not installed in frontend/node_modules")
    if not CHROMIUM.exists():
        pytest.skip("chromium is not at /usr/bin/chromium")
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    return node


def test_the_exported_page_plays_to_the_end_offline(tmp_path: Path) -> None:
    node = _skip_unless_ready()
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
    loss = model(torch.randn(2, 3)).pow(2).mean()
    trace = gradtrace.capture(loss, params=model)
    page = tmp_path / "player.html"
    page.write_text(gradtrace.to_html(trace, title="capture"), encoding="utf-8")
    done = subprocess.run(
        [node, str(HERE / "html_player_check.mjs"), str(page), str(NODE_MODULES)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "at the end" in done.stdout
