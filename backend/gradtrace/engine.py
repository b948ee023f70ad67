"""The whole engine in one call: source in, Trace out (shared/docs/API.md)."""

from __future__ import annotations

from gradtrace.language.limits import Limits
from gradtrace.trace.models import Trace


def run_json(
    source: str, device: str = "cpu", seed: int = 0, limits: Limits | None = None
) -> bytes:
    """Run `source` and return its Trace as JSON bytes (the service's fast path)."""
    from gradtrace.trace.session import trace_program

    return trace_program(source, device=device, seed=seed, limits=limits or Limits())


def run(source: str, device: str = "cpu", seed: int = 0, limits: Limits | None = None) -> Trace:
    """Run `source` through real torch autograd after `torch.manual_seed(seed)`."""
    return Trace.model_validate_json(run_json(source, device=device, seed=seed, limits=limits))
