"""A Module's parameters, read from torch's own tables (shared by the evaluator and the
recorder: neither may run a program's methods to find them)."""

from __future__ import annotations

from typing import Any

from torch import Tensor, nn
from torch.nn.parameter import UninitializedTensorMixin  # type: ignore[attr-defined]

from gradtrace.identity import identity


def module_parameters(module: nn.Module) -> list[tuple[str, Tensor]]:
    """`named_parameters()` read from the Modules' own tables, running none of their
    methods: a program's class may define `parameters` or `named_modules` itself, and the
    trace is written after the program ended (when none of its code may run)."""
    out: list[tuple[str, Tensor]] = []
    seen_modules: set[int] = set()
    seen_params: set[int] = set()
    stack: list[tuple[str, Any]] = [("", module)]
    while stack and len(seen_modules) < 10_000:
        prefix, m = stack.pop()
        if not isinstance(m, nn.Module) or identity(m) in seen_modules:
            continue
        seen_modules.add(identity(m))
        table = m.__dict__
        params = table.get("_parameters")
        if type(params) is dict:
            for name, p in params.items():
                # A lazy layer's weight before its first call holds no values yet.
                if (
                    isinstance(p, Tensor)
                    and identity(p) not in seen_params
                    and not isinstance(p, UninitializedTensorMixin)
                ):
                    seen_params.add(identity(p))
                    out.append((prefix + str(name), p))
        children = table.get("_modules")
        if type(children) is dict:
            stack.extend((f"{prefix}{name}.", child) for name, child in reversed(children.items()))
    return out
