"""`pip install` of a clone gives the whole app: the wheel holds the built browser app.

A fresh clone of this repository (HEAD: what CI tests) is built into a wheel and an sdist
by the build backend; the wheel is installed into a new virtual environment, whose
`gradtrace` writes a standalone lesson that Debian's chromium opens and plays, and whose
`gradtrace serve` serves the app."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import httpx
import pytest
from tests.server.helpers import start_server, stop_server

ROOT = Path(__file__).resolve().parents[1]
PROGRAM = (
    "import torch\nx = torch.tensor(2.0, requires_grad=True)\ny = x * x\ny.backward()\n"
    "print(x.grad)\n"
)
BUILT = ("gradtrace/static/index.html", "gradtrace/static/standalone.html")


def _run(*command: str | Path, cwd: Path | None = None, timeout: float = 300) -> str:
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, f"{command}: {done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout to clone")
    target = tmp_path_factory.mktemp("clone") / "gradtrace"
    _run("git", "clone", "--quiet", ROOT, target)
    # The npm packages the checkout installed: the build, not `npm ci`, is under test.
    modules = ROOT / "frontend" / "node_modules"
    if modules.is_dir():
        (target / "frontend" / "node_modules").symlink_to(modules)
    return target


@pytest.fixture(scope="module")
def wheel(clone: Path) -> Path:
    assert not (clone / "backend" / "gradtrace" / "static").exists()  # a clone has no app built
    dist = clone / "dist"
    _run(
        sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
        "-w", dist, clone,
    )  # fmt: skip
    (built,) = dist.glob("gradtrace-*.whl")
    return built


@pytest.fixture(scope="module")
def fresh_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new environment with the wheel installed; its dependencies (torch among them,
    a large install) are seen from this environment's site-packages through a .pth file."""
    venv = tmp_path_factory.mktemp("venv") / "env"
    _run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    site = _run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))").strip()
    ours = _run(sys.executable, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))")
    (Path(site) / "dependencies.pth").write_text(ours.strip() + "\n")
    _run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", wheel)
    return venv


def test_the_wheel_holds_the_built_app(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert set(BUILT) <= names
    assert any(re.fullmatch(r"gradtrace/static/assets/.+\.js", name) for name in names)


def test_the_sdist_ships_the_app_built(clone: Path, wheel: Path) -> None:
    out = clone / "sdist"
    code = f"from setuptools import build_meta; print(build_meta.build_sdist({str(out)!r}))"
    name = _run(sys.executable, "-c", code, cwd=clone).strip().splitlines()[-1]
    with tarfile.open(out / name) as archive:
        members = {member.partition("/")[2] for member in archive.getnames()}
    assert {f"backend/{path}" for path in BUILT} <= members
    assert not any("node_modules" in member for member in members)


def test_the_installed_package_writes_a_lesson_that_chromium_plays(
    fresh_venv: Path, tmp_path: Path
) -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("needs Debian's chromium (make browser-setup)")
    lesson = tmp_path / "lesson.html"
    script = (
        "import sys, gradtrace\n"
        "assert gradtrace.__file__.startswith(sys.prefix), gradtrace.__file__\n"
        f"trace = gradtrace.run({PROGRAM!r})\n"
        f"open({str(lesson)!r}, 'w').write(gradtrace.to_html(trace, title='Square'))\n"
    )
    _run(fresh_venv / "bin" / "python", "-c", script, cwd=tmp_path)
    dom = _run(
        chromium, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=8000",
        "--dump-dom", lesson.as_uri(), timeout=120,
    )  # fmt: skip
    body = re.sub(r"<(script|style)\b.*?</\1>", "", dom, flags=re.S)
    nodes = re.findall(r'<li data-node="[^"]+"><button type="button">([^<]+)</button>', body)
    assert [node.split(":")[0] for node in nodes] == ["x", "y", "MulBackward0", "AccumulateGrad"]


def test_the_installed_package_serves_the_app(fresh_venv: Path) -> None:
    server = start_server(
        "--workers", "1", env={"PYTHONPATH": ""}, python=fresh_venv / "bin" / "python"
    )
    try:
        page = httpx.get(server.url + "/")
        assert page.status_code == 200 and '<div id="app"' in page.text
        trace = httpx.post(server.url + "/api/trace", json={"source": PROGRAM}, timeout=60).json()
        assert trace["ok"] and trace["stdout"] == "tensor(4.)\n"
    finally:
        stop_server(server)
