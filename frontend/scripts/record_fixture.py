"""Record a program's trace through the real engine as a unit-test fixture.

    PYTHONPATH=backend .venv/bin/python frontend/scripts/record_fixture.py \
        frontend/src/testing/programs/scalar_ops.py

writes frontend/src/testing/fixtures/scalar_ops.json: the Trace plus `__source`, the
program, so tests can name tensors by their source text as the browser does.
"""

import json
import sys
from pathlib import Path

import gradtrace

FIXTURES = Path(__file__).resolve().parent.parent / "src" / "testing" / "fixtures"

for name in sys.argv[1:]:
    program = Path(name)
    source = program.read_text()
    trace = json.loads(gradtrace.run_json(source))
    if not trace["ok"]:
        sys.exit(f"{program}: {trace['error']}")
    trace["__source"] = source
    (FIXTURES / f"{program.stem}.json").write_text(json.dumps(trace))
    print(FIXTURES / f"{program.stem}.json")
