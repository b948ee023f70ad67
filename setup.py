"""The build backend's one addition: the wheel and the sdist hold the built browser app.

`gradtrace.show`, `gradtrace.to_html` and `gradtrace serve` need the frontend that Vite
builds into backend/gradtrace/static. A wheel built from a clone builds it first (Node.js
20+ and npm needed); an sdist ships it prebuilt, so a wheel built from the sdist needs no
Node at all. Everything else is declared in pyproject.toml.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent
FRONTEND = ROOT / "frontend"
STATIC = ROOT / "backend" / "gradtrace" / "static"
BUILT = ("index.html", "standalone.html")


def build_frontend() -> None:
    """Build the app into the package unless it is there (an sdist ships it built)."""
    if all((STATIC / name).is_file() for name in BUILT):
        return
    if not (FRONTEND / "package.json").is_file():
        raise SystemExit("gradtrace: no built frontend and no frontend/ sources to build it from")
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit(
            "gradtrace: building from a clone builds the browser app, which needs Node.js 20+ "
            "and npm on PATH (or build from the sdist, which ships the app built)"
        )
    if not (FRONTEND / "node_modules").exists():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=FRONTEND, check=True)
    subprocess.run([npm, "run", "build"], cwd=FRONTEND, check=True)
    missing = [name for name in BUILT if not (STATIC / name).is_file()]
    if missing:
        raise SystemExit(f"gradtrace: the frontend build did not write {', '.join(missing)}")


class BuildPyWithFrontend(build_py):
    def run(self) -> None:
        build_frontend()
        super().run()


class SdistWithFrontend(sdist):
    def run(self) -> None:
        build_frontend()
        super().run()


setup(cmdclass={"build_py": BuildPyWithFrontend, "sdist": SdistWithFrontend})
