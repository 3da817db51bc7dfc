"""`domino-table display` as a user starts it: a real process on a real Mosquitto."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from display.cli import display
from tests.display import samples
from tests.display.conftest import Controller, wait_for
from tests.fixtures.mosquitto import Mosquitto
from tournament.cli import tournament


def fetch(url: str) -> dict[str, Any] | None:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return json.loads(response.read())  # type: ignore[no-any-return]
    except OSError:
        return None


def served_port(proc: subprocess.Popen[bytes], seen: list[bytes]) -> int:
    """The port a `domino-table display --http-port 0` logged it serves on (its stderr
    read up to that line, kept in `seen`)."""
    assert proc.stderr is not None
    for line in proc.stderr:
        seen.append(line)
        found = re.search(rb"http: serving table \S+ on http://127\.0\.0\.1:(\d+)/", line)
        if found:
            return int(found[1])
    raise AssertionError(b"".join(seen).decode(errors="replace"))


@pytest.mark.process
def test_the_command_serves_the_table(
    broker: Mosquitto, controller: Controller, tmp_path: Path
) -> None:
    controller.state(samples.state())
    controller.status("online")
    password = tmp_path / "password"
    password.write_text("s3cret\n")
    args = [
        "--table",
        samples.TABLE,
        "--mqtt-host",
        broker.host,
        "--mqtt-port",
        str(broker.port),
        "--mqtt-username",
        "display",
        "--mqtt-password-file",
        str(password),
        "--http-host",
        "127.0.0.1",
        "--http-port",
        "0",
        "--language",
        "es",
        "--no-pin",
    ]
    command = [sys.executable, "-c", "from cli.main import main; main()", "display", *args]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    logged: list[bytes] = []
    try:
        port = served_port(proc, logged)
        url = f"http://127.0.0.1:{port}/api/view"
        view = wait_for(
            lambda: (v := fetch(url)) is not None and v["stale"] == [] and v, 10, "the display"
        )
        assert view["language"] == "es"
        assert view["state"]["seats"][3]["name"] == "Dev"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
            assert b'src="/static/app.js"' in response.read()
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    assert b"s3cret" not in b"".join(logged) + err, "the password must never be logged"


def test_a_bad_table_id_is_a_usage_error() -> None:
    result = CliRunner().invoke(display, ["--table", "Bad Table"])
    assert result.exit_code == 2
    assert "table id 'Bad Table' is not valid" in result.output


def test_an_unreadable_password_file_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        display,
        ["--table", "t1", "--mqtt-username", "u", "--mqtt-password-file", str(tmp_path / "no")],
    )
    assert result.exit_code == 2
    assert "cannot read" in result.output


@pytest.mark.parametrize(
    ("command", "args", "words"),
    [
        (display, ["--table", "t1", "--mqtt-port", "0"], "mqtt port 0 is out of range 1..65535"),
        (display, ["--table", "t1", "--mqtt-port", "70000"], "out of range 1..65535"),
        (display, ["--table", "t1", "--http-port", "70000"], "out of range 0..65535"),
        (tournament, ["--mqtt-port", "0"], "mqtt port 0 is out of range 1..65535"),
        (tournament, ["--http-port", "-1"], "http port -1 is out of range 0..65535"),
    ],
)
def test_a_port_out_of_range_is_a_usage_error(
    command: click.Command, args: list[str], words: str
) -> None:
    result = CliRunner().invoke(command, args)
    assert result.exit_code == 2, result.output
    assert words in result.output


@pytest.mark.process
def test_the_look_and_the_lights_come_from_the_tables_settings(
    broker: Mosquitto, tmp_path: Path
) -> None:
    settings = tmp_path / "settings.toml"
    settings.write_text(
        '[display]\ntheme = "sun"\nday_starts = "08:00"\nday_ends = "20:30"\n'
        '[outputs.awtrix]\nprefix = "awtrix_1a2b3c"\n'
        '[outputs.wled]\ntopic = "wled/t7"\nseats = [[0, 30], [30, 60], [60, 90], [90, 120]]\n'
    )

    def look(*flags: str) -> str:
        args = ["--table", samples.TABLE, "--mqtt-host", broker.host, "--mqtt-port",
                str(broker.port), "--http-host", "127.0.0.1", "--http-port", "0",
                "--no-pin", "--settings", str(settings), *flags]  # fmt: skip
        command = [sys.executable, "-c", "from cli.main import main; main()", "display", *args]
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            port = served_port(proc, [])

            def served() -> str | None:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/look.js") as r:
                        return str(r.read().decode())
                except OSError:
                    return None

            look = str(wait_for(served, 10, "the display"))
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/outputs/events") as r:
                first = next(line for line in r if line.startswith(b"data: {"))
            lights = json.loads(first[6:])  # the /outputs page: the table's clock and strip
            assert (lights["awtrix"], lights["wled"]) == (
                {"prefix": "awtrix_1a2b3c", "app": "domino"}, {"topic": "wled/t7"},
            )  # fmt: skip
            return look
        finally:
            proc.terminate()
            proc.communicate(timeout=10)

    sun = '{"theme": "sun", "day_starts": "08:00", "day_ends": "20:30"}'
    assert look() == f"window.DISPLAY_LOOK = {sun};\n"
    assert look("--theme", "dark") == f"window.DISPLAY_LOOK = {sun.replace('sun', 'dark')};\n"


def test_a_bad_look_in_the_settings_is_a_usage_error_naming_file_and_key(tmp_path: Path) -> None:
    settings = tmp_path / "settings.toml"
    settings.write_text('[display]\ntheme = "bright"\n')
    result = CliRunner().invoke(display, ["--table", "t1", "--settings", str(settings)])
    assert result.exit_code == 2, result.output
    assert f"{settings}: display.theme: 'bright' is not allowed: use 'sun', 'dark' or 'auto'" in (
        result.output
    )
    result = CliRunner().invoke(display, ["--table", "t1", "--theme", "bright"])
    assert result.exit_code == 2 and "'bright' is not one of 'sun', 'dark', 'auto'" in result.output
