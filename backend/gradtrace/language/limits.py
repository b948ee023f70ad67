"""Budgets a program runs under. Each is checked before the work it bounds is done."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Limits(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    source_chars: int = Field(default=64_000, description="characters of source")
    syntax_nodes: int = Field(default=20_000, description="nodes of the parsed program")
    syntax_depth: int = Field(default=100, description="nesting depth of the parsed program")
    tensor_elements: int = Field(default=4_000_000, description="elements of one tensor")
    total_elements: int = Field(default=16_000_000, description="elements of all live tensors")
    int_bits: int = Field(default=4096, description="bits of an integer")
    max_exponent: int = Field(default=10_000, description="largest integer exponent")
    string_chars: int = Field(default=100_000, description="characters of one string")
    sequence_items: int = Field(default=1_000_000, description="items of one list, tuple or dict")
    repeated_items: int = Field(
        default=10_000_000,
        description="items and characters made by repeating lists, tuples and strings, in all",
    )
    memory_mb: int = Field(
        default=192,
        description="MB of memory a program's objects may add to the process, lists and tensors alike",
    )
    loop_iterations: int = Field(default=100_000, description="iterations of one loop")
    steps: int = Field(default=2_000_000, description="evaluation steps in all")
    recursion_depth: int = Field(default=500, description="nested calls of user functions")
    output_chars: int = Field(default=200_000, description="characters printed")
    graph_nodes: int = Field(default=50_000, description="recorded graph nodes")
    wall_time_s: float = Field(default=5.0, description="seconds of wall time")
    trace_bytes: int = Field(default=16_000_000, description="approximate JSON size of tensor data")
    full_values: int = Field(default=4_096, description="elements sent in full per tensor")
    preview_values: int = Field(default=64, description="elements previewed of a larger tensor")
    full_passes: int = Field(
        default=10, description="programs with at most this many backward passes are recorded whole"
    )
    kept_iterations: int = Field(
        default=2, description="iterations recorded in full of a program with more passes"
    )
    series_points: int = Field(default=10_000, description="points of one per-iteration series")
