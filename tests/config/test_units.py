"""The Pi installation files: systemd units, the udev rule and scripts/install-pi.sh.

systemd-analyze checks the units as systemd would read them; the unit's hardening is
read back to show it still lets the service reach the serial port, GPIO and camera; the
udev rule is parsed key by key; the installer's --dry-run names every step.
"""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "config"
TABLE_UNIT = CONFIG / "domino-table.service"
DISPLAY_UNIT = CONFIG / "domino-display.service"
UDEV_RULE = CONFIG / "99-domino-board.rules"
INSTALLER = ROOT / "scripts" / "install-pi.sh"
VENV_BIN = "/opt/domino-table/.venv/bin/domino-table"


def read_unit(path: Path) -> configparser.ConfigParser:
    """A unit file as sections of keys; a key given twice keeps its last value."""
    unit = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string(path.read_text())
    return unit


def systemd_analyze() -> str:
    found = shutil.which("systemd-analyze")
    if found is None:
        pytest.fail("systemd-analyze is missing: apt-get install systemd")
    return found


def runnable_copy(unit: Path, tmp_path: Path) -> Path:
    """The unit with ExecStart pointed at this checkout's domino-table (verify wants an
    executable that exists; /opt/domino-table is only there on an installed Pi)."""
    text = unit.read_text()
    assert VENV_BIN in text
    here = Path(sys.executable).parent / "domino-table"
    copy = tmp_path / unit.name
    copy.write_text(text.replace(VENV_BIN, str(here)))
    return copy


@pytest.mark.process
@pytest.mark.parametrize("unit", [TABLE_UNIT, DISPLAY_UNIT], ids=lambda p: p.name)
def test_systemd_analyze_verify_finds_nothing(unit: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [systemd_analyze(), "verify", str(runnable_copy(unit, tmp_path))],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "", result.stderr  # unknown keys are only warnings


@pytest.mark.process
def test_verify_would_catch_a_typo(tmp_path: Path) -> None:
    """The check above is not blind: a misspelt key is reported."""
    copy = runnable_copy(TABLE_UNIT, tmp_path)
    copy.write_text(copy.read_text().replace("Restart=on-failure", "Restrat=on-failure"))
    result = subprocess.run(
        [systemd_analyze(), "verify", str(copy)], capture_output=True, text=True, check=False
    )
    assert "Restrat" in result.stderr


@pytest.mark.process
@pytest.mark.parametrize(("unit", "limit"), [(TABLE_UNIT, 3.0), (DISPLAY_UNIT, 2.0)])
def test_hardened_by_systemds_own_measure(unit: Path, limit: float, tmp_path: Path) -> None:
    result = subprocess.run(
        [systemd_analyze(), "security", "--offline=yes", "--no-pager",
         str(runnable_copy(unit, tmp_path))],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert found, result.stdout + result.stderr
    assert float(found.group(1)) <= limit, result.stdout  # 8.5 without the hardening


def test_the_table_unit_runs_the_service_as_domino_from_the_installed_venv() -> None:
    unit = read_unit(TABLE_UNIT)
    service = unit["Service"]
    assert service["ExecStart"].split()[:2] == [VENV_BIN, "run"]
    assert service["ExecStart"].endswith("--settings /etc/domino-table/settings.toml")
    assert service["User"] == "domino" and service["Group"] == "domino"
    assert service["Restart"] == "on-failure"
    assert service["StateDirectory"] == "domino-table"  # /var/lib/domino-table
    assert service["WorkingDirectory"] == "/var/lib/domino-table"
    assert service["StandardOutput"] == service["StandardError"] == "journal"
    assert service["EnvironmentFile"] == "-/etc/domino-table/env"
    assert "network-online.target" in unit["Unit"]["Wants"]
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_hardening_still_reaches_serial_gpio_and_camera() -> None:
    """Device nodes stay visible and are reached through the groups that own them."""
    service = read_unit(TABLE_UNIT)["Service"]
    assert set(service["SupplementaryGroups"].split()) >= {"dialout", "gpio", "video"}
    assert service.get("PrivateDevices", "no") == "no"  # would hide /dev/tty*, gpiochip, video
    assert service.get("DevicePolicy", "auto") == "auto"
    assert "DeviceAllow" not in service  # any DeviceAllow= closes the list to what it names
    assert service.get("ProtectClock", "no") == "no"  # implies DeviceAllow=char-rtc
    assert service.get("PrivateUsers", "no") == "no"  # would unmap the device groups
    assert service.get("ProcSubset", "all") == "all"  # gpiozero reads /proc/cpuinfo
    assert "AF_NETLINK" in service["RestrictAddressFamilies"]  # udev events (libcamera)
    assert service["NoNewPrivileges"] == "yes" and service["ProtectSystem"] == "strict"
    assert service["ReadWritePaths"] == "/var/lib/domino-table"


def test_the_display_unit_gets_no_devices_and_no_password_on_its_command_line() -> None:
    service = read_unit(DISPLAY_UNIT)["Service"]
    assert service["ExecStart"] == f"{VENV_BIN} display $DISPLAY_ARGS"
    assert service["EnvironmentFile"] == "-/etc/domino-table/display.env"
    assert service["PrivateDevices"] == "yes" and service["User"] == "domino"
    assert "password" not in service["Environment"].lower()


# --- the udev rule ----------------------------------------------------------------------

MATCH_OPS = ("==", "!=")
ASSIGN_OPS = ("=", "+=", "-=", ":=")
MATCH_KEYS = {"ACTION", "SUBSYSTEM", "SUBSYSTEMS", "KERNEL", "KERNELS", "DRIVERS"}
ASSIGN_KEYS = {"SYMLINK", "GROUP", "MODE", "OWNER", "TAG", "RUN", "NAME"}
TOKEN = re.compile(r'\s*([A-Z_]+)(?:\{([^}]+)\})?\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*(?:,|$)')


def parse_rule(line: str) -> list[tuple[str, str | None, str, str]]:
    """(key, attribute, operator, value) of each part of one rule line; a part that is
    not `KEY{attr}<op>"value"` fails."""
    parts, pos = [], 0
    while pos < len(line):
        token = TOKEN.match(line, pos)
        assert token, f"cannot parse the rule from: {line[pos:]!r}"
        parts.append((token[1], token[2], token[3], token[4]))
        pos = token.end()
    return parts


def rule_lines() -> list[str]:
    return [
        line
        for line in UDEV_RULE.read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def test_the_udev_rule_parses_with_known_keys_and_operators() -> None:
    lines = rule_lines()
    assert len(lines) == 1
    for key, attr, op, value in parse_rule(lines[0]):
        if key in {"ATTRS", "ATTR"}:
            assert attr and op in MATCH_OPS, (key, attr, op)
        elif key == "ENV":
            assert attr and op in MATCH_OPS + ASSIGN_OPS
        elif key in MATCH_KEYS:
            assert op in MATCH_OPS, (key, op)
        else:
            assert key in ASSIGN_KEYS and op in ASSIGN_OPS, (key, op)
        assert value == value.strip() and "\n" not in value


def test_the_udev_rule_names_the_board_by_its_usb_ids() -> None:
    parts = {(k, a): (op, v) for k, a, op, v in parse_rule(rule_lines()[0])}
    assert parts[("SUBSYSTEM", None)] == ("==", "tty")
    vendor, product = parts[("ATTRS", "idVendor")][1], parts[("ATTRS", "idProduct")][1]
    assert re.fullmatch(r"[0-9a-f]{4}", vendor) and re.fullmatch(r"[0-9a-f]{4}", product)
    assert parts[("SYMLINK", None)] == ("+=", "domino-board")
    assert parts[("GROUP", None)] == ("=", "dialout")  # the service user's group
    assert parts[("MODE", None)] == ("=", "0660")
    # The same board as the settings' example of finding it by USB id.
    example = tomllib.loads((CONFIG / "examples" / "tournament-table.toml").read_text())
    assert example["serial"]["usb"] == f"{vendor}:{product}"


# --- the installer ----------------------------------------------------------------------

STEPS = [
    "check the system",
    "Debian packages",
    "user domino in the groups dialout gpio video",
    "program in /opt/domino-table/src",
    "virtual environment /opt/domino-table/.venv",
    "state folder /var/lib/domino-table",
    "settings /etc/domino-table/settings.toml",
    "udev rule: /dev/domino-board",
    "systemd units in /etc/systemd/system",
    "enable at boot",
]


def installer(*args: str, user: str | None = "nobody", path: str | None = None) -> str:
    """Run the installer (as `nobody`: a dry run needs no root); its output."""
    command = ["env", f"PATH={path or os.environ['PATH']}", str(INSTALLER), *args]
    if user is not None and os.geteuid() == 0:
        command = ["runuser", "-u", user, "--", *command]  # runuser resets PATH: env sets it
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    return f"rc={result.returncode}\n{result.stdout}{result.stderr}"


@pytest.mark.process
def test_installer_syntax_and_shellcheck() -> None:
    subprocess.run(["bash", "-n", str(INSTALLER)], check=True)
    assert os.access(INSTALLER, os.X_OK)
    shellcheck = shutil.which("shellcheck")
    if shellcheck is not None:  # `bash -n` above is the floor; shellcheck where installed
        result = subprocess.run(
            [shellcheck, str(INSTALLER)], capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, result.stdout


@pytest.mark.process
def test_dry_run_names_every_step_and_changes_nothing() -> None:
    out = installer("--dry-run", "--with-display")
    assert out.startswith("rc=0\n"), out
    assert "nothing is changed" in out
    numbered = re.findall(r"==> step (\d+): (.+)", out)
    assert [int(n) for n, _ in numbered] == list(range(1, len(STEPS) + 1))
    for (_, title), expected in zip(numbered, STEPS, strict=True):
        assert title.startswith(expected), (title, expected)
    # On a Pi where it is installed already, the user and the venv are there.
    assert "useradd --system" in out or "user domino exists" in out
    assert (
        "python3 -m venv --system-site-packages /opt/domino-table/.venv" in out
        or "exists: updating it" in out
    )
    # the lock of the system's numpy, then the project alone (scripts/pi-venv.sh,
    # tests/install/); a system numpy with no lock: what --unlocked would do, said so
    locked = re.search(
        r"pip install --quiet --require-hashes --no-deps -r \S+/requirements/\S+\.txt\n.*"
        r"pip install --quiet --no-deps --no-build-isolation --force-reinstall --report "
        r"\S+ /opt/domino-table/src",
        out,
        re.S,
    )
    unlocked = "WARNING: no lock for the system's numpy" in out and re.search(
        r"pip install --quiet --upgrade --constraint "
        r"/opt/domino-table/\.venv/system-constraints\.txt /opt/domino-table/src",
        out,
    )
    assert locked or unlocked, out
    for command in (
        "/etc/udev/rules.d/99-domino-board.rules",
        "/etc/systemd/system/domino-table.service",
        "/etc/systemd/system/domino-display.service",
        "systemctl enable domino-table.service domino-display.service",
    ):
        assert command in out, command
    assert "+ " not in out  # nothing was run for real
    assert not Path("/opt/domino-table/src.new").exists()


@pytest.mark.process
def test_installer_refuses_without_root_and_on_32_bit() -> None:
    out = installer()
    assert out.startswith("rc=1\n") and "run as root" in out
    # A 32-bit userland (`dpkg --print-architecture` says armhf) under a 64-bit kernel
    # (`uname -m` says aarch64), as a 32-bit Raspberry Pi OS on a Pi 4 or 5 has. The fakes
    # sit where `nobody` may run them (pytest's tmp_path is root's only).
    with tempfile.TemporaryDirectory() as fake:
        os.chmod(fake, 0o755)
        for name, says in (("dpkg", "armhf"), ("uname", "aarch64")):
            (Path(fake) / name).write_text(f"#!/bin/sh\necho {says}\n")
            (Path(fake) / name).chmod(0o755)
        path = f"{fake}:{os.environ['PATH']}"
        out = installer(path=path)
        assert out.startswith("rc=1\n") and "armhf is not a 64-bit system" in out, out
        assert "no 32-bit ARM wheels" in out
        assert "WARNING: armhf" in installer("--dry-run", path=path)


@pytest.mark.process
def test_installer_rejects_unknown_options_and_examples() -> None:
    assert installer("--frobnicate").startswith("rc=2\n")
    out = installer("--dry-run", "--example", "nowhere")
    assert out.startswith("rc=1\n") and "config/examples/nowhere.toml" in out
    for example in ("kitchen", "cafe-camera", "tournament-table"):
        out = installer("--dry-run", "--example", example)
        assert out.startswith("rc=0\n") and f"examples/{example}.toml" in out
