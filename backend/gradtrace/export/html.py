"""A trace as one standalone HTML page: the built player with the trace inside it.

The frontend build writes `gradtrace/static/standalone.html`, a single file with every
script and style inlined, which plays the JSON it finds in
`<script id="gradtrace-trace" type="application/json">`. Nothing is fetched, so the
page works from disk, offline, and inside a notebook's iframe.

Given the program's code, the page is the same lesson the browser's "Standalone HTML
player" export writes: a `<script id="gradtrace-lesson">` beside the trace's (the
frontend's `EmbeddedLesson`: title, text, source, captions, torchviz) gives the code
pane, the running line, the title, the lesson text, captions at their steps, and the
app's names for unnamed tensors ("y1 - y2", not "tensor 3").
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Any

from gradtrace.trace.models import Trace

TEMPLATE = "standalone.html"
NOT_BUILT = "the standalone player is not built: run `make` (npm run build) first"

_TRACE_TAG = re.compile(
    r'(<script\b[^>]*\bid="gradtrace-trace"[^>]*>)(.*?)(</script>)', re.DOTALL | re.IGNORECASE
)
_TITLE_TAG = re.compile(r"<title>.*?</title>", re.DOTALL | re.IGNORECASE)
LESSON_ID = "gradtrace-lesson"

#: Captions: {step: sentence}, or (step, sentence) pairs; step k shows after k events.
Captions = Mapping[int, str] | Iterable[tuple[int, str]]


def template() -> str:
    """The built player page, or a RuntimeError saying how to build it."""
    page = resources.files("gradtrace").joinpath("static", TEMPLATE)
    if not page.is_file():
        raise RuntimeError(NOT_BUILT)
    return page.read_text(encoding="utf-8")


def _safe(text: str) -> str:
    """JSON text that is safe inside <script>: no `<`, `>`, `&` or line separators survive
    raw, so printed text such as `</script>` or `<!--` cannot end the element."""
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def script_json(trace: Trace) -> str:
    """The trace as JSON that is safe inside <script>."""
    return _safe(trace.to_json().decode())


def lesson_json(
    code: str,
    title: str | None = None,
    lesson: str | None = None,
    captions: Captions | None = None,
    torchviz: bool = False,
) -> str:
    """The `EmbeddedLesson` the browser's export writes, as JSON safe inside <script>."""
    pairs = captions.items() if isinstance(captions, Mapping) else (captions or ())
    checked: list[list[Any]] = []
    for step, text in pairs:
        if not isinstance(step, int) or isinstance(step, bool) or step < 0:
            raise ValueError(f"a caption's step is a whole number of events, not {step!r}")
        checked.append([step, str(text)])
    data = {
        "title": title,
        "text": lesson,
        "source": code,
        "captions": sorted(checked, key=lambda c: int(c[0])),
        "torchviz": bool(torchviz),
    }
    return _safe(json.dumps(data, ensure_ascii=False))


def to_html(
    trace: Trace,
    title: str | None = None,
    *,
    code: str | None = None,
    lesson: str | None = None,
    captions: Captions | None = None,
    torchviz: bool = False,
) -> str:
    """One self-contained HTML page that plays `trace`, with no server and no network.

    With `code` (the program the trace ran) the page is the lesson: the code beside the
    graph, its `title` and `lesson` text, and `captions` shown at their steps.
    """
    page = template()
    payload = script_json(trace)
    extra = ""
    if code is not None:
        embedded = lesson_json(code, title, lesson, captions, torchviz)
        extra = f'<script id="{LESSON_ID}" type="application/json">{embedded}</script>'
    elif lesson is not None or captions:
        raise ValueError("a lesson or captions need the program's code (code=...)")
    # A function replacement: the JSON's backslashes must not be read as group references.
    page, found = _TRACE_TAG.subn(
        lambda m: m.group(1) + payload + m.group(3) + extra, page, count=1
    )
    if not found:
        raise RuntimeError(f'{TEMPLATE} has no <script id="gradtrace-trace"> to fill')
    if title is not None:
        heading = f"<title>{html.escape(title)}</title>"
        page = _TITLE_TAG.sub(lambda _: heading, page, count=1)
    return page
