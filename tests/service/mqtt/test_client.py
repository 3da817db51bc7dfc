"""`service.mqtt.client.table_client`: the table's paho client from `[mqtt]`; a TLS file it
cannot use is a `MqttLinkError` naming the setting (the same client for the link and doctor)."""

from __future__ import annotations

from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from config import load_settings
from service.mqtt.client import MqttLinkError, table_client


def test_the_tables_client_speaks_mqtt_5_with_its_user(tmp_path: Path) -> None:
    (tmp_path / "pw").write_text("s3cret\n")
    path = tmp_path / "settings.toml"
    path.write_text('[mqtt]\nusername = "kitchen"\npassword_file = "pw"\n')
    client = table_client(load_settings(path, {}).mqtt, "t1-doctor")
    assert client.protocol == mqtt.MQTTv5
    assert (client.username, client.password) == ("kitchen", "s3cret")


@pytest.mark.parametrize(
    ("tls", "setting"),
    [
        ('ca_file = "ca.crt"', "mqtt.tls.ca_file"),
        ('cert_file = "ca.crt"\nkey_file = "ca.crt"', "mqtt.tls.cert_file"),
    ],
)
def test_an_unusable_tls_file_names_its_setting(tmp_path: Path, tls: str, setting: str) -> None:
    (tmp_path / "ca.crt").write_text("not a certificate")
    path = tmp_path / "settings.toml"
    path.write_text(f"[mqtt.tls]\nenabled = true\n{tls}\n")
    with pytest.raises(MqttLinkError, match=r"cannot use the TLS files in \[mqtt.tls\]") as caught:
        table_client(load_settings(path, {}).mqtt, "t1")
    assert str(caught.value).endswith(f"check {setting}")
