"""Operators and the size checks around them: binary and unary operators, comparisons,
`and`/`or`, and the bounds on what a value may grow to.

Each function is a method of the Interpreter (bound in interpreter.py).
"""

from __future__ import annotations

import ast
import collections
import math
import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from torch import nn

from gradtrace.language import arrays, broadcasts, printed, sizes
from gradtrace.language.builtins import check_percent_format
from gradtrace.language.dataloaders import refuse_concatenation
from gradtrace.language.errors import LimitError
from gradtrace.language.runtime import (
    _BINOPS,
    _CMPOPS,
    _OP_NAMES,
    _UNARY,
    Closure,
    Scope,
    Tensor,
    _FunctionContext,
    locate,
)
from gradtrace.language.tensor_text import scrub

if TYPE_CHECKING:
    from gradtrace.language.interpreter import Interpreter


def expr_BinOp(self: Interpreter, node: ast.BinOp, fc: _FunctionContext) -> Closure:
    left = self.compile_expr(node.left, fc)
    right = self.compile_expr(node.right, fc)
    op = _BINOPS[type(node.op)]
    opname = _OP_NAMES[type(node.op)]
    binary = self.binary

    if (
        isinstance(node.op, ast.Mod)
        and isinstance(node.left, ast.Constant)
        and isinstance(node.left.value, str)
    ):
        check_percent_format(node.left.value, self.limits.string_chars)

    def binop(scope: Scope) -> Any:
        return binary(op, left(scope), right(scope), node, opname)

    return binop


def binary(
    self: Interpreter,
    op: Callable[[Any, Any], Any],
    a: Any,
    b: Any,
    node: ast.AST | None,
    opname: str,
) -> Any:
    ta = type(a)
    tb = type(b)
    try:
        if (ta is float or ta is int) and (tb is float or tb is int):
            if op is operator.pow or op is operator.lshift or op is operator.mul:
                result = self._int_op(op, a, b)
            else:
                result = op(a, b)
            if type(result) is int and not -self.int_bound < result < self.int_bound:
                raise LimitError(f"an integer grew past {self.limits.int_bits} bits")
            return result
        a_tensor = isinstance(a, Tensor)
        b_tensor = isinstance(b, Tensor)
        if a_tensor and b_tensor:  # the commonest: no array or sequence among them
            if op is operator.matmul:
                broadcasts.check_matmul(a, b, self.limits.tensor_elements)
            else:
                broadcasts.check_broadcast(opname, a, b, self.limits.tensor_elements)
        elif isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
            # Against an array, or a tensor against one (torch broadcasts it in).
            if op is operator.matmul:
                arrays.check_matmul(opname, a, b)
            else:
                arrays.check_broadcast(opname, a, b)
        if a_tensor or b_tensor:
            if op is operator.mul and (isinstance(a, _SEQUENCES) or isinstance(b, _SEQUENCES)):
                self._check_repeat(a, b)  # [0] * torch.tensor(n): Python repeats the list
            result = op(a, b)
            if isinstance(result, Tensor):
                if self.rec.active:
                    inputs = (a, b) if a_tensor and b_tensor else ((a,) if a_tensor else (b,))
                    self.rec.result(result, node, None, inputs)
                else:
                    self.rec.untracked(result)
            else:
                self.check_size(result)
            return result
        if op is operator.mul:
            self._check_repeat(a, b)
        elif ta is collections.Counter or tb is collections.Counter:
            broadcasts.check_counters(opname, a, b, self.limits.tensor_elements)
        elif op is operator.mod and ta is str:
            check_percent_format(a, self.limits.string_chars)
            self.check_printable(b)
            result = scrub(op(a, b))
            self.check_size(result)
            return result
        elif op is operator.add or op is operator.iadd:
            refuse_concatenation((a,))
        result = op(a, b)
        self.check_size(result)
        return result
    except BaseException as exc:
        locate(exc, node)
        raise


def binary_pow(self: Interpreter, a: Any, b: Any) -> Any:
    return self._int_op(operator.pow, a, b)


def _int_op(self: Interpreter, op: Callable[[Any, Any], Any], a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        bits = self.limits.int_bits
        if op is operator.pow and b > 0:
            if b > self.limits.max_exponent or max(a.bit_length() - 1, 0) * b > bits:
                raise LimitError(f"{a} ** {b} is over the integer limit ({bits} bits)")
        elif op is operator.lshift and b > bits:
            raise LimitError(f"{a} << {b} is over the integer limit ({bits} bits)")
    return op(a, b)


# What `seq * n` repeats (a namedtuple repeats as a tuple; a deque as a list, up to its maxlen).
# Modules that hold a list of layers or parameters: sized as lists are.
MODULE_LISTS = (nn.ModuleList, nn.Sequential, nn.ParameterList)
# What `*` repeats: Python's sequences, and nn.Sequential (its layers, again and again).
_SEQUENCES = (str, list, tuple, collections.deque, nn.Sequential)


def repeat_count(value: Any) -> int | None:
    """What Python repeats a sequence by: an int, or what it takes as one through
    `__index__` (a numpy integer, a one-element integer tensor); None for anything else."""
    if isinstance(value, (int, np.integer)):
        return int(value)
    if (
        isinstance(value, Tensor)
        and value.numel() == 1
        and not value.is_floating_point()
        and not value.is_complex()
    ):
        return int(value.item())
    return None


def _check_repeat(self: Interpreter, a: Any, b: Any) -> None:
    seq, times = (a, b) if isinstance(a, _SEQUENCES) else (b, a)
    count = repeat_count(times) if isinstance(seq, _SEQUENCES) else None
    if count is not None:
        total = len(seq) * count
        if isinstance(seq, collections.deque) and seq.maxlen is not None:
            total = min(total, seq.maxlen)  # C repeats it only so far
        limit = self.limits.string_chars if isinstance(seq, str) else self.limits.sequence_items
        if total > limit:
            raise LimitError(
                f"repeating a {type(seq).__name__} to {total:,} items is over the limit ({limit:,})"
            )
        # Each repetition is one step however big: bound them in all, so a loop of them
        # stops at a clear limit long before the memory ceiling.
        self.repeated += max(total, 0)
        if self.repeated > self.limits.repeated_items:
            raise LimitError(
                f"the program made more than {self.limits.repeated_items:,} items by "
                "repeating lists, tuples or strings"
            )


def check_size(self: Interpreter, value: Any) -> None:
    if isinstance(value, Tensor):  # the commonest value, asked first
        numel = value.numel()
        if numel > self.limits.tensor_elements:
            raise LimitError(
                f"a tensor of {numel:,} elements is over the limit "
                f"({self.limits.tensor_elements:,} per tensor)"
            )
        if numel == 0:
            _check_empty(value, self.limits.tensor_elements)
    elif isinstance(value, str):
        if len(value) > self.limits.string_chars:
            raise LimitError(
                f"a string of {len(value):,} characters is over the limit "
                f"({self.limits.string_chars:,})"
            )
    elif isinstance(value, (list, tuple, dict, set, collections.deque, *MODULE_LISTS)):
        if len(value) > self.limits.sequence_items:
            raise LimitError(
                f"a {type(value).__name__} of {len(value):,} items is over the limit "
                f"({self.limits.sequence_items:,})"
            )
        if len(value) > 4096:  # a large container: what all of them hold is bounded too
            self.memory.check()
    elif isinstance(value, np.ndarray):
        arrays.result_array(type(value).__name__, value)


def _check_empty(t: Tensor, limit: int) -> None:
    """An empty tensor whose other dims are vast: `torch.zeros(0, 10**9)` holds nothing,
    but `.sum(0)` over it makes 10**9 elements, and no rule sizes a reduction by more
    than its input. Refused as it is made, by its other dims' product."""
    extent = math.prod(n for n in t.shape if n)
    if extent > limit:
        raise LimitError(
            f"a tensor of shape {tuple(t.shape)} is over the limit: empty, but its other "
            f"dimensions make {extent:,} elements ({limit:,} per tensor)"
        )


def check_sizes(self: Interpreter, values: Any) -> None:
    """The tensors of a tuple or list a call returned (two levels: LSTM's (out, (h, c)))."""
    for item in values:
        if isinstance(item, Tensor):
            self.check_size(item)
        elif type(item) is tuple or type(item) is list:
            for sub in item:
                if isinstance(sub, Tensor):
                    self.check_size(sub)


def check_printable(self: Interpreter, value: Any) -> None:
    """str() of nested containers walks every item: bound it before it starts."""
    if isinstance(value, BaseException):
        value = value.args
    if isinstance(value, printed.PRINTED_CONTAINERS):
        budget = self.limits.string_chars
        if printed.printed_chars(value, budget + 1) > budget:
            raise LimitError(
                "printing this container would write more than the string limit "
                f"({budget:,} characters)"
            )


def expr_UnaryOp(self: Interpreter, node: ast.UnaryOp, fc: _FunctionContext) -> Closure:
    operand = self.compile_expr(node.operand, fc)
    op = _UNARY[type(node.op)]
    rec = self.rec
    truth = self.truth

    if isinstance(node.op, ast.Not):
        return lambda scope: not truth(operand(scope), node.operand)

    def unary(scope: Scope) -> Any:
        value = operand(scope)
        try:
            result = op(value)
        except BaseException as exc:
            locate(exc, node)
            raise
        if isinstance(result, Tensor):
            if rec.active:
                rec.result(result, node, None, (value,))
            else:
                rec.untracked(result)
        return result

    return unary


def expr_BoolOp(self: Interpreter, node: ast.BoolOp, fc: _FunctionContext) -> Closure:
    values = [self.compile_expr(v, fc) for v in node.values]
    is_and = isinstance(node.op, ast.And)
    truth = self.truth

    def boolop(scope: Scope) -> Any:
        result: Any = None
        for v, sub in zip(values, node.values):
            result = v(scope)
            if truth(result, sub) != is_and:
                return result
        return result

    return boolop


_MEMBERSHIP, _IDENTITY, _ORDER = "membership", "identity", "order"
_COMPARED = (Tensor, np.ndarray, dict, collections.deque)
_KINDS = {ast.In: _MEMBERSHIP, ast.NotIn: _MEMBERSHIP, ast.Is: _IDENTITY, ast.IsNot: _IDENTITY}


def expr_Compare(self: Interpreter, node: ast.Compare, fc: _FunctionContext) -> Closure:
    left = self.compile_expr(node.left, fc)
    ops = [_CMPOPS[type(o)] for o in node.ops]
    kinds = [_KINDS.get(type(o), _ORDER) for o in node.ops]
    comparators = [self.compile_expr(c, fc) for c in node.comparators]
    rec = self.rec
    truth = self.truth
    label = self.segment(node)
    limit = self.limits.tensor_elements
    nested = sizes.NESTED
    check_nesting = sizes.check_nesting
    check_containers = broadcasts.check_containers

    def compare(scope: Scope) -> Any:
        a = left(scope)
        result: Any = True
        for op, kind, comp in zip(ops, kinds, comparators):
            b = right = comp(scope)
            try:
                if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
                    arrays.check_broadcast("comparison", a, b)
                if isinstance(a, Tensor) and isinstance(b, Tensor):
                    broadcasts.check_broadcast("comparison", a, b, limit)
                elif type(a) in nested or isinstance(a, tuple):
                    # `a in d` hashes a, `a == b` and `a in seq` walk a's paths
                    # (those both sides share): in C, without bound.
                    check_nesting(a)
                    if kind is not _IDENTITY:
                        right = check_containers("comparison", a, b, kind is _MEMBERSHIP, limit)
                elif kind is not _IDENTITY and isinstance(a, _COMPARED):
                    # a tensor in a sequence; OrderedDict, defaultdict, Counter and deque
                    # compare item by item too
                    right = check_containers("comparison", a, b, kind is _MEMBERSHIP, limit)
                result = op(a, right)
            except BaseException as exc:
                locate(exc, node)
                raise
            if isinstance(result, Tensor):
                if rec.active:
                    rec.result(
                        result, node, label, tuple(x for x in (a, b) if isinstance(x, Tensor))
                    )
                if len(ops) > 1 and not truth(result, node):
                    return result
            elif len(ops) > 1 and not truth(result, node):  # a < b < c stops at False
                return result
            a = b
        return result

    return compare
