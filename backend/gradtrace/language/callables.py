"""Checked callables: the only form in which a program holds a real Python or torch callable.

A program that reads `x.add`, `"".format`, `torch.zeros` or `len` as a value gets a
`Checked`: it remembers what was read (the real function, or the owner and the method
name) and exposes nothing of the real callable. Calling it, from the program or from
inside Python or torch (a `map`, a `sorted(key=)`, a hook, `Module.apply`), goes through
the interpreter's one call path, whose checks are keyed on the callee, never on how the
call was written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from gradtrace.language import legacy_vmap

if TYPE_CHECKING:
    from gradtrace.language.interpreter import Interpreter

# The interpreter of the job running in this process (one job at a time per process);
# a Checked called from inside torch finds its interpreter here.
_current: list[Interpreter] = []


def enter(interp: Interpreter) -> None:
    _current.append(interp)


def leave(interp: Interpreter) -> None:
    if _current and _current[-1] is interp:
        _current.pop()


def current() -> Interpreter:
    if not _current:
        raise RuntimeError("program code cannot run once the program has ended")
    return _current[-1]


class Unbound:
    """The owner of a method read off a class (`str.upper`, `torch.Tensor.add`)."""

    __slots__ = ("cls",)

    def __init__(self, cls: type) -> None:
        self.cls = cls


class Checked:
    """A callable a program holds: a function (`owner` None) or `owner.name`.

    `fn` is the real callable, used only by the interpreter's call path.
    """

    __slots__ = ("fn", "name", "owner")

    def __init__(self, fn: Any, owner: Any, name: str) -> None:
        self.fn = fn
        self.owner = owner
        self.name = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if legacy_vmap.RUNNING:  # torch's older vmap hands it batched tensors
            legacy_vmap.refuse((args, kwargs.values()))
        interp = current()
        return interp.invoke(self, args, kwargs, interp.here, None, "")

    def __getattr__(self, name: str) -> Any:
        # Asked by torch and Python internals (hooks, a LambdaLR): plain strings. Nothing
        # else of the real callable exists here (no __self__, __func__, __globals__...).
        if name == "__name__" or name == "__qualname__":
            return self.name
        if name == "dtype":
            # numpy reads a dtype off any object's `.dtype`: the program's value of
            # np.float32 (or str), kept on a Module, is then a dtype as the class is
            # (`np.zeros(2, dtype=self.dtype)`), and is never called by numpy.
            cls = self.wrapped_class()
            if cls is not None and issubclass(cls, (str, np.generic)):
                return np.dtype(cls)
        raise AttributeError(name)

    def wrapped_class(self) -> type | None:
        """The class this is the program's value of (class_values.py), else None."""
        fn = self.fn
        return fn if self.owner is None and isinstance(fn, type) else None

    def __repr__(self) -> str:
        owner = self.owner
        if owner is None:
            cls = self.wrapped_class()
            if cls is not None:
                return repr(cls)
            return f"<built-in function {self.name}>"
        if type(owner) is Unbound:
            return f"<method '{self.name}' of '{owner.cls.__name__}' objects>"
        return f"<built-in method {self.name} of {type(owner).__name__} object at 0x…>"

    def __eq__(self, other: object) -> Any:
        # A class as the program holds it is that class (`type(x) == nn.Linear`, a
        # defaultdict's default_factory), whichever of the two is compared.
        cls = self.wrapped_class()
        if cls is not None and (
            other is cls or (type(other) is Checked and other.wrapped_class() is cls)
        ):
            return True
        return NotImplemented  # Python then compares identities

    def __hash__(self) -> int:
        cls = self.wrapped_class()
        return hash(cls) if cls is not None else object.__hash__(self)

    def __reduce__(self) -> Any:
        raise TypeError("cannot pickle a function of a program")


def same_value(a: Any, b: Any) -> bool:
    """The program's `a is b`, where its checked value of a class is that class: a class
    kept on a Module is held as its checked value (class_values.py), `np.float32` read off
    numpy is the class itself, and `self.dtype is np.float32` holds in CPython."""
    if a is b:
        return True
    if type(a) is Checked:
        a = a.wrapped_class() or a
    elif type(b) is not Checked:
        return False
    if type(b) is Checked:
        b = b.wrapped_class() or b
    return a is b
