"""to_html: the trace goes into the standalone page whole, and printed text cannot
break out of its <script> element."""

from __future__ import annotations

import json
import re

import pytest

import gradtrace
from gradtrace.export.html import NOT_BUILT, script_json, template

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
