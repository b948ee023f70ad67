"""to_html: the trace goes into the standalone page whole, and printed text cannot
break out of its <script> element."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import gradtrace
from gradtrace.export.html import NOT_BUILT, lesson_json, script_json, template

NASTY = "</script><script>alert(1)</script> <!-- & \u2028"
PROGRAM = (
    f"import torch\nx = torch.ones(2, requires_grad=True)\nprint({NASTY!r})\nx.sum().backward()\n"
)


def test_the_json_has_no_character_that_can_end_a_script() -> None:
    trace = gradtrace.run(PROGRAM)
    assert NASTY in trace.stdout
    text = script_json(trace)
    assert not set("<>&\u2028\u2029") & set(text)
    assert json.loads(text) == json.loads(trace.to_json())


def test_the_page_carries_the_trace() -> None:
    try:
        template()
    except RuntimeError as error:
        assert str(error) == NOT_BUILT
        pytest.skip(NOT_BUILT)
    trace = gradtrace.run(PROGRAM)
    page = gradtrace.to_html(trace, title="a <title>")
    found = re.findall(
        r'<script[^>]*id="gradtrace-trace"[^>]*>(.*?)</script>', page, flags=re.DOTALL
    )
    assert len(found) == 1
    assert json.loads(found[0]) == json.loads(trace.to_json())
    assert "<title>a &lt;title&gt;</title>" in page
    assert "alert(1)</script>" not in page


LESSON = """\
import torch
x = torch.tensor(3.0, requires_grad=True)
y1 = x + 1
y2 = 2 * x
loss = (y1 - y2) ** 2
loss.backward()
"""


def _lesson_of(page: str) -> Any:
    found = re.findall(
        r'<script[^>]*id="gradtrace-lesson"[^>]*>(.*?)</script>', page, flags=re.DOTALL
    )
    assert len(found) == 1
    return json.loads(found[0])


def test_the_lesson_rides_beside_the_trace_as_the_browser_writes_it() -> None:
    code = LESSON + "print('</script> & <!--')\n"
    text = lesson_json(code, "Leaf and non-leaf", "x is a leaf.", {7: "Backward starts.", 3: "y2"})
    assert not set("<>&\u2028\u2029") & set(text)
    assert json.loads(text) == {
        "title": "Leaf and non-leaf",
        "text": "x is a leaf.",
        "source": code,
        "captions": [[3, "y2"], [7, "Backward starts."]],
        "torchviz": False,
    }
    with pytest.raises(ValueError, match="whole number"):
        lesson_json(code, captions=[(-1, "before the start")])


def test_to_html_with_code_writes_the_lesson() -> None:
    try:
        template()
    except RuntimeError as error:
        assert str(error) == NOT_BUILT
        pytest.skip(NOT_BUILT)
    trace = gradtrace.run(LESSON)
    page = gradtrace.to_html(trace, code=LESSON, title="Leaf", captions=[(7, "Here.")])
    assert _lesson_of(page) == {
        "title": "Leaf",
        "text": None,
        "source": LESSON,
        "captions": [[7, "Here."]],
        "torchviz": False,
    }
    assert "<title>Leaf</title>" in page
    assert 'id="gradtrace-lesson"' not in gradtrace.to_html(trace)
    with pytest.raises(ValueError, match="code="):
        gradtrace.to_html(trace, captions={1: "no code"})
