"""`domino-table run` as a real process with a settings file (user name, password, TLS)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.security.broker import SecureBroker

BIN = Path(sys.executable).parent / "domino-table"


def table_settings(
    folder: Path, broker: SecureBroker, user: str, password: str, *, tls: bool = True
) -> Path:
    """A settings file for table `kitchen` on `broker`, the password in a 600 file."""
    folder.mkdir(parents=True, exist_ok=True)
    secret = folder / "mqtt-password"
    secret.write_text(password + "\n")
    secret.chmod(0o600)
    port = broker.port if tls else broker.plain_port
    path = folder / "settings.toml"
    path.write_text(
        '[table]\nid = "kitchen"\nrules = "walnut"\nseats = 4\n'
        f'[mqtt]\nhost = "127.0.0.1"\nport = {port}\nusername = "{user}"\n'
        'password_file = "mqtt-password"\nkeepalive = 5\n'
        f"[mqtt.tls]\nenabled = {'true' if tls else 'false'}\n"
        + (f'ca_file = "{broker.certs / "ca.crt"}"\n' if tls else "")
        + f'[state]\ndir = "{folder / "state"}"\n'
    )
    return path


class TableProcess:
    """The service in a child process; its log (debug level) goes to a file."""

    def __init__(self, settings: Path) -> None:
        self.log = settings.with_name("service.log")
        self.args = [str(BIN), "--log-level", "debug", "run", "--settings", str(settings)]
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> TableProcess:
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                self.args, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(15)
        return self.proc.returncode

    def output(self) -> str:
        return self.log.read_text(errors="replace")
