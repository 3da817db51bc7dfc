"""Settings are checked once, with messages that say what to fix."""

from __future__ import annotations

import pytest

from display.errors import SettingsError
from display.settings import DisplayServerSettings


def test_defaults_and_prefix() -> None:
    settings = DisplayServerSettings(table="cafe-2")
    assert settings.prefix == "domino/cafe-2"
    assert DisplayServerSettings(table="t1", topic_prefix="club/room1/t1").prefix == "club/room1/t1"


def test_the_password_is_never_in_the_repr() -> None:
    settings = DisplayServerSettings(table="t1", mqtt_username="display", mqtt_password="s3cret")
    assert "s3cret" not in repr(settings)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"table": "Table 1"}, "table id"),
        ({"table": "tournament"}, "table id"),
        ({"table": "t1", "mqtt_port": 70000}, "mqtt port"),
        ({"table": "t1", "language": "fr"}, "language"),
        ({"table": "t1", "reply_timeout_s": 0}, "positive"),
        ({"table": "t1", "history_timeout_s": -1.0}, "positive"),
        ({"table": "t1", "mqtt_password": "x"}, "needs an MQTT username"),
        ({"table": "t1", "topic_prefix": "domino/#"}, "topic prefix"),
        ({"table": "t1", "topic_prefix": "domino/t1/"}, "topic prefix"),
    ],
)
def test_bad_settings_are_refused(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(SettingsError, match=words):
        DisplayServerSettings(**kwargs)  # type: ignore[arg-type]
