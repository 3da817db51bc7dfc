"""Every paho client of the project is made here (`new_client`: the user and password,
TLS, the reconnect delay), for the display, the desk, the table service and the demo;
the MQTT TLS flags of the display and the desk (checked once at start-up); why a
connection failed; and the one way from paho's thread into the asyncio loop.

TLS is `MqttTls`, checked when its context is made. The flags mirror the table
service's `[mqtt.tls]` settings (which make an `MqttTls` too, `service.mqtt.client`):
`--mqtt-tls` turns TLS on (the system's CAs unless `--mqtt-ca-file`), `--mqtt-cert-file`
and `--mqtt-key-file` give a client certificate (`--mqtt-key-passphrase-file` when its
key is encrypted), and `--mqtt-tls-insecure` skips the check of the broker's host name
(never of its CA).
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import click
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])


class TlsFileError(ValueError):
    """A TLS file cannot be used; `flag` names its flag (or setting), the message says why."""

    def __init__(self, flag: str, message: str) -> None:
        super().__init__(message)
        self.flag = flag


FLAGS: Mapping[str, str] = {
    "ca_file": "--mqtt-ca-file",
    "cert_file": "--mqtt-cert-file",
    "key_file": "--mqtt-key-file",
    "key_passphrase": "--mqtt-key-passphrase-file",
}
"""What `MqttTls`'s messages call each of its files: the display's and the desk's flags."""


def _read(flag: str, path: Path) -> bytes:
    if not path.exists():
        raise TlsFileError(flag, f"{path} does not exist")
    try:
        return path.read_bytes()
    except OSError as exc:
        raise TlsFileError(flag, f"cannot read {path}: {exc.strerror}") from exc


@dataclass(frozen=True)
class MqttTls:
    """TLS for one MQTT connection; `context()` checks the files and builds it. `names`
    says what the messages call each file (the flags by default; the table service's
    settings keys for `[mqtt.tls]`)."""

    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None
    key_passphrase: str | None = field(default=None, repr=False)
    insecure: bool = False
    names: Mapping[str, str] = field(default_factory=lambda: FLAGS, repr=False, compare=False)

    def __post_init__(self) -> None:
        cert, key, phrase = (self.names[k] for k in ("cert_file", "key_file", "key_passphrase"))
        if self.cert_file is not None and self.key_file is None:
            raise TlsFileError(cert, f"a client certificate needs its private key: give {key} too")
        if self.key_file is not None and self.cert_file is None:
            raise TlsFileError(key, f"a private key needs its client certificate: give {cert} too")
        if self.key_passphrase is not None and self.key_file is None:
            raise TlsFileError(phrase, f"a key passphrase needs {key}")

    def context(self) -> ssl.SSLContext:
        """The client's SSL context; TlsFileError naming the flag whose file is wrong."""
        context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH)
        if self.ca_file is not None:
            ca = self.names["ca_file"]
            _read(ca, self.ca_file)
            try:
                context.load_verify_locations(cafile=str(self.ca_file))
            except ssl.SSLError as exc:
                raise TlsFileError(
                    ca, f"{self.ca_file} holds no PEM CA certificate ({exc.reason})"
                ) from exc
        if self.cert_file is not None and self.key_file is not None:
            self._client_certificate(context, self.cert_file, self.key_file)
        context.check_hostname = not self.insecure
        return context

    def _client_certificate(self, context: ssl.SSLContext, cert: Path, key: Path) -> None:
        cert_name, key_name, phrase = (
            self.names[k] for k in ("cert_file", "key_file", "key_passphrase")
        )
        if b"-----BEGIN CERTIFICATE-----" not in _read(cert_name, cert):
            raise TlsFileError(cert_name, f"{cert} holds no PEM certificate")
        key_text = _read(key_name, key)
        if b"PRIVATE KEY-----" not in key_text:
            raise TlsFileError(key_name, f"{key} holds no PEM private key")
        if b"ENCRYPTED" in key_text and self.key_passphrase is None:
            raise TlsFileError(key_name, f"{key} is encrypted: give its passphrase with {phrase}")
        try:
            # a passphrase of "" rather than None: OpenSSL must never prompt on a terminal
            context.load_cert_chain(str(cert), str(key), password=self.key_passphrase or "")
        except (ssl.SSLError, ValueError) as exc:  # ValueError: a passphrase over 1 KiB
            hint = "the key must be the certificate's own"
            if self.key_passphrase is not None:
                hint += f", and {phrase} its passphrase"
            raise TlsFileError(
                key_name,
                f"cannot use {key} with the certificate {cert} "
                f"({getattr(exc, 'reason', None) or exc}): {hint}",
            ) from exc

    def apply(self, client: mqtt.Client) -> None:
        client.tls_set_context(self.context())


def port_problem(mqtt_port: int, http_port: int) -> str | None:
    """What is wrong with the display's or desk's ports, if anything: the broker's port
    is a real one (paho refuses 0); the page's may be 0 (any free port)."""
    for name, port, lowest in (("mqtt port", mqtt_port, 1), ("http port", http_port, 0)):
        if not lowest <= port <= 65535:
            return f"{name} {port} is out of range {lowest}..65535"
    return None


def tls_options(command: F) -> F:
    """Add the MQTT TLS flags to a click command (read back with `tls_from_flags`)."""
    file = click.Path(dir_okay=True, path_type=Path)
    options = [
        click.option(
            "--mqtt-tls",
            is_flag=True,
            help="Connect to the broker with TLS (its TLS listener, usually port 8883).",
        ),
        click.option(
            "--mqtt-ca-file",
            type=file,
            default=None,
            help="The CA certificate that signed the broker's  [default: the system's CAs].",
        ),
        click.option(
            "--mqtt-cert-file",
            type=file,
            default=None,
            help="A client certificate (PEM); needs --mqtt-key-file.",
        ),
        click.option(
            "--mqtt-key-file", type=file, default=None, help="The client certificate's private key."
        ),
        click.option(
            "--mqtt-key-passphrase-file",
            type=file,
            default=None,
            help="A file holding the private key's passphrase, when it is encrypted.",
        ),
        click.option(
            "--mqtt-tls-insecure",
            is_flag=True,
            help="Do not check that the broker's certificate names --mqtt-host (its CA still is).",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def tls_from_flags(
    *,
    mqtt_tls: bool,
    mqtt_ca_file: Path | None,
    mqtt_cert_file: Path | None,
    mqtt_key_file: Path | None,
    mqtt_key_passphrase_file: Path | None,
    mqtt_tls_insecure: bool,
) -> MqttTls | None:
    """The TLS the flags ask for (None: plain MQTT), its files checked; a click error
    naming the flag otherwise."""
    given = {
        "--mqtt-ca-file": mqtt_ca_file,
        "--mqtt-cert-file": mqtt_cert_file,
        "--mqtt-key-file": mqtt_key_file,
        "--mqtt-key-passphrase-file": mqtt_key_passphrase_file,
        "--mqtt-tls-insecure": mqtt_tls_insecure or None,
    }
    if not mqtt_tls:
        for flag, value in given.items():
            if value is not None:
                raise click.BadParameter(f"{flag} needs --mqtt-tls", param_hint=f"'{flag}'")
        return None
    passphrase = None
    if mqtt_key_passphrase_file is not None:
        try:
            raw = _read("--mqtt-key-passphrase-file", mqtt_key_passphrase_file)
            passphrase = raw.decode("utf-8").strip()
        except TlsFileError as exc:
            raise click.BadParameter(str(exc), param_hint=f"'{exc.flag}'") from exc
        except UnicodeDecodeError as exc:
            raise click.BadParameter(
                f"{mqtt_key_passphrase_file} is not UTF-8 text",
                param_hint="'--mqtt-key-passphrase-file'",
            ) from exc
    try:
        tls = MqttTls(
            ca_file=mqtt_ca_file,
            cert_file=mqtt_cert_file,
            key_file=mqtt_key_file,
            key_passphrase=passphrase,
            insecure=mqtt_tls_insecure,
        )
        tls.context()
    except TlsFileError as exc:
        raise click.BadParameter(str(exc), param_hint=f"'{exc.flag}'") from exc
    return tls


RECONNECT_S = (1, 2)  # paho waits this long (least, most) before it tries again


def new_client(
    client_id: str = "",
    username: str | None = None,
    password: str | None = None,
    tls: MqttTls | None = None,
    *,
    v5: bool = False,
) -> mqtt.Client:
    """A paho client (VERSION2 callbacks) with the user, TLS (its files checked: a
    `TlsFileError` says which is wrong) and a 1-2 s reconnect: every client of the
    project is made here. `v5`: MQTT 5 (the table's link: a clean start, and reason
    codes on acks), else 3.1.1; `client_id` "" lets the broker name it."""
    protocol = mqtt.MQTTv5 if v5 else mqtt.MQTTv311
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=protocol)
    if username is not None:
        client.username_pw_set(username, password)
    if tls is not None:
        tls.apply(client)
    client.reconnect_delay_set(*RECONNECT_S)
    client.on_socket_open = _no_delay
    return client


def _no_delay(client: mqtt.Client, userdata: Any, sock: Any) -> None:
    """Each message sent at once (TCP_NODELAY): paho leaves Nagle's algorithm on, which
    holds a small packet back while an earlier one waits for its ACK, up to the peer's
    delayed ACK: a reply or an event reached the display milliseconds late, each time.
    The socket is a plain or TLS TCP socket (not for websockets or a Unix socket)."""
    if isinstance(sock, socket.socket) and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def connect_failure(host: str, port: int, tls: MqttTls | None) -> tuple[str, bool]:
    """Why the connection paho is failing now could not be made, with what to check,
    and whether TLS failed (the broker or its certificate was refused: retrying with
    the same flags will not help).

    Call it from `on_connect_fail`: paho calls that inside its `except OSError`, so the
    exception being handled is the one that made the connection fail.
    """
    exc = sys.exc_info()[1]
    where = f"{host}:{port}"
    if isinstance(exc, ssl.SSLCertVerificationError):
        return (
            f"TLS with {where} failed: the broker's certificate was refused "
            f"({exc.verify_message}); --mqtt-ca-file must be the CA that signed it, and "
            "--mqtt-host a name it holds",
            True,
        )
    if isinstance(exc, ssl.SSLError):
        return (
            f"TLS with {where} failed ({exc.reason or exc}); is port {port} the broker's "
            "TLS listener?",
            True,
        )
    if isinstance(exc, OSError) and exc.strerror:
        reason = exc.strerror
    else:
        reason = str(exc) if exc is not None else "no answer"
    return f"cannot reach the broker at {where} ({reason})", False


def handoff(
    loop: asyncio.AbstractEventLoop | None, method: Callable[..., None], *args: Any
) -> None:
    """The one way from paho's thread into the loop (dropped once the loop is closed)."""
    if loop is None:
        return
    try:
        loop.call_soon_threadsafe(method, *args)
    except RuntimeError:  # the loop is closed: the display or desk is stopping
        log.debug("mqtt: loop closed, dropped %s", getattr(method, "__name__", method))
