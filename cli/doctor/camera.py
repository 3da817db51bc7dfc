"""doctor's camera checks: the configured source (a device, the Pi camera, a folder, the
simulated table) and, when the service runs, the status it publishes, in words."""

from __future__ import annotations

import json
import os
import signal
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from cli.doctor.broker import table_mqtt_client
from cli.doctor.findings import Finding, ok, problem, skipped
from config.settings import CameraSourceKind, Settings
from service.mqtt.client import MqttLinkError

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp"})


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
    except (OSError, ssl.SSLError, ValueError, MqttLinkError) as exc:
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

    client = table_mqtt_client(settings)
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
