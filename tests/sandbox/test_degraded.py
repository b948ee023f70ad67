"""Where a layer is missing the service still starts, and says loudly which one."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import gradtrace

REPO = Path(__file__).resolve().parents[2]

SERVICE = textwrap.dedent(
    """
    import asyncio, logging
    from tests.server.helpers import make_settings, open_app

    logging.basicConfig(level=logging.WARNING)

    async def main():
        async for api in open_app(make_settings(workers=1)):
            response = await api.client.post("/api/trace", json={"source": "print(2)\\n"})
            print("OK" if response.json()["ok"] else response.text)
            (pid,) = api.app.state.service.pools["cpu"].stats().pids
            with open(f"/proc/{pid}/status") as status:
                print([line for line in status.read().splitlines() if "Seccomp:" in line])

    asyncio.run(main())
    """
)


def test_without_bwrap_the_service_starts_and_names_the_missing_layer() -> None:
    package_root = os.path.dirname(os.path.dirname(gradtrace.__file__))
    env = {
        "PATH": "/nonexistent",  # no bwrap to be found
        "PYTHONPATH": os.pathsep.join([package_root, str(REPO)]),
    }
    result = subprocess.run(
        [sys.executable, "-c", SERVICE],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        cwd=REPO,
    )
    assert "OK" in result.stdout, result.stderr[-3000:]
    assert "SANDBOX LAYER MISSING: namespaces (bubblewrap)" in result.stderr
    assert "bwrap (bubblewrap) is not installed" in result.stderr
    assert "Seccomp:\\t2" in result.stdout  # the other layers still hold
