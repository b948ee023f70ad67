"""Server settings: defaults, then GRADTRACE_* environment variables, then CLI flags."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from gradtrace.language.limits import Limits
from gradtrace.sandbox.config import WorkerConfig

_PACKAGE_DIR = Path(__file__).resolve().parent.parent


def _default_workers() -> int:
    return max(1, os.cpu_count() or 1)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="GRADTRACE_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    workers: int = Field(default_factory=_default_workers, ge=1, description="CPU worker processes")
    gpu_workers: int = Field(default=1, ge=1, description="worker processes per GPU")
    device: str = Field(
        default="auto", description="'auto': offer every device this machine has; else only this"
    )
    timeout: float = Field(default=5.0, gt=0, le=600, description="seconds one program may run")
    memory: int = Field(default=512, ge=64, description="MiB one program may use")
    queue: int = Field(default=256, ge=0, description="requests waiting for a worker before 503")
    # Who a client is: the token in its cookie (server/clients.py); requests without one
    # are one client per address. A classroom behind one NAT address is many clients.
    jobs_per_client: int = Field(
        default=64, ge=1, description="programs one client may have running or waiting (429)"
    )
    jobs_per_address: int = Field(
        default=256, ge=1, description="programs one address may have running or waiting (429)"
    )
    # The HTTP layer (server/http.py): what one client can hold of the server.
    max_connections: int = Field(default=4096, ge=1, description="open connections in all")
    connections_per_address: int = Field(
        default=512, ge=1, description="open connections from one address"
    )
    request_timeout: float = Field(
        default=10.0, gt=0, description="seconds a client has to send a request's head and body"
    )
    max_head_bytes: int = Field(
        default=32 * 1024, ge=1024, description="request line and headers, in bytes (414/431)"
    )
    keep_alive: int = Field(default=5, ge=1, description="seconds an idle connection is kept")
    cache_mb: int = Field(default=256, ge=0, description="MiB of traces kept in memory")
    max_jobs_per_worker: int = Field(
        default=1000, ge=1, description="jobs before a worker is replaced (1: a fresh one per job)"
    )
    cpu_start: Literal["fork", "spawn"] = Field(
        default="fork", description="CPU workers forked from a warm zygote, or spawned"
    )
    gzip_min_bytes: int = Field(default=4096, ge=0)
    cors_origins: list[str] = Field(default_factory=list, description="none: no CORS headers")
    # Past one machine: with a Redis URL, rooms (and their events) and the trace cache
    # are shared by every replica that names the same Redis.
    redis_url: str | None = Field(default=None, description="redis://host:6379/0, or none")
    # Live rooms (server/rooms): what one lecturer and one class can hold.
    room_idle_timeout: float = Field(
        default=900, gt=0, description="seconds a room lasts after its lecturer's last sign"
    )
    max_rooms: int = Field(default=1000, ge=1, description="rooms open at once")
    max_followers: int = Field(
        default=5000, ge=1, description="streams following one room, per replica"
    )
    max_answers: int = Field(default=5000, ge=1, description="answers one poll takes")
    rooms_per_minute: int = Field(
        default=10, ge=1, description="rooms one client may open a minute"
    )
    room_updates_per_s: int = Field(default=30, ge=1, description="lecturer updates a second")
    static_dir: Path = _PACKAGE_DIR / "static"
    access_log: bool = True
    drop_privileges: bool = Field(default=True, description="workers run as nobody under root")

    def limits(self) -> Limits:
        return Limits(wall_time_s=self.timeout)

    def max_body_bytes(self) -> int:
        """The largest request body that can hold a source within the limit: UTF-8 takes
        up to 4 bytes a character, and the JSON around the source is small."""
        return self.limits().source_chars * 4 + 4096

    def worker_config(self, device: str) -> WorkerConfig:
        return WorkerConfig(
            device=device,
            memory_mb=self.memory,
            timeout_s=self.timeout,
            limits=self.limits(),
            gzip_min_bytes=self.gzip_min_bytes,
            max_jobs=self.max_jobs_per_worker,
            drop_privileges=self.drop_privileges,
        )
