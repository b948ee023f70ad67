"""The container is hardened as the workers' sandbox needs (Docker cannot run here: the
files are checked, and the seccomp profile is kept equal to the filter's lists)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gradtrace.sandbox import seccomp_filter

REPO = Path(__file__).resolve().parents[2]


def _compose() -> dict[str, Any]:
    yaml = pytest.importorskip("yaml")
    data: dict[str, Any] = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    return data


def test_the_container_profile_refuses_what_the_filter_lists() -> None:
    profile = json.loads((REPO / "deploy" / "seccomp.json").read_text())
    assert profile["defaultAction"] == "SCMP_ACT_ALLOW"
    refused = set(profile["syscalls"][0]["names"])
    assert refused == set(seccomp_filter.OTHER_PROCESSES + seccomp_filter.KERNEL_INTERFACES)
    # bwrap's own calls stay allowed: it builds the sandboxes in this container.
    assert not refused & {"unshare", "clone", "mount", "umount2", "pivot_root"}


@pytest.mark.parametrize("service", ["gradtrace", "gradtrace-gpu"])
def test_every_service_is_hardened(service: str) -> None:
    config = _compose()["services"][service]
    assert config["read_only"] is True
    assert config["cap_drop"] == ["ALL"]
    assert "no-new-privileges:true" in config["security_opt"]
    assert "seccomp=./deploy/seccomp.json" in config["security_opt"]
    assert not any("unconfined" in opt and "seccomp" in opt for opt in config["security_opt"])
    assert 0 < config["pids_limit"] <= 1024
    assert str(config["mem_limit"]).endswith("g")  # a runaway replica cannot take the host
    assert not str(config["user"]).startswith("0")


def test_the_image_has_the_sandbox_and_a_plain_user() -> None:
    dockerfile = (REPO / "Dockerfile").read_text()
    assert "bubblewrap" in dockerfile and "libseccomp2" in dockerfile
    assert "USER 10001:10001" in dockerfile
