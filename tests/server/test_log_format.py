"""The access log's formatter gives logging's own text, its time made once a second."""

from __future__ import annotations

import logging

from gradtrace.server.logsafe import EscapingFormatter

FORMAT = "%(asctime)s %(name)s %(message)s"


def _record(created: float) -> logging.LogRecord:
    record = logging.LogRecord("gradtrace.access", logging.INFO, "", 0, "GET / %d", (200,), None)
    record.created = created
    record.msecs = (created - int(created)) * 1000
    return record


def test_times_are_logging_s_own_within_and_across_seconds() -> None:
    ours = EscapingFormatter(FORMAT)
    plain = logging.Formatter(FORMAT)
    # Within one second, into the next, a day later, and back (a record made earlier on
    # another thread may be formatted after a later one).
    for created in (1_700_000_000.001, 1_700_000_000.999, 1_700_000_001.5, 1_700_086_400.25,
                    1_700_000_000.5, 1_700_000_000.5):  # fmt: skip
        record = _record(created)
        assert ours.format(record) == plain.format(record)


def test_a_date_format_of_its_own_is_kept() -> None:
    ours = EscapingFormatter(FORMAT, datefmt="%H:%M")
    plain = logging.Formatter(FORMAT, datefmt="%H:%M")
    record = _record(1_700_000_000.5)
    assert ours.format(record) == plain.format(record)
