"""Every shell script in scripts/ parses, is executable and passes shellcheck (which
`./run test` installs)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPTS = sorted((Path(__file__).resolve().parents[2] / "scripts").glob("*.sh"))


def test_the_scripts_are_there() -> None:
    assert {p.name for p in SCRIPTS} >= {"install-pi.sh", "pi-venv.sh", "arm64-chroot.sh"}


@pytest.mark.process
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_script_parses_and_passes_shellcheck(script: Path) -> None:
    assert os.access(script, os.X_OK)
    subprocess.run(["bash", "-n", str(script)], check=True, timeout=30)
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.fail("shellcheck is missing: apt-get install shellcheck (./run test does)")
    result = subprocess.run(
        [shellcheck, str(script)], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 0, result.stdout


@pytest.mark.process
def test_the_chroot_script_explains_its_options() -> None:
    script = SCRIPTS[[p.name for p in SCRIPTS].index("arm64-chroot.sh")]
    usage = subprocess.run(
        [str(script), "--help"], capture_output=True, text=True, timeout=30, check=False
    )
    assert usage.returncode == 0 and "--root DIR" in usage.stdout
    bad = subprocess.run(
        [str(script), "--frobnicate"], capture_output=True, text=True, timeout=30, check=False
    )
    assert bad.returncode == 2 and "unknown option --frobnicate" in bad.stderr
