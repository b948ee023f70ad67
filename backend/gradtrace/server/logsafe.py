"""Log lines that a request or a program cannot forge: control characters escaped."""

from __future__ import annotations

import logging
import re
import time

# C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def escape(text: object) -> str:
    """The text on one line: a newline in a path or a message becomes the 4 characters \\x0a."""
    return _CONTROL.sub(_escaped, str(text))


class EscapingFormatter(logging.Formatter):
    """Belt and braces for what is logged without `escape` (a traceback, a library's
    message): every line after the first is indented, so none can pass for a record."""

    _second: tuple[int, str] = (-1, "")

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        """logging's own format, its date and time made once a second rather than once a
        record: under load, a line per request, that was a fifth of the logging's cost."""
        if datefmt is not None:
            return super().formatTime(record, datefmt)
        second = int(record.created)
        if self._second[0] != second:
            self._second = (second, time.strftime(self.default_time_format, self.converter(second)))
        msec_format = self.default_msec_format
        return (
            self._second[1]
            if msec_format is None
            else msec_format % (self._second[1], record.msecs)
        )

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        if _CONTROL.search(text) is None:  # the usual line: nothing to escape
            return text
        first, *rest = text.split("\n")
        return "\n".join([escape(first), *("    " + escape(line) for line in rest)])
