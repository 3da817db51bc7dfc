"""The table service's paho clients, made from its `[mqtt]` settings: the user, the
password and `[mqtt.tls]` turned into `mqttweb.client.new_client`'s arguments, where
every client of the project is made. The table's link (`service.mqtt.link`) and
`domino-table doctor` both take theirs from `table_client`.
"""

from __future__ import annotations

from collections.abc import Mapping

import paho.mqtt.client as mqtt

from config.settings import MqttSettings, TlsSettings
from mqttweb.client import MqttTls, TlsFileError, new_client

__all__ = ["SETTINGS_NAMES", "MqttLinkError", "table_client", "tls_of"]

SETTINGS_NAMES: Mapping[str, str] = {
    "ca_file": "mqtt.tls.ca_file",
    "cert_file": "mqtt.tls.cert_file",
    "key_file": "mqtt.tls.key_file",
    "key_passphrase": "mqtt.tls.key_passphrase_file (or key_passphrase_env)",
}
"""What a TLS problem calls each file: its key in the settings."""


class MqttLinkError(Exception):
    """The table's MQTT client cannot be set up (bad TLS files, say)."""


def tls_of(tls: TlsSettings) -> MqttTls | None:
    """`[mqtt.tls]` as the TLS of a client (None: plain MQTT)."""
    if not tls.enabled:
        return None
    passphrase = tls.key_passphrase.get_secret_value() if tls.key_passphrase else None
    return MqttTls(
        ca_file=tls.ca_file,
        cert_file=tls.cert_file,
        key_file=tls.key_file,
        key_passphrase=passphrase,
        insecure=tls.insecure,
        names=SETTINGS_NAMES,
    )


def table_client(settings: MqttSettings, client_id: str) -> mqtt.Client:
    """A paho client (MQTT 5) for the table's broker, as `[mqtt]` says: its user and
    password and its TLS, the files checked now (`MqttLinkError` naming the setting)."""
    password = settings.password.get_secret_value() if settings.password is not None else None
    try:
        return new_client(client_id, settings.username, password, tls_of(settings.tls), v5=True)
    except TlsFileError as exc:
        raise MqttLinkError(
            f"mqtt: cannot use the TLS files in [mqtt.tls] ({exc}): check {exc.flag}"
        ) from exc
