"""tqdm for programs: `for batch in tqdm(loader):`, `trange(epochs)`, a bar's
`set_description`, `set_postfix` and `update`, and `tqdm.write`.

tqdm draws its bar on stderr, which a trace does not show (the program's output is what
it prints to stdout), so the bar here draws nothing: it iterates what it wraps, counts,
and keeps its description. `tqdm.write` prints, as tqdm's does, to
stdout. Nothing of tqdm itself is imported: its monitor thread and its terminal probing
have no place in a job.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import TracebackType
from typing import Any

from gradtrace.language import callables
from gradtrace.language.pymodules import bounded_iterable

# tqdm's options that only change how the bar looks or how often it redraws.
_DISPLAY = frozenset(
    """
leave ncols mininterval maxinterval miniters ascii disable unit unit_scale dynamic_ncols
smoothing bar_format initial position postfix unit_divisor colour delay nrows lock_args
""".split()
)


class tqdm:
    """A progress bar that draws nothing (tqdm's goes to stderr): it iterates `iterable`
    and counts."""

    def __init__(
        self, iterable: Any = None, desc: Any = None, total: Any = None, **options: Any
    ) -> None:
        unknown = set(options) - _DISPLAY
        if "file" in options and options["file"] is not None:
            raise TypeError("tqdm(file=...): the bar draws nothing here, to any file")
        unknown.discard("file")
        if unknown:
            raise TypeError(f"tqdm() got an unexpected keyword argument {sorted(unknown)[0]!r}")
        self.iterable = iterable
        self.desc = _text(desc)
        self.total = total
        self.n = int(options.get("initial") or 0)

    def __iter__(self) -> Iterator[Any]:
        if self.iterable is None:
            raise TypeError("'tqdm' object is not iterable: give it an iterable")
        # As a for loop over it would be: a tensor's rows and an iterator's items capped.
        for item in bounded_iterable(self.iterable):
            yield item
            self.n += 1

    def __len__(self) -> int:
        if self.total is not None:
            return int(self.total)
        if self.iterable is None:
            raise TypeError("object of type 'tqdm' has no len()")
        return len(self.iterable)

    def __enter__(self) -> tqdm:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def update(self, n: Any = 1) -> None:
        if type(n) not in (int, float):
            raise TypeError("tqdm.update(n) takes a number")
        self.n += n

    def set_description(self, desc: Any = None, refresh: Any = True) -> None:
        self.desc = "" if desc is None else f"{_text(desc)}: "

    def set_description_str(self, desc: Any = None, refresh: Any = True) -> None:
        self.desc = _text(desc)

    def set_postfix(self, ordered_dict: Any = None, refresh: Any = True, **kwargs: Any) -> None:
        """Shown after the bar: there is none, so nothing is formatted or kept."""

    def set_postfix_str(self, s: Any = "", refresh: Any = True) -> None:
        """Shown after the bar: there is none."""

    def reset(self, total: Any = None) -> None:
        self.n = 0
        if total is not None:
            self.total = total

    def refresh(self) -> None:
        """Redraws the bar: there is none."""

    def clear(self) -> None:
        """Clears the bar: there is none."""

    def close(self) -> None:
        """Closes the bar: there is none."""

    @staticmethod
    def write(s: Any, file: Any = None, end: Any = "\n", nolock: Any = False) -> None:
        """Prints `s`, as tqdm.write does (to stdout, between redraws of the bars)."""
        if file is not None:
            raise TypeError("tqdm.write(file=...): programs print to stdout")
        callables.current().builtin_print(s, end=end)

    def __repr__(self) -> str:
        total = "?" if self.total is None and self.iterable is None else len(self)
        return f"{self.desc}{self.n}/{total}"


def _text(desc: Any) -> str:
    """A bar's description: text or a number (Python's str of any other object would
    be built whole, past the string limit)."""
    if desc is None:
        return ""
    if type(desc) not in (str, int, float, bool):
        raise TypeError("a bar's description is text (or a number)")
    return str(desc)


def trange(*args: Any, **options: Any) -> tqdm:
    """tqdm(range(*args), **options)."""
    return tqdm(range(*args), **options)


tqdm.__module__ = trange.__module__ = "tqdm"

#: What a program may read on a bar.
ATTRIBUTES = frozenset(
    """
update set_description set_description_str set_postfix set_postfix_str reset refresh clear
close write n total desc iterable
""".split()
)

MEMBERS: dict[str, Any] = {"tqdm": tqdm, "trange": trange}
