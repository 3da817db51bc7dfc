"""doctor's checks of the machine: the state folder's disk, the clock, and which
process is the running table service (it holds the board and the GPIO chips)."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from cli.doctor.findings import Finding, ok, problem
from config.settings import Settings

MIN_FREE_BYTES = 100 * 1024 * 1024


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


# --- the running service -----------------------------------------------------------


def service_holding(devices: Sequence[str]) -> int | None:
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
