"""How fast this machine runs plain Python at the moment: a fixed loop, best of 3.

On a shared VM the host's load moves every figure, even ratios measured side by side:
the same commit gave `gradtrace.run` over the job 1.16x on a quiet day and 1.20-1.41x
on a busy one. BENCHMARKS.md records this probe at the start and the end of a run, so
that two runs can be told apart (quiet here: about 60-70 ms; busy: 100 ms and more).
"""

from __future__ import annotations

import time


def _loop() -> int:
    counts: dict[int, int] = {}
    for i in range(300_000):
        counts[i % 100] = counts.get(i % 100, 0) + i * 2
        text = str(i)
        pair = [text, text + "x"]
    return len(counts) + len(pair)


def probe_ms() -> float:
    """The best of 3 timings of the loop, in milliseconds."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        _loop()
        best = min(best, time.perf_counter() - started)
    return best * 1000


if __name__ == "__main__":
    print(f"{probe_ms():.0f} ms")
