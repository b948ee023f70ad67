"""The evaluator: turns a checked `ast` tree into closures and runs them.

Each AST node is compiled once into a Python closure `f(scope) -> value`; running the
program is calling closures. Nothing here calls eval/exec/compile: every name is looked
up in our scopes and tables, every attribute passes `attribute_allowed`, and every op
that could allocate is bounded first (sizes.py). Tensors that ops produce are handed to
the recorder, which builds the trace.
"""

from __future__ import annotations

import ast
import collections
import contextlib
import difflib
import functools
import operator
import time
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
import torch.utils.data as tud
from torch import nn
from torch.nn.modules.lazy import LazyModuleMixin

from gradtrace.identity import identity
from gradtrace.language import arrays, callables, sizes
from gradtrace.language.builtins import (
    FORBIDDEN_BUILTINS,
    check_format_spec,
    check_percent_format,
    make_builtins,
)
from gradtrace.language.callables import Checked, Unbound
from gradtrace.language.classes import ProgramObject
from gradtrace.language.errors import ForbiddenError, LimitError, ProgramError
from gradtrace.language.generators import (
    GENERATOR_REFUSAL,
    compile_generator_body,
    contains_yield,
)
from gradtrace.language.limits import Limits
from gradtrace.language.memory import MemoryBound
from gradtrace.language.namespaces import (
    IMPORT_HINTS,
    LEGACY_TENSOR_TYPES,
    MODULES,
    TENSOR_SETTABLE,
    TORCH_CALLABLES,
    attribute_allowed,
    class_method_allowed,
    deletable,
    is_program_object,
    namespace_member,
    private_settable,
    readable_names,
    refusal_hint,
    settable_on_program_object,
    super_allowed,
    user_class_member,
    width_method,
)
from gradtrace.language.pymodules import bounded_args
from gradtrace.language.tensor_text import clean_text, scrub, tensor_str, value_str
from gradtrace.language.values import (
    ModuleTable,
    Namespace,
    Parameters,
    SuperProxy,
    UserFunction,
)
from gradtrace.trace.recorder import module_parameters

if TYPE_CHECKING:
    from gradtrace.trace.recorder import Recorder


Tensor = torch.Tensor
Closure = Callable[["Scope"], Any]


def _do_nothing(scope: Scope) -> None:
    return None


class Scope:
    __slots__ = ("func", "parent", "ret", "vars")

    def __init__(
        self, vars: dict[str, Any], parent: Scope | None, func: UserFunction | None = None
    ):
        self.vars = vars
        self.parent = parent
        self.ret: Any = None
        self.func = func


class _Signal:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


BREAK = _Signal("break")
CONTINUE = _Signal("continue")
RETURN = _Signal("return")
_MISSING = object()
_TEXT_CONVERSIONS = (ord("s"), ord("r"))


class WallTimeExceeded(BaseException):
    """Raised from the wall-clock alarm; a BaseException so no program handler catches it."""


_UNSWALLOWED = (ProgramError, WallTimeExceeded, MemoryError)
# Types that read a whole iterable in C: given an iterator, they read it capped.
_CONSUMING_TYPES = frozenset(
    {
        collections.OrderedDict, collections.defaultdict, collections.Counter,
        collections.deque, dict,
    }
)  # fmt: skip


class _FunctionContext:
    """What the compiler knows of the function being compiled: its global/nonlocal names."""

    __slots__ = ("globals", "nonlocals", "qualname")

    def __init__(self, qualname: str, globals_: set[str], nonlocals: set[str]) -> None:
        self.qualname = qualname
        self.globals = globals_
        self.nonlocals = nonlocals


_MODULE_CONTEXT = _FunctionContext("", set(), set())

_BINOPS: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.MatMult: operator.matmul, ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod, ast.Pow: operator.pow, ast.LShift: operator.lshift,
    ast.RShift: operator.rshift, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
    ast.BitAnd: operator.and_,
}  # fmt: skip
_INPLACE: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.iadd, ast.Sub: operator.isub, ast.Mult: operator.imul,
    ast.MatMult: operator.imatmul, ast.Div: operator.itruediv,
    ast.FloorDiv: operator.ifloordiv, ast.Mod: operator.imod, ast.Pow: operator.ipow,
    ast.LShift: operator.ilshift, ast.RShift: operator.irshift, ast.BitOr: operator.ior,
    ast.BitXor: operator.ixor, ast.BitAnd: operator.iand,
}  # fmt: skip
_CMPOPS: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_,
    ast.IsNot: operator.is_not, ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}  # fmt: skip
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.UAdd: operator.pos, ast.USub: operator.neg, ast.Not: operator.not_,
    ast.Invert: operator.invert,
}  # fmt: skip
_OP_NAMES = {
    ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.MatMult: "matmul", ast.Div: "div",
    ast.FloorDiv: "floor_divide", ast.Mod: "remainder", ast.Pow: "pow", ast.LShift: "lshift",
    ast.RShift: "rshift", ast.BitOr: "or", ast.BitXor: "xor", ast.BitAnd: "and",
}  # fmt: skip

_CONTEXT_MANAGERS = (
    torch.no_grad,
    torch.enable_grad,
    torch.set_grad_enabled,
    torch.inference_mode,
    torch.autograd.graph.saved_tensors_hooks,  # the program's hooks wrapped (graph_hooks.py)
    torch.autograd.forward_ad.dual_level,
)

# Callable values a program may hold as they are: our own objects and admitted classes (a
# Module or a grad_fn Node is called through the interpreter's checks). Any other
# callable a program gets hold of is handed over as a Checked.
_SAFE_CALLABLES: tuple[type, ...] = (
    type,
    ProgramObject,  # an instance of the program's class with __call__: its own code
    type(functools.cmp_to_key(lambda a, b: 0)),  # sort keys, compared in C, calling back
    UserFunction,
    Checked,
    Namespace,
    nn.Module,
    torch.autograd.graph.Node,
    *_CONTEXT_MANAGERS,
)

# The usual raw callables, told apart without the isinstance walk (Node is an ABC).
_RAW_CALLABLES = frozenset(
    {
        types.BuiltinMethodType,
        types.MethodType,
        types.FunctionType,
        types.MethodWrapperType,
        types.WrapperDescriptorType,
        types.MethodDescriptorType,
        types.ClassMethodDescriptorType,
    }
)


def _unchecked(value: Any) -> bool:
    """Whether `value` is a real callable a program may only hold as a Checked."""
    return type(value) in _RAW_CALLABLES or (
        callable(value) and not isinstance(value, _SAFE_CALLABLES)
    )


_HINTS_FOR_ATTRIBUTES = {
    "creator": "`.creator` was renamed: use `.grad_fn`",
    "volatile": "`volatile` was removed: use `with torch.no_grad():`",
}


def locate(exc: BaseException, node: ast.AST | None) -> None:
    """Remember the innermost node an exception came from (the first one set wins)."""
    try:
        if getattr(exc, "gradtrace_node", None) is None:
            exc.gradtrace_node = node  # type: ignore[attr-defined]
    except (AttributeError, TypeError):
        pass


class Interpreter:
    def __init__(self, source: str, limits: Limits, recorder: Recorder, device: str) -> None:
        self.source = source
        self.lines = source.splitlines()
        self.limits = limits
        arrays.set_element_limit(limits.tensor_elements)  # numpy's arrays, sized like tensors
        self.rec = recorder
        self.device = device
        self.steps = 0
        self.ticks = 0
        self.depth = 0
        self.repeated = 0
        self.deadline = time.monotonic() + limits.wall_time_s
        self.memory = MemoryBound(limits.memory_mb)
        self.int_bound = 1 << limits.int_bits
        self.builtin_table = make_builtins(self)
        self.builtin_table["print"] = self.builtin_print
        # What a program holds of each builtin, made when a name in the program first asks
        # for it (at compile time): wrapping all ~70 for every job cost ~5 % of a small one.
        self.builtins: dict[str, Any] = {}
        # The call being evaluated: where a Checked called from inside torch or a builtin
        # (a hook, a map) is recorded.
        self.here: ast.AST | None = None
        # The program runs as the main module: `if __name__ == "__main__":` runs its body.
        self.globals = Scope({"__name__": "__main__"}, None)
        self.handling: list[BaseException] = []

    # ------------------------------------------------------------------ running

    def run(self, tree: ast.Module) -> None:
        body = self.compile_block(tree.body, _MODULE_CONTEXT)
        callables.enter(self)
        try:
            body(self.globals)
        finally:
            callables.leave(self)

    def close(self) -> None:
        """Drop what ties the program's objects into cycles (scopes, builtins), once it ended."""
        self.globals.vars.clear()
        self.builtins.clear()
        self.builtin_table.clear()
        self.handling.clear()

    def tick(self) -> None:
        self.steps += 1
        if self.steps > self.limits.steps:
            raise LimitError(f"the program ran more than {self.limits.steps:,} steps")
        if time.monotonic() > self.deadline:
            raise LimitError(f"the program ran longer than {self.limits.wall_time_s:g} s")
        # Called every 256 steps: the resident size is read every 1,024.
        self.ticks += 1
        if not self.ticks & 3:
            self.memory.check()

    def segment(self, node: ast.AST) -> str:
        """The source text of `node`, on one line and shortened, for labels."""
        line = getattr(node, "lineno", None)
        end = getattr(node, "end_lineno", None)
        if line is None or end is None:
            return ""
        col, end_col = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]
        if line == end:
            text = self.lines[line - 1][col:end_col]
        else:
            parts = [self.lines[line - 1][col:]]
            parts.extend(self.lines[line : end - 1])
            parts.append(self.lines[end - 1][:end_col])
            text = " ".join(p.strip() for p in parts)
        return str(text) if len(text) <= 48 else str(text)[:45] + "..."

    # ------------------------------------------------------------------ statements

    def compile_block(self, stmts: list[ast.stmt], fc: _FunctionContext) -> Closure:
        compiled = [self.compile_stmt(s, fc) for s in stmts]
        interp = self
        limits = self.limits

        def block(scope: Scope) -> Any:
            for stmt in compiled:
                interp.steps += 1
                if interp.steps & 255 == 0 or interp.steps > limits.steps:
                    interp.tick()
                r = stmt(scope)
                if r is not None:
                    return r
            return None

        return block

    def compile_stmt(self, node: ast.stmt, fc: _FunctionContext) -> Closure:
        method = getattr(self, "stmt_" + type(node).__name__, None)
        if method is None:
            raise ForbiddenError(f"`{type(node).__name__}` statements are not supported", node)
        try:
            inner: Closure = method(node, fc)
        except BaseException as exc:
            _place(exc, node)
            raise

        def stmt(scope: Scope) -> Any:
            try:
                return inner(scope)
            except BaseException as exc:
                locate(exc, node)
                raise

        return stmt

    def stmt_Expr(self, node: ast.Expr, fc: _FunctionContext) -> Closure:
        value = self.compile_expr(node.value, fc)

        def expr_stmt(scope: Scope) -> None:
            value(scope)

        return expr_stmt

    def stmt_Pass(self, node: ast.Pass, fc: _FunctionContext) -> Closure:
        return lambda scope: None

    def stmt_Break(self, node: ast.Break, fc: _FunctionContext) -> Closure:
        return lambda scope: BREAK

    def stmt_Continue(self, node: ast.Continue, fc: _FunctionContext) -> Closure:
        return lambda scope: CONTINUE

    def stmt_Return(self, node: ast.Return, fc: _FunctionContext) -> Closure:
        if fc is _MODULE_CONTEXT:
            raise SyntaxError("'return' outside function")
        value = self.compile_expr(node.value, fc) if node.value is not None else None

        def ret(scope: Scope) -> Any:
            scope.ret = value(scope) if value is not None else None
            return RETURN

        return ret

    def stmt_Assign(self, node: ast.Assign, fc: _FunctionContext) -> Closure:
        value = self.compile_expr(node.value, fc)
        targets = [self.compile_target(t, fc, node) for t in node.targets]
        if len(targets) == 1:
            target = targets[0]

            def assign1(scope: Scope) -> None:
                target(scope, value(scope))

            return assign1

        def assign(scope: Scope) -> None:
            v = value(scope)
            for t in targets:
                t(scope, v)

        return assign

    def stmt_AnnAssign(self, node: ast.AnnAssign, fc: _FunctionContext) -> Closure:
        if node.value is None:
            return lambda scope: None
        value = self.compile_expr(node.value, fc)
        target = self.compile_target(node.target, fc, node)
        return lambda scope: target(scope, value(scope))

    def stmt_AugAssign(self, node: ast.AugAssign, fc: _FunctionContext) -> Closure:
        op = _INPLACE[type(node.op)]
        plain = _BINOPS[type(node.op)]
        opname = _OP_NAMES[type(node.op)] + "_"
        value = self.compile_expr(node.value, fc)
        target = node.target
        interp = self
        label = self.segment(node)

        def apply(current: Any, rhs: Any) -> Any:
            if isinstance(current, Tensor):
                if isinstance(rhs, Tensor):
                    sizes.check_broadcast(opname, current, rhs, interp.limits.tensor_elements)
                interp.rec.before_inplace(current)
                before = interp.rec.node_of(current) if interp.rec.active else None
                result = op(current, rhs)
                interp.rec.inplace_result(result, node, label, before, rhs)
                return result
            if isinstance(current, np.ndarray):  # in place, as numpy does: same size
                return op(current, rhs)
            return interp.binary(plain, current, rhs, node, opname)

        if isinstance(target, ast.Name):
            load = self.compile_expr(ast.Name(id=target.id, ctx=ast.Load()), fc)
            store = self.compile_target(target, fc, node)

            def aug_name(scope: Scope) -> None:
                store(scope, apply(load(scope), value(scope)))

            return aug_name
        if isinstance(target, ast.Attribute):
            obj_expr = self.compile_expr(target.value, fc)
            attr = target.attr

            def aug_attr(scope: Scope) -> None:
                obj = obj_expr(scope)
                current = interp.get_attr(obj, attr, target)
                result = apply(current, value(scope))
                interp.set_attr(obj, attr, result, target)

            return aug_attr
        if isinstance(target, ast.Subscript):
            obj_expr = self.compile_expr(target.value, fc)
            index_expr = self.compile_expr(target.slice, fc)

            def aug_item(scope: Scope) -> None:
                obj = obj_expr(scope)
                index = index_expr(scope)
                if isinstance(obj, Tensor):
                    if not isinstance(index, (int, slice)):
                        sizes.check_index(obj, index, interp.limits.tensor_elements)
                    interp.rec.before_inplace(obj)
                else:
                    _check_key(index)
                    if isinstance(obj, nn.Module):
                        _check_module_key(obj, index)
                current = obj[index]
                result = apply(current, value(scope))
                interp.set_item(obj, index, result, target)

            return aug_item
        raise ForbiddenError("this augmented assignment target is not supported", node)

    def stmt_If(self, node: ast.If, fc: _FunctionContext) -> Closure:
        test = self.compile_expr(node.test, fc)
        body = self.compile_block(node.body, fc)
        orelse = self.compile_block(node.orelse, fc)
        truth = self.truth

        def if_(scope: Scope) -> Any:
            if truth(test(scope), node.test):
                return body(scope)
            return orelse(scope)

        return if_

    def truth(self, value: Any, node: ast.AST) -> bool:
        try:
            return bool(value)
        except BaseException as exc:
            locate(exc, node)
            raise

    def stmt_While(self, node: ast.While, fc: _FunctionContext) -> Closure:
        test = self.compile_expr(node.test, fc)
        body = self.compile_block(node.body, fc)
        orelse = self.compile_block(node.orelse, fc)
        limit = self.limits.loop_iterations
        truth = self.truth

        loops = self.rec.loop_stack
        line = node.lineno

        def while_(scope: Scope) -> Any:
            count = 0
            frame = [line, 0]
            loops.append(frame)
            try:
                while truth(test(scope), node.test):
                    frame[1] = count
                    count += 1
                    if count > limit:
                        raise LimitError(f"a loop ran more than {limit:,} iterations", node)
                    r = body(scope)
                    if r is BREAK:
                        return None
                    if r is RETURN:
                        return r
            finally:
                loops.pop()
            return orelse(scope)

        return while_

    def stmt_For(self, node: ast.For, fc: _FunctionContext) -> Closure:
        iterable = self.compile_expr(node.iter, fc)
        target = self.compile_target(node.target, fc, node)
        body = self.compile_block(node.body, fc)
        orelse = self.compile_block(node.orelse, fc)
        limit = self.limits.loop_iterations
        interp = self

        loops = self.rec.loop_stack
        line = node.lineno

        def for_(scope: Scope) -> Any:
            items = interp.iterate(iterable(scope), node.iter)
            count = 0
            frame = [line, 0]
            loops.append(frame)
            try:
                for item in items:
                    frame[1] = count
                    count += 1
                    if count > limit:
                        raise LimitError(f"a loop ran more than {limit:,} iterations", node)
                    target(scope, item)
                    r = body(scope)
                    if r is BREAK:
                        return None
                    if r is RETURN:
                        return r
            finally:
                loops.pop()
            return orelse(scope)

        return for_

    def iterate(self, value: Any, node: ast.AST) -> Any:
        if isinstance(value, range) and len(value) > self.limits.loop_iterations:
            raise LimitError(
                f"a loop over {len(value):,} items is over the loop limit "
                f"({self.limits.loop_iterations:,})",
                node,
            )
        if isinstance(value, Tensor) and self.rec.active:
            return self._tensor_rows(value, node)
        if isinstance(value, (UserFunction, Namespace)):
            raise TypeError(f"'{type(value).__name__}' object is not iterable")
        if isinstance(value, tud.DataLoader):
            return self._checked_batches(value)
        return value

    def _checked_batches(self, loader: Any) -> Any:
        """A DataLoader's batches are made by torch (collate): checked as they come."""
        for batch in loader:
            if isinstance(batch, Tensor):
                self.check_size(batch)
            elif isinstance(batch, (tuple, list)):
                self.check_sizes(batch)
            yield batch

    def _tensor_rows(self, value: Tensor, node: ast.AST) -> Any:
        label = self.segment(node)
        for row in value:
            self.rec.result(row, node, label, (value,))
            yield row

    def stmt_FunctionDef(self, node: ast.FunctionDef, fc: _FunctionContext) -> Closure:
        make = self.compile_function(node, fc)
        decorators = [self.compile_expr(d, fc) for d in node.decorator_list]
        target = self.compile_target(ast.Name(id=node.name, ctx=ast.Store()), fc, node)
        interp = self

        def define(scope: Scope) -> None:
            fn: Any = make(scope)
            for deco in reversed(decorators):
                fn = interp.apply_decorator(deco(scope), fn, node)
            target(scope, fn)

        return define

    def apply_decorator(self, deco: Any, fn: Any, node: ast.AST) -> Any:
        if isinstance(deco, (torch.no_grad, torch.enable_grad, torch.inference_mode)):
            # torch's decorated function, handed to the program checked.
            return Checked(deco(fn), None, getattr(fn, "name", "function"))
        if deco is staticmethod:
            return fn
        # Any other decorator is a call like any other: through the one call path, and
        # what it returns reaches the program checked (functools.lru_cache, your own).
        return self.invoke(deco, (fn,), {}, node, None, "")

    def compile_function(
        self, node: ast.FunctionDef | ast.Lambda, fc: _FunctionContext, owner: str | None = None
    ) -> Callable[[Scope], UserFunction]:
        """Compile a def or lambda once; each evaluation makes a closure over its scope."""
        args = node.args
        if args.posonlyargs:
            raise ForbiddenError("positional-only parameters are not supported", node)
        name = node.name if isinstance(node, ast.FunctionDef) else "<lambda>"
        prefix = f"{fc.qualname}.<locals>." if fc.qualname else ""
        qualname = f"{owner}.{name}" if owner else prefix + name
        if isinstance(node, ast.FunctionDef):
            declared_globals: set[str] = set()
            declared_nonlocals: set[str] = set()
            for sub in _own_statements(node.body):
                if isinstance(sub, ast.Global):
                    declared_globals.update(sub.names)
                elif isinstance(sub, ast.Nonlocal):
                    declared_nonlocals.update(sub.names)
            inner_fc = _FunctionContext(qualname, declared_globals, declared_nonlocals)
            if contains_yield(node.body):
                body = compile_generator_body(self, node.body, inner_fc, qualname)
            else:
                block = self.compile_block(node.body, inner_fc)

                def body(scope: Scope) -> Any:
                    if block(scope) is RETURN:
                        return scope.ret
                    return None

        else:
            inner_fc = _FunctionContext(qualname, set(), set())
            expr = self.compile_expr(node.body, inner_fc)
            body: Closure = expr  # type: ignore[no-redef]
        defaults = [self.compile_expr(d, fc) for d in args.defaults]
        kw_defaults = {
            a.arg: self.compile_expr(d, fc)
            for a, d in zip(args.kwonlyargs, args.kw_defaults)
            if d is not None
        }
        names = [a.arg for a in args.args]
        kwonly = [a.arg for a in args.kwonlyargs]
        vararg = args.vararg.arg if args.vararg else None
        kwarg = args.kwarg.arg if args.kwarg else None
        interp = self

        def make(scope: Scope) -> UserFunction:
            params = Parameters(
                names,
                [d(scope) for d in defaults],
                vararg,
                kwonly,
                {k: d(scope) for k, d in kw_defaults.items()},
                kwarg,
            )
            return UserFunction(interp, name, qualname, params, body, scope)

        return make

    def call_user(self, fn: UserFunction, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        self.depth += 1
        try:
            if self.depth > self.limits.recursion_depth:
                raise LimitError(
                    f"calls nested deeper than {self.limits.recursion_depth} "
                    f"(in {fn.qualname}): is the recursion missing a base case?"
                )
            scope = Scope(fn.params.bind(fn.name, args, kwargs), fn.scope, fn)
            return fn.body(scope)
        finally:
            self.depth -= 1

    def stmt_ClassDef(self, node: ast.ClassDef, fc: _FunctionContext) -> Closure:
        from gradtrace.language.classes import build_class, class_decorator

        bases = [self.compile_expr(b, fc) for b in node.bases]
        decorators = [self.compile_expr(d, fc) for d in node.decorator_list]
        annotated: list[tuple[str, Closure | None]] = []
        methods: list[tuple[ast.FunctionDef, Callable[[Scope], UserFunction], list[Closure]]] = []
        attributes: list[tuple[str, Closure]] = []
        for item in node.body:
            if isinstance(item, ast.FunctionDef):
                make = self.compile_function(item, fc, owner=node.name)
                decos = [self.compile_expr(d, fc) for d in item.decorator_list]
                methods.append((item, make, decos))
            elif isinstance(item, ast.Assign) and all(
                isinstance(t, ast.Name) for t in item.targets
            ):
                value = self.compile_expr(item.value, fc)
                for t in item.targets:
                    attributes.append((t.id, value))  # type: ignore[attr-defined]
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                # `x: int` or `x: int = 0`: a field of a @dataclass, else a class attribute.
                default = self.compile_expr(item.value, fc) if item.value else None
                annotated.append((item.target.id, default))
            elif isinstance(item, ast.Pass) or (
                isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant)
            ):
                continue
            else:
                raise ForbiddenError(
                    "a class body may hold only methods and simple class attributes", item
                )
        target = self.compile_target(ast.Name(id=node.name, ctx=ast.Store()), fc, node)
        interp = self

        def define(scope: Scope) -> None:
            base_values = [b(scope) for b in bases]
            options = [class_decorator(d(scope), node) for d in decorators]
            fields = [(name, value(scope) if value else None) for name, value in annotated]
            cls = build_class(
                interp, node, base_values, methods, attributes, scope, fields, options
            )
            target(scope, cls)

        return define

    def stmt_With(self, node: ast.With, fc: _FunctionContext) -> Closure:
        items = [
            (
                self.compile_expr(item.context_expr, fc),
                self.compile_target(item.optional_vars, fc, node) if item.optional_vars else None,
                item.context_expr,
            )
            for item in node.items
        ]
        body = self.compile_block(node.body, fc)

        def with_(scope: Scope) -> Any:
            entered = []
            try:
                for expr, target, where in items:
                    manager = expr(scope)
                    if not isinstance(manager, _CONTEXT_MANAGERS) and not (
                        isinstance(manager, ProgramObject)
                        and user_class_member(type(manager), "__enter__")
                        and user_class_member(type(manager), "__exit__")
                    ):
                        raise ForbiddenError(
                            "`with` supports torch.no_grad(), torch.enable_grad(), "
                            "torch.set_grad_enabled(...), torch.inference_mode(), "
                            "torch.autograd.graph.saved_tensors_hooks(...) and save_on_cpu(), "
                            "torch.autograd.forward_ad.dual_level(), "
                            "and your own classes that define __enter__ and __exit__",
                            where,
                        )
                    value = manager.__enter__()  # type: ignore[union-attr]
                    entered.append(manager)
                    if target is not None:
                        target(scope, value)
                result = body(scope)
            except BaseException as exc:
                suppressed = False
                while entered:
                    manager = entered.pop()
                    if suppressed:
                        manager.__exit__(None, None, None)  # type: ignore[union-attr]
                    elif manager.__exit__(type(exc), exc, exc.__traceback__):  # type: ignore[union-attr]
                        # A class of the program may suppress what its body raised (as
                        # contextlib.suppress does); never a refusal or a spent budget.
                        suppressed = not isinstance(exc, _UNSWALLOWED) and isinstance(
                            manager, ProgramObject
                        )
                if not suppressed:
                    raise
                return None
            while entered:
                entered.pop().__exit__(None, None, None)  # type: ignore[union-attr]
            return result

        return with_

    def stmt_Import(self, node: ast.Import, fc: _FunctionContext) -> Closure:
        bindings: list[tuple[Callable[[Scope, Any], None], Namespace]] = []
        for alias in node.names:
            module = self.find_module(alias.name, node)
            if alias.asname:
                bindings.append((self.compile_target(_store(alias.asname), fc, node), module))
            else:
                top = alias.name.split(".")[0]
                bindings.append((self.compile_target(_store(top), fc, node), MODULES[top]))

        def import_(scope: Scope) -> None:
            for target, module in bindings:
                target(scope, module)

        return import_

    def stmt_ImportFrom(self, node: ast.ImportFrom, fc: _FunctionContext) -> Closure:
        if node.level or node.module is None:
            raise ForbiddenError("relative imports are not supported", node)
        if node.module == "__future__":  # checked by parse: each feature is already on
            return _do_nothing
        module = self.find_module(node.module, node)
        bindings = []
        for alias in node.names:
            if alias.name == "*":
                raise ForbiddenError("`import *` is not supported; name what you use", node)
            if alias.name not in module.members:
                full = f"{node.module}.{alias.name}"
                if full not in MODULES:
                    raise ForbiddenError(
                        f"`from {node.module} import {alias.name}` is not available in gradtrace",
                        node,
                        hint=refusal_hint(alias.name, module.members, f"members of {node.module}"),
                    )
                value: Any = MODULES[full]
            else:
                value = namespace_member(module.members[alias.name], alias.name)
            bindings.append(
                (self.compile_target(_store(alias.asname or alias.name), fc, node), value)
            )

        def import_from(scope: Scope) -> None:
            for target, value in bindings:
                target(scope, value)

        return import_from

    def find_module(self, name: str, node: ast.AST) -> Namespace:
        module = MODULES.get(name)
        if module is not None:
            return module
        top = name.split(".")[0]
        hint = IMPORT_HINTS.get(top)
        raise ForbiddenError(
            f"import of '{name}' is not allowed: programs may import torch (and its nn, "
            "optim, autograd, utils.data), math, random, itertools, functools, collections, "
            "operator, string, typing, dataclasses and numpy",
            node,
            hint=hint,
        )

    def stmt_Delete(self, node: ast.Delete, fc: _FunctionContext) -> Closure:
        deleters: list[Closure] = []
        for target in node.targets:
            if isinstance(target, ast.Name):
                name = target.id

                def del_name(scope: Scope, name: str = name) -> None:
                    if name not in scope.vars:
                        raise NameError(f"name '{name}' is not defined")
                    del scope.vars[name]

                deleters.append(del_name)
            elif isinstance(target, ast.Subscript):
                obj = self.compile_expr(target.value, fc)
                index = self.compile_expr(target.slice, fc)

                def del_item(scope: Scope, obj: Closure = obj, index: Closure = index) -> None:
                    container = obj(scope)
                    if not isinstance(container, (list, dict)):
                        raise TypeError(
                            f"'{type(container).__name__}' object doesn't support item deletion"
                        )
                    key = index(scope)
                    _check_key(key)
                    del container[key]

                deleters.append(del_item)
            elif isinstance(target, ast.Attribute):
                owner = self.compile_expr(target.value, fc)

                def del_attr(
                    scope: Scope, owner: Closure = owner, where: ast.Attribute = target
                ) -> None:
                    self.del_attr(owner(scope), where.attr, where)

                deleters.append(del_attr)
            else:
                raise ForbiddenError("only names, items and attributes can be deleted", target)

        def delete(scope: Scope) -> None:
            for d in deleters:
                d(scope)

        return delete

    def stmt_Global(self, node: ast.Global, fc: _FunctionContext) -> Closure:
        return lambda scope: None

    def stmt_Nonlocal(self, node: ast.Nonlocal, fc: _FunctionContext) -> Closure:
        return lambda scope: None

    def stmt_Assert(self, node: ast.Assert, fc: _FunctionContext) -> Closure:
        test = self.compile_expr(node.test, fc)
        msg = self.compile_expr(node.msg, fc) if node.msg is not None else None
        truth = self.truth

        def assert_(scope: Scope) -> None:
            if not truth(test(scope), node.test):
                raise AssertionError(msg(scope)) if msg is not None else AssertionError()

        return assert_

    def stmt_Raise(self, node: ast.Raise, fc: _FunctionContext) -> Closure:
        exc_expr = self.compile_expr(node.exc, fc) if node.exc is not None else None
        interp = self

        def raise_(scope: Scope) -> None:
            if exc_expr is None:
                if not interp.handling:
                    raise RuntimeError("No active exception to reraise")
                raise interp.handling[-1]
            exc = exc_expr(scope)
            if isinstance(exc, type) and issubclass(exc, Exception):
                exc = exc()
            if not isinstance(exc, Exception) or isinstance(exc, ProgramError):
                raise TypeError("exceptions must derive from BaseException")
            sizes.check_nesting(exc.args)  # its message is written from them
            chars = sum(len(a) for a in exc.args if type(a) is str)
            if chars > interp.limits.string_chars:
                raise LimitError(
                    f"an exception message of {chars:,} characters is over the string limit"
                )
            raise exc

        return raise_

    def stmt_Try(self, node: ast.Try, fc: _FunctionContext) -> Closure:
        body = self.compile_block(node.body, fc)
        handlers = [
            (
                self.compile_expr(h.type, fc) if h.type is not None else None,
                self.compile_target(_store(h.name), fc, h) if h.name else None,
                self.compile_block(h.body, fc),
                h,
            )
            for h in node.handlers
        ]
        orelse = self.compile_block(node.orelse, fc)
        final = self.compile_block(node.finalbody, fc)
        interp = self

        def attempt(scope: Scope) -> Any:
            try:
                result = body(scope)
            except ProgramError:
                raise
            except Exception as exc:
                for type_expr, target, handler_body, _handler in handlers:
                    if type_expr is not None:
                        wanted = type_expr(scope)
                        classes = wanted if isinstance(wanted, tuple) else (wanted,)
                        if not all(
                            isinstance(c, type) and issubclass(c, BaseException) for c in classes
                        ):
                            raise TypeError(
                                "catching classes that do not inherit from BaseException is not allowed"
                            ) from None
                        if not isinstance(exc, classes):
                            continue
                    if target is not None:
                        target(scope, exc)
                    interp.handling.append(exc)
                    try:
                        return handler_body(scope)
                    finally:
                        interp.handling.pop()
                raise
            if result is not None:
                return result
            return orelse(scope)

        def try_(scope: Scope) -> Any:
            try:
                result = attempt(scope)
            except _UNSWALLOWED:
                # A refusal or a spent budget ends the program: the finally block runs, but
                # neither its return/break nor an error of its own may swallow it.
                with contextlib.suppress(Exception):  # the first error is the one reported
                    final(scope)
                raise
            except BaseException:
                r = final(scope)
                if r is not None:
                    return r  # Python's own semantics: finally's return wins
                raise
            r = final(scope)
            return result if r is None else r

        return try_

    # ------------------------------------------------------------------ targets

    def compile_target(
        self, node: ast.expr, fc: _FunctionContext, stmt: ast.AST
    ) -> Callable[[Scope, Any], None]:
        interp = self
        if isinstance(node, ast.Name):
            name = node.id
            if name in fc.globals:

                def store_global(scope: Scope, value: Any) -> None:
                    interp.globals.vars[name] = value
                    interp.rec.name(value, name)

                return store_global
            if name in fc.nonlocals:

                def store_nonlocal(scope: Scope, value: Any) -> None:
                    s = scope.parent
                    while s is not None and s is not interp.globals:
                        if name in s.vars:
                            s.vars[name] = value
                            return
                        s = s.parent
                    raise SyntaxError(f"no binding for nonlocal '{name}' found")

                return store_nonlocal
            rec = self.rec

            def store(scope: Scope, value: Any) -> None:
                scope.vars[name] = value
                if isinstance(value, Tensor):
                    rec.name(value, name)

            return store
        if isinstance(node, (ast.Tuple, ast.List)):
            starred = [i for i, e in enumerate(node.elts) if isinstance(e, ast.Starred)]
            if len(starred) > 1:
                raise SyntaxError("multiple starred expressions in assignment")
            subs = [
                self.compile_target(e.value if isinstance(e, ast.Starred) else e, fc, stmt)
                for e in node.elts
            ]
            star = starred[0] if starred else None
            count = len(subs)

            def unpack(scope: Scope, value: Any) -> None:
                items = list(interp.iterate(value, node))
                if star is None:
                    if len(items) != count:
                        if len(items) > count:
                            raise ValueError(f"too many values to unpack (expected {count})")
                        raise ValueError(
                            f"not enough values to unpack (expected {count}, got {len(items)})"
                        )
                    for sub, item in zip(subs, items):
                        sub(scope, item)
                    return
                after = count - star - 1
                if len(items) < count - 1:
                    raise ValueError(
                        f"not enough values to unpack (expected at least {count - 1}, got {len(items)})"
                    )
                for i in range(star):
                    subs[i](scope, items[i])
                subs[star](scope, items[star : len(items) - after])
                for i in range(after):
                    subs[star + 1 + i](scope, items[len(items) - after + i])

            return unpack
        if isinstance(node, ast.Attribute):
            obj_expr = self.compile_expr(node.value, fc)
            attr = node.attr

            def store_attr(scope: Scope, value: Any) -> None:
                interp.set_attr(obj_expr(scope), attr, value, node)

            return store_attr
        if isinstance(node, ast.Subscript):
            obj_expr = self.compile_expr(node.value, fc)
            index_expr = self.compile_expr(node.slice, fc)

            def store_item(scope: Scope, value: Any) -> None:
                interp.set_item(obj_expr(scope), index_expr(scope), value, node)

            return store_item
        if isinstance(node, ast.Starred):
            raise SyntaxError("starred assignment target must be in a list or tuple")
        raise ForbiddenError(f"cannot assign to {type(node).__name__}", node)

    def set_attr(self, obj: Any, name: str, value: Any, node: ast.AST | None) -> None:
        if isinstance(obj, Tensor):
            if name not in TENSOR_SETTABLE:
                raise ForbiddenError(
                    f"a program may set only .data, .grad and .requires_grad of a tensor, not .{name}",
                    node,
                )
            if name == "data":
                self.rec.before_inplace(obj)
            setattr(obj, name, value)
            return
        if isinstance(obj, (nn.Module, torch.autograd.function.BackwardCFunction)):
            if name.startswith("_") and not private_settable(obj, name):
                raise ForbiddenError(
                    f"`.{name}` is torch's or Python's own: name yours otherwise", node
                )
            if isinstance(obj, nn.Module):
                if isinstance(value, Tensor):
                    self.rec.name(value, name)
                elif callable(getattr(type(obj), name, None)) and not user_class_member(
                    type(obj), name
                ):
                    # torch (and the trace) call these methods: none is the program's.
                    raise ForbiddenError(
                        f"`.{name}` is a method of torch's {type(obj).__name__}: a program may "
                        "not replace it (define it in your class instead)",
                        node,
                    )
            setattr(obj, name, value)
            return
        if settable_on_program_object(obj, name):
            setattr(obj, name, value)
            return
        raise ForbiddenError(f"cannot set attributes on a {type(obj).__name__}", node)

    def del_attr(self, obj: Any, name: str, node: ast.AST | None) -> None:
        if not deletable(obj, name):
            kind = "function" if type(obj) in (Checked, UserFunction) else type(obj).__name__
            raise ForbiddenError(
                f"`del` of `.{name}` of a {kind} is not available in gradtrace: only what a "
                "program set on its own objects, a Function's ctx, or a Module (parameters, "
                "buffers, submodules) can be deleted; for a gradient write `x.grad = None`",
                node,
            )
        delattr(obj, name)

    def set_item(self, obj: Any, index: Any, value: Any, node: ast.AST) -> None:
        if isinstance(obj, Tensor):
            if isinstance(value, Tensor) and value.numel() > self.limits.tensor_elements:
                raise LimitError("the assigned tensor is over the size limit", node)
            if not isinstance(index, (int, slice)):
                # x[idx] = v builds the broadcast index (and v broadcast to it) first.
                sizes.check_index(obj, index, self.limits.tensor_elements)
            self.rec.before_inplace(obj)
            before = self.rec.node_of(obj) if self.rec.active else None
            obj[index] = value
            self.rec.inplace_result(obj, node, self.segment(node), before, value, index)
            return
        if type(obj) is ModuleTable or isinstance(obj, np.ndarray):
            obj[index] = value  # no growth: the value is broadcast into what is there
            return
        if isinstance(obj, (list, dict)):
            _check_key(index)
            obj[index] = value
            if isinstance(obj, dict):
                self.check_size(obj)
            return
        raise TypeError(f"'{type(obj).__name__}' object does not support item assignment")

    # ------------------------------------------------------------------ expressions

    def compile_expr(self, node: ast.expr, fc: _FunctionContext) -> Closure:
        method = getattr(self, "expr_" + type(node).__name__, None)
        if method is None:
            raise ForbiddenError(f"`{type(node).__name__}` expressions are not supported", node)
        try:
            result: Closure = method(node, fc)
        except BaseException as exc:
            _place(exc, node)
            raise
        return result

    def expr_Constant(self, node: ast.Constant, fc: _FunctionContext) -> Closure:
        value = node.value
        if isinstance(value, str) and len(value) > self.limits.string_chars:
            raise LimitError("a string literal is over the string limit", node)
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= self.int_bound:
            raise LimitError(f"an integer literal is over {self.limits.int_bits} bits", node)
        return lambda scope: value

    def expr_Yield(self, node: ast.Yield | ast.YieldFrom, fc: _FunctionContext) -> Closure:
        # A generator's own yields are compiled by generators.py; one that reaches here is
        # outside any function, in a lambda, or inside a larger expression.
        if fc is _MODULE_CONTEXT:
            raise SyntaxError("'yield' outside function")
        raise ForbiddenError(GENERATOR_REFUSAL, node)

    expr_YieldFrom = expr_Yield

    def builtin_value(self, name: str) -> Any:
        """The builtin `name` as a program holds it (a Checked where callable), or _MISSING."""
        value = self.builtins.get(name, _MISSING)
        if value is _MISSING:
            value = self.builtin_table.get(name, _MISSING)
            if value is not _MISSING:
                if callable(value) and not isinstance(value, _SAFE_CALLABLES):
                    value = Checked(value, None, name)
                self.builtins[name] = value
        return value

    def expr_Name(self, node: ast.Name, fc: _FunctionContext) -> Closure:
        name = node.id
        interp = self
        self.builtin_value(name)  # the load below finds it in self.builtins
        builtins = self.builtins
        globals_ = self.globals

        if name in fc.globals:

            def load_global(scope: Scope) -> Any:
                value = globals_.vars.get(name, _MISSING)
                if value is _MISSING:
                    return interp.load_builtin(name, node, scope)
                return value

            return load_global

        def load(scope: Scope) -> Any:
            s: Scope | None = scope
            while s is not None:
                value = s.vars.get(name, _MISSING)
                if value is not _MISSING:
                    return value
                s = s.parent
            value = builtins.get(name, _MISSING)
            if value is not _MISSING:
                return value
            return interp.load_builtin(name, node, scope)

        return load

    def load_builtin(self, name: str, node: ast.AST, scope: Scope) -> Any:
        value = self.builtin_value(name)
        if value is not _MISSING:
            return value
        if name in FORBIDDEN_BUILTINS:
            raise ForbiddenError(FORBIDDEN_BUILTINS[name], node)
        known: set[str] = set(self.builtin_table)
        s: Scope | None = scope
        while s is not None:
            known.update(s.vars)
            s = s.parent
        close = difflib.get_close_matches(name, sorted(known), n=1)
        message = f"name '{name}' is not defined"
        if close:
            message += f". Did you mean: '{close[0]}'?"
        hint = None
        if name in ("np", "numpy"):
            hint = IMPORT_HINTS["numpy"]
        elif name in ("torch", "nn", "F", "optim"):
            hint = "add the import at the top, e.g. `import torch`"
        exc = NameError(message)
        exc.gradtrace_hint = hint  # type: ignore[attr-defined]
        raise exc

    def expr_Attribute(self, node: ast.Attribute, fc: _FunctionContext) -> Closure:
        value = self.compile_expr(node.value, fc)
        attr = node.attr
        interp = self

        if attr == "data":

            def load_data(scope: Scope) -> Any:
                obj = value(scope)
                result = interp.get_attr(obj, attr, node)
                if isinstance(obj, Tensor):
                    interp.rec.alias(result, obj)
                return result

            return load_data
        if attr in ("T", "mT", "H", "mH"):
            label = self.segment(node)

            def load_transpose(scope: Scope) -> Any:
                obj = value(scope)
                result = interp.get_attr(obj, attr, node)
                if isinstance(obj, Tensor):
                    interp.rec.result(result, node, label, (obj,))
                return result

            return load_transpose

        def load_attr(scope: Scope) -> Any:
            return interp.get_attr(value(scope), attr, node)

        return load_attr

    def get_attr(self, obj: Any, name: str, node: ast.AST | None) -> Any:
        """`obj.name` as the program receives it: a method comes as a Checked."""
        if type(obj) is Namespace:
            member = obj.members.get(name, _MISSING)
            if member is _MISSING:
                raise self.missing_member(obj, name, node)
            return namespace_member(member, name)
        if type(obj) is SuperProxy:
            return self.super_attr(obj, name, node)
        if type(obj) is UserFunction and name in ("__name__", "__qualname__"):
            return obj.name if name == "__name__" else obj.qualname
        if name == "_modules" and isinstance(obj, nn.Module) and is_program_object(obj):
            return ModuleTable(obj)
        value = self.read_attr(obj, name, node)
        if _unchecked(value):
            if isinstance(obj, type) and class_method_allowed(obj, name):
                return Checked(value, Unbound(obj), name)
            return Checked(value, obj, name)
        return value

    def read_attr(self, obj: Any, name: str, node: ast.AST | None) -> Any:
        """The real `obj.name` once the allowlist admits it (not for Namespace, super())."""
        if attribute_allowed(obj, name) or (
            isinstance(obj, type) and class_method_allowed(obj, name)
        ):
            try:
                value = getattr(obj, name)
            except AttributeError as exc:
                locate(exc, node)
                raise
            return value
        type_name = obj.__name__ if isinstance(obj, type) else type(obj).__name__
        hint = _HINTS_FOR_ATTRIBUTES.get(name)
        try:
            exists = hasattr(obj, name)
        except Exception:
            exists = False
        if exists and hint is None:
            raise ForbiddenError(
                f"`.{name}` of a {type_name} is not available in gradtrace",
                node,
                hint=refusal_hint(name, readable_names(obj), f"attributes of a {type_name}"),
            )
        missing = AttributeError(f"'{type_name}' object has no attribute '{name}'")
        missing.gradtrace_hint = hint  # type: ignore[attr-defined]
        raise missing

    def missing_member(
        self, ns: Namespace, name: str, node: ast.AST | None
    ) -> ProgramError | AttributeError:
        if ns.module is not None and hasattr(ns.module, name):
            return ForbiddenError(
                f"`{ns.name}.{name}` is not available in gradtrace programs",
                node,
                hint=refusal_hint(name, ns.members, f"members of {ns.name}"),
            )
        close = difflib.get_close_matches(name, sorted(ns.members), n=1)
        message = f"module '{ns.name}' has no attribute '{name}'"
        if close:
            message += f". Did you mean: '{close[0]}'?"
        return AttributeError(message)

    def super_attr(self, proxy: SuperProxy, name: str, node: ast.AST | None) -> Any:
        """`super().name`, admitted on what it resolves to: the class after `proxy.cls`
        in the object's MRO that defines `name` (a class of the program, or torch's)."""
        obj = proxy.obj
        mro = type(obj).__mro__
        if "gradtrace_members" not in proxy.cls.__dict__ or proxy.cls not in mro:
            raise ForbiddenError(
                "super(cls, obj) is available only for one of your classes and an instance "
                "of it; write super() inside the method",
                node,
            )
        for klass in mro[mro.index(proxy.cls) + 1 :]:
            if name in klass.__dict__:
                if not super_allowed(klass, obj, name):
                    break
                value = getattr(super(proxy.cls, obj), name)
                if _unchecked(value):
                    return Checked(value, obj, name)
                return value
        else:
            raise AttributeError(f"'super' object has no attribute '{name}'")
        raise ForbiddenError(
            f"super().{name} is not available in gradtrace (only __init__, the nn.Module "
            "methods gradtrace admits, and your own classes' methods)",
            node,
        )

    def expr_Subscript(self, node: ast.Subscript, fc: _FunctionContext) -> Closure:
        value = self.compile_expr(node.value, fc)
        index = self.compile_expr(node.slice, fc)
        label = self.segment(node)
        interp = self
        rec = self.rec

        def subscript(scope: Scope) -> Any:
            obj = value(scope)
            idx = index(scope)
            if type(obj) is Namespace or isinstance(obj, (UserFunction, type)):
                raise TypeError(f"'{type(obj).__name__}' object is not subscriptable")
            if isinstance(obj, Tensor):
                if not isinstance(idx, (int, slice)):
                    sizes.check_index(obj, idx, interp.limits.tensor_elements)
            elif type(idx) is tuple:
                _check_key(idx)
            elif isinstance(obj, nn.Module):
                _check_module_key(obj, idx)
            elif isinstance(obj, np.ndarray) and not isinstance(idx, (int, slice)):
                arrays.check_index(obj, idx)
            try:
                result = obj[idx]
            except BaseException as exc:
                locate(exc, node)
                if isinstance(exc, IndexError) and isinstance(obj, Tensor) and obj.dim() == 0:
                    exc.gradtrace_hint = "`loss.data[0]` became `loss.item()`"  # type: ignore[attr-defined]
                raise
            if isinstance(result, Tensor):
                if rec.active:
                    rec.result(
                        result, node, label, (obj, idx) if isinstance(idx, Tensor) else (obj,)
                    )
            elif type(result) is tuple and not isinstance(obj, (tuple, list)):
                interp.check_sizes(result)  # a TensorDataset's rows, indexed by a tensor
            elif isinstance(obj, (list, str, tuple)) and isinstance(idx, slice):
                interp.check_size(result)
            return result

        return subscript

    def expr_Slice(self, node: ast.Slice, fc: _FunctionContext) -> Closure:
        lower = self.compile_expr(node.lower, fc) if node.lower else None
        upper = self.compile_expr(node.upper, fc) if node.upper else None
        step = self.compile_expr(node.step, fc) if node.step else None
        return lambda scope: slice(
            lower(scope) if lower else None,
            upper(scope) if upper else None,
            step(scope) if step else None,
        )

    def expr_BinOp(self, node: ast.BinOp, fc: _FunctionContext) -> Closure:
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
        self, op: Callable[[Any, Any], Any], a: Any, b: Any, node: ast.AST | None, opname: str
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
            if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
                # Against an array, or a tensor against one (torch broadcasts it in).
                if op is operator.matmul:
                    arrays.check_matmul(opname, a, b)
                else:
                    arrays.check_broadcast(opname, a, b)
            a_tensor = isinstance(a, Tensor)
            b_tensor = isinstance(b, Tensor)
            if a_tensor or b_tensor:
                limit = self.limits.tensor_elements
                if a_tensor and b_tensor:
                    if op is operator.matmul:
                        sizes.check_matmul(a, b, limit)
                    else:
                        sizes.check_broadcast(opname, a, b, limit)
                result = op(a, b)
                if isinstance(result, Tensor):
                    if self.rec.active:
                        inputs = (a, b) if a_tensor and b_tensor else ((a,) if a_tensor else (b,))
                        self.rec.result(result, node, None, inputs)
                    else:
                        self.rec.untracked(result)
                return result
            if op is operator.mul:
                self._check_repeat(a, b)
            elif op is operator.mod and ta is str:
                check_percent_format(a, self.limits.string_chars)
                self.check_printable(b)
                result = scrub(op(a, b))
                self.check_size(result)
                return result
            result = op(a, b)
            self.check_size(result)
            return result
        except BaseException as exc:
            locate(exc, node)
            raise

    def binary_pow(self, a: Any, b: Any) -> Any:
        return self._int_op(operator.pow, a, b)

    def _int_op(self, op: Callable[[Any, Any], Any], a: Any, b: Any) -> Any:
        if type(a) is int and type(b) is int:
            bits = self.limits.int_bits
            if op is operator.pow and b > 0:
                if b > self.limits.max_exponent or max(a.bit_length() - 1, 0) * b > bits:
                    raise LimitError(f"{a} ** {b} is over the integer limit ({bits} bits)")
            elif op is operator.lshift and b > bits:
                raise LimitError(f"{a} << {b} is over the integer limit ({bits} bits)")
        return op(a, b)

    def _check_repeat(self, a: Any, b: Any) -> None:
        seq, times = (a, b) if isinstance(b, int) else (b, a)
        if isinstance(seq, (str, list, tuple)) and isinstance(times, int):
            total = len(seq) * times
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

    def check_size(self, value: Any) -> None:
        if isinstance(value, str):
            if len(value) > self.limits.string_chars:
                raise LimitError(
                    f"a string of {len(value):,} characters is over the limit "
                    f"({self.limits.string_chars:,})"
                )
        elif isinstance(value, (list, tuple, dict, set)):
            if len(value) > self.limits.sequence_items:
                raise LimitError(
                    f"a {type(value).__name__} of {len(value):,} items is over the limit "
                    f"({self.limits.sequence_items:,})"
                )
            if len(value) > 4096:  # a large container: what all of them hold is bounded too
                self.memory.check()
        elif isinstance(value, np.ndarray):
            arrays.result_array(type(value).__name__, value)
        elif isinstance(value, Tensor) and value.numel() > self.limits.tensor_elements:
            raise LimitError(
                f"a tensor of {value.numel():,} elements is over the limit "
                f"({self.limits.tensor_elements:,} per tensor)"
            )

    def check_sizes(self, values: Any) -> None:
        """The tensors of a tuple or list a call returned (two levels: LSTM's (out, (h, c)))."""
        for item in values:
            if isinstance(item, Tensor):
                self.check_size(item)
            elif type(item) is tuple or type(item) is list:
                for sub in item:
                    if isinstance(sub, Tensor):
                        self.check_size(sub)

    def check_printable(self, value: Any) -> None:
        """str() of nested containers walks every item: bound it before it starts."""
        if isinstance(value, BaseException):
            value = value.args
        if type(value) in (list, tuple, dict, set, frozenset):
            budget = self.limits.string_chars
            if sizes.count_items(value, budget + 1) > budget // 2:
                raise LimitError(
                    "printing this container would write more than the string limit "
                    f"({budget:,} characters)"
                )

    def expr_UnaryOp(self, node: ast.UnaryOp, fc: _FunctionContext) -> Closure:
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

    def expr_BoolOp(self, node: ast.BoolOp, fc: _FunctionContext) -> Closure:
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

    def expr_Compare(self, node: ast.Compare, fc: _FunctionContext) -> Closure:
        left = self.compile_expr(node.left, fc)
        ops = [_CMPOPS[type(o)] for o in node.ops]
        comparators = [self.compile_expr(c, fc) for c in node.comparators]
        rec = self.rec
        truth = self.truth
        label = self.segment(node)
        limit = self.limits.tensor_elements
        nested = sizes.NESTED
        check_nesting = sizes.check_nesting

        def compare(scope: Scope) -> Any:
            a = left(scope)
            result: Any = True
            for op, comp in zip(ops, comparators):
                b = comp(scope)
                try:
                    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
                        arrays.check_broadcast("comparison", a, b)
                    if isinstance(a, Tensor):
                        if isinstance(b, Tensor):
                            sizes.check_broadcast("comparison", a, b, limit)
                        elif type(b) is list or type(b) is tuple:
                            _check_against(a, b, limit)  # `a in seq` compares with each
                    elif type(a) in nested:
                        # `a in d` hashes a, `a == b` and `a in seq` walk a's paths
                        # (those both sides share): in C, without bound.
                        check_nesting(a)
                    result = op(a, b)
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

    def expr_IfExp(self, node: ast.IfExp, fc: _FunctionContext) -> Closure:
        test = self.compile_expr(node.test, fc)
        body = self.compile_expr(node.body, fc)
        orelse = self.compile_expr(node.orelse, fc)
        truth = self.truth
        return lambda scope: body(scope) if truth(test(scope), node.test) else orelse(scope)

    def expr_Lambda(self, node: ast.Lambda, fc: _FunctionContext) -> Closure:
        make = self.compile_function(node, fc)
        return make

    def expr_List(self, node: ast.List, fc: _FunctionContext) -> Closure:
        items = self.compile_items(node.elts, fc)
        return lambda scope: items(scope)

    def expr_Tuple(self, node: ast.Tuple, fc: _FunctionContext) -> Closure:
        items = self.compile_items(node.elts, fc)
        return lambda scope: tuple(items(scope))

    def expr_Set(self, node: ast.Set, fc: _FunctionContext) -> Closure:
        items = self.compile_items(node.elts, fc)
        return lambda scope: set(_keys(items(scope)))

    def compile_items(
        self, elts: list[ast.expr], fc: _FunctionContext
    ) -> Callable[[Scope], list[Any]]:
        if not any(isinstance(e, ast.Starred) for e in elts):
            compiled = [self.compile_expr(e, fc) for e in elts]
            return lambda scope: [c(scope) for c in compiled]
        parts = [
            (True, self.compile_expr(e.value, fc))
            if isinstance(e, ast.Starred)
            else (False, self.compile_expr(e, fc))
            for e in elts
        ]
        interp = self

        def items(scope: Scope) -> list[Any]:
            out: list[Any] = []
            for starred, c in parts:
                if starred:
                    out.extend(interp.iterate(c(scope), elts[0]))
                else:
                    out.append(c(scope))
            interp.check_size(out)
            return out

        return items

    def expr_Dict(self, node: ast.Dict, fc: _FunctionContext) -> Closure:
        keys = [self.compile_expr(k, fc) if k is not None else None for k in node.keys]
        values = [self.compile_expr(v, fc) for v in node.values]
        interp = self

        def dict_(scope: Scope) -> dict[Any, Any]:
            out: dict[Any, Any] = {}
            for k, v in zip(keys, values):
                if k is None:
                    out.update(v(scope))
                else:
                    key = k(scope)
                    _check_key(key)
                    out[key] = v(scope)
            interp.check_size(out)
            return out

        return dict_

    def expr_JoinedStr(self, node: ast.JoinedStr, fc: _FunctionContext) -> Closure:
        parts = [self.compile_expr(v, fc) for v in node.values]
        interp = self

        def fstring(scope: Scope) -> str:
            text = "".join([p(scope) for p in parts])
            interp.check_size(text)
            return text

        return fstring

    def expr_FormattedValue(self, node: ast.FormattedValue, fc: _FunctionContext) -> Closure:
        value = self.compile_expr(node.value, fc)
        spec = self.compile_expr(node.format_spec, fc) if node.format_spec is not None else None
        conversion = node.conversion
        # A tensor's str() and repr() are the same text, and so is format(t, "") unless t is
        # zero-dimensional (then it formats its number).
        as_text = conversion in _TEXT_CONVERSIONS
        bare = spec is None and conversion == -1
        limit = self.limits.string_chars
        interp = self

        def formatted(scope: Scope) -> str:
            v = value(scope)
            interp.check_printable(v)
            if type(v) is Tensor and (as_text or (bare and v.dim())):
                v = tensor_str(v)  # what str(), repr() and format(v, "") give for it
            elif conversion == ord("r"):
                v = repr(v)
            elif conversion == ord("s"):
                v = str(v)
            elif conversion == ord("a"):
                v = ascii(v)
            s = spec(scope) if spec is not None else ""
            check_format_spec(s, limit)
            try:
                return scrub(format(v, s))
            except BaseException as exc:
                locate(exc, node)
                raise

        return formatted

    def expr_Starred(self, node: ast.Starred, fc: _FunctionContext) -> Closure:
        raise SyntaxError("can't use starred expression here")

    # Comprehensions: a scope of their own, eager (generator expressions become lists).

    def _compile_comprehension(
        self,
        generators: list[ast.comprehension],
        fc: _FunctionContext,
        emit: Callable[[Scope], None],
    ) -> Callable[[Scope], None]:
        interp = self
        limit = self.limits.loop_iterations
        steps: list[tuple[Closure, Callable[[Scope, Any], None], list[Closure], ast.expr]] = []
        for gen in generators:
            if gen.is_async:
                raise ForbiddenError("async comprehensions are not supported", gen.iter)
            steps.append(
                (
                    self.compile_expr(gen.iter, fc),
                    self.compile_target(gen.target, fc, gen.iter),
                    [self.compile_expr(cond, fc) for cond in gen.ifs],
                    gen.iter,
                )
            )

        # One closure per generator, each calling the next: no closure refers to itself, so
        # nothing here keeps the compiled program alive in a reference cycle.
        def level(
            step: tuple[Closure, Callable[[Scope, Any], None], list[Closure], ast.expr],
            inner: Callable[[Scope], None],
        ) -> Callable[[Scope], None]:
            iter_expr, target, conds, where = step

            def run(scope: Scope) -> None:
                count = 0
                for item in interp.iterate(iter_expr(scope), where):
                    count += 1
                    if count > limit:
                        raise LimitError(
                            f"a comprehension ran more than {limit:,} iterations", where
                        )
                    interp.steps += 1
                    if interp.steps & 255 == 0:
                        interp.tick()
                    target(scope, item)
                    if all(interp.truth(c(scope), where) for c in conds):
                        inner(scope)

            return run

        run = emit
        for step in reversed(steps):
            run = level(step, run)
        return run

    def expr_ListComp(self, node: ast.ListComp, fc: _FunctionContext) -> Closure:
        return self._sequence_comprehension(node, fc, list)

    def expr_GeneratorExp(self, node: ast.GeneratorExp, fc: _FunctionContext) -> Closure:
        return self._sequence_comprehension(node, fc, list)

    def expr_SetComp(self, node: ast.SetComp, fc: _FunctionContext) -> Closure:
        return self._sequence_comprehension(node, fc, set)

    def _sequence_comprehension(
        self, node: ast.ListComp | ast.GeneratorExp | ast.SetComp, fc: _FunctionContext, kind: type
    ) -> Closure:
        element = self.compile_expr(node.elt, fc)

        def emit(scope: Scope) -> None:
            scope.ret.append(element(scope))

        run = self._compile_comprehension(node.generators, fc, emit)
        interp = self

        def comprehension(scope: Scope) -> Any:
            inner = Scope({}, scope, scope.func)
            inner.ret = []
            run(inner)
            result = inner.ret if kind is list else kind(_keys(inner.ret))
            interp.check_size(result)
            return result

        return comprehension

    def expr_DictComp(self, node: ast.DictComp, fc: _FunctionContext) -> Closure:
        key = self.compile_expr(node.key, fc)
        value = self.compile_expr(node.value, fc)

        def emit(scope: Scope) -> None:
            k = key(scope)
            _check_key(k)
            scope.ret[k] = value(scope)

        run = self._compile_comprehension(node.generators, fc, emit)
        interp = self

        def comprehension(scope: Scope) -> Any:
            inner = Scope({}, scope, scope.func)
            inner.ret = {}
            run(inner)
            interp.check_size(inner.ret)
            return inner.ret

        return comprehension

    # ------------------------------------------------------------------ calls

    def expr_Call(self, node: ast.Call, fc: _FunctionContext) -> Closure:
        args_fn = self.compile_arguments(node, fc)
        label = self.segment(node)
        interp = self
        func = node.func

        if isinstance(func, ast.Name) and func.id == "super":
            return self.compile_super(node, fc, args_fn)

        if isinstance(func, ast.Attribute):
            obj_expr = self.compile_expr(func.value, fc)
            attr = func.attr

            # The fast path of `obj.name(...)`: no Checked is made, but the very checks a
            # Checked's call runs are run (call_tensor_method, call_method, invoke).
            def method_call(scope: Scope) -> Any:
                obj = obj_expr(scope)
                args, kwargs = args_fn(scope)
                interp.here = node
                try:
                    if isinstance(obj, Tensor):
                        return interp.call_tensor_method(obj, attr, args, kwargs, node, label)
                    kind = type(obj)
                    if kind is Namespace:
                        member = obj.members.get(attr, _MISSING)
                        if member is _MISSING:
                            raise interp.missing_member(obj, attr, func)
                        return interp.invoke(member, args, kwargs, node, label, attr)
                    if kind is SuperProxy or isinstance(obj, type):
                        target = interp.get_attr(obj, attr, func)
                        return interp.invoke(target, args, kwargs, node, label, attr)
                    value = interp.read_attr(obj, attr, func)
                    if _unchecked(value):
                        return interp.call_method(obj, attr, value, args, kwargs, node, label)
                    return interp.invoke(value, args, kwargs, node, label, attr)
                except BaseException as exc:
                    locate(exc, node)
                    raise

            return method_call

        callee = self.compile_expr(func, fc)
        name = func.id if isinstance(func, ast.Name) else ""

        def call(scope: Scope) -> Any:
            target = callee(scope)
            args, kwargs = args_fn(scope)
            interp.here = node
            try:
                return interp.invoke(target, args, kwargs, node, label, name)
            except BaseException as exc:
                locate(exc, node)
                raise

        return call

    def compile_arguments(
        self, node: ast.Call, fc: _FunctionContext
    ) -> Callable[[Scope], tuple[tuple[Any, ...], dict[str, Any]]]:
        simple_args = not any(isinstance(a, ast.Starred) for a in node.args)
        positional = [
            (
                isinstance(a, ast.Starred),
                self.compile_expr(a.value if isinstance(a, ast.Starred) else a, fc),
            )
            for a in node.args
        ]
        keywords = [(k.arg, self.compile_expr(k.value, fc)) for k in node.keywords]
        interp = self
        if simple_args and all(k is not None for k, _ in keywords):
            plain = [c for _, c in positional]
            if not keywords:
                empty: dict[str, Any] = {}
                return lambda scope: (tuple([c(scope) for c in plain]), empty)
            return lambda scope: (
                tuple([c(scope) for c in plain]),
                {k: c(scope) for k, c in keywords},  # type: ignore[misc]
            )

        def arguments(scope: Scope) -> tuple[tuple[Any, ...], dict[str, Any]]:
            args: list[Any] = []
            for starred, c in positional:
                if starred:
                    args.extend(interp.iterate(c(scope), node))
                else:
                    args.append(c(scope))
            kwargs: dict[str, Any] = {}
            for k, c in keywords:
                if k is None:
                    extra = c(scope)
                    if not isinstance(extra, dict):
                        raise TypeError("argument after ** must be a mapping")
                    for key in extra:
                        if not isinstance(key, str) or key.startswith("_"):
                            raise ForbiddenError(
                                "keyword names starting with '_' are not allowed", node
                            )
                    kwargs.update(extra)
                else:
                    kwargs[k] = c(scope)
            interp.check_size(args)
            return tuple(args), kwargs

        return arguments

    def compile_super(
        self, node: ast.Call, fc: _FunctionContext, args_fn: Callable[[Scope], Any]
    ) -> Closure:
        def super_(scope: Scope) -> SuperProxy:
            args, _ = args_fn(scope)
            if len(args) == 2:
                cls, obj = args
                if not isinstance(cls, type):
                    raise TypeError("super() argument 1 must be a type")
                return SuperProxy(cls, obj)
            if args:
                raise TypeError("super() takes 0 or 2 arguments here")
            # The innermost enclosing function that is a method of a class of the program.
            func: UserFunction | None = None
            owner: type | None = None
            s: Scope | None = scope
            while owner is None and s is not None:
                func = s.func
                s = s.parent
                if func is not None:
                    owner = _owner_of(func)
            if func is None or owner is None or not func.params.names:
                raise RuntimeError("super(): no arguments (use it inside a method)")
            first = func.params.names[0]
            holder: Scope | None = scope
            while holder is not None and first not in holder.vars:
                holder = holder.parent
            if holder is None:
                raise RuntimeError("super(): no arguments")
            return SuperProxy(owner, holder.vars[first])

        return super_

    def invoke(
        self,
        target: Any,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        node: ast.AST | None,
        label: str | None,
        name: str,
    ) -> Any:
        """The one call path: every call of a program, and every Checked called from inside
        Python or torch, comes here. Its checks are keyed on the callee (the identity of
        the real function; for a method, its owner's type and its name); `name` is only
        the label a Module call is grouped under."""
        kind = type(target)
        if kind is UserFunction:
            return self.call_user(target, args, kwargs)
        if kind is Checked:
            owner = target.owner
            if owner is not None:
                mname = target.name
                if type(owner) is Unbound:
                    if not args or not isinstance(args[0], owner.cls):
                        raise TypeError(
                            f"descriptor '{mname}' for '{owner.cls.__name__}' objects needs "
                            f"a '{owner.cls.__name__}' as its first argument"
                        )
                    # The class's own method bound to the instance (not a subclass's).
                    method = target.fn.__get__(args[0], owner.cls)
                    return self.call_method(args[0], mname, method, args[1:], kwargs, node, label)
                return self.call_method(owner, mname, target.fn, args, kwargs, node, label)
            target = target.fn
            kind = type(target)
        elif kind is Namespace:
            raise TypeError("'module' object is not callable")
        for arg in args:
            if type(arg) is range and len(arg) > self.limits.sequence_items:
                raise LimitError(f"a range of {len(arg):,} items is over the limit")
        special = self.rec.special_call(target)
        if special is not None:
            return special(args, kwargs, node)
        limit = self.limits.tensor_elements
        fresh = False
        if kind is type or isinstance(target, type):
            if issubclass(target, nn.Module):
                sizes.check_module_class(target, args, kwargs, limit)
                _refuse_meta(args, kwargs, True)
                if issubclass(target, (nn.ParameterDict, nn.ModuleDict)):
                    for arg in (*args, *kwargs.values()):
                        _refuse_private_names(arg)
            elif issubclass(target, torch.optim.Optimizer) and kwargs.get("foreach"):
                kwargs = {**kwargs, "foreach": False}
            elif target is torch.autograd.Function:
                raise TypeError("torch.autograd.Function is used by subclassing it")
            elif target is torch.device or target is torch.Generator:
                _refuse_meta(args, kwargs, True)
            elif target is str:
                for arg in args:
                    self.check_printable(arg)
            elif target in _CONSUMING_TYPES:
                args = bounded_args(args)  # deque(itertools.count()) stops at the limit
            elif issubclass(target, Tensor) or target in _LEGACY_TENSOR_TYPES:
                # torch.Tensor(n) allocates n uninitialised elements, as torch.empty does.
                sizes.check_call("empty", torch.empty, args, kwargs, limit)
                fresh = (
                    not args
                    or not isinstance(args[0], (list, tuple, Tensor))
                    or (type(args[0]) is torch.Size)
                )
        elif identity(target) in TORCH_CALLABLES:
            fname = getattr(target, "__name__", name)
            sizes.check_call(fname, target, args, kwargs, limit)
            if kwargs:
                _refuse_meta((), kwargs, False)
            if fname in _SPECIAL_FUNCTIONS:
                fresh = fname in sizes.UNINITIALISED
                if fname == "embedding" and (kwargs.get("sparse") or (len(args) > 6 and args[6])):
                    raise ForbiddenError(_SPARSE)
                if fname in ("gradcheck", "gradgradcheck"):
                    _check_gradcheck(fname, args, kwargs)
            if fname.endswith("_"):
                for arg in args[:1]:
                    if isinstance(arg, Tensor):
                        self.rec.before_inplace(arg)
        if isinstance(target, nn.Module):
            return self.call_module(target, args, kwargs, node, label, name)
        result = target(*args, **kwargs)
        if fresh and isinstance(result, Tensor):
            _zero_fill(result)
        if isinstance(result, nn.Module) and isinstance(target, type):
            # Its own size rule (Conv2d squares an int kernel, LSTM has 4 gates) is torch's:
            # what the constructor made is checked before the program holds it.
            for _, param in module_parameters(result):
                self.check_size(param)
            if isinstance(result, LazyModuleMixin):
                # Its weight is made by a pre-hook at the first call, sized by the input.
                result.register_forward_pre_hook(
                    functools.partial(_check_lazy_layer, limit), prepend=True
                )
            if self.rec.active:
                self.rec.adopt_parameters(result, node, label)
        return self.after_call(result, args, kwargs, node, label)

    def after_call(
        self,
        result: Any,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        node: ast.AST | None,
        label: str | None,
    ) -> Any:
        """Check and record what a call returned."""
        if isinstance(result, Tensor):
            # A tensor op may be slow (a big matmul): the clock is read after each one too,
            # not only every 256 steps, so a program stops close to its time limit.
            if time.monotonic() > self.deadline:
                raise LimitError(f"the program ran longer than {self.limits.wall_time_s:g} s")
            self.check_size(result)
            if self.rec.active:
                self.rec.result(result, node, label, _tensor_inputs(args, kwargs))
            else:
                self.rec.untracked(result)
        elif isinstance(result, (tuple, list)):
            if result and isinstance(result[0], Tensor):
                self.check_sizes(result)
                if self.rec.active:
                    inputs = _tensor_inputs(args, kwargs)
                    for item in result:
                        if isinstance(item, Tensor):
                            self.rec.result(item, node, label, inputs)
            else:
                self.check_size(result)
        elif type(result) is int:
            if not -self.int_bound < result < self.int_bound:
                raise LimitError(f"an integer grew past {self.limits.int_bits} bits")
        elif type(result) is str:
            self.check_size(result)
            return scrub(result)
        elif _unchecked(result):
            # A callable made by a call (a decorated function...): the program gets it checked.
            return Checked(result, None, str(getattr(result, "__name__", "function")))
        return result

    def call_method(
        self,
        owner: Any,
        name: str,
        method: Any,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        node: ast.AST | None,
        label: str | None,
    ) -> Any:
        """`owner.name(*args, **kwargs)`, whether written so or called through a Checked;
        `method` is the real bound method read when the program read `owner.name` (None:
        read it now). Checks are keyed on the owner's type and the method's name."""
        if isinstance(owner, Tensor):
            return self.call_tensor_method(owner, name, args, kwargs, node, label)
        if method is None:
            method = getattr(owner, name)
        kind = type(owner)
        limits = self.limits
        if kind in _CONSUMING_TYPES or kind is str or kind is list or kind is set:
            args = bounded_args(args)  # "".join / list.extend / deque.extend of an iterator
        if kind is str:
            if name == "format":
                return self.format_string(owner, args, kwargs)
            if width_method(name) and args:
                width = args[0]
                if isinstance(width, int) and width > limits.string_chars:
                    raise LimitError(f"str.{name}({width}) is over the string limit")
            elif name == "join" and args:
                parts = args[0] if isinstance(args[0], (list, tuple)) else ()
                total = sum(len(p) for p in parts if type(p) is str) + len(owner) * len(parts)
                if total > limits.string_chars:
                    raise LimitError(f"joining {total:,} characters is over the string limit")
        elif kind is list or kind is set or kind is dict or kind is frozenset or kind is tuple:
            if name in ("count", "index", "remove") and args and isinstance(args[0], Tensor):
                _check_against(args[0], owner, limits.tensor_elements)
            if (
                name == "extend"
                and args
                and isinstance(args[0], (list, tuple))
                and len(owner) + len(args[0]) > limits.sequence_items
            ):
                raise LimitError(
                    f"a list of {len(owner) + len(args[0]):,} items is over the limit "
                    f"({limits.sequence_items:,})"
                )
            for arg in args:
                if isinstance(arg, range) and len(arg) > limits.sequence_items:
                    raise LimitError(f"{kind.__name__}.{name} of a huge range is over the limit")
            if kind is not list:
                for arg in args:
                    if type(arg) is tuple or type(arg) is frozenset:
                        sizes.check_nesting(arg)  # a key
                    elif type(arg) is list:
                        _keys(arg)  # keys (set.update) or key-value pairs (dict.update)
        elif isinstance(owner, torch.optim.Optimizer):
            if name == "step":
                for group in owner.param_groups:
                    for p in group["params"]:
                        self.rec.before_inplace(p)
        elif isinstance(owner, nn.Module):
            _refuse_meta(args, kwargs, name == "to")
            if name in _NAMING_METHODS:
                for arg in (*args, *kwargs.values()):
                    _refuse_private_names(arg)
            if name == "__init__":
                self.check_base_init(owner, method, args, kwargs)
        result = method(*args, **kwargs)
        return self.after_call(result, args, kwargs, node, label)

    def check_base_init(
        self, owner: nn.Module, method: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> None:
        """`super().__init__(...)` of a torch Module class allocates its parameters."""
        func = getattr(method, "__func__", None)
        for klass in type(owner).__mro__:
            if klass.__dict__.get("__init__") is func:
                if "gradtrace_members" not in klass.__dict__ and klass is not nn.Module:
                    sizes.check_module_class(klass, args, kwargs, self.limits.tensor_elements)
                    _refuse_meta(args, kwargs, True)
                return

    def call_module(
        self,
        module: nn.Module,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        node: ast.AST | None,
        label: str | None,
        name: str,
    ) -> Any:
        """Call a Module with its dotted path on the recorder's stack, so its nodes group by it."""
        if isinstance(module, nn.Embedding) and module.sparse:
            raise ForbiddenError(_SPARSE)
        stack = self.rec.module_stack
        path = f"{stack[-1]}.{name}" if stack and name else (name or type(module).__name__)
        stack.append(path)
        try:
            result = module(*args, **kwargs)
            # torch's layers are not pre-checked (a padding or a kernel makes the size):
            # what they made is checked before the program holds it.
            if isinstance(result, Tensor):
                self.check_size(result)
            elif isinstance(result, tuple):
                self.check_sizes(result)
            if isinstance(result, Tensor) and not self.rec.active:
                self.rec.untracked(result)
            # Recorded inside the module: the Nodes torch made in its forward belong to it.
            elif self.rec.active:
                inputs = _tensor_inputs(args, kwargs)
                if isinstance(result, Tensor):
                    self.rec.result(result, node, label, inputs)
                elif isinstance(result, tuple):
                    for item in result:
                        if isinstance(item, Tensor):
                            self.rec.result(item, node, label, inputs)
        finally:
            stack.pop()
        return result

    def call_tensor_method(
        self,
        obj: Tensor,
        name: str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        node: ast.AST | None,
        label: str | None,
    ) -> Any:
        """`obj.name(...)` of a tensor, written so or called through a Checked."""
        if not attribute_allowed(obj, name):
            where = node.func if isinstance(node, ast.Call) else node
            self.get_attr(obj, name, where or ast.Pass())  # raises the right error
        special = self.rec.tensor_special(name)
        if special is not None:
            return special(obj, args, kwargs, node)
        method = getattr(obj, name)
        if not callable(method):
            raise TypeError(f"'{type(method).__name__}' object is not callable")
        sizes.check_call(name, method, args, kwargs, self.limits.tensor_elements, method_of=obj)
        if kwargs or name == "to":
            _refuse_meta(args, kwargs, name == "to")
        if name in sizes.UNINITIALISED:
            result = method(*args, **kwargs)
            if isinstance(result, Tensor):
                _zero_fill(result)
            return self.after_call(result, (obj, *args), kwargs, node, label)
        if name.endswith("_"):
            self.rec.before_inplace(obj)
            before = self.rec.node_of(obj) if self.rec.active else None
            result = method(*args, **kwargs)
            if result is obj:
                self.rec.inplace_result(obj, node, label, before, *args)
                return result
        else:
            result = method(*args, **kwargs)
        if isinstance(result, Tensor):
            self.check_size(result)
            if self.rec.active:
                self.rec.result(result, node, label, (obj, *_tensor_inputs(args, kwargs)))
            else:
                self.rec.untracked(result)
        elif isinstance(result, tuple):
            self.check_sizes(result)
            if self.rec.active:
                inputs = (obj, *_tensor_inputs(args, kwargs))
                for item in result:
                    if isinstance(item, Tensor):
                        self.rec.result(item, node, label, inputs)
        elif type(result) is list:
            self.check_size(result)
        return result

    def format_string(self, template: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
        """`str.format` with plain fields only: `{}`, `{0}`, `{name}`, with a spec."""
        import string

        out: list[str] = []
        auto = 0
        for literal, field, spec, conversion in string.Formatter().parse(template):
            out.append(literal)
            if field is None:
                continue
            if field == "":
                if auto >= len(args):
                    raise IndexError(
                        f"Replacement index {auto} out of range for positional args tuple"
                    )
                value = args[auto]
                auto += 1
            elif field.isdigit():
                index = int(field)
                if index >= len(args):
                    raise IndexError(
                        f"Replacement index {index} out of range for positional args tuple"
                    )
                value = args[index]
            elif field.isidentifier() and not field.startswith("_"):
                if field not in kwargs:
                    raise KeyError(field)
                value = kwargs[field]
            else:
                raise ForbiddenError(
                    f"format fields may only be plain names or numbers, not {{{field}}}"
                )
            spec = spec or ""
            check_format_spec(spec, self.limits.string_chars)
            self.check_printable(value)
            if conversion == "r":
                value = repr(value)
            elif conversion == "s":
                value = str(value)
            elif conversion == "a":
                value = ascii(value)
            out.append(format(value, spec))
        text = scrub("".join(out))
        self.check_size(text)
        return text

    def builtin_print(
        self, *args: Any, sep: str | None = " ", end: str | None = "\n", **kwargs: Any
    ) -> None:
        if kwargs.keys() - {"flush"}:
            bad = next(iter(kwargs.keys() - {"flush"}))
            raise ForbiddenError(f"print({bad}=...) is not supported: output goes to the page")
        sep = " " if sep is None else sep
        end = "\n" if end is None else end
        if not isinstance(sep, str) or not isinstance(end, str):
            raise TypeError("sep and end must be None or strings")
        for arg in args:
            self.check_printable(arg)
        text = clean_text(scrub(sep.join(value_str(a) for a in args) + end))
        self.rec.print(text, args)


# Module methods that take attribute names (dotted paths): no '_' names through them.
_NAMING_METHODS = frozenset(
    {"add_module", "register_buffer", "register_parameter", "get_submodule", "get_parameter",
     "append", "extend", "insert"}
)  # fmt: skip


def _refuse_private_names(value: Any) -> None:
    """Names a Module would setattr/getattr (ParameterDict({...}), add_module(...)): the
    names a program may not write as attributes may not be given as strings either."""
    if type(value) is dict:
        items: Any = value.keys()
    elif type(value) in (list, tuple):
        items = [v[0] if type(v) in (list, tuple) and v else v for v in value]
    else:
        items = (value,)
    for item in items:
        if type(item) is str and (item.startswith("_") or "._" in item):
            raise ForbiddenError(
                f"the name {item[:40]!r} starts with '_': such names are not available in "
                "gradtrace; choose a name without the leading underscore"
            )


def _check_module_key(module: nn.Module, key: Any) -> None:
    """`pd[key]` of a ParameterDict is getattr(pd, key): only its own entries are items."""
    if type(key) is not str:
        return
    _refuse_private_names(key)
    if isinstance(module, nn.ParameterDict) and key not in module:
        if hasattr(module, key):
            raise ForbiddenError(
                f"{key!r} is not an entry of this ParameterDict (its items are its "
                "parameters, not the Module's attributes)"
            )
        raise KeyError(key)


# gradcheck builds Jacobians of inputs x outputs and runs the function twice per input
# element, all inside torch: a bound on the input elements keeps it to a second or so.
_GRADCHECK_ELEMENTS = 1_000


def _check_gradcheck(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    inputs = args[1] if len(args) > 1 else kwargs.get("inputs")
    tensors = [inputs] if isinstance(inputs, Tensor) else list(inputs or ())
    total = sum(t.numel() for t in tensors if isinstance(t, Tensor))
    if total > _GRADCHECK_ELEMENTS:
        raise LimitError(
            f"{name}() of {total:,} input elements is over the limit "
            f"({_GRADCHECK_ELEMENTS:,}): check a smaller input"
        )


def _check_against(t: Tensor, items: Any, limit: int) -> None:
    """`t == item` for each tensor item (list.count, `in`) broadcasts inside C."""
    for item in items:
        if isinstance(item, Tensor):
            sizes.check_broadcast("comparison", t, item, limit)


def _check_key(key: Any) -> None:
    """A tuple about to be hashed: bounded first (sizes.check_nesting)."""
    if type(key) is tuple or type(key) is frozenset:
        sizes.check_nesting(key)


def _keys(items: list[Any]) -> list[Any]:
    """Items about to be hashed (a set display, set.update): each bounded first."""
    for item in items:
        if type(item) is tuple or type(item) is frozenset:
            sizes.check_nesting(item)
    return items


# Functions with a check of their own besides their size (one set test on the hot path).
_SPECIAL_FUNCTIONS = sizes.UNINITIALISED | {"embedding", "gradcheck", "gradgradcheck"}

_SPARSE = (
    "sparse gradients (sparse=True) are not available in gradtrace: leave sparse out, "
    "the gradient is then an ordinary tensor"
)


def _refuse_meta(args: tuple[Any, ...], kwargs: dict[str, Any], positional: bool) -> None:
    """The meta device has shapes and no values: nothing could be shown of its tensors."""
    values = list(kwargs.values())
    if positional:
        values.extend(args)
    for value in values:
        if (type(value) is str and value.strip().startswith("meta")) or (
            type(value) is torch.device and value.type == "meta"
        ):
            raise ForbiddenError(
                "the meta device is not available in gradtrace (its tensors hold no values "
                "to show); leave out device=, or use 'cpu'"
            )


_LEGACY_TENSOR_TYPES = frozenset(getattr(torch, name) for name in LEGACY_TENSOR_TYPES)


def _check_lazy_layer(limit: int, module: nn.Module, args: tuple[Any, ...]) -> None:
    if isinstance(module, LazyModuleMixin) and module.has_uninitialized_params():
        sizes.check_lazy_module(module, args, limit)


def _zero_fill(t: Tensor) -> None:
    """Deliberately unlike torch: torch.empty and its family give uninitialised memory,
    which in a long-lived worker may hold an earlier job's data; here it is zeros."""
    with torch.no_grad():
        t.zero_()


def _place(exc: BaseException, node: ast.AST) -> None:
    """An error found while compiling: the innermost node it belongs to."""
    if isinstance(exc, ProgramError):
        if exc.node is None:
            exc.node = node
    else:
        locate(exc, node)


def _tensor_inputs(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tensor, ...]:
    found: list[Tensor] = []
    for a in args:
        if isinstance(a, Tensor):
            found.append(a)
        elif type(a) is list or type(a) is tuple:
            found.extend(x for x in a if isinstance(x, Tensor))
    if kwargs:
        for v in kwargs.values():
            if isinstance(v, Tensor):
                found.append(v)
    return tuple(found)


def _store(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Store())


def _own_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a function body, not descending into nested defs or classes."""
    out: list[ast.stmt] = []
    stack = list(body)
    while stack:
        stmt = stack.pop()
        out.append(stmt)
        if isinstance(stmt, (ast.FunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        for child in ast.iter_child_nodes(stmt):
            if isinstance(child, ast.stmt):
                stack.append(child)
    return out


def _owner_of(func: UserFunction) -> type | None:
    from gradtrace.language.classes import owner_class

    return owner_class(func)
