"""torch's warnings as the program's reader should see them: each once, short, at its step.

torch warns from C++ with the whole paragraph and "(Triggered internally at
/__w/pytorch/.../TensorBody.h:493.)"; with warn-always on it warns on every access
in a loop. The log keeps the first sentence, names the program line that was
running when it first happened, and records each distinct message once, as a
timeline event at that step.
"""

from __future__ import annotations

import re
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from gradtrace.language import statements
from gradtrace.language.tensor_text import clean_text, scrub
from gradtrace.trace.events import Warned
from gradtrace.trace.recorder import Recorder

#: At most this many distinct warnings are kept.
MAX_WARNINGS = 50
#: A warning's short text is cut here.
MAX_CHARS = 300

_TRIGGERED = re.compile(r"\s*\(Triggered internally at [^)]*\)\.?")
_PATH = re.compile(r"(?:[A-Za-z]:)?(?:/[\w.+-]+){2,}(?::\d+)?")
_FIRST_SENTENCE = re.compile(r"^(.+?[.!?])(?=\s+[A-Z(]|\s*$)", re.S)


def short_message(text: str) -> str:
    """The first sentence of a warning, without torch's C++ location or file paths."""
    text = _TRIGGERED.sub("", text)
    text = _PATH.sub("…", text)
    text = " ".join(text.split())
    match = _FIRST_SENTENCE.match(text)
    if match:
        text = match.group(1)
    if len(text) > MAX_CHARS:
        text = text[: MAX_CHARS - 1] + "…"
    return clean_text(scrub(text))


_STATEMENTS_FILE = statements.__file__


def program_line(frame: FrameType | None) -> int | None:
    """The line of the innermost program statement running below `frame`, if any."""
    while frame is not None:
        code = frame.f_code
        if code.co_name == "stmt" and code.co_filename == _STATEMENTS_FILE:
            node = frame.f_locals.get("node")
            line = getattr(node, "lineno", None)
            return line if isinstance(line, int) else None
        frame = frame.f_back
    return None


class WarningLog:
    """The distinct warnings of one run, in the order they first happened."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        #: Each distinct message, with the line it first happened at.
        self.seen: dict[str, int | None] = {}

    def show(self, message: Any, *_args: Any, **_kwargs: Any) -> None:
        """`warnings.showwarning` while the program runs: record, print nothing."""
        if len(self.seen) >= MAX_WARNINGS:
            return
        text = short_message(str(message))
        if text in self.seen:
            return
        line = self.seen[text] = program_line(sys._getframe(1))
        self.recorder.timeline.append(Warned(text, line))

    def entries(self) -> list[dict[str, Any]]:
        return [{"message": message, "line": line} for message, line in self.seen.items()]


@contextmanager
def warnings_logged(recorder: Recorder) -> Iterator[WarningLog]:
    """Every warning while the block runs goes to the log (and the timeline), once."""
    log = WarningLog(recorder)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.showwarning = log.show
            yield log
    finally:
        # A "once" filter of the program's records in Python's process-wide registry.
        warnings.onceregistry.clear()  # type: ignore[attr-defined]
