"""User name, password and TLS from the settings, against a Mosquitto that requires them."""

from __future__ import annotations

import logging
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from config import load_settings
from service.mqtt.client import MqttLinkError
from service.mqtt.link import MqttLink
from service.store.journal import Journal
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import state_payload
from tests.fixtures.tiers import needs
from tests.security.broker import make_ca_and_server_cert, openssl

SECRET = "s3cret-Pa55"


class SecureMosquitto(Mosquitto):
    """The test broker with TLS and passwords: no anonymous access."""

    def config_text(self) -> str:
        return super().config_text().replace("allow_anonymous true\n", "")


@pytest.fixture
@needs("broker", "process")
def secure_broker(tmp_path: Path) -> Iterator[Mosquitto]:
    certs = tmp_path / "certs"
    make_ca_and_server_cert(certs)
    passwords = tmp_path / "passwd"
    passwords.write_text("")
    subprocess.run(["mosquitto_passwd", "-b", str(passwords), "table", SECRET], check=True)
    extra = (
        f"cafile {certs / 'ca.crt'}\ncertfile {certs / 'server.crt'}\n"
        f"keyfile {certs / 'server.key'}\nallow_anonymous false\npassword_file {passwords}\n"
    )
    with SecureMosquitto(tmp_path / "mosquitto", extra=extra) as m:
        yield m


def settings_file(tmp_path: Path, broker: Mosquitto, password: str) -> Path:
    (tmp_path / "pw").write_text(password + "\n")
    (tmp_path / "pw").chmod(0o600)
    path = tmp_path / "settings.toml"
    path.write_text(
        f'[table]\nid = "t1"\n[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\n'
        'username = "table"\npassword_file = "pw"\nkeepalive = 5\n'
        '[mqtt.tls]\nenabled = true\nca_file = "certs/ca.crt"\n'
    )
    return path


def test_connects_with_tls_and_password(tmp_path: Path, secure_broker: Mosquitto) -> None:
    settings = load_settings(settings_file(tmp_path, secure_broker, SECRET), {})
    with Journal(tmp_path / "state", "t1") as journal:
        link = MqttLink(settings.mqtt, "t1", journal, state=state_payload, on_command=print)
        try:
            link.start()
            assert link.wait_connected(10), link.status()
            assert SECRET not in str(link.status())
        finally:
            link.stop()


def test_wrong_password_is_reported_not_leaked(
    tmp_path: Path, secure_broker: Mosquitto, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    settings = load_settings(settings_file(tmp_path, secure_broker, "wrong-" + SECRET), {})
    with Journal(tmp_path / "state", "t1") as journal:
        link = MqttLink(settings.mqtt, "t1", journal, state=state_payload, on_command=print)
        try:
            link.start()
            deadline = time.monotonic() + 10
            while not link.status()["last_error"]:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            status = link.status()
            assert status["connected"] is False
            assert "refused" in status["last_error"]
        finally:
            link.stop()
    assert SECRET not in caplog.text and SECRET not in str(status)


def test_unusable_ca_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "ca.crt").write_text("not a certificate")
    path = tmp_path / "settings.toml"
    path.write_text('[mqtt.tls]\nenabled = true\nca_file = "ca.crt"\n')
    settings = load_settings(path, {})
    with (
        Journal(tmp_path / "state", "t1") as journal,
        pytest.raises(MqttLinkError, match=r"cannot use the TLS files in \[mqtt.tls\]"),
    ):
        MqttLink(settings.mqtt, "t1", journal, state=state_payload, on_command=print)


def make_client_cert(folder: Path, phrase: str) -> None:
    openssl("req", "-newkey", "rsa:2048", "-passout", f"pass:{phrase}", "-subj", "/CN=table",
            "-keyout", "client.key", "-out", "client.csr", cwd=folder)  # fmt: skip
    openssl("x509", "-req", "-in", "client.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
            "-CAcreateserial", "-days", "2", "-out", "client.crt", cwd=folder)  # fmt: skip


@pytest.mark.process
@pytest.mark.broker
def test_client_certificate_with_an_encrypted_key(tmp_path: Path) -> None:
    phrase = "key-Phrase-9"
    certs = tmp_path / "certs"
    make_ca_and_server_cert(certs)
    make_client_cert(certs, phrase)
    extra = (
        f"cafile {certs / 'ca.crt'}\ncertfile {certs / 'server.crt'}\n"
        f"keyfile {certs / 'server.key'}\nrequire_certificate true\n"
    )
    with Mosquitto(tmp_path / "mosquitto", extra=extra) as broker:
        path = tmp_path / "settings.toml"
        path.write_text(
            f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\nkeepalive = 5\n'
            '[mqtt.tls]\nenabled = true\nca_file = "certs/ca.crt"\n'
            'cert_file = "certs/client.crt"\nkey_file = "certs/client.key"\n'
            'key_passphrase_env = "KEY_PHRASE"\n'
        )
        settings = load_settings(path, {}, environ={"KEY_PHRASE": phrase})
        assert phrase not in repr(settings)
        with Journal(tmp_path / "state", "t1") as journal:
            link = MqttLink(settings.mqtt, "t1", journal, state=state_payload, on_command=print)
            try:
                link.start()
                assert link.wait_connected(10), link.status()
            finally:
                link.stop()
