"""A trace as one standalone HTML page: the built player with the trace inside it.

The frontend build writes `gradtrace/static/standalone.html`, a single file with every
script and style inlined, which plays the JSON it finds in
`<script id="gradtrace-trace" type="application/json">`. Nothing is fetched, so the
page works from disk, offline, and inside a notebook's iframe.
"""

from __future__ import annotations

import html
import re
from importlib import resources

from gradtrace.trace.models import Trace

TEMPLATE = "standalone.html"
NOT_BUILT = "the standalone player is not built: run `make` (npm run build) first"

_TRACE_TAG = re.compile(
    r'(<script\b[^>]*\bid="gradtrace-trace"[^>]*>)(.*?)(</script>)', re.DOTALL | re.IGNORECASE
)
_TITLE_TAG = re.compile(r"<title>.*?</title>", re.DOTALL | re.IGNORECASE)


def template() -> str:
    """The built player page, or a RuntimeError saying how to build it."""
    page = resources.files("gradtrace").joinpath("static", TEMPLATE)
    if not page.is_file():
        raise RuntimeError(NOT_BUILT)
    return page.read_text(encoding="utf-8")


def script_json(trace: Trace) -> str:
    """The trace as JSON that is safe inside <script>: no `<`, `>`, `&` or line separators
    survive raw, so printed text such as `</script>` or `<!--` cannot end the element."""
    text = trace.to_json().decode()
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def to_html(trace: Trace, title: str | None = None) -> str:
    """One self-contained HTML page that plays `trace`, with no server and no network."""
    page = template()
    payload = script_json(trace)
    # A function replacement: the JSON's backslashes must not be read as group references.
    page, found = _TRACE_TAG.subn(lambda m: m.group(1) + payload + m.group(3), page, count=1)
    if not found:
        raise RuntimeError(f'{TEMPLATE} has no <script id="gradtrace-trace"> to fill')
    if title is not None:
        heading = f"<title>{html.escape(title)}</title>"
        page = _TITLE_TAG.sub(lambda _: heading, page, count=1)
    return page
