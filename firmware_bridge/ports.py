"""Finding the board's serial device again, whatever name the kernel gave it this time.

A configured path is opened as it is, so a udev symlink or `/dev/serial/by-id/...`
follows the device when it comes back under a new `/dev/ttyACMn`. Without the path (or
when it is missing) a USB vendor:product id (and serial number) is looked up.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable

from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo

from firmware_bridge.errors import BoardNotFoundError

log = logging.getLogger(__name__)


def usb_matches(
    ports: Iterable[ListPortInfo], vid: int, pid: int, serial_number: str | None = None
) -> list[str]:
    """Devices of the given USB ids (and serial number, if given), by device name."""
    return sorted(
        p.device
        for p in ports
        if p.vid == vid
        and p.pid == pid
        and (serial_number is None or p.serial_number == serial_number)
    )


def find_port(
    path: str | None,
    usb_id: tuple[int, int] | None = None,
    serial_number: str | None = None,
) -> str:
    """The device to open now; raises `BoardNotFoundError` naming what was tried."""
    tried: list[str] = []
    if path is not None:
        if os.path.exists(path):
            log.debug("board: %s -> %s", path, os.path.realpath(path))
            return path
        tried.append(f"{path} does not exist")
    if usb_id is not None:
        vid, pid = usb_id
        found = usb_matches(list_ports.comports(), vid, pid, serial_number)
        if found:
            if len(found) > 1:
                log.warning("board: several devices %04x:%04x, using %s", vid, pid, found[0])
            return found[0]
        tried.append(f"no USB serial device {vid:04x}:{pid:04x}")
    raise BoardNotFoundError(
        "board not found: " + "; ".join(tried) + ": check its USB cable and the board's "
        "path or USB id in the settings"
    )
