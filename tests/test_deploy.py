"""The deployment files agree with each other and with the settings the server reads:
names that point at each other resolve, and every GRADTRACE_* variable is one it knows.
(Docker and Kubernetes themselves are not run here; the nginx config is, in
tests/server/test_proxy.py.)"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import yaml

from gradtrace.server.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
K8S = ROOT / "deploy" / "k8s"


def _manifests() -> dict[tuple[str, str], dict[str, Any]]:
    found = {}
    for path in sorted(K8S.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            found[(doc["kind"], doc["metadata"]["name"])] = doc
    return found


def _known(variable: str) -> bool:
    if not variable.startswith("GRADTRACE_"):
        return variable == "FORWARDED_ALLOW_IPS"  # uvicorn's own
    return variable.removeprefix("GRADTRACE_").lower() in Settings.model_fields


def test_the_kubernetes_manifests_point_at_each_other() -> None:
    manifests = _manifests()
    app = manifests[("Deployment", "gradtrace")]
    pod = app["spec"]["template"]
    assert app["spec"]["selector"]["matchLabels"].items() <= pod["metadata"]["labels"].items()
    service = manifests[("Service", "gradtrace")]
    assert service["spec"]["selector"].items() <= pod["metadata"]["labels"].items()
    target = manifests[("HorizontalPodAutoscaler", "gradtrace")]["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", "gradtrace")

    (container,) = pod["spec"]["containers"]
    env = {item["name"]: item["value"] for item in container["env"]}
    assert all(_known(name) for name in env), env
    redis = urlparse(env["GRADTRACE_REDIS_URL"])
    redis_service = manifests[("Service", redis.hostname or "")]
    assert redis.port in [p["port"] for p in redis_service["spec"]["ports"]]
    redis_pod = manifests[("Deployment", "gradtrace-redis")]["spec"]["template"]
    assert redis_service["spec"]["selector"].items() <= redis_pod["metadata"]["labels"].items()
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert container["securityContext"]["capabilities"]["drop"] == ["ALL"]


def test_the_compose_file_and_its_proxy_point_at_each_other() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    for name in ("gradtrace", "gradtrace-gpu"):
        env = services[name]["environment"]
        assert all(_known(variable) for variable in env), env
        assert urlparse(env["GRADTRACE_REDIS_URL"]).hostname in services
    assert "ports" not in services["gradtrace"]  # only through the proxy
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    upstream = re.search(r"set \$app (http://[^;]+);", nginx)
    assert upstream is not None
    address = urlparse(upstream.group(1))
    assert address.hostname == "gradtrace" and address.port == Settings().port
    assert any("deploy/nginx.conf" in volume for volume in services["proxy"]["volumes"])
    # The proxy lets through the largest body the app takes, and no more than ~1.2x it.
    body = re.search(r"client_max_body_size (\d+)k;", nginx)
    assert body is not None
    assert (
        Settings().max_body_bytes()
        <= int(body.group(1)) * 1024
        <= 1.2 * Settings().max_body_bytes()
    )
    seccomp = [o for o in services["gradtrace"]["security_opt"] if o.startswith("seccomp=")]
    assert (ROOT / seccomp[0].removeprefix("seccomp=")).is_file()
