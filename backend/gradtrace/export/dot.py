"""A trace's graph as Graphviz DOT, coloured as torchviz colours it: leaf tensors
lightblue, saved tensors orange, outputs darkolivegreen1, function nodes lightgrey."""

from __future__ import annotations

from gradtrace.trace.models import FunctionNode, SavedTensor, TensorNode, Trace

LEAF = "lightblue"
SAVED = "orange"
OUTPUT = "darkolivegreen1"
FUNCTION = "lightgrey"
OTHER = "white"

_EDGE_STYLE = {"autograd": "solid", "input": "dashed", "nograd": "dotted"}


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def _shape(shape: list[int]) -> str:
    return f"({shape[0]},)" if len(shape) == 1 else "(" + ", ".join(map(str, shape)) + ")"


def _tensor_colour(node: TensorNode, outputs: set[str], saved: set[str]) -> str:
    if node.id in outputs or node.role == "output":
        return OUTPUT
    if node.is_leaf and node.requires_grad:
        return LEAF
    if node.id in saved:
        return SAVED
    return OTHER


def _tensor_label(node: TensorNode) -> str:
    title = node.name or node.label or ""
    return f"{title}\n{_shape(node.shape)}" if title else _shape(node.shape)


def _saved_label(saved: SavedTensor) -> str:
    shape = _shape(saved.value.shape) if saved.value is not None else ""
    return f"{saved.name}\n{shape}" if shape else saved.name


def to_dot(trace: Trace) -> str:
    outputs = {p.root for p in trace.passes if p.root is not None}
    saved_nodes = {
        saved.node
        for node in trace.nodes
        if isinstance(node, FunctionNode)
        for saved in node.saved
        if saved.node is not None
    }
    lines = [
        "digraph gradtrace {",
        '  graph [size="12,12"];',
        "  node [style=filled, shape=box, align=left, fontsize=10, height=0.2, "
        "ranksep=0.1, fontname=monospace];",
    ]
    edges: list[str] = []
    for node in trace.nodes:
        if isinstance(node, TensorNode):
            colour = _tensor_colour(node, outputs, saved_nodes)
            lines.append(
                f"  {_quote(node.id)} [label={_quote(_tensor_label(node))}, fillcolor={colour}];"
            )
            continue
        lines.append(f"  {_quote(node.id)} [label={_quote(node.op)}, fillcolor={FUNCTION}];")
        for index, saved in enumerate(node.saved):
            if saved.node is not None:
                edges.append(f"  {_quote(saved.node)} -> {_quote(node.id)} [style=dotted];")
                continue
            saved_id = f"{node.id}/saved/{index}"
            lines.append(
                f"  {_quote(saved_id)} [label={_quote(_saved_label(saved))}, fillcolor={SAVED}];"
            )
            edges.append(f"  {_quote(saved_id)} -> {_quote(node.id)} [style=dotted];")
    for edge in trace.edges:
        style = _EDGE_STYLE.get(edge.kind, "solid")
        edges.append(f"  {_quote(edge.source)} -> {_quote(edge.target)} [style={style}];")
    return "\n".join([*lines, *edges, "}"]) + "\n"
