"""`domino-table run`: a settings file the service cannot start with is one sentence, not a
traceback."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from service.cli import run


def test_an_unusable_tls_file_is_one_sentence_naming_the_setting(tmp_path: Path) -> None:
    (tmp_path / "ca.crt").write_text("not a certificate")
    settings = tmp_path / "settings.toml"
    settings.write_text(
        f'[state]\ndir = "{tmp_path / "state"}"\n[mqtt.tls]\nenabled = true\nca_file = "ca.crt"\n'
    )
    result = CliRunner().invoke(run, ["--settings", str(settings)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and result.exception is not None
    assert isinstance(result.exception, SystemExit)  # click's exit, not the error itself
    assert "cannot use the TLS files in [mqtt.tls]" in result.output
    assert "holds no PEM CA certificate" in result.output
    assert result.output.rstrip().endswith("check mqtt.tls.ca_file")
