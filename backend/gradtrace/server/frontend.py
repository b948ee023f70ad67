"""The browser app: files built by the frontend into gradtrace/static, served at /."""

from __future__ import annotations

import asyncio
import gzip
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.staticfiles import StaticFiles

NOT_BUILT_PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>gradtrace</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem}
code{background:#f2f2f2;padding:0 .25em}</style></head>
<body>
<h1>gradtrace</h1>
<p>The server is running, but the frontend is not built, so there is no app to show here.</p>
<p>Build it with <code>make frontend</code> (or <code>cd frontend &amp;&amp; npm ci &amp;&amp; npm run build</code>),
which writes it into <code>backend/gradtrace/static</code>, then reload this page.</p>
<p>The API works meanwhile: see <a href="/docs">/docs</a> and <a href="/api/health">/api/health</a>.</p>
</body>
</html>
"""


def index_response(static_dir: Path) -> Response:
    index = static_dir / "index.html"
    if index.is_file():
        # index.html names the hashed asset files: always revalidate it.
        return FileResponse(index, media_type="text/html", headers={"Cache-Control": "no-cache"})
    return HTMLResponse(NOT_BUILT_PAGE, headers={"Cache-Control": "no-cache"})


_COMPRESSIBLE = (".js", ".mjs", ".css", ".html", ".json", ".svg", ".map", ".txt", ".wasm")
_GZIP_MIN_BYTES = 1024


class FrontendFiles:
    """Static files of the built frontend, if and once the directory exists; text files
    gzipped once and kept (they do not change while the server runs)."""

    def __init__(self, static_dir: Path) -> None:
        self.static_dir = static_dir
        self._files: StaticFiles | None = None
        self._packed: dict[tuple[str, float], bytes] = {}

    async def response(self, path: str, request: Request) -> Response:
        if self._files is None and self.static_dir.is_dir():
            self._files = StaticFiles(directory=self.static_dir)
        if self._files is None:
            return JSONResponse({"detail": "Not Found"}, status_code=404)
        response = await self._files.get_response(path, request.scope)
        if isinstance(response, FileResponse) and response.status_code == 200:
            response.headers["Cache-Control"] = (
                "public, max-age=31536000, immutable" if path.startswith("assets/") else "no-cache"
            )
            if "gzip" in request.headers.get("accept-encoding", ""):
                return await self._gzipped(response) or response
        return response

    async def _gzipped(self, response: FileResponse) -> Response | None:
        file = Path(response.path)
        if file.suffix not in _COMPRESSIBLE:
            return None
        stat = file.stat()
        if stat.st_size < _GZIP_MIN_BYTES:
            return None
        key = (str(file), stat.st_mtime)
        packed = self._packed.get(key)
        if packed is None:
            packed = await asyncio.to_thread(lambda: gzip.compress(file.read_bytes(), mtime=0))
            self._packed[key] = packed
        headers = {
            name: value
            for name, value in response.headers.items()
            if name not in ("content-length", "content-encoding")
        }
        headers["Content-Encoding"] = "gzip"
        headers["Vary"] = "Accept-Encoding"
        return Response(packed, headers=headers, media_type=response.media_type)
