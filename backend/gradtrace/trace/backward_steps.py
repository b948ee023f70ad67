"""What a backward pass does beyond moving gradients, as timeline events.

- The Function the engine is in: torch says, while the program's code runs in it (a hook,
  a custom backward). Where the pass raised: a Node entered and never left, where the
  recorder gives Nodes a pre-hook that pushes it onto `in_flight` (its post-hook pops it);
  elsewhere found from the graph (passes.py's `_unfinished`). Its `error` event carries
  torch's own message (or the program's, raised in a custom backward or a hook).
- The program's own lines the engine runs (a tensor or module hook, a custom Function's
  `backward`): one `line` event per statement, at most `LINES_PER_PASS` per pass.
- At the end of a pass run without retain_graph, the Nodes whose saved tensors torch
  freed, as one `freed` event. Asked of torch itself: a Node whose saved tensors held
  their values as the pass began and hold none after it was freed (torch's SavedTensor
  says so without raising); any other is read, and reading a freed saved tensor raises
  (that costs ~25 us of C++ error and backtrace a Node, more than the rest of its
  recording). A custom Function counts when it saved tensors: torch refuses
  `ctx.saved_tensors` after any pass, saved or not, but runs a backward again that does
  not read them.
"""

from __future__ import annotations

import ast
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import torch

from gradtrace.identity import identity
from gradtrace.language.errors import LimitError, ProgramError
from gradtrace.language.tensor_text import clean_text, scrub
from gradtrace.trace.events import Freed, LineRan, Raised
from gradtrace.trace.saved import saved_names

if TYPE_CHECKING:
    from gradtrace.trace.recorder import Recorder
    from gradtrace.trace.records import FunctionRec

#: Statements of hooks and custom backward bodies stepped per backward pass.
LINES_PER_PASS = 100
_LINES_NOTE = (
    f"backward lines: at most {LINES_PER_PASS} statements of hooks and custom backward bodies "
    "are stepped per backward pass; the rest ran unstepped"
)
_MESSAGE_CHARS = 2_000
# torch's words when a saved tensor was freed by an earlier pass.
_FREED_WORDS = "freed"
# Which Node torch's engine is running on this thread (None outside one); None where this
# torch lacks it (passes.py then gives every Node a pre-hook).
running_node: Callable[[], Any] | None = getattr(torch._C, "_current_autograd_node", None)


def _message(exc: BaseException) -> tuple[str, str]:
    if isinstance(exc, ProgramError):
        kind, text = exc.type_name, exc.message
    else:
        kind, text = type(exc).__name__, str(exc)
    if len(text) > _MESSAGE_CHARS:
        text = text[:_MESSAGE_CHARS] + "..."
    return kind, clean_text(scrub(text))


def _holds_values(fn: Any, names: list[str]) -> bool | None:
    """Whether any saved tensor of Node `fn` holds its values now, read from torch's
    SavedTensor (`_raw_saved_*`, whose `data` is None once freed: nothing raises and no
    unpack hook runs); None where torch does not say (a freed list of them raises)."""
    for name in names:
        try:
            raw = getattr(fn, "_raw" + name, None)
        except RuntimeError:
            return None
        if raw is None:
            continue  # a number, or no SavedVariable
        for item in raw if isinstance(raw, (list, tuple)) else (raw,):
            data = getattr(item, "data", _UNKNOWN)
            if data is _UNKNOWN:
                return None
            if data is not None:
                return True
    return False


_UNKNOWN: Any = object()


def _is_freed(frec: FunctionRec, names: list[str]) -> bool:
    """Whether torch freed this Node's saved tensors: reading one of them says so."""
    fn = frec.fn
    try:
        if frec.custom:
            fn.saved_tensors  # noqa: B018 (the read is the question)
        else:
            for name in names:
                getattr(fn, name)
    except RuntimeError as exc:
        return _FREED_WORDS in str(exc)
    return False


class BackwardSteps:
    def __init__(self, recorder: Recorder) -> None:
        # Weakly: the recorder owns this, and a cycle would keep every tensor it recorded
        # alive after the job until the cyclic GC found it.
        self.rec: Recorder = weakref.proxy(recorder)
        # The Nodes the engine entered and has not left, innermost last (those with a
        # pre-hook), and the Node the program's code last ran in.
        self.in_flight: list[FunctionRec] = []
        self.running: FunctionRec | None = None
        # The Nodes that ran in the current pass, and every Node found freed so far.
        self.ran: list[FunctionRec] = []
        self.freed: set[str] = set()
        # The Nodes of the pass whose saved tensors hold values as it starts.
        self.holding: set[str] = set()
        # The tensor node whose hook the program is running, if it is one.
        self.hook_node: str | None = None
        self.lines = 0
        self.lines_cut = False

    def _freed(self, f: FunctionRec) -> bool:
        """Whether the pass freed `f`'s saved tensors (the pass ran `f`), for a Node other
        than those `ended` decides itself (whose saved tensors were read when it was made)."""
        holding = f.id in self.holding
        names = saved_names(type(f.fn))
        if f.custom:
            return holding and _is_freed(f, names)
        if holding:
            holds = _holds_values(f.fn, names)
            if holds is not None:
                return not holds
        return _is_freed(f, names)

    # ------------------------------------------------------------------ during a pass

    def note_holding(self, fn: Any, frec: FunctionRec) -> None:
        """Whether Node `fn`'s saved tensors hold values as the pass starts (one run
        without retain_graph: its end asks what it freed). Not asked of a Node whose saved
        tensors were read when it was made: those hold until a pass runs it (_freed)."""
        if frec.custom:
            try:
                # The saved tensors as torch holds them, not unpacked: no program hook runs.
                if len(fn._raw_saved_tensors):
                    self.holding.add(frec.id)
            except RuntimeError:
                pass  # freed by an earlier pass
        elif _holds_values(fn, saved_names(type(fn))):
            self.holding.add(frec.id)

    def line(self, node: ast.AST) -> None:
        """The program runs a statement while the engine runs the pass."""
        lineno = getattr(node, "lineno", None)
        if lineno is None:
            return
        running = self._running()
        if running is not None:
            self.running = running
        if self.lines >= LINES_PER_PASS:
            self.lines_cut = True
            return
        self.lines += 1
        where = self.hook_node
        if where is None:
            if running is not None:
                where = running.id
            elif self.in_flight:
                where = self.in_flight[-1].id
        self.rec.timeline.append(LineRan(self.rec.current_pass, where, lineno))

    def _running(self) -> FunctionRec | None:
        """The recorded Node torch's engine is running now, if any."""
        fn = running_node() if running_node is not None else None
        if fn is None:
            return None
        frec = self.rec.by_fn.get(identity(fn))
        return frec if frec is not None and frec.fn is fn else None

    def failed(
        self, index: int, exc: BaseException, unfinished: Callable[[], FunctionRec | None]
    ) -> None:
        """The pass raised: the Node the engine was in carries the error (`unfinished`
        finds it where no pre-hook said)."""
        if isinstance(exc, LimitError):
            return
        where = self.in_flight[-1] if self.in_flight else unfinished()
        if where is None:
            return
        kind, text = _message(exc)
        self.rec.timeline.append(Raised(index, where.id, kind, text))

    def ended(self, index: int, retain: bool) -> None:
        """The pass is over: what it freed, and whether its line budget cut any."""
        if not retain:
            self.rec.peeking = True  # a program's unpack hook must not run for this read
            try:
                # A Node whose saved tensors were read when it was made (most) held their
                # values until a pass ran it (it would have raised there, not run, had an
                # earlier pass freed them), and torch frees what a Node saved once it ran
                # in a pass without retain_graph; any other is asked of torch (_freed).
                freed = [
                    f.id
                    for f in dict.fromkeys(self.ran)
                    if f.tensor is None
                    and f.id not in self.freed
                    and ((f.saved and f.saved_read and not f.custom) or self._freed(f))
                ]
            finally:
                self.rec.peeking = False
            if freed:
                self.freed.update(freed)
                self.rec.timeline.append(Freed(index, freed))
        if self.lines_cut and _LINES_NOTE not in self.rec.truncation:
            self.rec.truncation.append(_LINES_NOTE)
        self.in_flight.clear()
        self.running = None
        self.ran.clear()
        self.holding.clear()
        self.hook_node = None
        self.lines = 0
        self.lines_cut = False
