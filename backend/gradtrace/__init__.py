"""gradtrace: run a PyTorch program, record its real autograd graph, play it back."""

from gradtrace.capture import capture
from gradtrace.devices import DeviceError, available_devices, resolve_device
from gradtrace.engine import run, run_json
from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.limits import Limits
from gradtrace.notebook import show, to_dot, to_html
from gradtrace.trace.models import Trace
from gradtrace.version import __version__

__all__ = [
    "DeviceError",
    "ForbiddenError",
    "LimitError",
    "Limits",
    "Trace",
    "__version__",
    "available_devices",
    "capture",
    "resolve_device",
    "run",
    "run_json",
    "show",
    "to_dot",
    "to_html",
]
