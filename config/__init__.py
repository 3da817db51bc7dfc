"""Settings: the schema of `settings.toml`, its defaults and its loader.

    from config import load_settings
    settings = load_settings(Path("settings.toml"), {"serial.port": "/dev/ttyACM0"})

Settings are validated once at start-up into frozen models; problems are raised
together in one `SettingsError` naming the file or flag, the key and what is allowed.
"""

from __future__ import annotations

from config.errors import ConfigError, SettingsError
from config.loader import DEFAULTS_FILE, flag_of, load_settings
from config.settings import (
    CameraSettings,
    CameraSourceKind,
    CameraTone,
    DisplaySettings,
    Language,
    MqttSettings,
    SerialSettings,
    Settings,
    StateSettings,
    TableSettings,
    TlsSettings,
)

__all__ = [
    "DEFAULTS_FILE",
    "CameraSettings",
    "CameraSourceKind",
    "CameraTone",
    "ConfigError",
    "DisplaySettings",
    "Language",
    "MqttSettings",
    "SerialSettings",
    "Settings",
    "SettingsError",
    "StateSettings",
    "TableSettings",
    "TlsSettings",
    "flag_of",
    "load_settings",
]
