"""The MQTT TLS flags of `domino-table display` and `domino-table tournament` (one set,
mqttweb/client.py): each wrong file is a usage error naming its flag and saying
what is wrong, before anything connects."""

from __future__ import annotations

import ssl
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from display.cli import display
from mqttweb.client import MqttTls, tls_from_flags
from tests.fixtures.tiers import needs
from tests.security.broker import make_ca_and_server_cert, openssl
from tournament.cli import tournament

COMMANDS = {"display": (display, ["--table", "t1"]), "tournament": (tournament, [])}


@pytest.fixture(scope="module")
@needs("process")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ca.crt; server.crt and server.key (a certificate and its key); enc.key (the same
    key encrypted with the passphrase in passphrase); junk.pem (not PEM)."""
    folder = tmp_path_factory.mktemp("certs")
    make_ca_and_server_cert(folder)
    (folder / "passphrase").write_text("open sesame\n")
    openssl("pkey", "-in", "server.key", "-aes256", "-passout", "pass:open sesame",
            "-out", "enc.key", cwd=folder)  # fmt: skip
    (folder / "junk.pem").write_text("not a certificate\n")
    (folder / "wrong-passphrase").write_text("close sesame\n")
    return folder


def run(command: str, *args: str) -> click.testing.Result:
    cli, base = COMMANDS[command]
    return CliRunner().invoke(cli, [*base, *args])


CASES = [
    # (flags with {certs} for the folder, the flag named, the sentence)
    (["--mqtt-ca-file", "{certs}/ca.crt"], "--mqtt-ca-file", "--mqtt-ca-file needs --mqtt-tls"),
    (["--mqtt-tls-insecure"], "--mqtt-tls-insecure", "--mqtt-tls-insecure needs --mqtt-tls"),
    (["--mqtt-tls", "--mqtt-ca-file", "{certs}/missing.crt"], "--mqtt-ca-file",
     "{certs}/missing.crt does not exist"),
    (["--mqtt-tls", "--mqtt-ca-file", "{certs}"], "--mqtt-ca-file",
     "cannot read {certs}: Is a directory"),
    (["--mqtt-tls", "--mqtt-ca-file", "{certs}/junk.pem"], "--mqtt-ca-file",
     "{certs}/junk.pem holds no PEM CA certificate"),
    (["--mqtt-tls", "--mqtt-cert-file", "{certs}/server.crt"], "--mqtt-cert-file",
     "a client certificate needs its private key: give --mqtt-key-file too"),
    (["--mqtt-tls", "--mqtt-key-file", "{certs}/server.key"], "--mqtt-key-file",
     "a private key needs its client certificate: give --mqtt-cert-file too"),
    (["--mqtt-tls", "--mqtt-cert-file", "{certs}/missing.crt", "--mqtt-key-file",
      "{certs}/server.key"], "--mqtt-cert-file", "{certs}/missing.crt does not exist"),
    (["--mqtt-tls", "--mqtt-cert-file", "{certs}/junk.pem", "--mqtt-key-file",
      "{certs}/server.key"], "--mqtt-cert-file", "{certs}/junk.pem holds no PEM certificate"),
    (["--mqtt-tls", "--mqtt-cert-file", "{certs}/server.crt", "--mqtt-key-file",
      "{certs}/server.crt"], "--mqtt-key-file", "{certs}/server.crt holds no PEM private key"),
    (["--mqtt-tls", "--mqtt-cert-file", "{certs}/server.crt", "--mqtt-key-file",
      "{certs}/enc.key"], "--mqtt-key-file",
     "{certs}/enc.key is encrypted: give its passphrase with --mqtt-key-passphrase-file"),
    (["--mqtt-tls", "--mqtt-cert-file", "{certs}/ca.crt", "--mqtt-key-file",
      "{certs}/server.key"], "--mqtt-key-file",
     "cannot use {certs}/server.key with the certificate {certs}/ca.crt (KEY_VALUES_MISMATCH)"),
    (["--mqtt-tls", "--mqtt-cert-file", "{certs}/server.crt", "--mqtt-key-file",
      "{certs}/enc.key", "--mqtt-key-passphrase-file", "{certs}/ca.crt"], "--mqtt-key-file",
     "and --mqtt-key-passphrase-file its passphrase"),
    (["--mqtt-tls", "--mqtt-cert-file", "{certs}/server.crt", "--mqtt-key-file",
      "{certs}/enc.key", "--mqtt-key-passphrase-file", "{certs}/wrong-passphrase"],
     "--mqtt-key-file", "and --mqtt-key-passphrase-file its passphrase"),
    (["--mqtt-tls", "--mqtt-key-passphrase-file", "{certs}/passphrase"],
     "--mqtt-key-passphrase-file", "a key passphrase needs --mqtt-key-file"),
]  # fmt: skip


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(("flags", "flag", "sentence"), CASES)
def test_a_wrong_tls_flag_is_a_usage_error_naming_it(
    certs: Path, command: str, flags: list[str], flag: str, sentence: str
) -> None:
    result = run(command, *(f.format(certs=certs) for f in flags))
    assert result.exit_code == 2, result.output
    output = " ".join(result.output.split())  # click wraps long lines
    assert f"Invalid value for '{flag}':" in output, output
    assert sentence.format(certs=certs) in output, output


def test_good_files_give_the_tls_the_flags_ask_for(certs: Path) -> None:
    tls = tls_from_flags(
        mqtt_tls=True,
        mqtt_ca_file=certs / "ca.crt",
        mqtt_cert_file=certs / "server.crt",
        mqtt_key_file=certs / "enc.key",
        mqtt_key_passphrase_file=certs / "passphrase",
        mqtt_tls_insecure=True,
    )
    assert tls == MqttTls(
        ca_file=certs / "ca.crt",
        cert_file=certs / "server.crt",
        key_file=certs / "enc.key",
        key_passphrase="open sesame",
        insecure=True,
    )
    assert "open sesame" not in repr(tls)
    context = tls.context()
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname is False
    assert MqttTls().context().check_hostname is True

    def no_files(tls_on: bool) -> MqttTls | None:
        return tls_from_flags(
            mqtt_tls=tls_on,
            mqtt_ca_file=None,
            mqtt_cert_file=None,
            mqtt_key_file=None,
            mqtt_key_passphrase_file=None,
            mqtt_tls_insecure=False,
        )

    assert no_files(False) is None
    assert no_files(True) == MqttTls()  # the system's CAs
