"""The wall-time alarm never leaves one of torch's imports half-done.

torch imports modules on first use: an optimizer's constructor imports torch._dynamo
(~900 modules, a second or more). A job whose time ran out during that import stopped it
halfway, and every later job of the process that needed it failed ("partially initialized
module 'torch._dynamo'", "already a kernel registered ... wait_tensor", seen on torch 2.11
on a loaded GPU machine, where a worker's warm-up ran out of time that way).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from engine_support import REPO

import gradtrace

# In a fresh process (torch._dynamo not imported yet): the import is made slow, so the
# first job's alarm goes off inside it, whatever the machine's speed.
CHILD = textwrap.dedent(
    """
    import sys, time
    import gradtrace
    assert "torch._dynamo" not in sys.modules

    class Slow:
        def find_spec(self, name, path=None, target=None):
            if name == "torch._dynamo.eval_frame":
                time.sleep(1.0)
            return None

    OPTIMIZER = "import torch\\nw = torch.zeros(2, requires_grad=True)\\n"
    OPTIMIZER += "opt = torch.optim.Adam([w], lr=0.1)\\n(w * w).sum().backward()\\nopt.step()\\n"
    # Then long enough for the first job to end at its time limit either way.
    OPTIMIZER += "for i in range(20000):\\n    v = w * 2\\n"
    sys.meta_path.insert(0, Slow())
    first = gradtrace.run(OPTIMIZER, limits=gradtrace.Limits(wall_time_s=0.01))
    sys.meta_path.pop(0)
    print("first", first.ok, first.error and first.error.type)
    again = gradtrace.run(OPTIMIZER)
    print("again", again.ok, again.error and again.error.message)
    """
)


def test_a_job_out_of_time_during_an_import_leaves_the_process_working() -> None:
    # The child imports the gradtrace this test imported (not another checkout's).
    backend = str(Path(gradtrace.__file__).resolve().parents[1])
    out = subprocess.run(
        [sys.executable, "-c", CHILD],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=str(REPO),
        env={**os.environ, "PYTHONPATH": backend},
    )
    assert out.returncode == 0, out.stderr[-3000:]
    lines = out.stdout.splitlines()
    assert lines[0] == "first False LimitError", out.stdout
    assert lines[1] == "again True None", out.stdout
