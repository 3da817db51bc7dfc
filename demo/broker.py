"""A private Mosquitto for `domino-table demo`: zero set-up, on a free loopback port.

Debian's `mosquitto` runs as a child process with a generated config in its own
folder, and is stopped on exit (and, on Linux, when this process dies). Mosquitto is
the broker the product is tested against; see docs/design/mqtt.md for why no Python broker.
"""

from __future__ import annotations

import ctypes
import logging
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Collection
from pathlib import Path
from types import TracebackType

log = logging.getLogger(__name__)

SEARCH_PATH = ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto")
_PR_SET_PDEATHSIG = 1


class BrokerError(Exception):
    """The demo broker cannot be started."""


def find_mosquitto() -> str:
    """The path of the `mosquitto` program, or `BrokerError` saying how to get one."""
    found = shutil.which("mosquitto") or next(
        (path for path in SEARCH_PATH if os.access(path, os.X_OK)), None
    )
    if found is None:
        raise BrokerError(
            "mosquitto is not installed: install it with `sudo apt-get install mosquitto` "
            "(./run demo does), or point --mqtt-host at a running MQTT broker"
        )
    return found


def free_port(host: str = "127.0.0.1", avoid: Collection[int] = ()) -> int:
    """A port free now on `host`, none of `avoid` (ports the caller means to use itself:
    the kernel may hand out again a port just released)."""
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind((host, 0))
            port = int(s.getsockname()[1])
        if port not in avoid:
            return port


def _port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def _die_with_parent() -> None:  # pragma: no cover - runs in the child
    """Linux: the broker gets SIGTERM when the process that started it dies."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


class LocalBroker:
    """One Mosquitto child process. A context manager; `stop()` is idempotent."""

    def __init__(
        self,
        workdir: Path | None = None,
        *,
        host: str = "127.0.0.1",
        port: int | None = None,
        binary: str | None = None,
        extra: str = "",
        avoid: Collection[int] = (),
    ) -> None:
        self.binary = binary or find_mosquitto()
        self.avoid = frozenset(avoid)  # ports the demo's pages will listen on
        self.extra = extra  # more configuration (a bridge section, say)
        self.host = host
        self.port = port or 0
        self._fixed_port = port is not None
        self._own_workdir = workdir is None
        self.workdir = workdir or Path(tempfile.mkdtemp(prefix="domino-mosquitto-"))
        self.log_file = self.workdir / "mosquitto.log"
        self._proc: subprocess.Popen[bytes] | None = None

    def config_text(self) -> str:
        lines = [
            f"listener {self.port} {self.host}",
            "allow_anonymous true",
            "set_tcp_nodelay true",  # each message sent at once (config/mosquitto says why)
            "persistence true",
            f"persistence_location {self.workdir}/",
            f"log_dest file {self.log_file}",
            "log_type error",
            "log_type warning",
            "log_type notice",
        ]
        if os.geteuid() == 0:
            lines.append("user root")  # as root without it, mosquitto exits silently
        return "\n".join(lines) + "\n" + self.extra

    def start(self, timeout: float = 10.0) -> None:
        """Start the broker and wait until it accepts connections."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        attempts = 1 if self._fixed_port else 3  # a free port may be taken meanwhile
        for attempt in range(1, attempts + 1):
            if not self._fixed_port:
                self.port = free_port(self.host, self.avoid)
            try:
                self._launch(timeout)
            except BrokerError:
                if attempt == attempts:
                    raise
                log.info("broker: port %d was taken, trying another", self.port)
            else:
                log.info("broker: mosquitto listening on %s:%d", self.host, self.port)
                return

    def _launch(self, timeout: float) -> None:
        if not _port_free(self.host, self.port):
            raise BrokerError(
                f"broker: port {self.port} on {self.host} is already in use: "
                "choose another port, or point --mqtt-host at the broker using it"
            )
        conf = self.workdir / "mosquitto.conf"
        conf.write_text(self.config_text())
        self._proc = subprocess.Popen(
            [self.binary, "-c", str(conf)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,  # noqa: PLW1509 - only sets the death signal
            start_new_session=True,  # Ctrl-C stops the demo, which stops the broker last
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                code, self._proc = self._proc.returncode, None
                raise BrokerError(
                    f"broker: mosquitto exited with {code} on port {self.port}: {self._log_tail()}"
                )
            try:
                with socket.create_connection((self.host, self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise BrokerError(f"broker: mosquitto did not listen on port {self.port} in {timeout} s")

    def _log_tail(self) -> str:
        try:
            lines = self.log_file.read_text(errors="replace").strip().splitlines()
        except OSError:
            return "no log"
        return " | ".join(lines[-3:]) or "empty log"

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def stop(self) -> None:
        """Stop the broker (SIGTERM, then SIGKILL after 5 s) and remove a temporary folder."""
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
            log.info("broker: mosquitto stopped")
        if self._own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> LocalBroker:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
