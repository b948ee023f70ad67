"""One job: a clean torch state, the program run under its limits, the trace written out."""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # signal.py's C half, unstubbed
import ast
import contextlib
import gc
import importlib._bootstrap
import reprlib
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, TypeVar

import torch
from torch.nn.parameter import UninitializedTensorMixin  # type: ignore[attr-defined]

from gradtrace.devices import resolve_device
from gradtrace.language import backends, forward_ad, graph_hooks, np_printoptions, transforms
from gradtrace.language.errors import LimitError, ProgramError
from gradtrace.language.interpreter import Interpreter
from gradtrace.language.limits import Limits
from gradtrace.language.module_tables import module_parameters
from gradtrace.language.namespaces import MODULES, manual_seed
from gradtrace.language.parse import parse_program
from gradtrace.language.runtime import WallTimeExceeded
from gradtrace.language.seeds import seed_for_job
from gradtrace.language.tensor_text import clean_text, scrub
from gradtrace.trace.models import Trace
from gradtrace.trace.program_warnings import warnings_logged
from gradtrace.trace.recorder import Recorder
from gradtrace.trace.serialize import dump_binary_trace, dump_trace, span, trace_model, variables
from gradtrace.version import __version__

_Output = TypeVar("_Output", bytes, Trace)
#: Rewords a program's error (an ErrorInfo's fields) before the trace is written.
Relabel = Callable[[dict[str, Any]], dict[str, Any]]

# Hints for the errors every autograd learner meets, keyed by a piece of torch's message.
_TORCH_HINTS = {
    "backward through the graph a second time": (
        "the first backward() freed the graph's saved tensors; pass retain_graph=True to the "
        "first call to keep them"
    ),
    "does not require grad and does not have a grad_fn": (
        "nothing this tensor came from requires grad: make a leaf with requires_grad=True, "
        "and check for torch.no_grad() or .detach() on the way"
    ),
    "grad can be implicitly created only for scalar outputs": (
        "backward() needs a scalar: reduce first (loss.sum(), loss.mean()) or pass gradient= "
        "with the output's shape"
    ),
    "a leaf Variable that requires grad is being used in an in-place operation": (
        "update parameters inside `with torch.no_grad():` (or through .data)"
    ),
    "modified by an inplace operation": (
        "a tensor saved for backward was changed in place afterwards; use an out-of-place op "
        "(x = x + 1 rather than x += 1)"
    ),
    "cannot be multiplied": "check the shapes: (n, k) @ (k, m) needs the inner sizes to match",
    "must match the size of tensor": "the shapes do not broadcast; print(x.shape) to compare",
    # introyt's modelsyt tutorial writes `import torch.functional as F` for torch.nn.functional
    "module 'torch.functional' has no attribute": (
        "torch.functional holds torch's own einsum, norm, split...; the layers' functions "
        "(F.relu, F.max_pool2d, F.log_softmax) are in torch.nn.functional: "
        "`import torch.nn.functional as F`"
    ),
    "Torch not compiled with CUDA enabled": (
        "this run has no GPU: pick the device as tutorials do, "
        "`device = 'cuda' if torch.cuda.is_available() else 'cpu'`, and use .to(device)"
    ),
}


def _hint_for(message: str) -> str | None:
    for key, hint in _TORCH_HINTS.items():
        if key in message:
            return hint
    return None


def _limit_at(exc: BaseException, message: str) -> dict[str, Any]:
    """A LimitError placed where the program was when the limit stopped it."""
    node = getattr(exc, "gradtrace_node", None)
    where = error_info(LimitError(message, node))
    if where["line"] is None:
        where.update(line=1, col=0, end_line=1, end_col=1)
    return where


class _ErrorRepr(reprlib.Repr):
    """reprlib's bounds, and no repr() of objects of the program's making: a Module's
    repr runs its extra_repr, program code, which may not run once the program ended."""

    def repr_instance(self, x: Any, level: int) -> str:
        if type(x) in (int, float, complex, bool, type(None)):
            return reprlib.Repr.repr_instance(self, x, level)
        if isinstance(x, torch.Tensor):
            return f"tensor(shape={list(x.shape)}, dtype={x.dtype})"
        return f"<{type(x).__name__} object>"


_ERROR_REPR = _ErrorRepr()
_ERROR_REPR.maxlevel = 4
_ERROR_REPR.maxstring = 200
_ERROR_REPR.maxother = 200
_ERROR_MESSAGE_CHARS = 2_000


def _message(exc: BaseException) -> str:
    """str(exc), bounded: a program may raise ValueError(a deeply nested list)."""
    args = exc.args
    if isinstance(exc, KeyError) and args:
        message = _ERROR_REPR.repr(args[0])
    elif len(args) == 1:
        arg = args[0]
        if type(arg) is str:
            message = arg
        elif type(arg) in (int, float, bool):
            message = str(arg)
        else:
            message = _ERROR_REPR.repr(arg)
    elif not args:
        message = ""
    else:
        message = _ERROR_REPR.repr(args)
    if len(message) > _ERROR_MESSAGE_CHARS:
        message = message[:_ERROR_MESSAGE_CHARS] + "..."
    return clean_text(scrub(message))


def error_info(exc: BaseException) -> dict[str, Any]:
    if isinstance(exc, SyntaxError) and not isinstance(exc, ProgramError) and exc.lineno:
        col = (exc.offset or 1) - 1
        end_col = (exc.end_offset or exc.offset or 1) - 1
        return {
            "type": type(exc).__name__,
            "message": exc.msg,
            "line": exc.lineno,
            "col": col,
            "end_line": exc.end_lineno or exc.lineno,
            "end_col": max(end_col, col + 1),
            "hint": None,
        }
    node: ast.AST | None
    if isinstance(exc, ProgramError):
        type_name = exc.type_name
        message = exc.message
        node = exc.node or getattr(exc, "gradtrace_node", None)
        hint = exc.hint
    else:
        # torch.linalg.LinAlgError is torch._C._LinAlgError: shown by its public name.
        type_name = type(exc).__name__.lstrip("_")
        message = _message(exc)
        node = getattr(exc, "gradtrace_node", None)
        hint = getattr(exc, "gradtrace_hint", None) or _hint_for(message)
    where: dict[str, int | None] = dict(span(node) or {}) or {
        "line": None,
        "col": None,
        "end_line": None,
        "end_col": None,
    }
    return {"type": type_name, "message": clean_text(message), **where, "hint": hint}


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    """A wall-clock alarm for code the step counter cannot see (a long repr, a C loop)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield
        return

    give_up = time.monotonic() + seconds + _IMPORT_GRACE_S

    def expired(signum: int, frame: FrameType | None) -> None:
        # Not inside an import: torch imports modules on first use (an optimizer imports
        # torch._dynamo, ~900 modules), and one stopped halfway stays half-initialised for
        # every later job of the process ("partially initialized module", a kernel
        # registered twice). The alarm goes off again once the import is done.
        if _importing(frame) and time.monotonic() < give_up:
            signal.setitimer(signal.ITIMER_REAL, _IMPORT_RECHECK_S)
            return
        raise WallTimeExceeded()

    # _signal's own signal(): signal.signal converts each handler to and from an enum,
    # 10 us a job of the 20-node program's 1.5 ms.
    previous = _signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _signal.signal(signal.SIGALRM, previous)


#: How often a deferred alarm looks again, and how long past its time it waits at most
#: for an import to end (programs import nothing themselves: only torch's code runs in one).
_IMPORT_RECHECK_S = 0.01
_IMPORT_GRACE_S = 30.0
#: The file of importlib's frames, frozen or not: its _find_and_load runs every import,
#: module body included (module_from_spec is one of its functions that mypy knows).
_IMPORT_FILE = importlib._bootstrap.module_from_spec.__code__.co_filename


def _importing(frame: FrameType | None) -> bool:
    while frame is not None:
        if frame.f_code.co_filename == _IMPORT_FILE:
            return True
        frame = frame.f_back
    return False


@contextlib.contextmanager
def clean_torch_state(seed: int, device: str) -> Iterator[None]:
    """Every job starts from the same state, and leaves none behind."""
    grad_enabled = torch.is_grad_enabled()
    default_dtype = torch.get_default_dtype()
    recursion = sys.getrecursionlimit()
    threads = torch.get_num_threads()
    warn_always = torch.is_warn_always_enabled()
    # Programs here are small: one thread is faster, and several jobs share the cores.
    torch.set_num_threads(1)
    torch.set_grad_enabled(True)
    torch.set_default_dtype(torch.float32)
    torch.set_printoptions(profile="default")
    torch.autograd.set_detect_anomaly(False)
    # torch's C++ warn-once flags are per process: without this only a worker's first
    # program would see `x.T`'s warning, and a program could tell it was not the first.
    torch.set_warn_always(True)
    graph_hooks.reset()
    forward_ad.reset()
    transforms.reset()
    cudnn_deterministic = backends.reset()
    if device.startswith("cuda"):
        torch.cuda.init()  # else manual_seed leaves the GPU's generator unseeded
    manual_seed(seed)
    seed_for_job(seed)  # the program's `random` and `numpy.random`, when it imports them
    sys.setrecursionlimit(max(recursion, 8000))
    device_context = torch.device(device) if device != "cpu" else contextlib.nullcontext()
    try:
        with device_context:
            yield
    finally:
        graph_hooks.reset()
        forward_ad.reset()
        transforms.reset()
        backends.restore(cudnn_deterministic)
        torch.set_grad_enabled(grad_enabled)
        torch.set_default_dtype(default_dtype)
        torch.set_printoptions(profile="default")
        np_printoptions.reset()
        sys.setrecursionlimit(recursion)
        torch.set_num_threads(threads)
        torch.set_warn_always(warn_always)


def _live_tensors(names: dict[str, Any]) -> list[torch.Tensor]:
    found: list[torch.Tensor] = []
    for value in names.values():
        if isinstance(value, torch.Tensor) and not isinstance(value, UninitializedTensorMixin):
            found.append(value)
        elif isinstance(value, torch.nn.Module):
            found.extend(p for _, p in module_parameters(value))
    return found


def trace_program(
    source: str,
    *,
    device: str,
    seed: int,
    limits: Limits,
    iteration: int | None = None,
    binary: bool = False,
    relabel: Relabel | None = None,
    release_later: list[Callable[[], None]] | None = None,
) -> bytes:
    """Run `source` and write its trace as JSON bytes, or in the binary form (binary.py).
    `relabel` may reword the program's error before it is written (the sandbox names the
    memory ceiling a program met). With `release_later`, the job's objects (the program's,
    the recorder's) are freed when the caller calls what it is given there, once it has
    sent the trace: freeing them is not part of the wait for it."""
    finish = dump_binary_trace if binary else dump_trace
    return _run(source, device, seed, limits, iteration, finish, relabel, release_later)


def trace_object(
    source: str, *, device: str, seed: int, limits: Limits, iteration: int | None = None
) -> Trace:
    """Run `source` and give its trace as pydantic objects (gradtrace.run)."""
    return _run(source, device, seed, limits, iteration, trace_model)


def _run(
    source: str,
    device: str,
    seed: int,
    limits: Limits,
    iteration: int | None,
    finish: Callable[..., _Output],
    relabel: Relabel | None = None,
    release_later: list[Callable[[], None]] | None = None,
) -> _Output:
    started = time.perf_counter()
    device = resolve_device(device)
    recorder = Recorder(limits)
    recorder.bind_specials(MODULES)
    recorder.pruning.focus = iteration
    interp = Interpreter(source, limits, recorder, device)
    recorder.live_tensors = lambda: _live_tensors(interp.globals.vars)
    # The cyclic GC walks every object torch and the trace hold; with tens of thousands of
    # records its passes dominate the run. Reference counting frees what matters meanwhile.
    # It stays off until the job's objects are freed: switched on with them still alive,
    # its next pass would walk them all (~80 ms at 10,000 ops).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _trace(source, device, seed, limits, recorder, interp, started, finish, relabel)
    finally:
        # Freed by reference counting, rather than left for a collection to find: now
        # (as this returns), or when the caller has sent the trace.
        release = _releaser(interp, recorder, collecting)
        if release_later is None:
            release()
        else:
            release_later.append(release)


def _releaser(interp: Interpreter, recorder: Recorder, collecting: bool) -> Callable[[], None]:
    held = [(interp, recorder)]

    def release() -> None:
        while held:
            job_interp, job_recorder = held.pop()
            job_interp.close()
            job_recorder.close()
            del job_interp, job_recorder
        if collecting:
            gc.enable()

    return release


def _trace(
    source: str,
    device: str,
    seed: int,
    limits: Limits,
    recorder: Recorder,
    interp: Interpreter,
    started: float,
    finish: Callable[..., _Output],
    relabel: Relabel | None,
) -> _Output:
    error: dict[str, Any] | None = None
    with clean_torch_state(seed, device), warnings_logged(recorder) as warning_log:
        try:
            with _alarm(limits.wall_time_s + 0.25):
                tree = parse_program(source, limits)
                interp.run(tree)
        except WallTimeExceeded as exc:
            error = _limit_at(exc, f"the program ran longer than {limits.wall_time_s:g} s")
        except RecursionError as exc:
            error = _limit_at(exc, "the program recursed too deeply")
        except MemoryError as exc:
            error = _limit_at(exc, "the program ran out of memory")
        except Exception as exc:
            error = error_info(exc)
        finally:
            recorder.active = True
            recorder.in_backward = False
        try:
            names = variables(recorder, interp.globals.vars)
        except LimitError as exc:
            # Naming the program's last tensors records them: the budget may run out here.
            names = {}
            if error is None:
                error = _limit_at(exc, exc.message)
    if error is not None and relabel is not None:
        error = relabel(error)
    # Each distinct warning once (warn-always repeats torch's in every loop iteration),
    # also a timeline event at the step where it first happened.
    warnings_seen = warning_log.entries()
    return finish(
        recorder,
        ok=error is None,
        error=error,
        device=device,
        names=names,
        warnings_seen=warnings_seen,
        seed=seed,
        version=__version__,
        elapsed_ms=round((time.perf_counter() - started) * 1000, 3),
    )
