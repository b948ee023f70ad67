"""The Trace: the one definition of what a run produces (docs/API.md).

The browser, the CLI's DOT and HTML output, the notebook view and the tests all read
this. The engine builds plain dicts and serializes them with orjson for speed; these
models validate them, document them and give OpenAPI (and so the TypeScript types).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag

SCHEMA = "gradtrace.trace/1"

#: A number as JSON carries it: non-finite floats travel as "nan", "inf", "-inf".
Number = float | int | bool | str


class Model(BaseModel):
    model_config = ConfigDict(
        extra="forbid", populate_by_name=True, serialize_by_alias=True, validate_by_name=True
    )


class Span(Model):
    """A source range: 1-based lines, 0-based columns, as `ast` gives them."""

    line: int
    col: int
    end_line: int
    end_col: int


class Stats(Model):
    min: Number | None
    max: Number | None
    mean: Number | None
    std: Number | None
    norm: Number | None
    nan: int
    inf: int


class BufferRef(Model):
    """Where a TensorData's `values` lie in the buffer section of a binary trace (API.md):
    `length` little-endian numbers of `dtype`, flat in row-major order, from `offset`."""

    offset: int = Field(description="bytes from the start of the buffer section (a multiple of 8)")
    length: int = Field(description="how many numbers (the tensor's numel)")
    dtype: Literal["float32", "float64"]


class TensorData(Model):
    """A tensor's contents. `values` holds the whole tensor up to 4,096 elements."""

    shape: list[int]
    dtype: str
    numel: int
    values: BufferRef | Any = Field(
        description="nested lists of numbers (non-finite as strings), or null when large; "
        "in a binary trace, a BufferRef to them"
    )
    preview: list[Number] | None = Field(
        default=None, description="the first elements, flattened, when values is null"
    )
    stats: Stats | None = None


class SavedTensor(Model):
    """A tensor an autograd Node saved for its backward."""

    name: str = Field(
        description="torch's name for it: 'self', 'other', 'result', 'saved_tensors[0]'"
    )
    node: str | None = Field(default=None, description="the tensor node it is, when it is one")
    value: TensorData | None = None


class LoopFrame(Model):
    """One enclosing loop of the source when a node was made: its line and iteration."""

    line: int
    iteration: int


class TensorNode(Model):
    id: str
    kind: Literal["tensor"] = "tensor"
    name: str | None
    shape: list[int]
    dtype: str
    device: str
    requires_grad: bool
    is_leaf: bool
    value: TensorData = Field(
        description="its values when it was made; for a leaf changed later outside autograd "
        "(an optimizer step, `.data`: see the `update` events), when the program ended"
    )
    grad: TensorData | None = Field(description="`.grad` when the program ended, as torch left it")
    span: Span | None
    # Extensions beyond API.md's stable fields.
    role: Literal["leaf", "parameter", "input", "intermediate", "output", "gradient"] = Field(
        description="leaf: a leaf that requires grad; parameter: an nn.Parameter; input: needs "
        "no gradient; output: a root of a backward pass; gradient: made by autograd.grad"
    )
    grad_fn: str | None = Field(default=None, description="the function node that made it")
    retains_grad: bool = False
    label: str | None = Field(default=None, description="the source text that made it, shortened")
    hooks: int = Field(default=0, description="user hooks registered on it")
    iteration: int = Field(default=0, description="backward passes completed when it was made")
    module: str | None = Field(
        default=None, description="the nn.Module whose forward made it, as a dotted path"
    )
    previous: str | None = Field(
        default=None,
        description="the node of the same tensor object before the program changed it in "
        "place (or its grad_fn changed): follow it for a tensor's versions",
    )
    loops: list[LoopFrame] = Field(
        default_factory=list, description="the source loops it was made in, outermost first"
    )
    first_value: TensorData | None = Field(
        default=None,
        description="a leaf with `update` events: its values when it was made (before them)",
    )


class FunctionNode(Model):
    id: str
    kind: Literal["function"] = "function"
    op: str
    span: Span | None
    saved: list[SavedTensor]
    # Extensions.
    tensor: str | None = Field(default=None, description="AccumulateGrad: the leaf it fills")
    custom: bool = Field(default=False, description="a user-written autograd.Function")
    sequence_nr: int | None = None
    iteration: int = 0
    module: str | None = None
    loops: list[LoopFrame] = Field(default_factory=list)


Node = Annotated[TensorNode | FunctionNode, Field(discriminator="kind")]


class Edge(Model):
    source: str
    target: str
    kind: Literal["autograd", "input", "nograd"] = Field(
        default="autograd",
        description="autograd: a link of the autograd graph; input: a tensor that needs no "
        "gradient feeding a function; nograd: data flow that autograd does not record "
        "(under no_grad, detach, or with no input requiring grad)",
    )


class ForwardEvent(Model):
    phase: Literal["forward"] = "forward"
    node: str


class BackwardFunctionEvent(Model):
    phase: Literal["backward"] = "backward"
    node_kind: Literal["function"] = "function"
    pass_: int = Field(alias="pass")
    node: str
    grad_inputs: list[TensorData | None]
    grad_outputs: list[TensorData | None]


class BackwardTensorEvent(Model):
    phase: Literal["backward"] = "backward"
    node_kind: Literal["tensor"] = "tensor"
    pass_: int = Field(alias="pass")
    node: str
    grad: TensorData
    hooked: bool = Field(default=False, description="a user hook saw this gradient")
    accumulated: TensorData | None = Field(
        default=None,
        description="a leaf's `.grad` once this pass added its gradient (the running sum); "
        "null on a leaf when `.grad` is `grad` itself (it was None: torch adopted the gradient)",
    )


class UpdateEvent(Model):
    """A leaf that requires grad changed outside autograd: its values (an optimizer step,
    `w.data -= lr * w.grad`, `with torch.no_grad(): w -= ...`) or its `.grad` (`zero_()`,
    `= None`, `zero_grad()`). The leaf keeps its one node; this is the step it changed."""

    phase: Literal["update"] = "update"
    node: str
    what: Literal["value", "grad"]
    value: TensorData | None = Field(
        description="the new values, or the new `.grad` (null: set to None)"
    )
    grad: TensorData | None = Field(
        default=None, description="what: value — the `.grad` the leaf held when it changed"
    )
    line: int | None = None
    label: str | None = Field(default=None, description="the source text that changed it")


class FreedEvent(Model):
    """The end of a backward pass run without retain_graph: torch freed the saved tensors
    of these Functions (a custom Function is freed whole). A later pass through one of
    them fails with torch's "Trying to backward through the graph a second time"."""

    phase: Literal["freed"] = "freed"
    pass_: int = Field(alias="pass")
    nodes: list[str] = Field(description="the function nodes whose saved tensors were freed")


class BackwardErrorEvent(Model):
    """A backward pass raised inside the Function the engine was running."""

    phase: Literal["error"] = "error"
    pass_: int = Field(alias="pass")
    node: str = Field(description="the function node torch raised in")
    type: str
    message: str = Field(
        description="torch's own message (or the program's, raised in a custom backward)"
    )


class LineEvent(Model):
    """A statement of the program that torch's engine ran during a backward pass: a hook's
    body or a custom Function's `backward`, one event per statement (at most 100 a pass)."""

    phase: Literal["line"] = "line"
    pass_: int = Field(alias="pass")
    node: str | None = Field(
        description="the tensor whose hook runs it, or the function node whose backward runs it"
    )
    line: int


class PrintEvent(Model):
    phase: Literal["print"] = "print"
    text: str
    line: int | None = Field(
        default=None, description="the program line that printed (the call running `print`)"
    )


class WarningEvent(Model):
    """A warning torch (or Python) gave while the program ran, at the step it happened:
    its first sentence, without torch's C++ location. Each distinct one appears once."""

    phase: Literal["warning"] = "warning"
    message: str
    line: int | None = Field(default=None, description="the program line that was running")


def _event_kind(event: Any) -> str:
    """Which event model a timeline entry is: its phase, and for backward its node kind."""
    get = event.get if isinstance(event, dict) else lambda k, d=None: getattr(event, k, d)
    phase = get("phase")
    if phase == "backward":
        return "backward-tensor" if get("node_kind") == "tensor" else "backward-function"
    return str(phase)


# One flat tagged union (a nested discriminated union breaks FastAPI's OpenAPI output).
Event = Annotated[
    Annotated[ForwardEvent, Tag("forward")]
    | Annotated[PrintEvent, Tag("print")]
    | Annotated[WarningEvent, Tag("warning")]
    | Annotated[UpdateEvent, Tag("update")]
    | Annotated[FreedEvent, Tag("freed")]
    | Annotated[BackwardErrorEvent, Tag("error")]
    | Annotated[LineEvent, Tag("line")]
    | Annotated[BackwardFunctionEvent, Tag("backward-function")]
    | Annotated[BackwardTensorEvent, Tag("backward-tensor")],
    Discriminator(_event_kind),
]


class Pass(Model):
    index: int
    root: str | None
    line: int
    retain_graph: bool
    kind: Literal["backward", "grad"] = "backward"
    create_graph: bool = False


class ErrorInfo(Model):
    type: str
    message: str
    line: int | None = None
    col: int | None = None
    end_line: int | None = None
    end_col: int | None = None
    hint: str | None = None


class Warning(Model):
    message: str
    line: int | None = None


class Series(Model):
    """Per-iteration values of a scalar, for loss curves."""

    label: str
    line: int | None = None
    values: list[Number]


class Trace(Model):
    schema_: str = Field(default=SCHEMA, alias="schema")
    ok: bool
    error: ErrorInfo | None
    stdout: str
    device: str
    variables: dict[str, str]
    nodes: list[Node]
    edges: list[Edge]
    timeline: list[Event]
    passes: list[Pass]
    truncated: bool
    # Extensions.
    truncation: list[str] = Field(default_factory=list, description="what the budgets cut")
    series: list[Series] = Field(default_factory=list)
    iterations: int = Field(default=0, description="backward passes the program ran in all")
    training_steps: int = Field(
        default=0,
        description="backward passes followed by an update of the parameters they filled "
        "(an optimizer step, `w.data -= ...`): a training loop's iterations",
    )
    warnings: list[Warning] = Field(default_factory=list)
    seed: int = 0
    version: str = ""
    elapsed_ms: float = 0.0

    def save(self, path: str) -> None:
        """Write the trace as JSON (what the browser and `gradtrace run` read)."""
        with open(path, "wb") as f:
            f.write(self.to_json())

    def to_json(self) -> bytes:
        return self.model_dump_json(by_alias=True).encode()
