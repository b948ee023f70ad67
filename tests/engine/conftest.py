"""Fixtures for the engine's tests: the CPython + torch reference, run once per session."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from engine_support import REPO, RUNNER, program_files, tutorial_files

# -- the reference ----------------------------------------------------------------------


def _run_reference(paths: list[Path], out: Path, device: str) -> dict[str, Any]:
    tmp = out.with_suffix(f".{os.getpid()}.tmp")
    # A CPU job's reference sees no accelerator either, so a program that asks
    # torch.accelerator (as tutorials do) picks the CPU on both sides.
    env = (
        {**os.environ, "CUDA_VISIBLE_DEVICES": ""}
        if device == "cpu"
        else {**os.environ, "GRADTRACE_REFERENCE_DEVICE": device}
    )
    proc = subprocess.run(
        [sys.executable, str(RUNNER), str(tmp), *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=str(REPO),
        env=env,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"reference runner failed:\n{proc.stderr[-4000:]}")
    os.replace(tmp, out)
    return json.loads(out.read_text())


@pytest.fixture(scope="session")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """{path: {"plain": ..., "probe": ...}} for every program, from ONE CPython run."""
    return shared_reference(program_files(), tmp_path_factory)


@pytest.fixture(scope="session")
def tutorial_reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The same for the corpus of real tutorial programs (tests/programs/tutorials)."""
    return shared_reference(tutorial_files(), tmp_path_factory)


@pytest.fixture(scope="session")
def cuda_reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The same for every program run on the GPU (inside `with torch.device("cuda")`)."""
    return shared_reference(program_files(), tmp_path_factory, device="cuda")


def shared_reference(
    paths: list[Path], tmp_path_factory: pytest.TempPathFactory, device: str = "cpu"
) -> dict[str, Any]:
    """The reference runner's answer for `paths` on `device`, from one CPython run.

    The result is cached under the session's shared temp root (keyed by the content of
    the programs and the runner), so that pytest-xdist workers share a single run.
    """
    digest = hashlib.sha256(device.encode())
    for p in [RUNNER, *paths]:
        digest.update(str(p).encode())
        digest.update(p.read_bytes())
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    out = root / f"reference-{digest.hexdigest()[:16]}.json"
    lock = out.with_suffix(".lock")
    deadline = time.monotonic() + 300
    while True:
        if out.exists():
            return json.loads(out.read_text())  # type: ignore[no-any-return]
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited too long for {out}") from None
            time.sleep(0.2)
            continue
        try:
            os.close(fd)
            return _run_reference(paths, out, device)
        finally:
            lock.unlink(missing_ok=True)
