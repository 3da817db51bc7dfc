"""The shipped Mosquitto configuration (config/mosquitto/) running for real in a tmp dir.

`secure.conf` and `acl.conf` are used as shipped: only the paths under /etc and the
ports are pointed into the test's folder. The server certificate comes from a throwaway
CA made with openssl once per test process and copied into that folder (no key is ever
committed; its two RSA keys cost about half a second of CPU, and some forty brokers use
them). The password file is made with mosquitto_passwd.
"""

from __future__ import annotations

import atexit
import functools
import re
import shutil
import ssl
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from tests.fixtures.mosquitto import Mosquitto, free_port
from tests.fixtures.tiers import needs

CONFIG = Path(__file__).resolve().parents[2] / "config" / "mosquitto"
SECURE_CONF = CONFIG / "secure.conf"
ACL_CONF = CONFIG / "acl.conf"

# user -> password, as an administrator would make them with mosquitto_passwd
USERS = {
    "domino/kitchen": "Kitchen-table-pw-71",
    "domino/patio": "Patio-table-pw-52",
    "display-kitchen": "Display-pw-33",
    "referee": "Referee-pw-94",
    "desk": "Desk-pw-18",
}


def openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def make_ca_and_server_cert(folder: Path) -> None:
    """ca.crt, server.crt and server.key (for 127.0.0.1 and localhost) in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-subj", "/CN=domino test CA", "-keyout", "ca.key", "-out", "ca.crt",
            cwd=folder)  # fmt: skip
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
            "-keyout", "server.key", "-out", "server.csr", cwd=folder)  # fmt: skip
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
            "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "server.crt",
            cwd=folder)  # fmt: skip


@functools.cache
def throwaway_ca() -> Path:
    """A folder of `make_ca_and_server_cert`'s files, made on first use in this process."""
    folder = Path(tempfile.mkdtemp(prefix="domino-test-ca-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    make_ca_and_server_cert(folder)
    return folder


def make_password_file(path: Path, users: dict[str, str]) -> None:
    path.write_text("")
    for user, password in users.items():
        subprocess.run(["mosquitto_passwd", "-b", str(path), user, password], check=True)


class SecureBroker(Mosquitto):
    """Mosquitto running config/mosquitto/secure.conf (and through it acl.conf)."""

    def __init__(self, workdir: Path) -> None:
        super().__init__(workdir)  # self.port: the TLS listener
        self.plain_port = free_port()  # the loopback-only plain listener
        self.certs = workdir / "certs"
        self.passwd = workdir / "passwd"
        shutil.copytree(throwaway_ca(), self.certs)
        make_password_file(self.passwd, USERS)

    def config_text(self) -> str:
        text = SECURE_CONF.read_text()
        for shipped, here in (
            ("/etc/mosquitto/domino/passwd", self.passwd),
            ("/etc/mosquitto/domino/acl.conf", ACL_CONF),
            ("/etc/mosquitto/certs", self.certs),
        ):
            assert shipped in text, f"secure.conf no longer names {shipped}"
            text = text.replace(shipped, str(here))
        text, n_tls = re.subn(r"(?m)^listener 8883$", f"listener {self.port} 127.0.0.1", text)
        text, n_plain = re.subn(
            r"(?m)^listener 1883 127\.0\.0\.1$", f"listener {self.plain_port} 127.0.0.1", text
        )
        assert (n_tls, n_plain) == (1, 1), "secure.conf's listeners changed"
        # The fixture's own lines (persistence, log file, `user root`), minus its
        # listener and anonymous access: they must come from secure.conf alone.
        base = [
            line
            for line in super().config_text().splitlines()
            if not line.startswith(("listener ", "allow_anonymous "))
        ]
        return "\n".join(base) + "\n" + text

    def listener_ports(self) -> list[int]:
        return [self.port, self.plain_port]  # the plain one can open after the TLS one

    def choose_ports(self) -> None:
        super().choose_ports()
        self.plain_port = free_port()


@pytest.fixture
@needs("broker", "process")
def secure_broker(tmp_path: Path) -> Iterator[SecureBroker]:
    with SecureBroker(tmp_path / "mosquitto") as broker:
        yield broker


@dataclass(frozen=True)
class Message:
    topic: str
    payload: bytes


class Client:
    """A paho client with a user name over TLS that records what it receives."""

    def __init__(
        self, broker: SecureBroker, user: str | None, password: str | None = None, *,
        tls: bool = True, ca_file: Path | None = None,
    ) -> None:  # fmt: skip
        self.received: list[Message] = []
        self.refused: ReasonCode | None = None
        self._cond = threading.Condition()
        self._connected = threading.Event()
        self._answered = threading.Event()
        self._subacks: dict[int, list[ReasonCode]] = {}
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        if user is not None:
            self.client.username_pw_set(user, password if password is not None else USERS[user])
        if tls:
            ca = ca_file or broker.certs / "ca.crt"
            self.client.tls_set(ca_certs=str(ca), cert_reqs=ssl.CERT_REQUIRED)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe
        self.port = broker.port if tls else broker.plain_port
        self.host = broker.host

    def connect(self, timeout: float = 30.0) -> bool:
        """True when the broker accepted us; False when it refused (see `refused`).

        Raises TimeoutError when no CONNACK came at all (a hang guard, set for a loaded
        runner: at a load of 15 on two cores a TLS CONNACK took over 10 s), OSError
        (ssl.SSLError) when the connection itself failed."""
        self.client.connect(self.host, self.port, keepalive=10)
        self.client.loop_start()
        if not self._answered.wait(timeout):
            raise TimeoutError(f"no CONNACK on port {self.port} within {timeout:g} s")
        return self._connected.is_set()

    def _on_connect(self, client: mqtt.Client, userdata: object, flags: object,
                    reason: ReasonCode, properties: object) -> None:  # fmt: skip
        if reason.is_failure:
            self.refused = reason
        else:
            self._connected.set()
        self._answered.set()

    def _on_message(self, client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        with self._cond:
            self.received.append(Message(msg.topic, bytes(msg.payload)))
            self._cond.notify_all()

    def _on_subscribe(self, client: mqtt.Client, userdata: object, mid: int,
                      codes: list[ReasonCode], properties: object) -> None:  # fmt: skip
        with self._cond:
            self._subacks[mid] = codes
            self._cond.notify_all()

    def subscribe(self, topic: str, timeout: float = 5.0) -> bool:
        """Subscribe and wait for the SUBACK: True when the broker granted it."""
        _, mid = self.client.subscribe(topic, qos=1)
        assert mid is not None
        with self._cond:
            assert self._cond.wait_for(lambda: mid in self._subacks, timeout), "no SUBACK"
            return not any(code.is_failure for code in self._subacks[mid])

    def publish(self, topic: str, payload: bytes | str, retain: bool = False) -> None:
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        info.wait_for_publish(5)

    def wait_for(self, topic: str, payload: bytes | None = None, timeout: float = 10.0) -> Message:
        def found() -> Message | None:
            for m in self.received:
                if m.topic == topic and (payload is None or m.payload == payload):
                    return m
            return None

        with self._cond:
            assert self._cond.wait_for(lambda: found() is not None, timeout), (
                f"{topic} {payload!r} never arrived; got {self.received[-10:]}"
            )
            message = found()
            assert message is not None
            return message

    def topics(self) -> set[str]:
        with self._cond:
            return {m.topic for m in self.received}

    def payloads(self, topic: str) -> list[bytes]:
        with self._cond:
            return [m.payload for m in self.received if m.topic == topic]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def settle(seconds: float = 0.5) -> None:
    """Give a message the broker dropped the time it would have needed to arrive."""
    time.sleep(seconds)
