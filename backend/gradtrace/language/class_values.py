"""Classes as callables: what a program hands Python's or torch's code to call.

A class is a callable like any other. Called by the program, it goes through the call
path's checks (`torch.Tensor(n)` is sized and zeroed, `list(it)` reads at most the item
limit, `nn.Linear(a, b)` is sized first). Handed to code that calls it in C or in torch
(`map(torch.Tensor, sizes)`, `sorted(xs, key=np.ndarray)`, `defaultdict(list)`,
`functools.partial(nn.Linear, n)`, a scheduler's `lr_lambda`), it would be called with
none of them: uninitialised memory, sizes never checked, an endless iterator read in C
past the alarm. So every class among a call's arguments, except the few whose calls need
no check, reaches that code as the program's checked value for it (a Checked, whose call
comes back through the call path). Python's containers are that value in the program
too (`list`, `type([])`, `x.__class__`), so `type(x) is list` holds as in CPython.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from gradtrace.identity import identity
from gradtrace.language.callables import Checked
from gradtrace.language.classes import ProgramObject, is_program_class

if TYPE_CHECKING:
    from gradtrace.language.interpreter import Interpreter

# Classes whose calls are safe wherever they are made: numbers, ranges, exceptions. Not
# str (str() of a container writes all of it) nor numpy's scalar types (np.float64 of a
# nested list makes an array of it), whose calls the call path bounds; read as dtypes
# (`dtype=np.float32`, `a.astype(str)`), they are left as they are (classes_checked,
# method_calls.call_method).
_UNCHECKED_BASES = (int, float, complex, range, slice, type(None), BaseException)
_DTYPES = (str, np.generic)
# Python's containers: the program's own names for them are their checked values.
CONTAINERS = frozenset({list, tuple, dict, set, frozenset})


def needs_checking(cls: type) -> bool:
    """Whether calling `cls` needs the call path's checks: anything but the classes above
    and the program's own plain classes (whose constructors are its own code)."""
    if issubclass(cls, _DTYPES):  # before the numbers: np.float64 is a float
        return True
    if issubclass(cls, _UNCHECKED_BASES) or cls is object:
        return False
    return not (issubclass(cls, ProgramObject) and is_program_class(cls))


def class_value(self: Interpreter, cls: type) -> Checked:
    """The program's checked value for `cls`: one per class in a job, so that two reads
    of it are the same object."""
    key = identity(cls)
    value = self.class_values.get(key)
    if value is None:
        value = self.class_values[key] = Checked(cls, None, cls.__name__)
    return value


def as_program_holds(self: Interpreter, cls: Any) -> Any:
    """What the program receives for a class it asked for (`type(x)`, `x.__class__`):
    Python's containers as their checked values, as the program's names for them are."""
    if cls in CONTAINERS:
        return self.class_value(cls)
    return cls


def classes_checked(
    self: Interpreter, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """A call's arguments as the code it calls may receive them: each class that needs
    checking as its checked value (only the arguments themselves: what is inside a
    container is the program's own data, read as such)."""
    for arg in args:
        if isinstance(arg, type) and needs_checking(arg):
            args = tuple(checked(self, a) for a in args)
            break
    if kwargs:
        for value in kwargs.values():
            if isinstance(value, type) and needs_checking(value):
                kwargs = {k: _checked_keyword(self, k, v) for k, v in kwargs.items()}
                break
    return args, kwargs


def _checked_keyword(self: Interpreter, key: str, value: Any) -> Any:
    if key == "dtype" and isinstance(value, type) and issubclass(value, _DTYPES):
        return value  # np.random.randint(..., dtype=np.int64) reads it as a dtype
    return checked(self, value)


def checked(self: Interpreter, value: Any) -> Any:
    """`value` as torch may call it: a class that needs checking as its checked value.
    Also what a Module keeps as an attribute, in its class or in itself (`forward =
    nn.Linear` in a class body, `self.activation = torch.Tensor`): torch calls its
    `forward` (and a layer's `activation`) with whatever the program passes."""
    if isinstance(value, type) and needs_checking(value):
        return self.class_value(value)
    return value


def items_checked(self: Interpreter, value: Any) -> Any:
    """A list or tuple of functions torch will call (LambdaLR's, one per parameter
    group), each class in it as its checked value."""
    if type(value) is list or type(value) is tuple:
        return type(value)(checked(self, item) for item in value)
    return value
