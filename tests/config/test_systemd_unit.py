"""The systemd unit: parses, runs the service with the settings file, keeps state writable."""

from __future__ import annotations

import configparser

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
