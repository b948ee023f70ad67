"""The recorder's object keys: one-to-one like id(), without id()'s audit event."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import torch

from gradtrace.identity import identity


def test_identity_is_one_to_one_over_live_objects() -> None:
    objects: list[object] = [torch.zeros(1) for _ in range(2000)]
    objects += [[i] for i in range(2000)]  # unhashable objects have an identity too
    objects += [t.grad_fn for t in (torch.ones(1, requires_grad=True) * 2 for _ in range(500))]
    keys = [identity(o) for o in objects]
    assert len(set(keys)) == len(objects)
    assert keys == [identity(o) for o in objects]


def test_identity_raises_no_audit_event() -> None:
    # Audit hooks cannot be removed: count events in a child interpreter.
    script = textwrap.dedent(
        """
        import sys
        from gradtrace.identity import identity
        seen = []
        sys.addaudithook(lambda event, args: seen.append(event))
        value = object()
        identity(value)
        after_identity = list(seen)
        id(value)
        print(after_identity, seen)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    # id() raising the event is what makes the check meaningful on this Python.
    assert out.strip() == "[] ['builtins.id']"
