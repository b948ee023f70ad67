"""Which devices this machine offers, and what a requested device name means here."""

from __future__ import annotations

import re

import torch

_DEVICE_RE = re.compile(r"^(cpu|cuda|cuda:\d{1,2}|mps|auto)$")


class DeviceError(ValueError):
    """A device this machine does not have, or a name that is not a device."""

    def __init__(self, requested: str, available: list[str]) -> None:
        self.requested = requested
        self.available = available
        super().__init__(
            f"device {requested!r} is not available here; this machine has: {', '.join(available)}"
        )


def _mps_available() -> bool:
    backend = getattr(torch.backends, "mps", None)
    return bool(backend is not None and backend.is_available())


def available_devices() -> list[str]:
    """Every device name a request may give, `auto` first."""
    names = ["auto", "cpu"]
    if torch.cuda.is_available():
        names.append("cuda")
        names.extend(f"cuda:{i}" for i in range(torch.cuda.device_count()))
    if _mps_available():
        names.append("mps")
    return names


def resolve_device(requested: str) -> str:
    """The concrete device for a request: `auto` picks cuda, then mps, then cpu."""
    if requested == "cpu":  # every CPU job asks: the devices need not be listed for it
        return requested
    if not _DEVICE_RE.match(requested):
        raise DeviceError(requested, available_devices())
    if requested == "auto":
        if torch.cuda.is_available():
            return "cuda"
        return "mps" if _mps_available() else "cpu"
    if requested not in available_devices():
        raise DeviceError(requested, available_devices())
    return requested
