"""A program's strings may hold lone surrogates ("\\ud800" in a literal, "%c" % 0xD800),
which no UTF-8 writer takes: whatever of them reaches a trace (a ParameterDict's key
as a parameter's name, a printed series label) is written as its escape, in the JSON
and binary forms the service sends as in the objects of gradtrace.run."""

from __future__ import annotations

import json

import pytest

import gradtrace
from gradtrace.language.limits import Limits
from gradtrace.trace.binary import split
from gradtrace.trace.session import trace_program

LIMITS = Limits(wall_time_s=10.0)

PROGRAM = """
import torch
import torch.nn as nn
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.extra = nn.ModuleDict({"k\\ud800": nn.Linear(2, 2)})
        self.p = nn.ParameterDict({"w" + "%c" % 0xDFFF: nn.Parameter(torch.ones(2))})
    def forward(self, x):
        return self.extra["k\\ud800"](x) * self.p["w\\udfff"]
m = M()
opt = torch.optim.SGD(m.parameters(), lr=0.1)
for i in range(2):
    loss = m(torch.ones(2)).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("l\\ud800oss:", loss.item())
"""


def _names(trace: dict[str, object]) -> set[str]:
    return {n["name"] for n in trace["nodes"] if n.get("name")}  # type: ignore[attr-defined,index]


@pytest.mark.parametrize("binary", [False, True])
def test_lone_surrogates_in_names_are_written_escaped(binary: bool) -> None:
    written = trace_program(PROGRAM, device="cpu", seed=0, limits=LIMITS, binary=binary)
    if binary:
        written = split(written)[0]
    trace = json.loads(written)
    assert trace["ok"], trace["error"]
    expected = {"m.extra.k\\ud800.weight", "m.extra.k\\ud800.bias", "m.p.w\\udfff"}
    assert expected <= set(trace["variables"])
    assert expected <= _names(trace)
    assert "l\\ud800oss" in [s["label"] for s in trace["series"]]
    objects = gradtrace.run(PROGRAM, limits=LIMITS)
    assert expected <= set(objects.variables)
    assert "l\\ud800oss" in [s.label for s in objects.series]
