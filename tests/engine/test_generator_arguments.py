"""Generators given to what reads them whole in C: checked as the list C makes of them."""

from __future__ import annotations

import gradtrace
from gradtrace.language.limits import Limits

LIMITS = Limits(wall_time_s=10.0)


def test_join_of_a_generator_is_checked_before_c_joins_it() -> None:
    # 2,000 references to one string of 100,000 characters: 200 MB had C joined them.
    trace = gradtrace.run('s = "x" * 100000\nt = "-".join(s for _ in range(2000))\n', limits=LIMITS)
    assert trace.error is not None and trace.error.type == "LimitError"
    assert trace.error.message.startswith("joining 200,002,000 characters"), trace.error.message


def test_join_of_a_generator_joins_what_it_yields() -> None:
    source = 'print("-".join(str(i * i) for i in range(5)), ", ".join(map(str, range(3))))\n'
    trace = gradtrace.run(source, limits=LIMITS)
    assert trace.ok, trace.error
    assert trace.stdout == "0-1-4-9-16 0, 1, 2\n"


def test_a_generator_of_as_many_items_as_the_limit_is_read_whole() -> None:
    limit = Limits().sequence_items  # the cap on what C reads of an iterator
    source = f"print(sum(1 for a in range(1000) for b in range({limit // 1000})))\n"
    trace = gradtrace.run(source, limits=LIMITS)
    assert trace.ok, trace.error
    assert trace.stdout == f"{limit}\n"
    trace = gradtrace.run(source.replace("1000)", "1001)", 1), limits=LIMITS)
    assert trace.error is not None and trace.error.type == "LimitError"
    assert trace.error.message == f"an iterator yielded more than {limit:,} items"
