"""Settings: defaults, examples, and errors that name the file, the key and the reason."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from config import (
    DEFAULTS_FILE,
    CameraSourceKind,
    CameraTone,
    Language,
    Settings,
    SettingsError,
    load_settings,
)

EXAMPLES = sorted((DEFAULTS_FILE.parent / "examples").glob("*.toml"))


def write(tmp_path: Path, text: str, name: str = "settings.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def problems(
    path: Path | None, overrides: dict[str, object] | None = None, **kw: object
) -> list[str]:
    with pytest.raises(SettingsError) as info:
        load_settings(path, overrides or {}, **kw)  # type: ignore[arg-type]
    return list(info.value.problems)


def test_defaults_file_matches_the_models() -> None:
    assert load_settings(None, {}) == Settings()
    tomllib.loads(DEFAULTS_FILE.read_text())  # valid TOML


def test_defaults() -> None:
    s = load_settings(None, {})
    assert s.table.id == "table"
    assert s.mqtt.prefix == "domino/table"
    assert s.mqtt.client_id == "domino-table-table"
    assert (s.mqtt.host, s.mqtt.port, s.mqtt.keepalive) == ("localhost", 1883, 60)
    assert (s.table.tile_mm.length, s.table.tile_mm.width) == (48, 24)
    assert s.serial.baud == 115200 and not s.serial.enabled
    assert s.camera.source_kind is CameraSourceKind.SIM
    assert s.table.language is Language.EN


def test_prefix_and_client_id_follow_the_table_id(tmp_path: Path) -> None:
    s = load_settings(write(tmp_path, '[table]\nid = "bar-2"\n'), {})
    assert s.mqtt.prefix == "domino/bar-2"
    assert s.mqtt.client_id == "domino-table-bar-2"


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_each_example_loads(example: Path, tmp_path: Path) -> None:
    secret = write(tmp_path, "s3cret\n", "password")
    secret.chmod(0o600)
    raw = tomllib.loads(example.read_text())
    overrides = (
        {"mqtt.password_file": str(secret)} if "password_file" in raw.get("mqtt", {}) else {}
    )
    s = load_settings(example, overrides, environ={"DOMINO_MQTT_PASSWORD": "pw"})
    assert s.table.id == raw["table"]["id"]
    assert s.mqtt.password is not None


def test_examples_exist() -> None:
    assert {p.stem for p in EXAMPLES} >= {"kitchen", "cafe-camera", "tournament-table"}


def test_bad_port_names_file_key_and_range(tmp_path: Path) -> None:
    path = write(tmp_path, "[mqtt]\nport = 70000\n")
    assert problems(path) == [f"{path}: mqtt.port: 70000 is not a port (1-65535)"]


def test_unknown_key_suggests_the_right_one(tmp_path: Path) -> None:
    path = write(tmp_path, "[serial]\nbuad = 9600\n")
    (line,) = problems(path)
    assert line.startswith(f"{path}: serial.buad: unknown key: did you mean 'baud'?")
    assert "allowed in [serial]: enabled, port, usb, baud" in line


def test_unknown_section(tmp_path: Path) -> None:
    (line,) = problems(write(tmp_path, "[mqqt]\nhost = 'x'\n"))
    assert "mqqt: unknown section: did you mean 'mqtt'? allowed: table, serial" in line


def test_bad_types_are_not_coerced(tmp_path: Path) -> None:
    path = write(tmp_path, '[table]\nseats = "4"\n[serial]\nenabled = "yes"\n[mqtt]\nhost = 5\n')
    assert problems(path) == [
        f"{path}: table.seats: expected an integer, got '4' (a string)",
        f"{path}: serial.enabled: expected true or false, got 'yes' (a string)",
        f"{path}: mqtt.host: expected a string, got 5 (an integer)",
    ]


@pytest.mark.parametrize(
    ("table_id", "reason"),
    [
        ("tournament", "reserved for the tournament desk"),
        ("Kitchen", "is not a table id"),
        ("-x", "is not a table id"),
        ("a/b", "is not a table id"),
        ("", "is not a table id"),
    ],
)
def test_bad_table_id(tmp_path: Path, table_id: str, reason: str) -> None:
    path = write(tmp_path, f'[table]\nid = "{table_id}"\n')
    (line,) = problems(path)
    assert line.startswith(f"{path}: table.id: ") and reason in line


def test_several_errors_are_reported_together(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "[table]\nseats = 11\nlanguage = 'fr'\n[mqtt]\nport = 0\nkeepalive = 1\n"
        "[display]\nport = 99999\n",
    )
    lines = problems(path)
    assert [line.split(": ")[1] for line in lines] == [
        "table.seats",
        "table.language",
        "mqtt.port",
        "mqtt.keepalive",
        "display.port",
    ]
    assert "11 is not a number of seats (2-10)" in lines[0]
    assert "'fr' is not allowed: use 'en' or 'es'" in lines[1]


def test_cross_checks_name_their_keys(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "[table]\nseats = 2\nnames = ['a', 'b', 'c']\nteams = [0, 0]\n"
        "[table.tile_mm]\nlength = 20\nwidth = 30\n"
        "[serial]\nenabled = true\n"
        "[zones]\n0 = [0, 0, 100, 100]\n5 = [0, 0, 100, 100]\n1 = [800, 0, 1000, 100]\n",
    )
    lines = problems(path)
    keys = [line.split(": ")[1] for line in lines]
    assert keys == ["table.tile_mm", "serial"]  # zones are checked once the sections are valid
    path = write(tmp_path, "[zones]\n5 = [0, 0, 100, 100]\n1 = [800, 0, 1000, 100]\n")
    lines = problems(path)
    assert lines == [
        f"{path}: zones.1: [800, 0, 1000, 100] is not a rectangle within the 900 x 600 mm "
        "surface (need 0 <= x0 < x1 <= width, 0 <= y0 < y1 <= height)",
        f"{path}: zones.5: there is no seat 5 (4 seats)",
    ]


def test_names_and_teams_per_seat(tmp_path: Path) -> None:
    path = write(tmp_path, "[table]\nseats = 2\nnames = ['a', 'b', 'c']\nteams = [0, 0]\n")
    lines = problems(path)
    assert lines == [
        f"{path}: table.names: 3 names for 2 seats: give one name per seat, or none",
        f"{path}: table.teams: number the teams 0, 1, ... with at least two teams",
    ]


def test_rules_names_a_shipped_ruleset_or_a_file(tmp_path: Path) -> None:
    (line,) = problems(write(tmp_path, "[table]\nrules = 'no-such-rules'\n"))
    assert "table.rules: 'no-such-rules' is not a shipped ruleset" in line
    (line,) = problems(write(tmp_path, "[table]\nrules = 'mine.toml'\n"))
    assert f"table.rules: {tmp_path / 'mine.toml'} is not a ruleset file" in line
    (tmp_path / "mine.toml").write_text("")
    s = load_settings(write(tmp_path, "[table]\nrules = 'mine.toml'\n"), {})
    assert s.table.rules == str(tmp_path / "mine.toml")


def test_camera_sources(tmp_path: Path) -> None:
    (tmp_path / "frames").mkdir()
    s = load_settings(write(tmp_path, "[camera]\nsource = 'frames'\n"), {})
    assert s.camera.source_kind is CameraSourceKind.FOLDER
    assert s.camera.source == str(tmp_path / "frames")
    s = load_settings(None, {"camera.source": 2})
    assert s.camera.source_kind is CameraSourceKind.DEVICE
    (line,) = problems(None, {"camera.source": "nowhere"})
    assert line.startswith("--camera-source (camera.source): ") and "is not a folder" in line
    s = load_settings(write(tmp_path, "[camera]\nsource = 'picamera'\n"), {})
    assert s.camera.source_kind is CameraSourceKind.PICAMERA and s.camera.source == "picamera"
    assert load_settings(None, {"camera.source": "picamera"}).camera.source == "picamera"
    s = load_settings(None, {"camera.source": "/dev/video1"})  # need not exist yet
    assert s.camera.source_kind is CameraSourceKind.DEVICE and s.camera.source == "/dev/video1"
    (line,) = problems(None, {"camera.source": "/dev/sda1"})
    assert "/dev/sda1 is not a camera device: use /dev/videoN" in line


def test_camera_tone_and_marker_size(tmp_path: Path) -> None:
    s = load_settings(write(tmp_path, "[camera]\ntone = 'grey'\nmarker_mm = 60\n"), {})
    assert s.camera.tone is CameraTone.GREY and s.camera.marker_mm == 60
    assert load_settings(None, {}).camera.tone is CameraTone.LIGHT
    assert problems(None, {"camera.tone": "wood", "camera.marker_mm": 5}) == [
        "--camera-tone (camera.tone): 'wood' is not allowed: use 'light', 'dark', 'grey' or 'auto'",
        "--camera-marker-mm (camera.marker_mm): 5 is not a marker side in mm (10-200)",
    ]


def test_history_size_is_bounded(tmp_path: Path) -> None:
    assert load_settings(None, {}).history.max_mb == 500
    assert load_settings(write(tmp_path, "[history]\nmax_mb = 2000\n"), {}).history.max_mb == 2000
    (line,) = problems(write(tmp_path, "[history]\nmax_mb = 5\n"))
    assert line.endswith("history.max_mb: 5 is not a size in MB (10-1000000)"), line
    (line,) = problems(write(tmp_path, "[history]\nmax_mb = '500'\n"))
    assert "history.max_mb" in line and "integer" in line, line


def test_overrides_apply_and_errors_name_the_flag(tmp_path: Path) -> None:
    path = write(tmp_path, "[serial]\nbaud = 9600\n")
    s = load_settings(path, {"serial.port": "/dev/ttyACM0", "serial.enabled": True})
    assert s.serial.port == Path("/dev/ttyACM0") and s.serial.enabled and s.serial.baud == 9600
    assert s.serial.usb_id is None
    assert load_settings(path, {"serial.usb": "2E8A:000a"}).serial.usb_id == (0x2E8A, 0x000A)
    (line,) = problems(path, {"serial.usb": "2e8a"})
    assert line.startswith("--serial-usb (serial.usb): '2e8a' is not a USB id")
    assert problems(path, {"mqtt.port": 70000}) == [
        "--mqtt-port (mqtt.port): 70000 is not a port (1-65535)"
    ]
    assert problems(path, {"mqtt.port": "x"}, flags={"mqtt.port": "--port"}) == [
        "--port (mqtt.port): expected an integer, got 'x' (a string)"
    ]
    (line,) = problems(path, {"mqtt.hots": "x"})
    assert line.startswith("--mqtt-hots (mqtt.hots): unknown key: did you mean 'host'?")


def test_missing_and_broken_files(tmp_path: Path) -> None:
    assert "no such settings file" in problems(tmp_path / "nope.toml")[0]
    (line,) = problems(write(tmp_path, "[table\n"))
    assert line.startswith(f"{tmp_path / 'settings.toml'}: not valid TOML: ")


def test_secret_from_file_never_in_repr(tmp_path: Path) -> None:
    secret = write(tmp_path, "hunter2\n", "pw")
    secret.chmod(0o600)
    s = load_settings(write(tmp_path, "[mqtt]\nusername = 'u'\npassword_file = 'pw'\n"), {})
    assert s.mqtt.password is not None
    assert s.mqtt.password.get_secret_value() == "hunter2"
    for text in (repr(s), str(s), str(s.redacted()), s.model_dump_json()):
        assert "hunter2" not in text
    assert s.redacted()["mqtt"]["password"] == "***"


def test_secret_from_env(tmp_path: Path) -> None:
    path = write(tmp_path, "[mqtt]\npassword_env = 'PW'\n[mqtt.tls]\nkey_passphrase_env = 'KP'\n")
    s = load_settings(path, {}, environ={"PW": "env-secret", "KP": "zebra-9"})
    assert s.mqtt.password is not None and s.mqtt.password.get_secret_value() == "env-secret"
    assert s.mqtt.tls.key_passphrase is not None
    assert "env-secret" not in repr(s) and "zebra-9" not in repr(s)
    assert s.redacted()["mqtt"]["tls"]["key_passphrase"] == "***"
    lines = problems(path, environ={})
    assert lines == [
        f"{path}: mqtt.password_env: the environment variable PW is not set: "
        "export it, or use mqtt.password_file",
        f"{path}: mqtt.tls.key_passphrase_env: the environment variable KP is not set: "
        "export it, or use mqtt.tls.key_passphrase_file",
    ]


def test_secrets_are_refused_in_the_file_and_never_echoed(tmp_path: Path) -> None:
    path = write(
        tmp_path, "[mqtt]\npassword = 'hunter2'\npassword_file = 'a'\npassword_env = 'B'\n"
    )
    lines = problems(path)
    assert not any("hunter2" in line for line in lines)
    assert lines[0].startswith(f"{path}: mqtt.password: secrets are not written in the settings")
    assert lines[1] == f"{path}: mqtt: give password_file or password_env, not both"
    (line,) = problems(None, {"mqtt.password": "hunter2"})
    assert "hunter2" not in line and line.startswith("--mqtt-password (mqtt.password): ")


def test_missing_password_file(tmp_path: Path) -> None:
    (line,) = problems(None, {"mqtt.password_file": str(tmp_path / "none")})
    assert line.startswith("--mqtt-password-file (mqtt.password_file): cannot read ")


def test_tls_files_must_exist(tmp_path: Path) -> None:
    path = write(tmp_path, "[mqtt.tls]\nenabled = true\nca_file = 'ca.pem'\ncert_file = 'c.pem'\n")
    lines = problems(path)
    assert lines[0] == (
        f"{path}: mqtt.tls.ca_file: {tmp_path / 'ca.pem'} is not a readable file: "
        "create it or fix the path"
    )
    assert any("give both cert_file and key_file" in line for line in lines) or len(lines) == 2


def test_state_dir_default_is_a_writable_place() -> None:
    s = load_settings(None, {})
    assert s.state.dir.is_absolute()
    assert s.state.dir.name == "domino-table"


def test_settings_are_frozen() -> None:
    s = load_settings(None, {})
    with pytest.raises(ValueError, match="frozen"):
        s.table.seats = 3


def test_panel_section_is_the_hardware_panel_settings(tmp_path: Path) -> None:
    path = write(tmp_path, "[panel]\nenabled = true\npass = [5, 6, 13, 19]\nundo = 'GPIO26'\n")
    s = load_settings(path, {})
    assert s.panel.pass_ == ("GPIO5", "GPIO6", "GPIO13", "GPIO19")
    assert s.redacted()["panel"]["pass"] == ["GPIO5", "GPIO6", "GPIO13", "GPIO19"]
    (line,) = problems(write(tmp_path, "[panel]\nundoo = 26\n"))
    assert line.startswith(
        f"{tmp_path / 'settings.toml'}: panel.undoo: unknown key: did you mean 'undo'?"
    )
    (line,) = problems(write(tmp_path, "[panel]\npass = [5, 6]\n"))
    assert "panel: its per-seat pins are for 2 seats but table.seats is 4" in line
    (line,) = problems(write(tmp_path, "[panel]\npass = [5, 5, 6, 7]\n"))
    assert line.startswith(f"{tmp_path / 'settings.toml'}: panel: ") and "GPIO5 is used by" in line


def test_relative_paths_in_flags_are_from_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "cwd"
    (elsewhere / "frames").mkdir(parents=True)
    (elsewhere / "house.toml").write_text("")
    settings_dir = tmp_path / "etc"
    settings_dir.mkdir()
    path = write(settings_dir, "[table]\nid = 'x'\n")
    monkeypatch.chdir(elsewhere)
    s = load_settings(
        path,
        {"state.dir": Path("state"), "table.rules": "house.toml", "camera.source": "frames"},
    )
    assert s.state.dir == elsewhere / "state"
    assert s.table.rules == str(elsewhere / "house.toml")
    assert s.camera.source == str(elsewhere / "frames")
    s = load_settings(path, {"table.rules": "wooden", "camera.source": "sim"})
    assert (s.table.rules, s.camera.source) == ("wooden", "sim")


def test_long_names_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path, f"[table]\nseats = 2\nnames = ['a', '{'x' * 33}']\n")
    assert problems(path) == [f"{path}: table.names[1]: is too long (at most 32 characters)"]


def test_state_dir_falls_back_to_the_users_state_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from config import settings as settings_module

    monkeypatch.setattr(settings_module, "SYSTEM_STATE_DIR", tmp_path / "missing" / "domino-table")
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert settings_module.default_state_dir() == tmp_path / "home/.local/state/domino-table"
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert load_settings(None, {}).state.dir == tmp_path / "xdg/domino-table"
    writable = tmp_path / "var-lib"
    writable.mkdir()
    monkeypatch.setattr(settings_module, "SYSTEM_STATE_DIR", writable / "domino-table")
    assert settings_module.default_state_dir() == writable / "domino-table"
