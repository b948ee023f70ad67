"""What a worker needs to know, sent to it as JSON when it starts."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from gradtrace.language.limits import Limits


class WorkerConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    device: str = "cpu"
    memory_mb: int = Field(default=512, ge=64, description="memory one program may use")
    timeout_s: float = Field(default=5.0, gt=0, description="wall time one program may take")
    limits: Limits = Field(default_factory=Limits)
    gzip_min_bytes: int = Field(default=4096, description="traces this large are also gzipped")
    max_jobs: int = Field(default=1000, ge=1, description="jobs before a worker is replaced")
    cpu_budget_s: float = Field(default=600.0, description="CPU seconds a worker may use in all")
    drop_privileges: bool = Field(default=True, description="run as nobody when started as root")

    @property
    def kill_after_s(self) -> float:
        """When the parent kills a job: the engine's own time limit should fire first."""
        return self.timeout_s + max(1.0, 0.2 * self.timeout_s)

    def limits_for_engine(self) -> Limits:
        return self.limits.model_copy(update={"wall_time_s": self.timeout_s})
