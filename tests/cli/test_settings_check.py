"""`domino-table settings` prints checked settings with secrets redacted, or the problems."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cli.settings_check import settings


def test_prints_redacted_settings(tmp_path: Path) -> None:
    (tmp_path / "pw").write_text("hunter2")
    (tmp_path / "pw").chmod(0o600)
    path = tmp_path / "s.toml"
    path.write_text("[table]\nid = 'bar'\n[mqtt]\nusername = 'u'\npassword_file = 'pw'\n")
    result = CliRunner().invoke(settings, ["--settings", str(path)])
    assert result.exit_code == 0, result.output
    assert "hunter2" not in result.output
    data = json.loads(result.output)
    assert data["mqtt"]["password"] == "***" and data["mqtt"]["prefix"] == "domino/bar"


def test_reports_problems_with_status_2(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text("[mqtt]\nport = 70000\n")
    result = CliRunner().invoke(settings, ["--settings", str(path)])
    assert result.exit_code == 2
    assert f"{path}: mqtt.port: 70000 is not a port (1-65535)" in result.output
