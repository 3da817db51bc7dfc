"""doctor's board check: the serial port found, this user may open it, and a HELLO
handshake (not while the running service holds it)."""

from __future__ import annotations

import glob
import os

from cli.doctor.findings import Finding, ok, problem, skipped
from cli.doctor.host import service_holding
from config.settings import Settings

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
    service = service_holding([device])
    if service is not None:
        return [
            ok("serial", f"{where} exists"),
            ok("serial", f"open in the running service (pid {service}): handshake not tried"),
        ]
    return [ok("serial", f"{where} exists"), _handshake(settings, device, timeout)]


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
