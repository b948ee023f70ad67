"""close_descriptors keeps exactly what it is told to keep, whatever else is in the list.

The loop once asked os.closerange for empty ranges, (3, 3) or (3, 0), and CPython then
closes every descriptor from 3 up: a kept descriptor numbered 3, or a GPU worker's list of
every descriptor its driver opened (which starts at 0), lost them all, and every CUDA
launch after it failed ('unspecified launch failure', on an H100)."""

from __future__ import annotations

import os
import subprocess
import sys

CHILD = """
import os, sys
from gradtrace.sandbox import confine
kept = [os.open(os.devnull, os.O_RDONLY) for _ in range(4)]
dropped = [os.open(os.devnull, os.O_RDONLY) for _ in range(3)]
keep = kept if sys.argv[1] == "kept" else [0, 1, 2, *kept, kept[0], kept[-1]]
confine.close_descriptors(keep)
def is_open(fd):
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False
# stdout is /dev/null now; stderr stays
print([is_open(fd) for fd in kept], [is_open(fd) for fd in dropped], is_open(2), file=sys.stderr)
"""


def _run(keep: str) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    result = subprocess.run(
        [sys.executable, "-c", CHILD, keep], capture_output=True, text=True, env=env, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stderr.strip()


EVERY_KEPT = "[True, True, True, True] [False, False, False] True"


def test_the_kept_descriptors_stay_and_the_others_close() -> None:
    assert _run("kept") == EVERY_KEPT


def test_standard_streams_and_repeats_in_the_list_change_nothing() -> None:
    assert _run("with_streams_and_repeats") == EVERY_KEPT
