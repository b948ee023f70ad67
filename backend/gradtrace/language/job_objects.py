"""The program's functions and classes a job made, cut loose from the job when it ends.

torch keeps some of them from C++ (a tensor's or a Node's hook, a Function's class in
the graph's nodes), where the cyclic GC cannot follow: a function that still held its
body (closures over the interpreter and the recorder) and its scope (the program's
tensors) would keep the whole job alive for good. Others sit in cycles the GC could
free, but only at its next collection: a function defined inside a function is held by
the scope it holds, a class by its own `__mro__`. When the job ends each one is emptied,
so what is left of it holds nothing of the job, and the job is freed by reference
counting when it returns.

Only weak references are kept, so a function the program dropped is freed as before.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from torch.utils.hooks import RemovableHandle

from gradtrace.language.values import Parameters, UserFunction

if TYPE_CHECKING:
    from gradtrace.language.generators import ProgramGenerator
    from gradtrace.language.runtime import Scope

_NO_PARAMETERS = Parameters([], [], None, [], {}, None)


def _ended(scope: Scope) -> Any:
    raise RuntimeError("program code cannot run once the program has ended")


class JobObjects:
    __slots__ = ("classes", "containers", "functions", "generators", "handles", "kept")

    def __init__(self) -> None:
        self.functions: list[weakref.ref[UserFunction]] = []
        self.classes: list[weakref.ref[type]] = []
        # The generators its generator functions returned: each holds the interpreter and,
        # suspended, its frames hold the generator's locals.
        self.generators: list[weakref.ref[ProgramGenerator]] = []
        # The handles of the hooks the program registered: any callable may be a hook (a
        # generator's send, `print`, a list's append), and one that leads back to its
        # tensor or Node is a cycle through C++, so each is removed when the job ends.
        self.handles: list[RemovableHandle] = []
        # Containers of the program that torch holds from C++ (a Node's `metadata`, what
        # a pack hook returned): the program may put anything in them later, the tensor
        # that holds them too, so their lists and dicts are emptied when the job ends.
        self.containers: list[Any] = []
        # How many live references the lists held when last pruned: a program that makes
        # a lambda (or a generator) per loop step keeps them as long as what is alive.
        self.kept = 1024

    def prune(self) -> None:
        """Drop the references to functions and generators already freed (called every
        256 steps)."""
        if max(len(self.functions), len(self.generators)) > 2 * self.kept:
            _drop_dead(self.functions)  # in place: `def` and each generator call append
            _drop_dead(self.generators)
            self.kept = max(1024, len(self.functions), len(self.generators))

    def registered(self, result: Any) -> None:
        """Keep `result` if it is a hook's handle (whatever call returned it)."""
        if type(result) is RemovableHandle:
            self.handles.append(result)

    def held_by_torch(self, value: Any) -> None:
        self.containers.append(value)

    def made_class(self, cls: type) -> None:
        self.classes.append(weakref.ref(cls))

    def cut(self, empty_scope: Scope) -> None:
        """Remove the job's hooks, empty every function and class of it still alive."""
        for handle in self.handles:
            handle.remove()
        self.handles.clear()
        _empty(self.containers)
        for ref in self.functions:
            fn = ref()
            if fn is None:
                continue
            scope: Scope | None = fn.scope
            while scope is not None:
                scope.vars.clear()  # locals a closure kept: the program's tensors
                scope.ret = None
                scope = scope.parent
            fn.scope = empty_scope
            fn.body = _ended
            fn.params = _NO_PARAMETERS  # defaults may be tensors
        for generator_ref in self.generators:
            generator = generator_ref()
            if generator is not None:
                generator.end()
        self.generators.clear()
        for cls_ref in self.classes:
            cls = cls_ref()
            if cls is None:
                continue
            # Its methods hold the program's functions (emptied above); its attributes
            # may be the program's values, a dataclass's fields their factories.
            own = cls.__dict__
            for name in (*own.get("gradtrace_members", ()), "gradtrace_fields"):
                if name in own:
                    delattr(cls, name)
        self.functions.clear()
        self.classes.clear()


def _drop_dead(refs: list[Any]) -> None:
    refs[:] = [ref for ref in refs if ref() is not None]


def _empty(values: list[Any]) -> None:
    """Empty every list and dict in `values`, and in the tuples, lists and dicts they hold."""
    seen: set[int] = set()
    stack = list(values)
    values.clear()
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind not in (list, tuple, dict) or id(value) in seen:
            continue
        seen.add(id(value))
        if kind is dict:
            stack.extend(value.values())
            value.clear()
        else:
            stack.extend(value)
            if kind is list:
                value.clear()
