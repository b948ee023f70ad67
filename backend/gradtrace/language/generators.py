"""Generator functions: a `def` whose body yields.

The evaluator compiles statements into closures that run to their end; a generator must
stop at each `yield` and resume later. So the statements of a generator's body that
contain a `yield` are compiled a second way, into Python generators (`yield from` down
the block, loop and `if` they sit in); every other statement is the ordinary closure.
The program receives a `ProgramGenerator`, which resumes the body one step per `next()`
and counts as a nested call while it runs (a generator resuming another is recursion).

`yield` may be a statement of its own (`yield x`, `yield from xs`, `x = yield y`, `x = yield from g`) in the
body, its `for`/`while` loops and its `if`s: what tutorials write. Inside `try`/`with`,
or within a larger expression, it is refused with what to write instead.
"""

from __future__ import annotations

import ast
import contextlib
import weakref
from collections.abc import Callable, Generator, Iterator
from typing import TYPE_CHECKING, Any, cast

import torch

from gradtrace.language.callables import Checked
from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.values import UserFunction

if TYPE_CHECKING:
    from gradtrace.language.interpreter import Interpreter
    from gradtrace.language.runtime import Scope, _FunctionContext

StepGenerator = Generator[Any, Any, Any]
GenClosure = Callable[["Scope"], StepGenerator]

_NESTED_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
GENERATOR_REFUSAL = (
    "`yield` is supported as a statement of its own (`yield x`, `yield from xs`, "
    "`x = yield y`, `x = yield from g`) in a function's body, its loops and its ifs; not inside try/with "
    "or within a larger expression: move it out"
)


def contains_yield(nodes: list[ast.stmt] | list[ast.expr] | ast.AST) -> bool:
    """Whether `nodes` yield, not counting functions and classes defined inside them."""
    stack: list[ast.AST] = list(nodes) if isinstance(nodes, list) else [nodes]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, _NESTED_SCOPES):
                stack.append(child)
    return False


class ProgramGenerator:
    """The generator a program's generator function returns."""

    __slots__ = ("__weakref__", "_interp", "_steps", "modes", "qualname")

    def __init__(self, interp: Interpreter, qualname: str, steps: StepGenerator) -> None:
        self._interp: Interpreter | None = interp
        self._steps: StepGenerator | None = steps
        self.qualname = qualname
        # The modes each resumption runs in, from `@torch.no_grad()` and the like on its
        # function (GeneratorInMode), outermost first.
        self.modes: tuple[Mode, ...] = ()

    def __iter__(self) -> ProgramGenerator:
        return self

    def __next__(self) -> Any:
        return self._resume(None)

    def send(self, value: Any) -> Any:
        return self._resume(value)

    def _resume(self, value: Any) -> Any:
        interp, steps = self._interp, self._steps
        if interp is None or steps is None:
            raise RuntimeError("program code cannot run once the program has ended")
        if interp.depth >= interp.limits.recursion_depth:
            raise LimitError(
                f"calls nested deeper than {interp.limits.recursion_depth} "
                f"(resuming {self.qualname}): do generators resume each other without end?"
            )
        interp.depth += 1
        try:
            if not self.modes:
                return steps.send(value)
            with contextlib.ExitStack() as modes:
                for mode in self.modes:
                    modes.enter_context(mode())
                return steps.send(value)
        finally:
            interp.depth -= 1

    def close(self) -> None:
        if self._steps is not None:
            self._steps.close()

    def end(self) -> None:
        """The job ended (job_objects.py): let go of its interpreter and of the suspended
        frames, which hold the generator's locals (the program's tensors)."""
        steps, self._steps, self._interp = self._steps, None, None
        if steps is not None:
            with contextlib.suppress(Exception):  # no program code runs: no yield in a try
                steps.close()

    def __repr__(self) -> str:
        return f"<generator object {self.qualname} at 0x0>"  # no heap address


Mode = Callable[[], contextlib.AbstractContextManager[Any]]
_CONTEXT_DECORATOR = torch.utils._contextlib._DecoratorContextManager
_NO_PARAMETERS = torch.utils._contextlib._NoParamDecoratorContextManager


class GeneratorInMode:
    """A generator function under torch's context decorators (`@torch.no_grad()`,
    `@torch.inference_mode()`, `@fwAD.dual_level()`...): as torch's own wrapper of one
    does, each of its generators runs every step in fresh copies of the modes, outermost
    first, and leaves the caller's as they were."""

    __slots__ = ("fn", "modes")

    def __init__(self, fn: UserFunction, modes: tuple[Mode, ...]) -> None:
        self.fn = fn
        self.modes = modes

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        generator = self.fn(*args, **kwargs)
        if isinstance(generator, ProgramGenerator):
            generator.modes = self.modes
        return generator


def generator_in_mode(decorator: Any, fn: Any) -> Checked | None:
    """What torch makes of `decorator(fn)` when `decorator` is one of its context
    decorators (an instance, or a class such as `torch.no_grad` taken bare) and `fn` the
    program's generator function, or one already in a mode: torch cannot tell the
    program's function is a generator function. None for any other call."""
    if isinstance(decorator, _CONTEXT_DECORATOR):
        mode: Mode = decorator.clone
    elif isinstance(decorator, type) and issubclass(decorator, _NO_PARAMETERS):
        mode = cast(Mode, decorator)  # the class makes a fresh one when called
    else:
        return None
    inner = fn.fn if type(fn) is Checked else fn
    if type(inner) is GeneratorInMode:
        made = GeneratorInMode(inner.fn, (mode, *inner.modes))
    elif type(inner) is UserFunction and inner.generator:
        made = GeneratorInMode(inner, (mode,))
    else:
        return None
    if not isinstance(decorator, type):
        # What torch's own decorating does besides wrapping (set_grad_enabled(False) put
        # grad mode back as it was when it was made).
        decorator(inner)
    return Checked(made, None, made.fn.name)


def compile_generator_body(
    interp: Interpreter, body: list[ast.stmt], fc: _FunctionContext, qualname: str
) -> Callable[[Scope], ProgramGenerator]:
    """The body of a generator function: each call returns a fresh ProgramGenerator."""
    from gradtrace.language.runtime import RETURN

    block = compile_block(interp, body, fc)

    def steps(scope: Scope) -> StepGenerator:
        if (yield from block(scope)) is RETURN:
            return scope.ret
        return None

    generators = interp.made.generators  # pruned in place by the interpreter's tick

    def start(scope: Scope) -> ProgramGenerator:
        generator = ProgramGenerator(interp, qualname, steps(scope))
        generators.append(weakref.ref(generator))  # ended with the job (job_objects.py)
        return generator

    return start


def compile_block(interp: Interpreter, stmts: list[ast.stmt], fc: _FunctionContext) -> GenClosure:
    parts: list[tuple[bool, Any]] = [
        (True, _compile_stmt(interp, s, fc))
        if contains_yield(s)
        else (False, interp.compile_stmt(s, fc))
        for s in stmts
    ]
    limits = interp.limits

    def block(scope: Scope) -> StepGenerator:
        for yields, stmt in parts:
            interp.steps += 1
            if interp.steps & 255 == 0 or interp.steps > limits.steps:
                interp.tick()
            r = (yield from stmt(scope)) if yields else stmt(scope)
            if r is not None:
                return r
        return None

    return block


def _compile_stmt(interp: Interpreter, node: ast.stmt, fc: _FunctionContext) -> GenClosure:
    from gradtrace.language.runtime import locate

    if isinstance(node, ast.Expr) and isinstance(node.value, (ast.Yield, ast.YieldFrom)):
        inner = _yield(interp, node.value, fc, None)
    elif (
        isinstance(node, ast.Assign)
        and isinstance(node.value, (ast.Yield, ast.YieldFrom))
        and not contains_yield(node.targets)
    ):
        inner = _yield(interp, node.value, fc, node.targets)
    elif isinstance(node, ast.If) and not contains_yield(node.test):
        inner = _if(interp, node, fc)
    elif isinstance(node, (ast.For, ast.While)) and not contains_yield(
        node.iter if isinstance(node, ast.For) else node.test
    ):
        inner = _loop(interp, node, fc)
    else:
        raise ForbiddenError(GENERATOR_REFUSAL, node)

    def located(scope: Scope) -> StepGenerator:
        try:
            return (yield from inner(scope))
        except BaseException as exc:
            locate(exc, node)
            raise

    return located


def _yield(
    interp: Interpreter,
    node: ast.Yield | ast.YieldFrom,
    fc: _FunctionContext,
    targets: list[ast.expr] | None,
) -> GenClosure:
    value = interp.compile_expr(node.value, fc) if node.value is not None else None
    stores = [interp.compile_target(t, fc, t) for t in targets or []]
    delegate = isinstance(node, ast.YieldFrom)

    def yield_(scope: Scope) -> StepGenerator:
        item = value(scope) if value is not None else None
        if delegate:
            # What a generator returns is what `x = yield from gen` binds.
            sent = yield from iter(interp.iterate(item, node))
        else:
            sent = yield item
        for store in stores:
            store(scope, sent)
        return None

    return yield_


def _if(interp: Interpreter, node: ast.If, fc: _FunctionContext) -> GenClosure:
    test = interp.compile_expr(node.test, fc)
    body = compile_block(interp, node.body, fc)
    orelse = compile_block(interp, node.orelse, fc)

    def if_(scope: Scope) -> StepGenerator:
        if interp.truth(test(scope), node.test):
            return (yield from body(scope))
        return (yield from orelse(scope))

    return if_


def _loop(interp: Interpreter, node: ast.For | ast.While, fc: _FunctionContext) -> GenClosure:
    """A loop that yields. It is not put on the recorder's loop stack: it is suspended
    while its consumer's own loops run, so it is no loop of the program's trace."""
    from gradtrace.language.runtime import BREAK, RETURN

    body = compile_block(interp, node.body, fc)
    orelse = compile_block(interp, node.orelse, fc)
    limit = interp.limits.loop_iterations
    if isinstance(node, ast.For):
        iterable = interp.compile_expr(node.iter, fc)
        target = interp.compile_target(node.target, fc, node)

        def items(scope: Scope) -> Iterator[Any]:
            for item in interp.iterate(iterable(scope), node.iter):
                target(scope, item)
                yield None

    else:
        test = interp.compile_expr(node.test, fc)

        def items(scope: Scope) -> Iterator[Any]:
            while interp.truth(test(scope), node.test):
                yield None

    def loop(scope: Scope) -> StepGenerator:
        count = 0
        for _ in items(scope):
            count += 1
            if count > limit:
                raise LimitError(f"a loop ran more than {limit:,} iterations", node)
            r = yield from body(scope)
            if r is BREAK:
                return None
            if r is RETURN:
                return r
        return (yield from orelse(scope))

    return loop


def compile_generator_expression(
    interp: Interpreter, node: ast.GeneratorExp, fc: _FunctionContext
) -> Callable[[Scope], ProgramGenerator]:
    """`(elt for x in xs if c ...)` is lazy, as in CPython: its first iterable is
    evaluated (and iterated over) when the expression runs, everything else as it is
    read. `any(x > 3 for x in itertools.count())` ends; `next(g)` reads one item."""
    from gradtrace.language.expressions import ComprehensionStep, comprehension_steps
    from gradtrace.language.runtime import Scope

    element = interp.compile_expr(node.elt, fc)
    limit = interp.limits.loop_iterations
    levels = comprehension_steps(interp, node.generators, fc)

    Level = Callable[[Scope, Iterator[Any]], StepGenerator]

    # One closure per `for`, each holding the next: none refers to itself, so no cycle
    # keeps the compiled program (and its interpreter) alive after the job.
    def level(
        step: ComprehensionStep, inner: Level | None, below: ComprehensionStep | None
    ) -> Level:
        _, target, conds, where = step

        def run(scope: Scope, iterator: Iterator[Any]) -> StepGenerator:
            count = 0
            for item in iterator:
                count += 1
                if count > limit:
                    raise LimitError(f"a comprehension ran more than {limit:,} iterations", where)
                interp.steps += 1
                if interp.steps & 255 == 0:
                    interp.tick()
                target(scope, item)
                if not conds or all(interp.truth(c(scope), where) for c in conds):
                    if inner is None or below is None:
                        yield element(scope)
                    else:
                        yield from inner(
                            scope, iter(interp.iterate(below.iterable(scope), below.where))
                        )

        return run

    run: Level | None = None
    below: ComprehensionStep | None = None
    for step in reversed(levels):
        run, below = level(step, run, below), step
    assert run is not None and below is not None
    outermost, first = run, below
    generators = interp.made.generators  # ended with the job (job_objects.py)

    def start(scope: Scope) -> ProgramGenerator:
        iterator = iter(interp.iterate(first.iterable(scope), first.where))
        generator = ProgramGenerator(
            interp, "<genexpr>", outermost(Scope({}, scope, scope.func), iterator)
        )
        generators.append(weakref.ref(generator))
        return generator

    return start
