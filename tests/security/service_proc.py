"""`domino-table run` as a real process with a settings file (user name, password, TLS)."""

from __future__ import annotations

from pathlib import Path

from tests.fixtures.process import BIN, ChildProcess
from tests.security.broker import USERS, SecureBroker


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


def kitchen_settings(tmp_path: Path, broker: SecureBroker) -> Path:
    """Table kitchen's own settings in `tmp_path/table`: its user and password, over TLS."""
    user = "domino/kitchen"
    return table_settings(tmp_path / "table", broker, user, USERS[user])


class TableProcess(ChildProcess):
    """The service in a child process; its log (debug level, stdout too) goes to a file."""

    def __init__(self, settings: Path) -> None:
        args = [str(BIN), "--log-level", "debug", "run", "--settings", str(settings)]
        super().__init__(args, settings.with_name("service.log"), stdout=True, stop_timeout=15)
