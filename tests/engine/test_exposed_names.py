"""Every module member and builtin a program can reach, held to a reviewed list.

tests/engine/exposed_names.txt is that list. A change to the allowlists (namespaces.py,
pymodules.py, builtins.py) fails here until the list is updated in the same commit: a
widening of the language is seen, and reviewed against the hostile corpus, before it lands.
To update it after review: `python tests/engine/test_exposed_names.py > tests/engine/exposed_names.txt`.
"""

from __future__ import annotations

from pathlib import Path

from gradtrace.language import namespaces
from gradtrace.language.interpreter import Interpreter
from gradtrace.language.limits import Limits
from gradtrace.trace.recorder import Recorder

REVIEWED = Path(__file__).with_name("exposed_names.txt")


def exposed_names() -> list[str]:
    lines = []
    for path, ns in sorted(namespaces.MODULES.items()):
        lines.extend(f"{path}.{name}" for name in sorted(ns.members))
    limits = Limits()
    interp = Interpreter("", limits, Recorder(limits), "cpu")
    lines.extend(f"builtins.{name}" for name in sorted(interp.builtin_table))
    return lines


def test_exposed_names_match_the_reviewed_list() -> None:
    reviewed = REVIEWED.read_text().split()
    now = exposed_names()
    added = sorted(set(now) - set(reviewed))
    removed = sorted(set(reviewed) - set(now))
    assert not added and not removed, (
        f"exposed but not reviewed: {added}; reviewed but gone: {removed} (see this file's docstring)"
    )


if __name__ == "__main__":
    print("\n".join(exposed_names()))
