"""The player in a notebook (or a browser tab), from a Trace or straight from a tensor.

`show` embeds the same standalone page that `to_html` writes, as an iframe's `srcdoc`:
no server, no network, and the page's scripts and styles cannot touch the notebook's.
"""

from __future__ import annotations

import html
import tempfile
import webbrowser
from pathlib import Path
from typing import Any

import torch

from gradtrace.capture import Params, capture
from gradtrace.export import dot
from gradtrace.export import html as html_export
from gradtrace.trace.models import Trace


def as_trace(value: Trace | torch.Tensor, params: Params | None = None) -> Trace:
    """A Trace as is; a tensor captured (with its backward pass) first."""
    if isinstance(value, Trace):
        return value
    if isinstance(value, torch.Tensor):
        return capture(value, params=params)
    raise TypeError(f"expected a gradtrace.Trace or a torch.Tensor, not {type(value).__name__}")


def to_dot(value: Trace | torch.Tensor, params: Params | None = None) -> str:
    """Graphviz DOT of a trace, or of a tensor's graph (as torchviz's `make_dot`)."""
    return dot.to_dot(as_trace(value, params))


def to_html(
    value: Trace | torch.Tensor,
    params: Params | None = None,
    title: str | None = None,
    *,
    code: str | None = None,
    lesson: str | None = None,
    captions: html_export.Captions | None = None,
    torchviz: bool = False,
) -> str:
    """The standalone player page for a trace, or for a tensor's graph.

    With `code`, the program the trace ran, it is the lesson the browser exports: the
    code with its running line, the `title` and `lesson` text, `captions` ({step:
    sentence}) shown at their steps, and `torchviz=True` for the grad_fn chain alone.
    """
    return html_export.to_html(
        as_trace(value, params),
        title=title,
        code=code,
        lesson=lesson,
        captions=captions,
        torchviz=torchviz,
    )


def iframe(page: str, height: int = 640) -> str:
    """The page inside an iframe, as notebooks render HTML output."""
    return (
        f'<iframe srcdoc="{html.escape(page, quote=True)}" title="gradtrace player" '
        f'style="width: 100%; height: {int(height)}px; border: 1px solid #ddd; '
        f'border-radius: 4px" loading="eager"></iframe>'
    )


def _in_notebook() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell: Any = get_ipython()
    # A kernel (Jupyter, VS Code) renders HTML; a terminal IPython does not.
    return shell is not None and getattr(shell, "kernel", None) is not None


def show(
    value: Trace | torch.Tensor,
    params: Params | None = None,
    *,
    title: str | None = None,
    height: int = 640,
) -> Path | None:
    """Play a trace (or a tensor's graph): inline in a notebook, else in a browser tab.

    Outside a notebook the page is written to a temporary .html file, opened with
    `webbrowser`, and its path returned.
    """
    page = to_html(value, params, title)
    if _in_notebook():
        from IPython.display import HTML, display

        display(HTML(iframe(page, height)))  # type: ignore[no-untyped-call]
        return None
    with tempfile.NamedTemporaryFile(
        "w", suffix=".html", prefix="gradtrace-", delete=False, encoding="utf-8"
    ) as file:
        file.write(page)
    path = Path(file.name)
    webbrowser.open(path.as_uri())
    return path
