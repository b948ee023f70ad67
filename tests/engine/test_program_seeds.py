"""A program's `random` and `numpy.random` start from the job's seed however the job before
it left them: seeded when the program first imports them (language/seeds.py), with the
numbers CPython gives after `random.seed(seed)` and `numpy.random.seed(seed)`. (Bounds over
the tensor limit, 10**9 here, once made the size check dry-run `randint` for real: the
program's draws were one behind CPython's.)"""

from __future__ import annotations

import random

import numpy as np
import pytest

import gradtrace

DRAWS = """\
import random
import numpy as np
print(random.random(), random.randint(0, 10**9))
print(np.random.rand(), np.random.randint(0, 10**9))
"""

LATE_IMPORT = """\
import torch
x = torch.ones(2, requires_grad=True)

def draw():
    from numpy.random import rand
    import random as r
    return r.random(), rand()

(x * 2).sum().backward()
print(*draw())
"""

ADVANCES = """\
import random
import numpy
for i in range(1000):
    random.random()
    numpy.random.rand()
random.seed(12345)
numpy.random.seed(999)
"""

NO_IMPORT = "import torch\nprint(torch.ones(1))\n"


def _expected(seed: int) -> tuple[str, str]:
    random.seed(seed)
    np.random.seed(seed % 2**32)
    first = f"{random.random()} {random.randint(0, 10**9)}\n"
    second = f"{np.random.rand()} {np.random.randint(0, 10**9)}\n"
    return first, second


def _stdout(source: str, seed: int) -> str:
    trace = gradtrace.run(source, seed=seed)
    assert trace.ok, trace.error
    return trace.stdout


@pytest.mark.parametrize("seed", [0, 7, 2**40])
def test_draws_are_those_of_the_seed_after_a_job_that_moved_both_generators(seed: int) -> None:
    _stdout(ADVANCES, seed=3)
    _stdout(NO_IMPORT, seed=5)  # a job that imports neither leaves its seed unused
    first, second = _expected(seed)
    assert _stdout(DRAWS, seed) == first + second


def test_an_import_inside_a_function_seeds_before_its_first_draw() -> None:
    random.seed(0)
    np.random.seed(0)
    expected = f"{random.random()} {np.random.rand()}\n"
    _stdout(ADVANCES, seed=0)
    assert _stdout(LATE_IMPORT, seed=0) == expected


def test_importing_twice_in_one_job_does_not_seed_again() -> None:
    source = "import random\na = random.random()\nimport random\nprint(a != random.random())\n"
    assert _stdout(source, seed=0) == "True\n"


UNSEEDED = """\
import numpy as np
first, second = np.random.default_rng(), np.random.default_rng()
legacy = np.random.RandomState()
print(first.random(), second.random(), legacy.rand(), np.random.rand())
"""


def test_a_generator_made_without_a_seed_draws_on_the_jobs_seed() -> None:
    # numpy would read the OS's entropy: the same request would not give the same trace.
    # Each unseeded generator gets its own numbers, and the global state is left alone.
    once = _stdout(UNSEEDED, seed=4)
    _stdout(UNSEEDED, seed=9)
    assert _stdout(UNSEEDED, seed=4) == once
    assert _stdout(UNSEEDED, seed=9) != once
    first, second, legacy, global_draw = once.split()
    assert first != second
    np.random.seed(4)
    assert float(global_draw) == np.random.rand()
    expected = np.random.default_rng([4, 1]).random()
    assert float(first) == expected
    assert float(legacy) == np.random.RandomState([4, 3]).rand()
