"""The display's settings, validated once at start-up."""

from __future__ import annotations

import re
import ssl
from dataclasses import dataclass, field

from display.errors import SettingsError
from mqttweb.client import MqttTls, port_problem

TABLE_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")  # each is used with fullmatch
TOPIC_PREFIX = re.compile(r"[^/+#\x00]+(/[^/+#\x00]+)*")
LANGUAGES = ("en", "es")
THEMES = ("sun", "dark", "auto")
CLOCK_TIME = re.compile(r"([01]\d|2[0-3]):[0-5]\d")
PIN = re.compile(r"[\x21-\x7e]{4,64}")


@dataclass(frozen=True)
class DisplayServerSettings:
    """Where to find the broker, which table to show and where to serve the page.

    `language` None means: the table's own choice (`state.language`), else English.
    `reply_timeout_s` is how long a command waits for the table's reply, and
    `history_timeout_s` how long the History page's asks do (a long game's record is
    a large reply).
    `mqtt_tls` None means plain MQTT; `https` None means the page is served over plain
    HTTP (else this server context, from `display.https.https_context`). `command_pin`
    None means the page's command buttons are open to anyone who can reach it; with a
    PIN, `pin_tries` wrong PINs in a row from one address lock it out for
    `pin_lockout_s`, and each wrong one is answered after `pin_delay_s`. `theme` is the
    page's look unless a screen chose its own: `sun`, `dark`, or `auto` (sun from
    `day_starts` to `day_ends` by the screen's clock). `awtrix` (with `awtrix_app`) and
    `wled` name the table's clock and strip, which the `/outputs` page shows.
    """

    table: str
    mqtt_host: str = "localhost"
    mqtt_port: int = 1883
    mqtt_username: str | None = None
    mqtt_password: str | None = field(default=None, repr=False)
    http_host: str = "0.0.0.0"
    http_port: int = 8080
    language: str | None = None
    reply_timeout_s: float = 5.0
    history_timeout_s: float = 15.0  # the History page's asks: a long game makes a large reply
    heartbeat_s: float = 5.0
    topic_prefix: str | None = None
    mqtt_tls: MqttTls | None = None
    command_pin: str | None = field(default=None, repr=False)
    https: ssl.SSLContext | None = field(default=None, repr=False, compare=False)
    pin_tries: int = 5
    pin_lockout_s: float = 60.0
    pin_delay_s: float = 0.5
    theme: str = "auto"
    day_starts: str = "07:00"
    day_ends: str = "19:00"
    awtrix: str | None = None  # the table's AWTRIX clock's MQTT prefix, for /outputs
    awtrix_app: str = "domino"
    wled: str | None = None  # the table's WLED strip's MQTT topic, for /outputs

    def __post_init__(self) -> None:
        if not TABLE_ID.fullmatch(self.table) or self.table == "tournament":
            raise SettingsError(
                f"table id {self.table!r} is not valid: use lower-case letters, digits, "
                "'_' and '-', starting with a letter or digit (and not 'tournament')"
            )
        problem = port_problem(self.mqtt_port, self.http_port)
        if problem is not None:
            raise SettingsError(problem)
        if self.language is not None and self.language not in LANGUAGES:
            raise SettingsError(f"language {self.language!r} is not one of {LANGUAGES}")
        if min(self.reply_timeout_s, self.history_timeout_s, self.heartbeat_s) <= 0:
            raise SettingsError("reply timeouts and heartbeat must be positive seconds")
        if self.topic_prefix is not None and not TOPIC_PREFIX.fullmatch(self.topic_prefix):
            raise SettingsError(
                f"topic prefix {self.topic_prefix!r} is not valid: topic levels joined by '/', "
                "without '+', '#' or a '/' at either end"
            )
        if self.mqtt_password is not None and self.mqtt_username is None:
            raise SettingsError("an MQTT password needs an MQTT username (--mqtt-username)")
        if self.command_pin is not None and not PIN.fullmatch(self.command_pin):
            raise SettingsError(
                "the command PIN must be 4 to 64 letters, digits or signs, without spaces "
                "(--command-pin-file)"
            )
        if self.pin_tries < 1 or self.pin_lockout_s < 0 or self.pin_delay_s < 0:
            raise SettingsError("PIN tries must be at least 1, lock-out and delay not negative")
        self._check_look_and_devices()

    def _check_look_and_devices(self) -> None:
        if self.theme not in THEMES:
            raise SettingsError(f"theme {self.theme!r} is not one of {THEMES}")
        for name, topic in (("AWTRIX prefix", self.awtrix), ("WLED topic", self.wled)):
            if topic is not None and not TOPIC_PREFIX.fullmatch(topic):
                raise SettingsError(
                    f"{name} {topic!r} is not valid: topic levels joined by '/', "
                    "without '+', '#' or a '/' at either end"
                )
        for hhmm in (self.day_starts, self.day_ends):
            if not CLOCK_TIME.fullmatch(hhmm):
                raise SettingsError(f"{hhmm!r} is not a time of day: write HH:MM, e.g. 07:30")

    @property
    def look(self) -> dict[str, str]:
        """What the page needs to choose its theme (`/look.js`)."""
        return {"theme": self.theme, "day_starts": self.day_starts, "day_ends": self.day_ends}

    @property
    def prefix(self) -> str:
        """The table's topic prefix: `domino/<table>` unless set otherwise."""
        return self.topic_prefix or f"domino/{self.table}"
