"""The HTTP service: FastAPI routes over a trace service (cache, coalescing, workers)."""

from gradtrace.server.app import create_app
from gradtrace.server.settings import Settings

__all__ = ["Settings", "create_app"]
