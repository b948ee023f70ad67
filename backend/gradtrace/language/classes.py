"""`class` in its two admitted forms, built as real torch classes behind the scenes.

A subclass of `torch.autograd.Function` becomes a real Function subclass (so torch makes
its `MyReLUBackward` node); a subclass of `nn.Module` becomes a real Module subclass (so
`parameters()`, `zero_grad()` and printing work as in torch). Their methods stay our
closures: the real class holds small Python wrappers that hand each call back to the
evaluator.
"""

from __future__ import annotations

import ast
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import torch
from torch import nn

from gradtrace.language.errors import ForbiddenError
from gradtrace.language.values import UserFunction

if TYPE_CHECKING:
    from gradtrace.language.interpreter import Interpreter, Scope

_OWNERS: weakref.WeakKeyDictionary[UserFunction, type] = weakref.WeakKeyDictionary()

_FUNCTION_STATICS = frozenset({"forward", "backward", "setup_context", "jvp", "vjp"})


def owner_class(func: UserFunction) -> type | None:
    return _OWNERS.get(func)


def build_class(
    interp: Interpreter,
    node: ast.ClassDef,
    bases: list[Any],
    methods: list[
        tuple[ast.FunctionDef, Callable[[Scope], UserFunction], list[Callable[[Scope], Any]]]
    ],
    attributes: list[tuple[str, Callable[[Scope], Any]]],
    scope: Scope,
) -> type:
    if len(bases) != 1 or not isinstance(bases[0], type):
        raise ForbiddenError(
            "a class must have one base: torch.autograd.Function or nn.Module "
            "(or a class of yours built on them)",
            node,
        )
    base = bases[0]
    is_function = issubclass(base, torch.autograd.Function)
    if not is_function and not issubclass(base, nn.Module):
        raise ForbiddenError("classes may only subclass torch.autograd.Function or nn.Module", node)
    members: dict[str, Any] = {
        "__module__": "__main__",
        "__qualname__": node.name,
    }
    functions: list[UserFunction] = []
    names: set[str] = set()
    for fdef, make, decorators in methods:
        fn = make(scope)
        functions.append(fn)
        names.add(fdef.name)
        static = False
        for deco in (d(scope) for d in decorators):
            if deco is staticmethod:
                static = True
            else:
                raise ForbiddenError("methods may only be decorated with @staticmethod", fdef)
        if is_function and fdef.name in _FUNCTION_STATICS:
            members[fdef.name] = staticmethod(_autograd_step(interp, fn, fdef.name))
        elif static:
            members[fdef.name] = staticmethod(_plain(interp, fn))
        else:
            members[fdef.name] = _method(interp, fn)
    for name, value in attributes:
        members[name] = value(scope)
        names.add(name)
    members["gradtrace_members"] = frozenset(names)
    cls = type(node.name, (base,), members)
    for fn in functions:
        _OWNERS[fn] = cls
    return cls


def _autograd_step(interp: Interpreter, fn: UserFunction, name: str) -> Callable[..., Any]:
    """forward/backward of a user Function: run by torch, not recorded op by op.

    The Function is one node of the graph (`MyReLUBackward`), as torch sees it; what its
    own forward and backward compute inside is its business, as for torch's own ops.
    """

    def step(*args: Any, **kwargs: Any) -> Any:
        with interp.rec.suspended():
            return interp.call_user(fn, args, kwargs)

    step.__name__ = name
    step.__qualname__ = fn.qualname
    return step


def _plain(interp: Interpreter, fn: UserFunction) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        return interp.call_user(fn, args, kwargs)

    call.__name__ = fn.name
    call.__qualname__ = fn.qualname
    return call


def _method(interp: Interpreter, fn: UserFunction) -> Callable[..., Any]:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        return interp.call_user(fn, (self, *args), kwargs)

    method.__name__ = fn.name
    method.__qualname__ = fn.qualname
    return method
