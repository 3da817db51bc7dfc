"""`[outputs.*]` and `[display] theme`: off unless written, checked like every section."""

from __future__ import annotations

from pathlib import Path

import pytest

from config import Settings, SettingsError, load_settings
from config.outputs import AwtrixSettings, VoiceSettings, WledSettings
from config.settings import Theme


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "settings.toml"
    path.write_text(text)
    return path


def problems(path: Path) -> list[str]:
    with pytest.raises(SettingsError) as info:
        load_settings(path)
    return list(info.value.problems)


def test_every_output_is_off_by_default_and_the_theme_follows_the_day() -> None:
    s = load_settings(None, {})
    assert (s.outputs.awtrix, s.outputs.wled, s.outputs.voice) == (None, None, None)
    assert s.display.theme is Theme.AUTO
    assert (s.display.day_starts, s.display.day_ends) == ("07:00", "19:00")
    assert s == Settings()


def test_the_sections_as_the_spec_writes_them(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
[outputs.awtrix]
prefix = "awtrix_1a2b3c"

[outputs.wled]
topic = "wled/table1"
seats = [[0, 30], [30, 60], [60, 90], [90, 120]]

[outputs.voice]

[display]
theme = "sun"
""",
    )
    s = load_settings(path)
    assert s.outputs.awtrix == AwtrixSettings(prefix="awtrix_1a2b3c", app="domino")
    assert s.outputs.wled == WledSettings(
        topic="wled/table1", seats=((0, 30), (30, 60), (60, 90), (90, 120))
    )
    assert s.outputs.voice == VoiceSettings(volume=100, rate=160)
    assert s.display.theme is Theme.SUN
    assert s.redacted()["outputs"]["wled"]["seats"] == [[0, 30], [30, 60], [60, 90], [90, 120]]


def test_a_wrong_key_names_the_file_the_key_and_what_is_allowed(tmp_path: Path) -> None:
    path = write(tmp_path, '[outputs.awtrix]\nprefix = "awtrix_1"\nap = "scores"\n')
    assert problems(path) == [
        f"{path}: outputs.awtrix.ap: unknown key: did you mean 'app'? "
        "allowed in [outputs.awtrix]: prefix, app"
    ]
    path = write(tmp_path, "[outputs.voise]\n")
    assert problems(path) == [
        f"{path}: outputs.voise: unknown key: did you mean 'voice'? "
        "allowed in [outputs]: awtrix, wled, voice"
    ]


def test_bad_values_are_refused_each_with_its_key(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
[table]
seats = 2

[outputs.awtrix]
prefix = "awtrix/#"
app = "my app"

[outputs.wled]
topic = "wled/t1"
seats = [[0, 30], [25, 60]]

[outputs.voice]
volume = 300
rate = "fast"

[display]
theme = "sunny"
day_starts = "7:00"
""",
    )
    assert problems(path) == [
        f"{path}: display.theme: 'sunny' is not allowed: use 'sun', 'dark' or 'auto'",
        f"{path}: display.day_starts: '7:00' is not a time of day: write HH:MM, e.g. \"07:30\"",
        f"{path}: outputs.awtrix.prefix: 'awtrix/#' is not a topic prefix: '+' and '#' are "
        "wildcards",
        f"{path}: outputs.awtrix.app: 'my app' is not an AWTRIX app name: use 1-32 letters, "
        "digits, '_' or '-'",
        f"{path}: outputs.wled.seats: the LEDs of seats 0 and 1 overlap",
        f"{path}: outputs.voice.volume: 300 is not a volume (0-200)",
        f"{path}: outputs.voice.rate: expected an integer, got 'fast' (a string)",
    ]


@pytest.mark.parametrize(
    ("seats", "why"),
    [
        ('[[0, 30], [30, "60"]]', "expected one [start, stop] of whole numbers per seat"),
        ("[[0, 30], [60, 30]]", "seat 1's [60, 30] is not a run of LEDs"),
        ("[[0, 30], [30, 70000]]", "seat 1's [30, 70000] is not a run of LEDs"),
        ("[[0, 30, 60], [30, 60]]", "expected one [start, stop] of whole numbers per seat"),
        ('"0-30"', "expected one [start, stop] of whole numbers per seat"),
    ],
)
def test_each_seat_needs_a_run_of_leds_of_its_own(tmp_path: Path, seats: str, why: str) -> None:
    path = write(tmp_path, f'[table]\nseats = 2\n[outputs.wled]\ntopic = "w"\nseats = {seats}\n')
    (line,) = problems(path)
    assert line.startswith(f"{path}: outputs.wled.seats: {why}")


def test_the_outputs_need_a_broker_and_a_strip_per_seat(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
[mqtt]
enabled = false

[outputs.awtrix]
prefix = "awtrix_1"

[outputs.wled]
topic = "wled/t1"
seats = [[0, 30], [30, 60]]

[outputs.voice]
""",
    )
    assert problems(path) == [
        f"{path}: outputs.awtrix: the device is reached over MQTT, but mqtt.enabled is false: "
        "enable [mqtt] or remove the section",
        f"{path}: outputs.wled: the device is reached over MQTT, but mqtt.enabled is false: "
        "enable [mqtt] or remove the section",
        f"{path}: outputs.wled.seats: 2 runs of LEDs for 4 seats: give one [start, stop) per seat",
    ]
