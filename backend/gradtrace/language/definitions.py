"""Definitions: `def`, `lambda` bodies, calls of the program's own functions, `class`,
and `import` (which binds our stand-in modules, never a real one).

Each function is a method of the Interpreter (bound in interpreter.py).
"""

from __future__ import annotations

import ast
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import torch

from gradtrace.language import records
from gradtrace.language.attributes import namespace_member, refusal_hint
from gradtrace.language.bindings import bound_names, own_statements
from gradtrace.language.callables import Checked
from gradtrace.language.class_names import BodyCode, ClassBody, property_accessor
from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.expressions import IN_CLASS_BODY, walrus_context
from gradtrace.language.generators import (
    compile_generator_body,
    contains_yield,
    generator_in_mode,
)
from gradtrace.language.legacy_vmap import RUNNING as LEGACY_VMAP_RUNNING
from gradtrace.language.legacy_vmap import refuse as refuse_batched
from gradtrace.language.namespaces import IMPORT_HINTS, MODULES
from gradtrace.language.runtime import (
    _MODULE_CONTEXT,
    RETURN,
    Closure,
    Scope,
    _do_nothing,
    _FunctionContext,
    _store,
)
from gradtrace.language.seeds import seed_on_import
from gradtrace.language.values import (
    Namespace,
    Parameters,
    UserFunction,
)

if TYPE_CHECKING:
    from gradtrace.language.interpreter import Interpreter


def stmt_FunctionDef(self: Interpreter, node: ast.FunctionDef, fc: _FunctionContext) -> Closure:
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


def apply_decorator(self: Interpreter, deco: Any, fn: Any, node: ast.AST) -> Any:
    in_mode = generator_in_mode(deco, fn)
    if in_mode is not None:
        return in_mode
    if isinstance(deco, (torch.no_grad, torch.enable_grad, torch.inference_mode)):
        # torch's decorated function, handed to the program checked.
        return Checked(deco(fn), None, getattr(fn, "name", "function"))
    if deco is staticmethod:
        return fn
    # Any other decorator is a call like any other: through the one call path, and
    # what it returns reaches the program checked (functools.lru_cache, your own).
    return self.invoke(deco, (fn,), {}, node, None, "")


def compile_function(
    self: Interpreter,
    node: ast.FunctionDef | ast.Lambda,
    fc: _FunctionContext,
    owner: str | None = None,
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
        for sub in own_statements(node.body):
            if isinstance(sub, ast.Global):
                declared_globals.update(sub.names)
            elif isinstance(sub, ast.Nonlocal):
                declared_nonlocals.update(sub.names)
        own = {a.arg for a in (*args.args, *args.kwonlyargs, args.vararg, args.kwarg) if a}
        own |= bound_names(node.body)
        inner_fc = _FunctionContext(
            qualname,
            declared_globals,
            declared_nonlocals,
            frozenset(own - declared_globals - declared_nonlocals),
        )
        generator = contains_yield(node.body)
        with walrus_context(self, None):  # := in its body binds a local
            body = (
                compile_generator_body(self, node.body, inner_fc, qualname)
                if generator
                else _plain_body(self.compile_block(node.body, inner_fc))
            )

    else:
        generator = False
        # Its parameters are found in its scope; a name bound by := in it is its local.
        inner_fc = _FunctionContext(qualname, set(), set(), frozenset(bound_names([node.body])))
        with walrus_context(self, None):
            expr = self.compile_expr(node.body, inner_fc)
        rec = self.rec
        lambda_body = node.body

        def body(scope: Scope) -> Any:
            if rec.stepping:  # a lambda hook during a backward pass: its line runs
                rec.line(lambda_body)
            return expr(scope)

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
    functions = self.made.functions  # pruned in place by the interpreter's tick
    ref = weakref.ref

    def make(scope: Scope) -> UserFunction:
        params = Parameters(
            names,
            [d(scope) for d in defaults],
            vararg,
            kwonly,
            {k: d(scope) for k, d in kw_defaults.items()},
            kwarg,
        )
        fn = UserFunction(name, qualname, params, body, scope, generator)
        functions.append(ref(fn))  # emptied when the job ends (job_objects.py)
        return fn

    return make


def _plain_body(block: Closure) -> Callable[[Scope], Any]:
    def body(scope: Scope) -> Any:
        if block(scope) is RETURN:
            return scope.ret
        return None

    return body


def call_user(
    self: Interpreter, fn: UserFunction, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Any:
    if LEGACY_VMAP_RUNNING:  # torch's older vmap calls it (a hook) with batched tensors
        refuse_batched((args, kwargs.values()))
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


def stmt_ClassDef(self: Interpreter, node: ast.ClassDef, fc: _FunctionContext) -> Closure:
    from gradtrace.language.classes import build_class, class_decorator, compile_base

    bases = [compile_base(self, b, fc) for b in node.bases]
    decorators = [self.compile_expr(d, fc) for d in node.decorator_list]
    with walrus_context(self, IN_CLASS_BODY):
        code = _compile_class_body(self, node, fc)
    target = self.compile_target(ast.Name(id=node.name, ctx=ast.Store()), fc, node)
    interp = self

    def define(scope: Scope) -> None:
        base_values = [b(scope) for b in bases]
        options = [class_decorator(d(scope), node) for d in decorators]
        fields = [
            (name, value(scope) if value else records.NO_DEFAULT) for name, value in code.annotated
        ]
        cls = build_class(interp, node, base_values, code, scope, fields, options)
        target(scope, cls)

    return define


def _compile_class_body(self: Interpreter, node: ast.ClassDef, fc: _FunctionContext) -> BodyCode:
    """A class body's methods (with their decorators), attributes and annotated names, and
    the order build_class runs them in."""
    code = BodyCode([], [], [], [])
    body = ClassBody(node.body)
    for item in node.body:
        if isinstance(item, ast.FunctionDef):
            accessor = property_accessor(item, body)
            # Evaluated as the methods are made, before the class's namespace is.
            decorators = [] if accessor else item.decorator_list
            evaluated = [*decorators, *item.args.defaults, *item.args.kw_defaults]
            if any(body.reads(e, item) for e in evaluated if e is not None):
                raise ForbiddenError(
                    f"a decorator or default of `{item.name}` reads a name of the class "
                    "body: give that value a name outside the class",
                    item,
                )
            make = self.compile_function(item, fc, owner=node.name)
            decos = [self.compile_expr(d, fc) for d in decorators]
            if accessor:
                code.accessors[len(code.methods)] = accessor
            body.method(item, len(code.methods))
            code.methods.append((item, make, decos))
        elif isinstance(item, ast.Assign) and all(isinstance(t, ast.Name) for t in item.targets):
            # Read from the class's namespace, as it is built in build_class.
            self.class_reads.update(body.reads(item.value, item))
            names = [t.id for t in item.targets]  # type: ignore[attr-defined]
            body.assign(names, len(code.assignments))
            code.assignments.append((names, self.compile_expr(item.value, fc)))
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            # `x: int` or `x: int = 0`: a field of a @dataclass, else a class attribute.
            # Its default is evaluated before the class is built: it reads no name of it.
            if item.value is not None and body.reads(item.value, item):
                raise ForbiddenError(
                    f"the default of `{item.target.id}` reads a name of the class body: "
                    "write it as a plain class attribute (`name = value`)",
                    item,
                )
            default = self.compile_expr(item.value, fc) if item.value else None
            body.annotated(item.target.id, default is not None, len(code.annotated))
            code.annotated.append((item.target.id, default))
        elif isinstance(item, ast.Pass) or (
            isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant)
        ):
            continue
        else:
            raise ForbiddenError(
                "a class body may hold only methods and simple class attributes", item
            )
    code.order = body.order
    return code


def _refused_when_run(refusal: ForbiddenError, fc: _FunctionContext) -> Closure:
    """A refused import inside a function's body fails when that line runs, as CPython's
    ImportError does (nanoGPT's `from_pretrained` imports transformers, and is never called
    on a small run); at the module's level it is refused before anything runs."""
    if fc is _MODULE_CONTEXT:
        raise refusal
    message, node, hint = refusal.message, refusal.node, refusal.hint

    def refuse(scope: Scope) -> None:
        raise ForbiddenError(message, node, hint=hint)

    return refuse


def stmt_Import(self: Interpreter, node: ast.Import, fc: _FunctionContext) -> Closure:
    try:
        return _compile_import(self, node, fc)
    except ForbiddenError as refusal:
        return _refused_when_run(refusal, fc)


def _compile_import(self: Interpreter, node: ast.Import, fc: _FunctionContext) -> Closure:
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


def stmt_ImportFrom(self: Interpreter, node: ast.ImportFrom, fc: _FunctionContext) -> Closure:
    try:
        return _compile_import_from(self, node, fc)
    except ForbiddenError as refusal:
        return _refused_when_run(refusal, fc)


def _compile_import_from(self: Interpreter, node: ast.ImportFrom, fc: _FunctionContext) -> Closure:
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
        bindings.append((self.compile_target(_store(alias.asname or alias.name), fc, node), value))

    def import_from(scope: Scope) -> None:
        for target, value in bindings:
            target(scope, value)

    return import_from


def find_module(self: Interpreter, name: str, node: ast.AST) -> Namespace:
    module = MODULES.get(name)
    if module is not None:
        seed_on_import(name)
        return module
    hint = IMPORT_HINTS.get(name) or IMPORT_HINTS.get(name.split(".")[0])
    raise ForbiddenError(
        f"import of '{name}' is not allowed: programs may import torch (and its nn, "
        "optim, autograd, utils.data), math, random, itertools, functools, collections, "
        "operator, string, typing, dataclasses, time, copy, warnings, argparse, inspect "
        "(signature), tqdm, numpy and matplotlib.pyplot",
        node,
        hint=hint,
    )
