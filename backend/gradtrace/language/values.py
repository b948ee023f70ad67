"""The objects of our own that a program can hold: namespaces, functions, super()."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gradtrace.language import callables

if TYPE_CHECKING:
    from gradtrace.language.runtime import Scope


class Namespace:
    """A safe stand-in for a module: only the members of its table exist."""

    __slots__ = ("members", "module", "name", "shown")

    def __init__(
        self, name: str, members: dict[str, Any], module: object = None, shown: str | None = None
    ) -> None:
        self.name = name
        self.members = members
        # The real module, consulted only to tell "forbidden" from "does not exist".
        self.module = module
        # How it prints, where it stands for an object rather than a module.
        self.shown = shown

    def __repr__(self) -> str:
        return self.shown or f"<module '{self.name}'>"


class Parameters:
    """The parameter list of a user function, in the shape `ast.arguments` has."""

    __slots__ = ("defaults", "kwarg", "kwonly", "kwonly_defaults", "names", "simple", "vararg")

    def __init__(
        self,
        names: list[str],
        defaults: list[Any],
        vararg: str | None,
        kwonly: list[str],
        kwonly_defaults: dict[str, Any],
        kwarg: str | None,
    ) -> None:
        self.names = names
        self.defaults = defaults
        self.vararg = vararg
        self.kwonly = kwonly
        self.kwonly_defaults = kwonly_defaults
        self.kwarg = kwarg
        self.simple = not defaults and vararg is None and not kwonly and kwarg is None

    def bind(self, fname: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        names = self.names
        if self.simple and not kwargs and len(args) == len(names):
            return dict(zip(names, args))
        bound: dict[str, Any] = {}
        n = len(names)
        if len(args) > n and self.vararg is None:
            raise TypeError(
                f"{fname}() takes {n} positional argument{'s' if n != 1 else ''} "
                f"but {len(args)} were given"
            )
        for name, value in zip(names, args):
            bound[name] = value
        if self.vararg is not None:
            bound[self.vararg] = tuple(args[n:])
        extra: dict[str, Any] = {}
        for key, value in kwargs.items():
            if key in bound:
                raise TypeError(f"{fname}() got multiple values for argument '{key}'")
            if key in names or key in self.kwonly:
                bound[key] = value
            elif self.kwarg is not None:
                extra[key] = value
            else:
                raise TypeError(f"{fname}() got an unexpected keyword argument '{key}'")
        first_default = n - len(self.defaults)
        missing = []
        for i, name in enumerate(names):
            if name not in bound:
                if i >= first_default:
                    bound[name] = self.defaults[i - first_default]
                else:
                    missing.append(name)
        for name in self.kwonly:
            if name not in bound:
                if name in self.kwonly_defaults:
                    bound[name] = self.kwonly_defaults[name]
                else:
                    missing.append(name)
        if missing:
            listed = " and ".join(repr(m) for m in missing)
            raise TypeError(
                f"{fname}() missing {len(missing)} required argument{'s' if len(missing) > 1 else ''}: {listed}"
            )
        if self.kwarg is not None:
            bound[self.kwarg] = extra
        return bound


class UserFunction:
    """A `def` or `lambda` of the program: our closure, run by our evaluator.

    It holds no interpreter: torch may keep it (a hook, a Function's step) from C++,
    where the cyclic GC cannot follow, so the interpreter cuts its body and scope when
    the job ends (Interpreter.close) and it runs only inside a running job.
    """

    __slots__ = ("__weakref__", "body", "generator", "name", "params", "qualname", "scope")

    def __init__(
        self,
        name: str,
        qualname: str,
        params: Parameters,
        body: Callable[[Scope], Any],
        scope: Scope,
        generator: bool = False,
    ) -> None:
        self.name = name
        self.qualname = qualname
        self.params = params
        self.body = body
        self.scope = scope
        # Its body yields: a call returns a ProgramGenerator (generators.py).
        self.generator = generator

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return callables.current().call_user(self, args, kwargs)

    def __repr__(self) -> str:
        return f"<function {self.qualname} at 0x…>"  # no address: the heap is not shown


class SuperProxy:
    """What `super()` gives inside a method: only `__init__` and inherited user methods."""

    __slots__ = ("cls", "obj")

    def __init__(self, cls: type, obj: object) -> None:
        self.cls = cls
        self.obj = obj

    def __repr__(self) -> str:
        return f"<super: <class '{self.cls.__name__}'>, <{type(self.obj).__name__} object>>"


class ModuleTable:
    """`self._modules` of one of the program's Modules, as d2l's MySequential writes it:
    a view of torch's table that takes only what `add_module` takes (a Module or None
    under a string name), so nothing else ends up where torch looks for layers."""

    __slots__ = ("_module",)

    def __init__(self, module: Any) -> None:
        self._module = module

    def __getitem__(self, key: str) -> Any:
        return self._module._modules[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self._module.add_module(key, value)

    def __delitem__(self, key: str) -> None:
        del self._module._modules[key]

    def __contains__(self, key: object) -> bool:
        return key in self._module._modules

    def __iter__(self) -> Any:
        return iter(list(self._module._modules))

    def __len__(self) -> int:
        return len(self._module._modules)

    def __repr__(self) -> str:
        return repr(self._module._modules)

    def keys(self) -> Any:
        return self._module._modules.keys()

    def values(self) -> Any:
        return self._module._modules.values()

    def items(self) -> Any:
        return self._module._modules.items()

    def get(self, key: str, default: Any = None) -> Any:
        return self._module._modules.get(key, default)
