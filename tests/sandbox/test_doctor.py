"""`gradtrace doctor` (the CLI subcommand) reports what a confined process really has."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import gradtrace
from gradtrace.sandbox import doctor, layers


@pytest.mark.skipif(bool(layers.missing()), reason="sandbox layers missing here")
def test_the_doctor_finds_every_layer_here(capsys: pytest.CaptureFixture[str]) -> None:
    assert doctor.main() == 0
    out = capsys.readouterr().out
    assert "[MISSING]" not in out
    assert "[active ] seccomp filter (libseccomp): Seccomp: 2" in out
    assert "every layer is active." in out


def test_the_doctor_names_a_missing_layer_and_its_fix() -> None:
    package_root = os.path.dirname(os.path.dirname(gradtrace.__file__))
    result = subprocess.run(
        [sys.executable, "-m", "gradtrace.cli", "doctor"],
        env={"PATH": "/nonexistent", "PYTHONPATH": package_root},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 1, result.stderr[-2000:]
    assert "[MISSING] namespaces (bubblewrap)" in result.stdout
    assert "bwrap (bubblewrap) is not installed" in result.stdout
    assert "apt-get install bubblewrap" in result.stdout
