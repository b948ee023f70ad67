"""The built-in example programs: one file each, `NN_id.py`, in the order of NN.

Each file is an ordinary PyTorch program (it also runs with `python FILE`) that begins
with a header of comment fields, then a blank line:

    # title: Leaf and non-leaf tensors
    # summary: One line for the examples menu.
    # lesson: A few sentences of explanation, which may go on
    #   over more comment lines, each indented by two spaces.

`source` is the program below the header.
"""

from __future__ import annotations

import functools
import re
from importlib import resources

from pydantic import BaseModel

_FILE_NAME = re.compile(r"^(\d+)_([a-z0-9_]+)\.py$")
_FIELD = re.compile(r"^# (title|summary|lesson): ?(.*)$")
_CONTINUATION = re.compile(r"^#  +(\S.*)$")
_REQUIRED = ("title", "summary")


class Example(BaseModel):
    id: str
    title: str
    summary: str
    lesson: str | None = None
    source: str


class ExampleFormatError(ValueError):
    """An example file whose header does not follow the format above."""


def parse_example(example_id: str, text: str) -> Example:
    fields: dict[str, str] = {}
    lines = text.splitlines()
    current: str | None = None
    body_start = len(lines)
    for number, line in enumerate(lines):
        field = _FIELD.match(line)
        more = _CONTINUATION.match(line)
        if field:
            current = field.group(1)
            fields[current] = field.group(2).strip()
        elif more and current is not None:
            fields[current] = f"{fields[current]} {more.group(1).strip()}"
        elif not line.strip():
            body_start = number + 1
            break
        else:
            raise ExampleFormatError(f"{example_id}: line {number + 1} is not a header field")
    missing = [name for name in _REQUIRED if not fields.get(name)]
    if missing:
        raise ExampleFormatError(f"{example_id}: header lacks {', '.join(missing)}")
    source = "\n".join(lines[body_start:]).strip("\n") + "\n"
    return Example(
        id=example_id,
        title=fields["title"],
        summary=fields["summary"],
        lesson=fields.get("lesson"),
        source=source,
    )


@functools.cache
def load_examples() -> tuple[Example, ...]:
    """Every example, in file order."""
    found: list[tuple[int, Example]] = []
    for entry in resources.files(__name__).iterdir():
        match = _FILE_NAME.match(entry.name)
        if match:
            example = parse_example(match.group(2), entry.read_text(encoding="utf-8"))
            found.append((int(match.group(1)), example))
    return tuple(example for _, example in sorted(found, key=lambda pair: pair[0]))
