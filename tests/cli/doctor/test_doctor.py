"""`domino-table doctor` as a real process against real parts.

A good set-up: a Mosquitto (anonymous, and the shipped secure config with a password
over TLS), the board emulator on a pty behind a stable-name symlink, gpiozero's mock
pins, a folder of camera frames and a writable state folder -> every check ok, exit 0.
A bad one: no broker, no board, a pty that never says HELLO, no GPIO, a missing camera,
a state folder the user may not write, an unsynchronised clock -> each problem named
with its fix, exit 1.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import cv2
import numpy as np
import pytest

from cli.doctor.findings import Status
from cli.doctor.host import check_clock
from config import load_settings
from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.messages import HostHello
from tests.fixtures.mosquitto import Mosquitto, closed_port
from tests.security.broker import USERS, SecureBroker

pytestmark = pytest.mark.process

BIN = Path(sys.executable).parent / "domino-table"
PANEL = "[panel]\nenabled = true\npass = [5, 6, 13, 19]\nundo = 26\nturn_leds = [12, 16, 20, 21]\n"


@dataclass
class Result:
    code: int
    out: str  # the report (standard output)
    err: str  # logs (standard error)

    def line(self, status: str, part: str, text: str = "") -> str:
        """The one line `status part ...text...` (fails when there is none or several)."""
        found = [
            line
            for line in self.out.splitlines()
            if re.match(rf"{re.escape(status)}\s+{part}\s", line) and text in line
        ]
        assert len(found) == 1, f"{status} {part} {text!r}: {found}\n{self.out}"
        return found[0]

    def fix(self, part: str) -> str:
        """The fix printed under `part`'s (only) problem."""
        lines = self.out.splitlines()
        at = lines.index(self.line("PROBLEM", part))
        assert lines[at + 1].strip().startswith("fix: "), self.out
        return lines[at + 1].strip().removeprefix("fix: ")


def fake_timedatectl(folder: Path, synchronised: str) -> str:
    """A PATH whose `timedatectl show -p NTPSynchronized --value` prints `synchronised`."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "timedatectl"
    script.write_text(f"#!/bin/sh\necho {synchronised}\n")
    script.chmod(0o755)
    return f"{folder}:{os.environ['PATH']}"


def doctor(settings: Path, *, path: str, mock_gpio: bool = True, drop_root: bool = False) -> Result:
    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}
    env["PATH"] = path
    if mock_gpio:
        env["GPIOZERO_PIN_FACTORY"] = "mock"
    command = [str(BIN), "doctor", "--settings", str(settings), "--timeout", "2"]
    if drop_root and os.geteuid() == 0:
        # root without the power to ignore file permissions, as the service's user is
        command = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--", *command]
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=60, check=False, env=env
    )
    return Result(result.returncode, result.stdout, result.stderr)


@pytest.fixture
def board(tmp_path: Path) -> Iterator[BoardEmulator]:
    with BoardEmulator(link=tmp_path / "domino-board") as emulator:
        yield emulator


@pytest.fixture
def frames(tmp_path: Path) -> Path:
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "0001.png"), np.full((48, 64, 3), 90, np.uint8))
    return folder


def settings_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "settings.toml"
    path.write_text('[table]\nid = "kitchen"\nseats = 4\n' + body)
    return path


def good_settings(tmp_path: Path, broker: Mosquitto, frames: Path, mqtt: str = "") -> Path:
    (tmp_path / "state").mkdir(exist_ok=True)
    return settings_file(
        tmp_path,
        f'[serial]\nenabled = true\nport = "{tmp_path / "domino-board"}"\n'
        f'[camera]\nenabled = true\nsource = "{frames}"\n'
        f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\n{mqtt}'
        f'[state]\ndir = "{tmp_path / "state"}"\n' + PANEL,
    )


def test_a_good_set_up_is_all_ok(
    tmp_path: Path, broker: Mosquitto, board: BoardEmulator, frames: Path
) -> None:
    result = doctor(
        good_settings(tmp_path, broker, frames), path=fake_timedatectl(tmp_path / "bin", "yes")
    )
    assert result.code == 0, result.out
    assert "PROBLEM" not in result.out and result.out.rstrip().endswith("all good")
    result.line("ok", "camera", "1 images in")
    result.line("ok", "serial", "domino-board exists")
    assert "HELLO from board EMU1, firmware emulator-1.0" in result.out
    result.line("ok", "gpio", "MockFactory: 9 panel pins free")
    assert "MQTT CONNECT accepted (plain MQTT anonymously)" in result.out
    result.line("ok", "disk", "writable")
    result.line("ok", "clock", "NTP-synchronised")


@pytest.mark.broker
def test_a_good_set_up_with_password_over_tls(
    tmp_path: Path, board: BoardEmulator, frames: Path
) -> None:
    broker = SecureBroker(tmp_path / "mosquitto")
    broker.start()
    try:
        secret = tmp_path / "mqtt-password"
        secret.write_text(USERS["domino/kitchen"] + "\n")
        secret.chmod(0o600)
        mqtt = (
            f'username = "domino/kitchen"\npassword_file = "{secret}"\n'
            f'[mqtt.tls]\nenabled = true\nca_file = "{broker.certs / "ca.crt"}"\n'
        )
        path = fake_timedatectl(tmp_path / "bin", "yes")
        result = doctor(good_settings(tmp_path, broker, frames, mqtt), path=path)
        assert result.code == 0, result.out
        assert "MQTT CONNECT accepted (TLS as domino/kitchen)" in result.out
        secret.write_text("Wrong-" + USERS["domino/kitchen"] + "\n")
        result = doctor(good_settings(tmp_path, broker, frames, mqtt), path=path)
        assert result.code == 1
        assert "refused the connection as domino/kitchen: Not authorized" in result.line(
            "PROBLEM", "broker"
        )
        assert "mqtt.username and the password" in result.fix("broker")
        assert USERS["domino/kitchen"] not in result.out + result.err  # never printed
    finally:
        broker.stop()


def test_a_bad_set_up_names_each_problem_and_its_fix(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    state.chmod(0o555)
    with closed_port() as port:  # no broker there
        settings = settings_file(
            tmp_path,
            '[serial]\nenabled = true\nport = "/dev/domino-board-gone"\n'
            "[camera]\nenabled = true\nsource = 7\n"
            f'[mqtt]\nhost = "127.0.0.1"\nport = {port}\n'
            f'[state]\ndir = "{state}"\n' + PANEL,
        )
        result = doctor(
            settings,
            path=fake_timedatectl(tmp_path / "bin", "no"),
            mock_gpio=False,  # and this is no Raspberry Pi
            drop_root=True,
        )
    assert result.code == 1, result.out
    result.line("PROBLEM", "camera", "/dev/video7 does not exist")
    assert "video group" in result.fix("camera")
    result.line("PROBLEM", "serial", "/dev/domino-board-gone does not exist")
    assert "udev rule" in result.fix("serial")
    result.line("PROBLEM", "gpio", "no /dev/gpiochip*")
    assert "GPIOZERO_PIN_FACTORY=mock" in result.fix("gpio")
    result.line("PROBLEM", "broker", "cannot reach 127.0.0.1:")
    assert "systemctl start mosquitto" in result.fix("broker")
    result.line("PROBLEM", "disk", f"cannot write in {state}")
    assert "chown domino" in result.fix("disk")
    result.line("PROBLEM", "clock", "not NTP-synchronised")
    assert "timedatectl set-ntp true" in result.fix("clock")
    assert result.out.rstrip().endswith("6 problems")


def test_a_port_where_no_board_answers(tmp_path: Path, broker: Mosquitto) -> None:
    master, slave = os.openpty()  # a serial device nobody speaks on
    try:
        settings = settings_file(
            tmp_path,
            f'[serial]\nenabled = true\nport = "{os.ttyname(slave)}"\n'
            f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\n'
            f'[state]\ndir = "{tmp_path / "state"}"\n',
        )
        result = doctor(settings, path=fake_timedatectl(tmp_path / "bin", "yes"))
    finally:
        os.close(master)
        os.close(slave)
    assert result.code == 1
    result.line("PROBLEM", "serial", "no HELLO handshake")
    assert "powered" in result.fix("serial")
    assert "skip     gpio" in result.out and "skip     camera" in result.out


@pytest.mark.broker
def test_plain_mqtt_to_a_tls_listener_is_explained(tmp_path: Path) -> None:
    broker = SecureBroker(tmp_path / "mosquitto")
    broker.start()
    try:
        settings = settings_file(
            tmp_path,
            f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\nusername = "desk"\n'
            f'[state]\ndir = "{tmp_path / "state"}"\n',
        )
        result = doctor(settings, path=fake_timedatectl(tmp_path / "bin", "yes"))
    finally:
        broker.stop()
    assert result.code == 1
    result.line("PROBLEM", "broker", "no answer to MQTT CONNECT")
    assert "[mqtt.tls] enabled = true" in result.fix("broker")


def test_a_tls_file_the_client_cannot_use_is_named(tmp_path: Path, broker: Mosquitto) -> None:
    """The same client as the table's (`service.mqtt.client`): its TLS problem names the
    setting; the camera's status check, over the same client, is skipped saying why."""
    (tmp_path / "ca.crt").write_text("not a certificate")
    settings = settings_file(
        tmp_path,
        f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\n'
        '[mqtt.tls]\nenabled = true\nca_file = "ca.crt"\n'
        f'[camera]\nenabled = true\nsource = "sim"\n[state]\ndir = "{tmp_path / "state"}"\n',
    )
    result = doctor(settings, path=fake_timedatectl(tmp_path / "bin", "yes"))
    assert result.code == 1, result.out
    line = result.line("PROBLEM", "broker", "cannot use the TLS files in [mqtt.tls]")
    assert "holds no PEM CA certificate" in line and "check mqtt.tls.ca_file" in line
    assert "[mqtt.tls]" in result.fix("broker")
    result.line("skip", "camera", "its status cannot be read from the broker")


def test_invalid_settings_are_listed(tmp_path: Path) -> None:
    settings = settings_file(tmp_path, "[mqtt]\nport = 70000\n")
    result = doctor(settings, path=os.environ["PATH"])
    assert result.code == 1
    assert "the settings are not valid" in result.out and "mqtt.port" in result.out


def test_a_clock_before_the_build_date(tmp_path: Path) -> None:
    settings = load_settings(None, {"state.dir": str(tmp_path)})
    built = datetime(2026, 11, 1, tzinfo=UTC)
    [finding] = check_clock(settings, 1.0, now=lambda: datetime(1970, 1, 1, tzinfo=UTC),
                            built=lambda: built)  # fmt: skip
    assert finding.status is Status.PROBLEM
    assert "1970-01-01 00:00 UTC, before this program was installed (2026-11-01)" in finding.detail
    assert finding.fix is not None and "timedatectl set-ntp true" in finding.fix
    [later] = check_clock(settings, 1.0, now=lambda: built + timedelta(days=1), built=lambda: built)
    assert later.status is Status.OK


def test_a_board_looked_up_by_usb_id_that_is_not_there(tmp_path: Path) -> None:
    settings = settings_file(
        tmp_path,
        '[serial]\nenabled = true\nusb = "2e8a:000a"\n[mqtt]\nenabled = false\n'
        f'[state]\ndir = "{tmp_path}"\n',
    )
    result = doctor(settings, path=fake_timedatectl(tmp_path / "bin", "yes"))
    assert result.code == 1
    line = result.line("PROBLEM", "serial", "no USB serial device 2e8a:000a")
    assert "serial devices" in line  # what is there instead, or that nothing is
    assert "lsusb" in result.fix("serial")
    result.line("skip", "broker", "MQTT is off")


def host_hellos(board: BoardEmulator) -> int:
    return sum(isinstance(frame.message, HostHello) for frame in list(board.heard))


def test_a_board_held_by_the_running_service_is_left_alone(
    tmp_path: Path, broker: Mosquitto, board: BoardEmulator
) -> None:
    """A second HELLO would reset the board's session under the service's feet."""
    port = tmp_path / "domino-board"
    service = subprocess.Popen(
        [str(BIN), "run", "--serial", str(port), "--mqtt-host", broker.host,
         "--mqtt-port", str(broker.port), "--state-dir", str(tmp_path / "state")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        assert board.wait_until(lambda: host_hellos(board) >= 1, timeout=20)
        time.sleep(0.5)
        before = host_hellos(board)
        settings = settings_file(
            tmp_path,
            f'[serial]\nenabled = true\nport = "{port}"\n[mqtt]\nenabled = false\n'
            f'[state]\ndir = "{tmp_path / "doctor-state"}"\n',
        )
        result = doctor(settings, path=fake_timedatectl(tmp_path / "bin", "yes"))
        result.line("ok", "serial", f"open in the running service (pid {service.pid})")
        assert result.code == 0, result.out
        assert host_hellos(board) == before
        assert service.poll() is None
    finally:
        service.terminate()
        service.wait(15)
