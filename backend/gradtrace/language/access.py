"""Reading and writing through names, attributes and items: assignment targets, `obj.name`
(every read passes the allowlists), `super()`, `x[i]` and slices.

Each function is a method of the Interpreter (bound in interpreter.py).
"""

from __future__ import annotations

import ast
import difflib
import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
from torch import nn

from gradtrace.language import argument_specs, arrays, backends, plots, sizes
from gradtrace.language.attributes import (
    TENSOR_SETTABLE,
    attribute_allowed,
    class_method_allowed,
    deletable,
    namespace_member,
    private_settable,
    readable_names,
    refusal_hint,
    settable_on_program_object,
    super_allowed,
)
from gradtrace.language.callables import Checked, Unbound
from gradtrace.language.classes import (
    is_program_class,
    is_program_object,
    set_class_member,
    user_class_member,
)
from gradtrace.language.errors import ForbiddenError, LimitError, ProgramError
from gradtrace.language.pymodules import bounded_iterable
from gradtrace.language.runtime import (
    _HINTS_FOR_ATTRIBUTES,
    _MISSING,
    Closure,
    Scope,
    Tensor,
    _check_key,
    _check_module_key,
    _FunctionContext,
    _unchecked,
    locate,
)
from gradtrace.language.tensor_text import scrub
from gradtrace.language.values import (
    ModuleTable,
    Namespace,
    SuperProxy,
    UserFunction,
)

if TYPE_CHECKING:
    from gradtrace.language.interpreter import Interpreter


def compile_unbind(
    self: Interpreter, name: str, fc: _FunctionContext
) -> Callable[[Scope], Scope | None]:
    """`del name` where Python resolves it: a `global` name in the module, a `nonlocal`
    one in the enclosing function that binds it, else this scope. The closure answers
    the scope it removed the binding from (None: there was none)."""
    interp = self
    if name in fc.globals:

        def unbind_global(scope: Scope) -> Scope | None:
            found = interp.globals.vars.pop(name, _MISSING) is not _MISSING
            return interp.globals if found else None

        return unbind_global
    if name in fc.nonlocals:

        def unbind_nonlocal(scope: Scope) -> Scope | None:
            s = scope.parent
            while s is not None and s is not interp.globals:
                if name in s.vars:
                    del s.vars[name]
                    return s
                s = s.parent
            return None

        return unbind_nonlocal

    def unbind(scope: Scope) -> Scope | None:
        return scope if scope.vars.pop(name, _MISSING) is not _MISSING else None

    return unbind


def compile_target(
    self: Interpreter, node: ast.expr, fc: _FunctionContext, stmt: ast.AST
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
            # C reads what is unpacked to its end: an iterator only as far as needed (one
            # past the targets), or, with a starred target, through a cap.
            values = interp.iterate(value, node)
            if star is None:
                items = list(itertools.islice(values, count + 1))
            else:
                items = list(bounded_iterable(values))
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


def set_attr(self: Interpreter, obj: Any, name: str, value: Any, node: ast.AST | None) -> None:
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
            elif isinstance(value, type):  # torch may call it (class_values.checked)
                value = self.class_checked(value)
        else:
            # A Function's ctx is a Node torch holds from C++: emptied when the job ends.
            self.made.held_by_torch(obj.__dict__)
        setattr(obj, name, value)
        return
    if type(obj) is Checked and obj.wrapped_class() is not None:
        obj = obj.wrapped_class()  # the class as handed to setattr()
    if isinstance(obj, type) and is_program_class(obj):
        set_class_member(self, obj, name, value)
        return
    if settable_on_program_object(obj, name):
        setattr(obj, name, value)
        return
    if type(obj) is argument_specs.Namespace and not (
        name.startswith("__") and name.endswith("__")
    ):
        obj.__dict__[name] = value  # `args.lr = 0.1`: an entry of its own
        return
    if type(obj) is Namespace and backends.settable(obj, name):
        backends.set_flag(name, value)  # the job's own switch (backends.py)
        return
    if type(obj) is SuperProxy:  # `super().x = v`: Python's super() sets nothing
        raise AttributeError(f"'super' object has no attribute '{name}'")
    raise ForbiddenError(f"cannot set attributes on a {type(obj).__name__}", node)


def del_attr(self: Interpreter, obj: Any, name: str, node: ast.AST | None) -> None:
    if type(obj) is SuperProxy:  # `del super().x`, as Python's super()
        raise AttributeError(f"'super' object has no attribute '{name}'")
    if not deletable(obj, name):
        kind = "function" if type(obj) in (Checked, UserFunction) else type(obj).__name__
        raise ForbiddenError(
            f"`del` of `.{name}` of a {kind} is not available in gradtrace: only what a "
            "program set on its own objects, a Function's ctx, or a Module (parameters, "
            "buffers, submodules) can be deleted; for a gradient write `x.grad = None`",
            node,
        )
    delattr(obj, name)


def set_item(self: Interpreter, obj: Any, index: Any, value: Any, node: ast.AST) -> None:
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
    if isinstance(obj, np.ndarray):
        # No growth: the value is broadcast into what is there. numpy reads the index and
        # the value from C: a program object in either would have its code run there.
        arrays.plain_index(index)
        obj[index] = arrays.operand("item assignment", value)
        return
    if type(obj) is ModuleTable:
        obj[index] = value
        return
    if type(obj) is plots.Settings:  # plt.rcParams[...] = ...: checked, kept nowhere
        obj[index] = value
        return
    if isinstance(obj, (list, dict)):
        _check_key(index)
        if isinstance(index, slice) and isinstance(obj, list):
            # `x[a:b] = it`: C reads it to its end, an iterator through a cap (a
            # tensor's rows bounded).
            value = bounded_iterable(value)
            if isinstance(value, (list, tuple)):  # `a[0:0] = a` doubles it: checked first
                total = len(obj) - len(range(*index.indices(len(obj)))) + len(value)
                if total > self.limits.sequence_items:
                    raise LimitError(
                        f"a list of {total:,} items is over the limit "
                        f"({self.limits.sequence_items:,})",
                        node,
                    )
        obj[index] = value
        if isinstance(obj, dict) or isinstance(index, slice):
            self.check_size(obj)
        return
    raise TypeError(f"'{type(obj).__name__}' object does not support item assignment")


def expr_Attribute(self: Interpreter, node: ast.Attribute, fc: _FunctionContext) -> Closure:
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


def get_attr(self: Interpreter, obj: Any, name: str, node: ast.AST | None) -> Any:
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
    if type(obj) is Checked:
        cls = obj.wrapped_class()
        if cls is not None:
            obj = cls  # a class as the program holds it: its attributes are the class's
        elif name == "__name__":  # `torch.relu.__name__`, `x.add.__name__`: plain text
            return obj.name
    if name == "_modules" and isinstance(obj, nn.Module) and is_program_object(obj):
        return ModuleTable(obj)
    value = self.read_attr(obj, name, node)
    if name == "__class__":  # as type(obj) answers
        return self.as_program_holds(value)
    if _unchecked(value):
        if isinstance(obj, type) and class_method_allowed(obj, name):
            return Checked(value, Unbound(obj), name)
        return Checked(value, obj, name)
    return value


def read_attr(self: Interpreter, obj: Any, name: str, node: ast.AST | None) -> Any:
    """The real `obj.name` once the allowlist admits it (not for Namespace, super())."""
    if attribute_allowed(obj, name) or (isinstance(obj, type) and class_method_allowed(obj, name)):
        try:
            value = getattr(obj, name)
        except AttributeError as exc:
            locate(exc, node)
            raise
        if name == "args" and isinstance(obj, BaseException):
            _refuse_foreign_callables(value, node)
        elif name == "metadata" and isinstance(obj, torch.autograd.graph.Node):
            self.made.held_by_torch(value)  # emptied when the job ends
        return value
    if isinstance(obj, type):
        type_name = obj.__name__
    elif type(obj) is Checked:  # a function or method as the program holds it
        type_name = "builtin_function_or_method"
    else:
        type_name = type(obj).__name__
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
    try:
        raise missing
    finally:
        del missing  # this frame, in the traceback, would hold the exception: a cycle


def _refuse_foreign_callables(args: Any, node: ast.AST | None) -> None:
    """An exception raised inside numpy or torch may carry what raised it: numpy's ufunc
    errors hold the ufunc itself in .args (np.subtract, callable on any arrays with no
    size rule). A program reads .args of such an exception only without them."""
    stack = [(args, 0)]
    budget = 1_000
    while stack and budget:
        value, depth = stack.pop()
        budget -= 1
        if type(value) in (tuple, list) and depth < 3:
            stack.extend((item, depth + 1) for item in value)
        elif _unchecked(value):
            raise ForbiddenError(
                f"this exception's .args hold {type(value).__name__} {scrub(repr(value))[:60]}, "
                "which a program cannot hold: print the exception instead",
                node,
            )


def missing_member(
    self: Interpreter, ns: Namespace, name: str, node: ast.AST | None
) -> ProgramError | AttributeError:
    if ns.module is not None and hasattr(ns.module, name):
        return ForbiddenError(
            f"`{ns.name}.{name}` is not available in gradtrace programs",
            node,
            hint=refusal_hint(name, ns.members, f"members of {ns.name}"),
        )
    close = difflib.get_close_matches(name, sorted(ns.members), n=1)
    missing = AttributeError(f"module '{ns.name}' has no attribute '{name}'")
    if close:  # in the hint, as CPython puts it in the traceback only
        missing.gradtrace_hint = f"did you mean `{ns.name}.{close[0]}`?"  # type: ignore[attr-defined]
    return missing


def super_attr(self: Interpreter, proxy: SuperProxy, name: str, node: ast.AST | None) -> Any:
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


def expr_Subscript(self: Interpreter, node: ast.Subscript, fc: _FunctionContext) -> Closure:
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
        elif isinstance(idx, tuple):
            _check_key(idx)
        elif isinstance(obj, nn.Module):
            _check_module_key(obj, idx)
        elif isinstance(obj, np.ndarray) and not isinstance(idx, int):
            arrays.check_index(obj, arrays.plain_index(idx))
        try:
            result = obj[idx]
        except BaseException as exc:
            locate(exc, node)
            if isinstance(exc, IndexError) and isinstance(obj, Tensor) and obj.dim() == 0:
                exc.gradtrace_hint = "`loss.data[0]` became `loss.item()`"  # type: ignore[attr-defined]
            raise
        if isinstance(result, Tensor):
            if rec.active:
                rec.result(result, node, label, (obj, idx) if isinstance(idx, Tensor) else (obj,))
        elif type(result) is tuple and not isinstance(obj, (tuple, list)):
            interp.check_sizes(result)  # a TensorDataset's rows, indexed by a tensor
        elif isinstance(obj, (list, str, tuple)) and isinstance(idx, slice):
            interp.check_size(result)
        return result

    return subscript


def expr_Slice(self: Interpreter, node: ast.Slice, fc: _FunctionContext) -> Closure:
    lower = self.compile_expr(node.lower, fc) if node.lower else None
    upper = self.compile_expr(node.upper, fc) if node.upper else None
    step = self.compile_expr(node.step, fc) if node.step else None
    return lambda scope: slice(
        lower(scope) if lower else None,
        upper(scope) if upper else None,
        step(scope) if step else None,
    )
