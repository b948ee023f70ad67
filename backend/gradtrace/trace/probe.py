"""The gradient check's probe (gradcheck.py): one run of the program with one element of
one leaf moved by a small step, stopped at its first backward pass once the root's value
is known. It lives beside the recorder, which numbers the leaves and sees the pass begin;
gradcheck.py builds the recorder, so the probe cannot live there without a cycle."""

from __future__ import annotations

import torch

Tensor = torch.Tensor


class Probe:
    """One run of the gradient check: leaf `leaf`, element `element`, moved by `delta`."""

    __slots__ = ("delta", "element", "leaf", "value")

    def __init__(self, leaf: int, element: int, delta: float) -> None:
        self.leaf = leaf
        self.element = element
        self.delta = delta
        self.value: float | None = None

    def leaf_made(self, t: Tensor, index: int) -> None:
        """The program made its `index`th leaf that requires grad: move ours."""
        if index == self.leaf:
            with torch.no_grad():
                t.view(-1)[self.element] += self.delta

    def backward_began(self, root: Tensor) -> None:
        """The first backward pass: its root's value is the run's answer."""
        self.value = root.detach().double().sum().item()
        raise ProbeDone()


class ProbeDone(BaseException):
    """Stops a gradient-check run at its first backward pass, once the root is known."""
