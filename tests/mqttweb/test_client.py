"""`mqttweb.client.new_client`: the one place a paho client is made, with its user, TLS
and reconnect delay; `MqttTls` names the flag (or setting) of a file it cannot use."""

from __future__ import annotations

import ast
import socket
import ssl
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from mqttweb.client import FLAGS, RECONNECT_S, MqttTls, TlsFileError, new_client
from tests.fixtures.mosquitto import Mosquitto

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("engine", "vision", "tablesim", "firmware_bridge", "hardware", "config", "service",
           "demo", "display", "tournament", "mqttweb", "cli")  # fmt: skip


def constructions(path: Path) -> list[int]:
    """The lines of `path` that construct a paho `Client` (`mqtt.Client(...)`, `Client(...)`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Attribute) and node.func.attr == "Client")
            or (isinstance(node.func, ast.Name) and node.func.id == "Client")
        )
    ]


@pytest.mark.slow
def test_every_paho_client_of_the_product_is_made_by_new_client() -> None:
    found = {
        str(path.relative_to(ROOT)): lines
        for package in PRODUCT
        for path in sorted((ROOT / package).rglob("*.py"))
        if (lines := constructions(path))
    }
    assert found == {"mqttweb/client.py": [found["mqttweb/client.py"][0]]}


def test_a_client_gets_its_user_its_tls_and_the_reconnect_delay(tmp_path: Path) -> None:
    """(paho keeps the TLS context and the delays private: read here, where paho's own
    behaviour with them is not what is tested; the secure brokers of tests/security and
    tests/service/mqtt/test_auth.py test the connections.)"""
    client = new_client("t1", "kitchen", "pw", MqttTls(insecure=True), v5=True)
    assert client.protocol == mqtt.MQTTv5
    assert client.username == "kitchen" and client.password == "pw"
    context = client._ssl_context
    assert isinstance(context, ssl.SSLContext) and context.verify_mode is ssl.CERT_REQUIRED
    assert not context.check_hostname  # insecure: the host name only, never the CA
    assert (client._reconnect_min_delay, client._reconnect_max_delay) == RECONNECT_S
    plain = new_client()
    assert plain.protocol == mqtt.MQTTv311 and plain.username is None
    assert plain._ssl_context is None


SETTING = {"ca_file": "a.ca", "cert_file": "a.cert", "key_file": "a.key", "key_passphrase": "a.pw"}


@pytest.mark.parametrize("names", [FLAGS, SETTING])
def test_a_file_tls_cannot_use_is_named_as_its_user_knows_it(
    tmp_path: Path, names: dict[str, str]
) -> None:
    bad = tmp_path / "ca.crt"
    bad.write_text("not a certificate")
    with pytest.raises(TlsFileError, match="holds no PEM CA certificate") as caught:
        new_client("t1", tls=MqttTls(ca_file=bad, names=names))
    assert caught.value.flag == names["ca_file"]
    with pytest.raises(TlsFileError, match="does not exist") as caught:
        MqttTls(ca_file=tmp_path / "gone.crt", names=names).context()
    assert caught.value.flag == names["ca_file"]
    with pytest.raises(TlsFileError) as caught:
        MqttTls(cert_file=bad, names=names)
    assert caught.value.flag == names["cert_file"]
    assert f"give {names['key_file']} too" in str(caught.value)


@pytest.mark.broker
def test_a_client_sends_each_message_at_once(broker: Mosquitto) -> None:
    """TCP_NODELAY on the client's socket, set as it opens (paho leaves Nagle's algorithm
    on: a small message waited for the ACK of the one before), and on the broker's side
    too, where every shipped Mosquitto config asks for it."""
    client = new_client("nodelay")
    opened = threading.Event()
    client.on_connect = lambda c, *a: opened.set()
    client.connect(broker.host, broker.port)
    client.loop_start()
    try:
        assert opened.wait(10)
        sock = client.socket()
        assert isinstance(sock, socket.socket)
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
    finally:
        client.disconnect()
        client.loop_stop()
    for conf in ("secure.conf", "central.conf", "table-bridge.conf"):
        lines = (ROOT / "config" / "mosquitto" / conf).read_text(encoding="utf-8").splitlines()
        assert "set_tcp_nodelay true" in lines, conf
