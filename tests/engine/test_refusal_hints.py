"""Every refusal names the construct and says what to write instead (issue 16)."""

from __future__ import annotations

import pytest

import gradtrace

REFUSED = {
    "import torch\ntorch.save(1, 'x')\n": "torch.save",
    "import torch\nx = torch.ones(2)\nx.storage()\n": ".storage",
    "from torch import hub\n": "hub",
    "import torch\nx = torch.ones(2)\nx.share_memory_()\n": ".share_memory_",
    "import torch\nm = torch.nn.Linear(1, 1)\nm.register_backward_hook(print)\n": (
        ".register_backward_hook"
    ),
    "import os\n": "os",
    "from tqdm.contrib import tenumerate\n": "tqdm.contrib",
    "import matplotlib.animation as animation\n": "matplotlib.animation",
    "import pandas as pd\n": "pandas",
    "eval('1')\n": "eval",
    "import numpy as np\nnp.save('x', np.ones(2))\n": "numpy.save",
    "def g():\n    try:\n        yield 1\n    finally:\n        pass\n": "yield",
}


@pytest.mark.parametrize("source", sorted(REFUSED))
def test_refusal_names_the_construct_and_what_to_write(source: str) -> None:
    trace = gradtrace.run(source)
    assert trace.error is not None and trace.error.type == "ForbiddenError", trace.error
    assert REFUSED[source] in trace.error.message
    # What to write instead: a hint, or the message says it after a colon or semicolon.
    advice = trace.error.hint or trace.error.message.split(":", 1)[-1].split(";", 1)[-1]
    assert advice and advice != trace.error.message, trace.error


@pytest.mark.parametrize(
    "module",
    ["tqdm.contrib", "matplotlib.animation", "pandas", "os", "datetime", "torch.utils.tensorboard"],
)
def test_a_refused_import_that_tutorials_use_says_what_to_do_instead(module: str) -> None:
    error = gradtrace.run(f"import {module}\n").error
    assert error is not None and error.type == "ForbiddenError", error
    assert error.hint, f"import {module}: no hint"


@pytest.mark.parametrize(
    ("source", "advice"),
    [
        # introyt's autograd tutorial times a loop with the autograd profiler
        (
            "import torch\nwith torch.autograd.profiler.profile() as prf:\n    pass\n",
            "drop the profiler",
        ),
        ("import torch\nprf = torch.profiler.profile()\n", "drop the profiler"),
        # trainingyt logs to TensorBoard under a datetime-stamped name
        ("from torch.utils.tensorboard import SummaryWriter\n", "print the numbers"),
        ("from datetime import datetime\n", "drop the timestamps"),
    ],
)
def test_the_timing_and_logging_tutorials_use_say_what_to_drop(source: str, advice: str) -> None:
    error = gradtrace.run(source).error
    assert error is not None and error.type == "ForbiddenError", error
    assert error.hint and advice in error.hint, error
