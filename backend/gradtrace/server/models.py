"""Request and response bodies of the HTTP API (beyond the Trace itself)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from gradtrace.language.limits import Limits

# The largest integer JSON carries exactly everywhere (JavaScript numbers are doubles).
MAX_SEED = 2**53 - 1


def json_integer(value: object, what: str) -> object:
    """As JSON Schema counts integers: 3.0 is one, true is not."""
    if isinstance(value, bool):
        raise ValueError(f"{what} must be an integer")
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


class ProgramRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    source: str = Field(description="the program: Python with torch, as in a tutorial")
    device: str = Field(
        default="auto",
        description="'cpu', 'cuda', 'cuda:N', 'mps', or 'auto' (cuda, then mps, then cpu)",
    )
    seed: int = Field(default=0, ge=0, le=MAX_SEED, description="torch.manual_seed before the run")

    @field_validator("seed", mode="before")
    @classmethod
    def _seed_integer(cls, seed: object) -> object:
        return json_integer(seed, "the seed")

    @field_validator("source")
    @classmethod
    def _encodable(cls, source: str) -> str:
        # JSON may carry lone surrogates ("\\ud800"); no program can contain them.
        try:
            source.encode("utf-8")
        except UnicodeEncodeError as error:
            raise ValueError("the source is not valid Unicode text") from error
        return source


class TraceRequest(ProgramRequest):
    iteration: int | None = Field(
        default=None,
        ge=0,
        le=1_000_000,
        description="record this training iteration (backward pass) in full instead of the last ones",
    )

    @field_validator("iteration", mode="before")
    @classmethod
    def _iteration_integer(cls, iteration: object) -> object:
        return json_integer(iteration, "the iteration")


class GradCheckRequest(ProgramRequest):
    """The program whose gradients to check against finite differences."""


class ErrorResponse(BaseModel):
    """A request refused before any program ran (4xx), or a bug (500)."""

    detail: str


class PoolHealth(BaseModel):
    device: str
    size: int = Field(description="workers this pool keeps")
    idle: int
    busy: int
    queued: int = Field(description="requests waiting for a worker")
    starting: int = Field(description="workers being replaced")
    jobs: int = Field(description="programs run since the server started")


class CacheHealth(BaseModel):
    entries: int
    bytes: int
    max_bytes: int
    hits: int
    misses: int


class ServerLimits(BaseModel):
    timeout_s: float = Field(description="wall time one program may take")
    memory_mb: int = Field(description="memory one program may use")
    source_chars: int
    max_body_bytes: int
    queue: int = Field(description="requests that may wait for a worker before 503")
    program: Limits = Field(description="the engine's budgets")


class Health(BaseModel):
    status: str = "ok"
    version: str
    devices: list[str] = Field(description="device names a request may give, 'auto' first")
    default_device: str = Field(description="what 'auto' runs on")
    limits: ServerLimits
    workers: list[PoolHealth]
    cache: CacheHealth


class ExampleOut(BaseModel):
    id: str
    title: str
    summary: str
    lesson: str | None = Field(default=None, description="a few sentences of explanation")
    source: str
