"""The settings schema: frozen pydantic models, one per section of `settings.toml`.

Values are checked strictly (a TOML string is not a number, `"yes"` is not a boolean),
unknown keys are refused, and secrets are `SecretStr`: they never show in `repr`, logs
or `Settings.redacted()`. Build `Settings` with `config.load_settings`, which also reads
the secrets from their files or environment variables.
"""

from __future__ import annotations

import enum
import os
import re
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationInfo,
    field_validator,
    model_validator,
)

from config.checks import (
    RESERVED_TABLE_IDS,
    TABLE_ID,
    AnyPath,
    DevicePath,
    EnvName,
    ExistingFile,
    NonBlank,
    Port,
    TableId,
    TopicPrefix,
    UsbId,
    between,
    toml_type,
)
from config.outputs import OutputsSettings
from config.panel import PanelSettings
from config.rulesets import check_rules

SYSTEM_STATE_DIR = Path("/var/lib/domino-table")
BAUD_RATES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)
SECRET_KEYS = ("mqtt.password", "mqtt.tls.key_passphrase")


class Section(BaseModel):
    """Base of every settings section: frozen, strict, unknown keys refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class Language(enum.StrEnum):
    EN = "en"
    ES = "es"


class CameraSourceKind(enum.Enum):
    DEVICE = "device"  # a device index (0) or a V4L2 device path (/dev/video0)
    PICAMERA = "picamera"  # the Raspberry Pi camera module, through picamera2
    FOLDER = "folder"
    SIM = "sim"


class CameraTone(enum.StrEnum):
    """Which way round the table's set is coloured: what the detector looks for."""

    LIGHT = "light"  # light tiles, dark or coloured pips (ivory, white): the cheapest
    DARK = "dark"  # dark tiles, light pips (black, navy)
    GREY = "grey"  # coloured faces with darker pips (wood, bone)
    AUTO = "auto"  # light, dark, grey in turn until one reads confidently (up to 3x the work)


class Surface(Section):
    """The play surface in whole millimetres (the board's and the camera's frame)."""

    width_mm: Annotated[int, between(100, 5000)] = 900
    height_mm: Annotated[int, between(100, 5000)] = 600


class TileSize(Section):
    """The size of one tile in millimetres (a standard tile is 48 x 24)."""

    length: Annotated[int, between(10, 200)] = 48
    width: Annotated[int, between(5, 100)] = 24

    @model_validator(mode="after")
    def _longer_than_wide(self) -> TileSize:
        if self.length <= self.width:
            raise ValueError(
                f"table.tile_mm: length {self.length} must be more than width {self.width}"
            )
        return self


class TableSettings(Section):
    id: TableId = "table"
    rules: Annotated[str, Field(min_length=1)] = "walnut"
    seats: Annotated[int, between(2, 10, "a number of seats")] = 4
    names: tuple[Annotated[NonBlank, Field(max_length=32)], ...] = Field(default=(), strict=False)
    teams: tuple[Annotated[int, between(0, 9, "a team number")], ...] = Field(
        default=(), strict=False
    )
    target: Annotated[int, between(1, 100000, "a target score")] | None = None
    language: Language = Field(default=Language.EN, strict=False)
    surface: Surface = Surface()
    tile_mm: TileSize = TileSize()

    @field_validator("rules")
    @classmethod
    def _rules(cls, value: str, info: ValidationInfo) -> str:
        return check_rules(value, (info.context or {}).get("base_dir"))

    @model_validator(mode="after")
    def _per_seat_lists(self) -> TableSettings:
        problems = []
        if self.names and len(self.names) != self.seats:
            problems.append(
                f"table.names: {len(self.names)} names for {self.seats} seats: "
                "give one name per seat, or none"
            )
        if self.teams:
            if len(self.teams) != self.seats:
                problems.append(
                    f"table.teams: {len(self.teams)} team numbers for {self.seats} seats: "
                    "give one team number per seat (e.g. [0, 1, 0, 1]), or none"
                )
            elif len(set(self.teams)) < 2 or sorted(set(self.teams)) != list(
                range(len(set(self.teams)))
            ):
                problems.append("table.teams: number the teams 0, 1, ... with at least two teams")
        if problems:
            raise ValueError("\n".join(problems))
        return self


class SerialSettings(Section):
    enabled: bool = False
    port: DevicePath | None = None
    usb: UsbId | None = None
    baud: int = 115200

    @field_validator("baud")
    @classmethod
    def _baud(cls, value: int) -> int:
        if value not in BAUD_RATES:
            raise ValueError(
                f"{value} is not a supported baud rate ({', '.join(map(str, BAUD_RATES))})"
            )
        return value

    @property
    def usb_id(self) -> tuple[int, int] | None:
        """`usb` as numbers: (vendor id, product id), or None."""
        if self.usb is None:
            return None
        vendor, product = self.usb.split(":")
        return int(vendor, 16), int(product, 16)

    @model_validator(mode="after")
    def _where(self) -> SerialSettings:
        if self.enabled and self.port is None and self.usb is None:
            raise ValueError(
                "serial: the board is enabled but neither serial.port "
                "(e.g. /dev/serial/by-id/...) nor serial.usb (vid:pid) is set"
            )
        return self


def _camera_source(value: Any, info: ValidationInfo) -> int | str:
    if type(value) is int:
        if value < 0:
            raise ValueError(f"{value} is not a camera device index (0 or more)")
        return value
    if not isinstance(value, str) or not value.strip():
        raise ValueError(
            "expected a device index, a device path, a folder of images, "
            f'"picamera" or "sim", got {toml_type(value)}'
        )
    if value in ("sim", "picamera"):
        return value
    if value.startswith("/dev/"):
        # A camera may be plugged in after start-up: the path need not exist yet (doctor
        # says whether it does), but it must name a V4L2 capture device.
        if not _VIDEO_DEVICE.fullmatch(value):
            raise ValueError(
                f"{value} is not a camera device: use /dev/videoN (or a stable "
                '/dev/v4l/by-id/... link), a device index, a folder, "picamera" or "sim"'
            )
        return value
    folder = Path(value).expanduser()
    base = (info.context or {}).get("base_dir")
    if not folder.is_absolute() and isinstance(base, Path):
        folder = base / folder
    if not folder.is_dir():
        raise ValueError(
            f"{folder} is not a folder of images: use a device index (0), a device path "
            '(/dev/video0), a folder, "picamera" or "sim"'
        )
    return str(folder)


_VIDEO_DEVICE = re.compile(r"/dev/(video\d{1,3}|v4l/by-(id|path)/[\w.:+@-]+)")


class CameraSettings(Section):
    enabled: bool = False
    source: int | str = "sim"
    fps: Annotated[int, between(1, 60, "a frame rate")] = 10
    tone: CameraTone = Field(default=CameraTone.LIGHT, strict=False)
    marker_mm: Annotated[int, between(10, 200, "a marker side in mm")] = 40
    surface: tuple[tuple[int, int], ...] = Field(default=(), strict=False)

    _check_source = field_validator("source", mode="plain")(_camera_source)

    @field_validator("surface")
    @classmethod
    def _corners(cls, value: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
        if value and len(value) != 4:
            raise ValueError(
                f"{len(value)} points: give the 4 corners of the play surface in the image "
                "(pixels, top-left first, clockwise), or none to calibrate at run time"
            )
        return value

    @property
    def source_kind(self) -> CameraSourceKind:
        source = self.source
        if isinstance(source, int) or source.startswith("/dev/"):
            return CameraSourceKind.DEVICE
        if source == "picamera":
            return CameraSourceKind.PICAMERA
        return CameraSourceKind.SIM if source == "sim" else CameraSourceKind.FOLDER


class TlsSettings(Section):
    enabled: bool = False
    ca_file: ExistingFile | None = None
    cert_file: ExistingFile | None = None
    key_file: ExistingFile | None = None
    key_passphrase_file: AnyPath | None = None
    key_passphrase_env: EnvName | None = None
    insecure: bool = False
    key_passphrase: SecretStr | None = Field(default=None, exclude=True)

    @model_validator(mode="after")
    def _pairs(self) -> TlsSettings:
        problems = []
        if (self.cert_file is None) != (self.key_file is None):
            problems.append(
                "mqtt.tls: give both cert_file and key_file for a client certificate, or neither"
            )
        if self.key_passphrase_file is not None and self.key_passphrase_env is not None:
            problems.append("mqtt.tls: give key_passphrase_file or key_passphrase_env, not both")
        if problems:
            raise ValueError("\n".join(problems))
        return self


class MqttSettings(Section):
    enabled: bool = True
    host: NonBlank = "localhost"
    port: Port = 1883
    prefix: TopicPrefix = "domino/table"
    username: NonBlank | None = None
    password_file: AnyPath | None = None
    password_env: EnvName | None = None
    tls: TlsSettings = TlsSettings()
    keepalive: Annotated[int, between(5, 3600, "a keepalive in seconds")] = 60
    discovery: bool = False
    client_id: Annotated[str, Field(min_length=1, max_length=128)] = "domino-table-table"
    password: SecretStr | None = Field(default=None, exclude=True)

    @model_validator(mode="after")
    def _one_password_source(self) -> MqttSettings:
        if self.password_file is not None and self.password_env is not None:
            raise ValueError("mqtt: give password_file or password_env, not both")
        return self


def default_state_dir() -> Path:
    """`/var/lib/domino-table` when this user may write there, else ~/.local/state/..."""
    probe = SYSTEM_STATE_DIR if SYSTEM_STATE_DIR.exists() else SYSTEM_STATE_DIR.parent
    if os.access(probe, os.W_OK | os.X_OK):
        return SYSTEM_STATE_DIR
    xdg = os.environ.get("XDG_STATE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "state"
    return base / "domino-table"


class Synchronous(enum.StrEnum):
    """How hard the journal holds each change (SQLite's `synchronous`, in WAL mode)."""

    FULL = "full"  # fsynced at every change: survives kill -9 and a power cut
    NORMAL = "normal"  # fsynced at checkpoints: survives kill -9; a power cut may lose the last


class StateSettings(Section):
    dir: AnyPath = Field(default_factory=default_state_dir)
    synchronous: Synchronous = Field(default=Synchronous.FULL, strict=False)


class HistorySettings(Section):
    """The record of past games kept on the table's disk (`service.history`): the last
    games' events always, their frames while they fit in `max_mb`."""

    enabled: bool = True  # false: no record is kept (history and frame are refused)
    max_mb: Annotated[int, between(10, 1_000_000, "a size in MB")] = 500


class Theme(enum.StrEnum):
    """The display's look: black on white and yellow for sunlight, light on dark indoors."""

    SUN = "sun"
    DARK = "dark"
    AUTO = "auto"  # sun from `day_starts` to `day_ends` (the screen's local time), else dark


def _clock_time(value: str) -> str:
    if not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", value):
        raise ValueError(f'{value!r} is not a time of day: write HH:MM, e.g. "07:30"')
    return value


ClockTime = Annotated[str, AfterValidator(_clock_time)]


class DisplaySettings(Section):
    """What `domino-table display` does by default: its flags set it, and `--settings
    FILE` reads `theme`, `day_starts` and `day_ends` from here (docs/guide/settings.md)."""

    enabled: bool = True
    host: NonBlank = "0.0.0.0"  # the page is for the phones and tablets at the table
    port: Port = 8080
    theme: Theme = Field(default=Theme.AUTO, strict=False)
    day_starts: ClockTime = "07:00"
    day_ends: ClockTime = "19:00"


Rect = tuple[int, int, int, int]


class Settings(Section):
    """Every setting of one table, validated once at start-up."""

    table: TableSettings = TableSettings()
    serial: SerialSettings = SerialSettings()
    camera: CameraSettings = CameraSettings()
    mqtt: MqttSettings = MqttSettings()
    state: StateSettings = StateSettings()
    history: HistorySettings = HistorySettings()
    panel: PanelSettings = Field(default_factory=PanelSettings)
    # Seat zones: seat number (as a TOML key) -> [x0, y0, x1, y1] in mm on the surface.
    zones: dict[int, Rect] = Field(default_factory=dict, strict=False)
    display: DisplaySettings = DisplaySettings()
    outputs: OutputsSettings = OutputsSettings()

    @model_validator(mode="before")
    @classmethod
    def _derived_defaults(cls, data: Any) -> Any:
        """`mqtt.prefix` and `mqtt.client_id` default from the table id."""
        if not isinstance(data, dict):
            return data
        table = data.get("table", {})
        table_id = table.get("id", "table") if isinstance(table, dict) else "table"
        mqtt = data.get("mqtt", {})
        if not isinstance(table_id, str) or not isinstance(mqtt, dict):
            return data
        if not TABLE_ID.fullmatch(table_id) or table_id in RESERVED_TABLE_IDS:
            table_id = "table"  # table.id itself is reported; no second error about the prefix
        mqtt = {"prefix": f"domino/{table_id}", "client_id": f"domino-table-{table_id}"} | mqtt
        return data | {"mqtt": mqtt}

    @field_validator("zones", mode="before")
    @classmethod
    def _zone_keys(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        out: dict[Any, Any] = {}
        for key, rect in value.items():
            if isinstance(key, str) and not key.isdigit():
                raise ValueError(f"zones.{key}: name a seat by its number (0, 1, ...)")
            if not isinstance(rect, list | tuple) or not all(type(v) is int for v in rect):
                raise ValueError(
                    f"zones.{key}: expected [x0, y0, x1, y1] in whole mm, got {rect!r}"
                )
            out[int(key)] = tuple(rect)
        return out

    @model_validator(mode="after")
    def _fits_the_table(self) -> Settings:
        surface = self.table.surface
        problems = []
        if self.panel.seats and self.panel.seats != self.table.seats:
            problems.append(
                f"panel: its per-seat pins are for {self.panel.seats} seats but table.seats "
                f"is {self.table.seats}: give one pin per seat"
            )
        for seat, (x0, y0, x1, y1) in sorted(self.zones.items()):
            if seat >= self.table.seats:
                problems.append(f"zones.{seat}: there is no seat {seat} ({self.table.seats} seats)")
            if not (0 <= x0 < x1 <= surface.width_mm and 0 <= y0 < y1 <= surface.height_mm):
                problems.append(
                    f"zones.{seat}: [{x0}, {y0}, {x1}, {y1}] is not a rectangle within the "
                    f"{surface.width_mm} x {surface.height_mm} mm surface "
                    "(need 0 <= x0 < x1 <= width, 0 <= y0 < y1 <= height)"
                )
        problems += self.outputs.problems(self.table.seats, self.mqtt.enabled)
        if problems:
            raise ValueError("\n".join(problems))
        return self

    def redacted(self) -> dict[str, Any]:
        """The settings as plain data for printing or logging, secrets shown as `***`."""
        data = self.model_dump(mode="json", by_alias=True)
        data["mqtt"]["password"] = "***" if self.mqtt.password is not None else None
        tls = data["mqtt"]["tls"]
        tls["key_passphrase"] = "***" if self.mqtt.tls.key_passphrase is not None else None
        return data
