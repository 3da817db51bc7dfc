"""`domino-table doctor`: checks a table's set-up and says how to fix each problem.

One check per part, each short and with a timeout: the camera (and, when the service
runs, the status it publishes: state and warnings in words), the board's serial port
(and a HELLO handshake), GPIO for the panel, the MQTT broker (a real CONNECT with the
configured credentials), the state folder's disk, and the clock. Every check returns
`Finding`s; a problem carries one line saying what to do. The exit code is 1 when any
check found a problem. Nothing is changed: no file is written but a probe file in the
state folder (removed at once), and the broker connection uses its own client id so a
running service is not thrown off.
"""

from __future__ import annotations

import enum
import glob
import importlib.metadata
import json
import logging
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from config.errors import SettingsError
from config.loader import load_settings
from config.settings import CameraSourceKind, Settings

log = logging.getLogger(__name__)

SYSTEM_SETTINGS = Path("/etc/domino-table/settings.toml")
MIN_FREE_BYTES = 100 * 1024 * 1024
IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp"})


class Status(enum.Enum):
    OK = "ok"
    PROBLEM = "PROBLEM"
    SKIPPED = "skip"


@dataclass(frozen=True)
class Finding:
    """What one check found: `fix` says what to do, for a problem."""

    part: str
    status: Status
    detail: str
    fix: str | None = None

    def lines(self) -> list[str]:
        out = [f"{self.status.value:8} {self.part:7} {self.detail}"]
        if self.fix is not None:
            out.append(f"{'':8} {'':7} fix: {self.fix}")
        return out


def ok(part: str, detail: str) -> Finding:
    return Finding(part, Status.OK, detail)


def problem(part: str, detail: str, fix: str) -> Finding:
    return Finding(part, Status.PROBLEM, detail, fix)


def skipped(part: str, detail: str) -> Finding:
    return Finding(part, Status.SKIPPED, detail)


# --- camera -----------------------------------------------------------------------------


def check_camera(settings: Settings, timeout: float) -> list[Finding]:
    camera = settings.camera
    if not camera.enabled:
        return [skipped("camera", "not used ([camera] enabled = false)")]
    kind = camera.source_kind
    if kind is CameraSourceKind.SIM:
        return [ok("camera", 'simulated frames (camera.source = "sim")')]
    if kind is CameraSourceKind.FOLDER:
        return [_camera_folder(Path(str(camera.source)))]
    if kind is CameraSourceKind.PICAMERA:
        return [_pi_camera(timeout)]
    return [_camera_device(camera.source, timeout)]


# Run in a child interpreter (this one's, so the same venv): an import that crashes or
# fails on numpy's ABI check is reported, not fatal. Exit 3: no import; 4: no listing.
PICAMERA_PROBE = """
import json, sys, traceback
try:
    from picamera2 import Picamera2
except BaseException as exc:
    print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
    sys.exit(3)
try:
    cameras = list(Picamera2.global_camera_info())
except BaseException as exc:
    print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
    sys.exit(4)
print(json.dumps([str(c.get("Model", "camera")) if isinstance(c, dict) else "camera"
                  for c in cameras]))
"""
PICAMERA_IMPORT_SECONDS = 20.0  # importing libcamera's bindings takes seconds on a Pi 4
NUMPY_ABI = ("numpy.dtype size changed", "compiled against", "multiarray failed to import",
             "_ARRAY_API", "compiled using NumPy 1.x")  # fmt: skip
PICAMERA_INSTALL = (
    "sudo apt install python3-picamera2, and make the venv with --system-site-packages "
    "(scripts/install-pi.sh does both)"
)
PICAMERA_NUMPY = (
    "this environment's numpy is not the system's, which Raspberry Pi OS's camera modules "
    "were built for: run sudo scripts/install-pi.sh again (it pins numpy to the system's "
    "and removes the venv's own), or `pip uninstall numpy` in this venv"
)


def _pi_camera(timeout: float) -> Finding:
    try:
        probe = subprocess.run(
            [sys.executable, "-c", PICAMERA_PROBE],
            capture_output=True, text=True, check=False,
            timeout=max(timeout, PICAMERA_IMPORT_SECONDS),
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return problem(
            "camera",
            f"importing picamera2 took over {max(timeout, PICAMERA_IMPORT_SECONDS):g} s",
            "check `rpicam-hello --list-cameras`; is another program holding the camera?",
        )
    why = (probe.stderr.strip().splitlines() or ["no message"])[-1]
    if probe.returncode == 0:
        return _pi_camera_models(json.loads(probe.stdout))
    if probe.returncode == 4:
        return problem("camera", f"libcamera cannot list cameras: {why}", PICAMERA_INSTALL)
    if probe.returncode < 0:
        why = f"the import crashed ({signal.Signals(-probe.returncode).name})"
    if any(mark in probe.stderr for mark in NUMPY_ABI):
        return problem("camera", f"picamera2 cannot be imported ({why})", PICAMERA_NUMPY)
    return problem("camera", f"picamera2 cannot be imported ({why})", PICAMERA_INSTALL)


def _pi_camera_models(models: list[str]) -> Finding:
    if not models:
        return problem(
            "camera",
            "no Pi camera module found (camera.source = picamera)",
            "check the ribbon cable (contacts facing the board) and `rpicam-hello --list-cameras`",
        )
    return ok("camera", f"Pi camera: {models[0]} ({len(models)} found)")


def _camera_folder(folder: Path) -> Finding:
    import cv2  # noqa: PLC0415 - OpenCV only when a camera is configured

    images = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not images:
        return problem(
            "camera",
            f"no images (.jpg, .png) in {folder}",
            "put the frames in that folder, or set camera.source to a device index or sim",
        )
    if cv2.imread(str(images[0])) is None:
        return problem(
            "camera", f"cannot read {images[0]} as an image", "replace or remove that file"
        )
    return ok("camera", f"{len(images)} images in {folder}")


def _camera_device(source: int | str, timeout: float) -> Finding:
    import cv2  # noqa: PLC0415 - OpenCV only when a camera is configured

    device = f"/dev/video{source}" if isinstance(source, int) else source
    fix = (
        f"plug the camera in and check `ls -l {device}` (group video); the user must be in "
        "the video group (sudo usermod -aG video domino)"
    )
    if not os.path.exists(device):
        return problem("camera", f"{device} does not exist (camera.source = {source})", fix)
    capture = cv2.VideoCapture(source)
    try:
        if not capture.isOpened():
            return problem("camera", f"cannot open {device}", fix)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            grabbed, frame = capture.read()
            if grabbed and frame is not None:
                height, width = frame.shape[:2]
                return ok("camera", f"{device}: {width} x {height} frames")
        return problem("camera", f"{device} opened but gave no frame in {timeout:g} s", fix)
    finally:
        capture.release()


# --- the camera's status, as the running service publishes it ------------------------------

STATE_WORDS = {
    "uncalibrated": (
        "not calibrated: the four corner markers have not been seen together",
        "lay the four markers on the play area's corners in the camera's view, then press "
        "Calibrate on the display's Camera page (/camera)",
    ),
    "moving": (
        "no still frame for 10 s or more: nothing is read while the scene moves",
        "take hands, arms and anything that sways (a lamp, a curtain's shadow) off the table",
    ),
    "offline": (
        "the table service gets no frames from the camera",
        "see the camera check above; restart the service once the camera answers",
    ),
}


def check_camera_status(settings: Settings, timeout: float) -> list[Finding]:
    """The running service's `camera/status` (retained on the broker), in words."""
    if not settings.camera.enabled:
        return []
    if not settings.mqtt.enabled:
        return [skipped("camera", "its status is published over MQTT, which is off")]
    try:
        status = _retained_camera_status(settings, timeout)
    except (OSError, ssl.SSLError, ValueError) as exc:
        return [skipped("camera", f"its status cannot be read from the broker ({exc})")]
    if status is None:
        return [
            skipped(
                "camera",
                "no camera status on the broker: the table service is not running, or its "
                "camera has given no frame yet",
            )
        ]
    return [_camera_state(status), *(_camera_warning(w) for w in status.get("warnings", []))]


def _camera_state(status: dict[str, Any]) -> Finding:
    state = str(status.get("state"))
    if state in STATE_WORDS:
        detail, fix = STATE_WORDS[state]
        return problem("camera", f"status {state}: {detail}", fix)
    frame = status.get("frame") or {}
    cal = status.get("calibration") or {}
    read = status.get("read_ms") or {}
    reading = status.get("reading")
    parts = [
        f"status ok: {frame.get('width')} x {frame.get('height')} at {status.get('fps')} fps",
        f"calibrated by {cal.get('method')} ({cal.get('error_px')} px)",
        f"a frame read in {read.get('p50')} ms (p95 {read.get('p95')})",
    ]
    if reading:
        parts.append(f"last reading {reading.get('tiles')} tiles, {reading.get('unsure')} unsure")
    return ok("camera", ", ".join(parts))


def _camera_warning(warning: dict[str, Any]) -> Finding:
    """A warning's sentence says what was seen, a colon, what to do."""
    seen, _, fix = str(warning.get("message", "")).rpartition(": ")
    return problem("camera", f"{warning.get('code')}: {seen or fix}", fix if seen else "-")


def _retained_camera_status(settings: Settings, timeout: float) -> dict[str, Any] | None:
    got: list[bytes] = []
    done = threading.Event()
    topic = f"{settings.mqtt.prefix}/camera/status"

    def on_connect(client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            done.set()
        else:
            client.subscribe(topic, qos=1)

    def on_message(client: Any, userdata: Any, msg: Any) -> None:
        got.append(bytes(msg.payload))
        done.set()

    client = _mqtt_client(settings)
    client.on_connect, client.on_message = on_connect, on_message
    client.connect(settings.mqtt.host, settings.mqtt.port, keepalive=max(5, int(timeout) + 5))
    client.loop_start()
    try:
        done.wait(timeout)
    finally:
        client.disconnect()
        client.loop_stop()
    if not got or not got[0]:
        return None
    status = json.loads(got[0])
    return status if isinstance(status, dict) else None


# --- serial board -----------------------------------------------------------------------


def check_serial(settings: Settings, timeout: float) -> list[Finding]:
    serial = settings.serial
    if not serial.enabled:
        return [skipped("serial", "no board ([serial] enabled = false)")]
    from firmware_bridge.errors import BoardNotFoundError  # noqa: PLC0415
    from firmware_bridge.ports import find_port  # noqa: PLC0415

    path = str(serial.port) if serial.port is not None else None
    try:
        device = find_port(path, serial.usb_id)
    except BoardNotFoundError as exc:
        seen = _serial_devices()
        return [
            problem(
                "serial",
                str(exc).split(": check")[0]
                + (f"; serial devices here: {', '.join(seen)}" if seen else "; no serial devices"),
                "plug the board in (`ls /dev/serial/by-id/`, `lsusb`), install the udev rule "
                "config/99-domino-board.rules, and set serial.port (or serial.usb) to match",
            )
        ]
    where = device if device == path else f"{device} (USB {serial.usb})"
    if not os.access(device, os.R_OK | os.W_OK):
        return [
            problem(
                "serial",
                f"{where} exists but this user may not open it",
                "add the user to the dialout group (sudo usermod -aG dialout domino), "
                "then log in again",
            )
        ]
    service = _service_holding([device])
    if service is not None:
        return [
            ok("serial", f"{where} exists"),
            ok("serial", f"open in the running service (pid {service}): handshake not tried"),
        ]
    return [ok("serial", f"{where} exists"), _handshake(settings, device, timeout)]


def _service_holding(devices: Sequence[str]) -> int | None:
    """The pid of a `domino-table run` that has one of `devices` open, if any (this
    user's processes only: /proc shows no others' files)."""
    targets = {os.path.realpath(device) for device in devices}
    for fd_dir in glob.glob("/proc/[0-9]*/fd"):
        pid = int(fd_dir.split("/")[2])
        try:
            held = any(os.readlink(f"{fd_dir}/{fd}") in targets for fd in os.listdir(fd_dir))
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if held and pid != os.getpid() and _is_table_service(command):
            return pid
    return None


def _is_table_service(command: Sequence[bytes]) -> bool:
    words = [Path(os.fsdecode(word)).name for word in command]
    return "domino-table" in words and "run" in words


def _serial_devices() -> list[str]:
    """USB serial devices present: stable names and `/dev/ttyACMn (vid:pid)`."""
    from serial.tools import list_ports  # noqa: PLC0415

    stable = sorted(glob.glob("/dev/serial/by-id/*")) + sorted(glob.glob("/dev/domino-board"))
    usb = [
        f"{p.device} ({p.vid:04x}:{p.pid:04x})"
        for p in list_ports.comports()
        if p.vid is not None and p.pid is not None
    ]
    return stable + usb


def _handshake(settings: Settings, device: str, timeout: float) -> Finding:
    from firmware_bridge.errors import BoardError  # noqa: PLC0415
    from firmware_bridge.link import BoardLink, LinkSettings  # noqa: PLC0415
    from service.core.rulesets import find_rules  # noqa: PLC0415

    table = settings.table
    needed = find_rules(table.rules).domino_set(table.seats).max_pip
    link = BoardLink(LinkSettings(path=device, needed_max_pip=needed), on_event=lambda e: None)
    try:
        hello = link.open(timeout=timeout)
    except BoardError as exc:
        return problem(
            "serial",
            f"no HELLO handshake on {device}: {exc}",
            "check the board is powered and runs the domino firmware (protocol 1); "
            "stop the service first if it is running (sudo systemctl stop domino-table)",
        )
    finally:
        link.close()
    return ok(
        "serial",
        f"HELLO from board {hello.board_id}, firmware {hello.firmware}, protocol {hello.proto}, "
        f"{hello.width_mm} x {hello.height_mm} mm",
    )


# --- GPIO -------------------------------------------------------------------------------


def check_gpio(settings: Settings, timeout: float) -> list[Finding]:
    if not settings.panel.enabled:
        return [skipped("gpio", "no panel ([panel] enabled = false)")]
    if os.environ.get("GPIOZERO_PIN_FACTORY", "").lower() != "mock":
        chips = _gpio_chips()
        if chips is not None:
            return [chips]
    return [_open_panel(settings)]


def _gpio_chips() -> Finding | None:
    """What stands between this user and the Pi's GPIO chips, or None."""
    chips = sorted(glob.glob("/dev/gpiochip*"))
    if not chips:
        return problem(
            "gpio",
            "no /dev/gpiochip*: this is not a Raspberry Pi (or GPIO is off)",
            "run on the Pi, or set GPIOZERO_PIN_FACTORY=mock to try without GPIO",
        )
    service = _service_holding(chips)
    if service is not None:
        return skipped(
            "gpio",
            f"the running service (pid {service}) has the GPIO chip: stop it to check the pins",
        )
    denied = [chip for chip in chips if not os.access(chip, os.R_OK | os.W_OK)]
    if denied:
        return problem(
            "gpio",
            f"this user may not open {', '.join(denied)}",
            "add the user to the gpio group (sudo usermod -aG gpio domino), then log in again",
        )
    return None


def _open_panel(settings: Settings) -> Finding:
    from hardware.errors import PanelError  # noqa: PLC0415
    from hardware.panel import Panel  # noqa: PLC0415
    from hardware.pin_factory import GpioHost, missing_factory_advice  # noqa: PLC0415

    pins = settings.panel.pin_uses()
    try:
        with Panel(settings.panel, lambda body: None) as panel:
            factory = type(panel.pin_factory).__name__
    except PanelError as exc:
        busy = "cannot open" in str(exc)
        return problem(
            "gpio",
            str(exc),
            "stop whatever holds the pin (sudo systemctl stop domino-table) or pick a free pin "
            "in [panel]"
            if busy
            else missing_factory_advice(GpioHost.here()),
        )
    return ok("gpio", f"{factory}: {len(pins)} panel pins free ({_pin_list(pins)})")


def _pin_list(pins: Sequence[tuple[str, str]]) -> str:
    return ", ".join(f"{use}={pin}" for use, pin in pins)


# --- broker -----------------------------------------------------------------------------


def check_broker(settings: Settings, timeout: float) -> list[Finding]:
    mqtt = settings.mqtt
    if not mqtt.enabled:
        return [skipped("broker", "MQTT is off ([mqtt] enabled = false)")]
    where = f"{mqtt.host}:{mqtt.port}"
    try:
        socket.create_connection((mqtt.host, mqtt.port), timeout=timeout).close()
    except OSError as exc:
        return [
            problem(
                "broker",
                f"cannot reach {where} ({exc.strerror or exc})",
                "start the broker (sudo systemctl start mosquitto) or fix mqtt.host / "
                "mqtt.port in the settings",
            )
        ]
    return [ok("broker", f"{where} answers on TCP"), _mqtt_connect(settings, timeout)]


def _mqtt_client(settings: Settings) -> Any:
    import paho.mqtt.client as paho  # noqa: PLC0415
    from paho.mqtt.enums import CallbackAPIVersion  # noqa: PLC0415

    s = settings.mqtt
    # Its own client id: the broker would throw a running service off for the same id.
    client = paho.Client(
        CallbackAPIVersion.VERSION2, client_id=f"{s.client_id}-doctor", protocol=paho.MQTTv5
    )
    if s.username is not None:
        password = s.password.get_secret_value() if s.password is not None else None
        client.username_pw_set(s.username, password)
    if s.tls.enabled:
        tls = s.tls
        passphrase = tls.key_passphrase.get_secret_value() if tls.key_passphrase else None
        client.tls_set(
            ca_certs=str(tls.ca_file) if tls.ca_file else None,
            certfile=str(tls.cert_file) if tls.cert_file else None,
            keyfile=str(tls.key_file) if tls.key_file else None,
            keyfile_password=passphrase,
            cert_reqs=ssl.CERT_REQUIRED,
        )
        client.tls_insecure_set(tls.insecure)
    return client


def _mqtt_connect(settings: Settings, timeout: float) -> Finding:
    s = settings.mqtt
    who = f"as {s.username}" if s.username else "anonymously"
    how = f"{'TLS' if s.tls.enabled else 'plain MQTT'} {who}"
    answered = threading.Event()
    reasons: list[Any] = []

    def on_connect(client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        reasons.append(reason)
        answered.set()

    try:
        client = _mqtt_client(settings)
    except (OSError, ssl.SSLError, ValueError) as exc:
        return problem(
            "broker", f"cannot use the TLS files ({exc})", "check the files in [mqtt.tls]"
        )
    client.on_connect = on_connect
    client.connect_timeout = timeout
    try:
        client.connect(s.host, s.port, keepalive=max(5, int(timeout) + 5))
    except ssl.SSLError as exc:
        return problem(
            "broker",
            f"TLS with {s.host}:{s.port} failed ({exc.reason or exc})",
            "mqtt.tls.ca_file must be the CA that signed the broker's certificate, and "
            "mqtt.host a name the certificate holds; is this port the TLS listener?",
        )
    except OSError as exc:
        return problem(
            "broker", f"MQTT connect failed ({exc})", "check mqtt.host, mqtt.port, [mqtt.tls]"
        )
    client.loop_start()
    try:
        if not answered.wait(timeout):
            return problem(
                "broker",
                f"no answer to MQTT CONNECT ({how}) within {timeout:g} s",
                "is that port an MQTT listener? with TLS, set [mqtt.tls] enabled = true",
            )
        reason = reasons[0]
        if reason.is_failure:
            return problem(
                "broker",
                f"the broker refused the connection {who}: {reason}",
                "check mqtt.username and the password in mqtt.password_file / "
                "mqtt.password_env against the broker's password file (mosquitto_passwd)",
            )
        client.disconnect()
        return ok("broker", f"MQTT CONNECT accepted ({how})")
    finally:
        client.loop_stop()


# --- disk -------------------------------------------------------------------------------


def check_disk(settings: Settings, timeout: float) -> list[Finding]:
    folder = Path(settings.state.dir)
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    fix = (
        f"let the service's user write there (sudo chown domino: {folder}), "
        "or set state.dir to a writable folder"
    )
    if not existing.is_dir():
        return [problem("disk", f"{existing} is not a folder (state.dir = {folder})", fix)]
    try:
        with tempfile.NamedTemporaryFile(dir=existing, prefix=".doctor-"):
            pass
    except OSError as exc:
        return [problem("disk", f"cannot write in {existing} ({exc.strerror})", fix)]
    free = shutil.disk_usage(existing).free
    state = f"{folder} writable" if existing == folder else f"{folder} can be created"
    if free < MIN_FREE_BYTES:
        return [
            problem(
                "disk",
                f"{state} but only {free // 2**20} MB free",
                "free some space (sudo journalctl --vacuum-size=50M, sudo apt-get clean)",
            )
        ]
    return [ok("disk", f"{state}, {free / 2**30:.1f} GB free")]


# --- clock ------------------------------------------------------------------------------


def build_date() -> datetime:
    """When this program was built or installed: its newest source file."""
    newest = max(p.stat().st_mtime for p in Path(__file__).parent.glob("*.py"))
    return datetime.fromtimestamp(newest, UTC)


def ntp_synchronised(timeout: float) -> bool | str:
    """True/False from timedatectl, or why it cannot tell."""
    timedatectl = shutil.which("timedatectl")
    if timedatectl is None:
        return "no timedatectl"
    try:
        result = subprocess.run(
            [timedatectl, "show", "-p", "NTPSynchronized", "--value"],
            capture_output=True, text=True, timeout=timeout, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"timedatectl: {exc}"
    value = result.stdout.strip()
    if result.returncode != 0 or value not in {"yes", "no"}:
        return "timedatectl: " + (result.stderr.strip().splitlines() or ["no answer"])[0]
    return value == "yes"


def check_clock(
    settings: Settings,
    timeout: float,
    *,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
    built: Callable[[], datetime] = build_date,
) -> list[Finding]:
    clock, since = now(), built()
    shown = clock.strftime("%Y-%m-%d %H:%M UTC")
    if clock < since:
        return [
            problem(
                "clock",
                f"the clock says {shown}, before this program was installed ({since:%Y-%m-%d})",
                "connect the Pi to a network with NTP (sudo timedatectl set-ntp true), "
                "or set the time: sudo date -s 'YYYY-MM-DD HH:MM'",
            )
        ]
    synced = ntp_synchronised(timeout)
    if synced is False:
        return [
            problem(
                "clock",
                f"{shown}, not NTP-synchronised (timestamps in MQTT and the journal may be off)",
                "check the network and sudo timedatectl set-ntp true; "
                "timedatectl timesync-status says why",
            )
        ]
    state = "NTP-synchronised" if synced is True else f"NTP state unknown ({synced})"
    return [ok("clock", f"{shown}, {state}")]


def check_voice(settings: Settings, timeout: float, **where: Any) -> list[Finding]:
    """Whether the voice can be heard: espeak-ng there, an audio output found and opened
    (`where`: `service.outputs.hearing.hearing`'s `cards` and `environ`, for tests)."""
    from service.outputs.hearing import hearing  # noqa: PLC0415 - only this check

    found = hearing(timeout, **where)
    if settings.outputs.voice is None:
        return [skipped("voice", f"off ([outputs.voice] is not set): {found.summary()}")]
    if found.espeak is None:
        return [problem("voice", found.summary(), "sudo apt install espeak-ng")]
    if not found.heard:
        return [
            problem(
                "voice",
                f"cannot be heard: {found.summary()}",
                "connect a speaker (the 3.5 mm jack, HDMI or USB), check that `aplay -l` lists "
                "it and that the service's user is in the audio group (docs/outputs.md)",
            )
        ]
    return [ok("voice", f"can be heard: {found.summary()}")]


# --- the command ------------------------------------------------------------------------

Check = Callable[[Settings, float], list[Finding]]
CHECKS: tuple[Check, ...] = (
    check_camera,
    check_camera_status,
    check_serial,
    check_gpio,
    check_broker,
    check_disk,
    check_clock,
    check_voice,
)


def run_checks(settings: Settings, timeout: float) -> list[Finding]:
    """Every check; one that crashes is reported as a problem, not raised."""
    findings: list[Finding] = []
    for check in CHECKS:
        part = check.__name__.removeprefix("check_")
        try:
            findings.extend(check(settings, timeout))
        except Exception as exc:
            log.debug("doctor: %s check failed", part, exc_info=True)
            findings.append(
                problem(part, f"the check itself failed: {exc!r}", "report this as a bug")
            )
    return findings


def _settings(settings_file: Path | None) -> tuple[Settings | None, str, list[str]]:
    if settings_file is None and SYSTEM_SETTINGS.exists():
        settings_file = SYSTEM_SETTINGS
    label = str(settings_file) if settings_file is not None else "the built-in defaults"
    try:
        return load_settings(settings_file), label, []
    except SettingsError as exc:
        return None, label, list(exc.problems)


def _installed_version() -> str:
    """This program's version, from the installed package's metadata (pyproject.toml's
    `version`, the one place it is written)."""
    try:
        return importlib.metadata.version("domino-table")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed)"


@click.command()
@click.option(
    "--settings",
    "settings_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help=f"Settings file to check [default: {SYSTEM_SETTINGS} if it exists, else the defaults].",
)
@click.option(
    "--timeout",
    type=click.FloatRange(0.2, 30),
    default=3.0,
    show_default=True,
    help="Seconds each check may wait (broker, board handshake, camera).",
)
def doctor(settings_file: Path | None, timeout: float) -> None:
    """Check the camera, board, GPIO, broker, disk, clock and voice; say how to fix each problem.

    Exits with 1 when any problem was found.
    """
    root = logging.getLogger()
    if root.level > logging.DEBUG:  # the report says it all; the parts' info logs are noise
        root.setLevel(logging.WARNING)
    settings, label, errors = _settings(settings_file)
    click.echo(f"domino-table {_installed_version()} doctor: checking {label}")
    if settings is None:
        click.echo(f"{Status.PROBLEM.value:8} {'settings':7} the settings are not valid:")
        for line in errors:
            click.echo(f"{'':8} {'':7}   {line}")
        click.echo(
            f"{'':8} {'':7} fix: correct them (docs/configuration.md), then run doctor again"
        )
        raise SystemExit(1)
    findings = run_checks(settings, timeout)
    for finding in findings:
        for line in finding.lines():
            click.echo(line)
    problems = sum(f.status is Status.PROBLEM for f in findings)
    click.echo(f"{problems} problem{'s' if problems != 1 else ''}" if problems else "all good")
    raise SystemExit(1 if problems else 0)
