"""The systemd units: parse, run the service with the settings file, keep state writable,
and point at their documentation where the installer puts it."""

from __future__ import annotations

import configparser
import functools
import re
import subprocess

import pytest

from config import DEFAULTS_FILE

UNIT = DEFAULTS_FILE.with_name("domino-table.service")


def test_unit_runs_the_service_with_its_state_dir() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string(UNIT.read_text())
    service = unit["Service"]
    assert service["ExecStart"].endswith(
        "domino-table run --settings /etc/domino-table/settings.toml"
    )
    assert service["StateDirectory"] == "domino-table"
    assert service["ReadWritePaths"] == "/var/lib/domino-table"  # state.dir's default
    assert service["KillSignal"] == "SIGTERM"
    assert "dialout" in service["SupplementaryGroups"] and "gpio" in service["SupplementaryGroups"]
    assert unit["Install"]["WantedBy"] == "multi-user.target"


INSTALLER = DEFAULTS_FILE.parents[1] / "scripts" / "install-pi.sh"


@functools.cache  # one dry run for both units
def installed_tree() -> str:
    """Where scripts/install-pi.sh puts the project's files, read from its dry run."""
    result = subprocess.run(
        [str(INSTALLER), "--dry-run"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    moved = re.search(r"would run: mv (\S+)\.new (\S+)$", result.stdout, re.M)
    assert moved is not None and moved[1] == moved[2], result.stdout
    return moved[2]


@pytest.mark.process
@pytest.mark.parametrize("name", ["domino-table.service", "domino-display.service"])
def test_the_units_documentation_is_where_the_installer_puts_the_docs(name: str) -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read_string(UNIT.with_name(name).read_text())
    tree = installed_tree()
    for url in unit["Unit"]["Documentation"].split():
        assert url.startswith(f"file://{tree}/"), (url, tree)
        inside = url.removeprefix(f"file://{tree}/")
        assert (INSTALLER.parents[1] / inside).is_file(), f"{inside} is not in the project"
