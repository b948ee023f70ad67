"""The browser app: files built by the frontend into gradtrace/static, served at /."""

from __future__ import annotations

from pathlib import Path

from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

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


class FrontendFiles:
    """Static files of the built frontend, if and once the directory exists."""

    def __init__(self, static_dir: Path) -> None:
        self.static_dir = static_dir
        self._files: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._files is None and self.static_dir.is_dir():
            self._files = GZipMiddleware(StaticFiles(directory=self.static_dir), minimum_size=1024)
        if self._files is None:
            await JSONResponse({"detail": "Not Found"}, status_code=404)(scope, receive, send)
            return
        await self._files(scope, receive, send)
