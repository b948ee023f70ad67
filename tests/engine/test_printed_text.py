"""Text a program has C write in one call (str() of a container, print(*args),
str.format) is bounded before C writes it, not by the length of what it wrote: one
100,000-character string held 20,000 times is 2 billion characters. Each program runs
in a child under the hostile corpus's address-space cap (run_in_child), where a text
written first ends as the process running out of memory instead of the limit's error."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_hostile import run_in_child

S = 's = "x" * 100000\n'
PROGRAMS = {
    "list": (S + "print(len(str([s] * 20000)))\n", "printing this container"),
    "namedtuple": (
        S + "import collections\nP = collections.namedtuple('P', 'a b')\n"
        "print(len(repr(P([s] * 20000, 1))))\n",
        "printing this container",
    ),
    "dict_values": (
        S + "print(len(str({i: s for i in range(20000)}.values())))\n",
        "printing this container",
    ),
    "deque": (
        S + "import collections\nprint(len(str(collections.deque([s] * 20000))))\n",
        "printing this container",
    ),
    "fstring": (S + 'print(len(f"{[s] * 20000}"))\n', "printing this container"),
    "print_args": (S + "print(*([s] * 20000))\n", "printed more than"),
    "print_sep": (S + "print(*([1] * 30000), sep=s)\n", "printed more than"),
    "format_fields": (S + 'print(len(("{0}" * 30000).format(s)))\n', "str.format would make"),
    "percent_widths": (
        'print(len(("%99999s" * 14000) % tuple([1] * 14000)))\n',
        "% format widths add up",
    ),
    "fstring_fields": (
        'x = 1\nprint(len(f"' + "{x:99999}" * 1500 + '"))\n',
        "an f-string would make",
    ),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_long_text_is_refused_before_it_is_written(name: str, tmp_path: Path) -> None:
    source, fragment = PROGRAMS[name]
    result = run_in_child(source, tmp_path)
    assert "trace" in result, result
    error = result["trace"]["error"]
    assert error["type"] == "LimitError", error
    assert fragment in error["message"], error["message"]
