"""The command PIN: the page asks for it, the server refuses commands without it (HTTP
401, never published) and locks out a client guessing it; `domino-table display` asks for
one by default (made and printed at its first start), `--no-pin` opens the buttons, and
`domino-table demo` shows its PIN. A real Mosquitto, the display server and, for the
page, Debian's Chromium."""

from __future__ import annotations

import json
import logging
import re
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from playwright.sync_api import Page, expect

from display.cli import display
from tests.display import samples
from tests.display.conftest import (
    Controller,
    DisplayServer,
    screenshot,
    start_display_on,
    wait_for,
)
from tests.fixtures.display_http import post_command
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.process import BIN, ChildProcess

PIN = "2468"


@pytest.fixture
def pin_display(broker: Mosquitto) -> Iterator[DisplayServer]:
    server = start_display_on(
        broker, command_pin=PIN, pin_tries=3, pin_lockout_s=3.0, pin_delay_s=0.05
    )
    try:
        yield server
    finally:
        server.stop()


def open_live(page: Page, controller: Controller, server: DisplayServer, query: str = "") -> None:
    controller.state(samples.state())
    controller.status("online")
    controller.answer = lambda c: samples.reply(c["id"])
    page.goto(server.url + query)
    expect(page.locator("body")).to_have_class("live phase-play ")


def test_a_wrong_pin_is_refused_and_changes_nothing_the_right_one_is_applied(
    controller: Controller, pin_display: DisplayServer, page: Page
) -> None:
    open_live(page, controller, pin_display)
    # everything is shown to everyone: the scores need no PIN
    expect(page.locator("#scores .card .score")).to_have_text(["85", "40", "6", "130"])
    page.locator("#actions [data-action=pass]").click()
    dialog = page.get_by_role("dialog", name="Command PIN")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_label("PIN")).to_be_focused()
    screenshot(page, "800x480-pin")
    dialog.get_by_label("PIN").fill("1357")
    dialog.get_by_role("button", name="Send").click()
    expect(page.locator("#toast-text")).to_have_text("Pass: wrong PIN, nothing was sent")
    expect(page.locator("#toast")).to_have_attribute("data-kind", "no")
    expect(dialog).to_be_hidden()
    time.sleep(0.5)  # what a published command would have needed to reach the table
    assert controller.commands == []
    # the wrong PIN is forgotten: the next press asks again
    page.locator("#actions [data-action=pass]").click()
    expect(dialog).to_be_visible()
    dialog.get_by_label("PIN").fill(PIN)
    dialog.get_by_label("PIN").press("Enter")
    expect(page.locator("#toast-text")).to_have_text("Pass: done")
    assert [c["action"] for c in controller.commands] == ["pass"]
    # the right PIN is kept for the page's next commands
    page.locator("#actions [data-action=draw]").click()
    expect(page.locator("#toast-text")).to_have_text("Draw: done")
    expect(dialog).to_be_hidden()
    assert [c["action"] for c in controller.commands] == ["pass", "draw"]


def test_the_pin_dialog_speaks_spanish_and_can_be_cancelled(
    controller: Controller, pin_display: DisplayServer, page: Page
) -> None:
    open_live(page, controller, pin_display, "?lang=es")
    page.locator("#actions [data-action=pass]").click()
    dialog = page.get_by_role("dialog", name="PIN de órdenes")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name="Enviar")).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.locator("#toast-text")).to_have_text("Paso: no enviado (sin PIN)")
    dialog_cancel = page.locator("#actions [data-action=pass]")
    dialog_cancel.click()
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Cancelar").click()
    expect(dialog).to_be_hidden()
    time.sleep(0.5)
    assert controller.commands == []


def test_the_page_tells_a_locked_out_device(
    controller: Controller, pin_display: DisplayServer, page: Page
) -> None:
    open_live(page, controller, pin_display)
    for _ in range(3):
        assert post_command(pin_display.url, {"action": "pass"}, "0000")[0] == 401
    # locked out: told at once, before any PIN is asked for
    page.locator("#actions [data-action=pass]").click()
    expect(page.locator("#toast-text")).to_have_text(
        re.compile(r"^Pass: too many wrong PINs: try again in [1-3] s$")
    )
    expect(page.get_by_role("dialog", name="Command PIN")).to_be_hidden()
    assert controller.commands == []


def test_a_command_posted_without_the_right_pin_gets_401_and_is_never_published(
    controller: Controller, pin_display: DisplayServer, caplog: pytest.LogCaptureFixture
) -> None:
    controller.answer = lambda c: samples.reply(c["id"])
    status, reply, _ = post_command(pin_display.url, {"id": "x1", "action": "pass"})
    assert (status, reply["ok"], reply["display_error"]) == (401, False, "pin_needed")
    assert reply["error"] == "this display needs its command PIN"
    status, reply, _ = post_command(pin_display.url, {"id": "x2", "action": "pass"}, "24680")
    assert (status, reply["display_error"]) == (401, "pin_wrong")
    assert reply["error"] == "wrong PIN: the command was not sent"
    # refused before the body is even read: a malformed command gets 401 too
    assert post_command(pin_display.url, {"action": "fly"})[0] == 401
    time.sleep(0.5)
    assert controller.commands == []
    status, reply, _ = post_command(pin_display.url, {"id": "x3", "action": "pass"}, PIN)
    assert (status, reply["ok"], reply["id"]) == (200, True, "x3")
    assert [c["id"] for c in controller.commands] == ["x3"]
    assert "24680" not in caplog.text and PIN not in caplog.text


def test_guessing_locks_the_client_out_even_with_the_right_pin(
    controller: Controller, pin_display: DisplayServer
) -> None:
    controller.answer = lambda c: samples.reply(c["id"])
    started = time.monotonic()
    for guess in ("1111", "2222", "3333"):
        assert post_command(pin_display.url, {"action": "pass"}, guess)[0] == 401
    assert time.monotonic() - started >= 3 * 0.05  # each wrong PIN is answered late
    status, reply, headers = post_command(pin_display.url, {"action": "pass"}, PIN)
    assert (status, reply["display_error"]) == (429, "pin_locked"), reply
    assert (
        reply["error"]
        == f"too many wrong PINs from this device: try again in {reply['retry_after']} s"
    )
    assert 1 <= reply["retry_after"] <= 3 and headers["Retry-After"] == str(reply["retry_after"])
    time.sleep(0.5)
    assert controller.commands == []
    time.sleep(3.0)  # the lock-out is over
    status, reply, _ = post_command(pin_display.url, {"id": "late", "action": "pass"}, PIN)
    assert (status, reply["ok"]) == (200, True)
    assert [c["id"] for c in controller.commands] == ["late"]


def test_the_start_up_log_says_whether_the_buttons_are_open(
    broker: Mosquitto, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="display.server")
    for pin in (None, PIN):
        server = start_display_on(broker, command_pin=pin)
        server.stop()
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("http: serving")]
    assert len(lines) == 2, lines
    assert lines[0].endswith(
        "its command buttons are open to anyone who can reach the page (--no-pin)"
    )
    assert lines[1].endswith("its command buttons ask for the command PIN")
    assert PIN not in caplog.text


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("", "is empty"),
        ("12 34\n", "the command PIN must be 4 to 64 letters, digits or signs"),
        ("123\n", "the command PIN must be 4 to 64 letters, digits or signs"),
    ],
)
def test_a_bad_pin_file_is_a_usage_error(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "pin"
    if content is not None:
        path.write_text(content)
    result = CliRunner().invoke(display, ["--table", "t1", "--command-pin-file", str(path)])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "--command-pin-file" in result.output


# --- `domino-table display` and `domino-table demo` as a user starts them -----------------------


def on_broker(url: str) -> bool:
    """Whether the display at `url` serves, and is on its broker."""
    try:
        with urllib.request.urlopen(f"{url}/api/view", timeout=2) as answer:
            return bool(json.load(answer)["broker"]["connected"])
    except OSError:
        return False


def table_online(url: str) -> bool:
    """Whether the display at `url` sees its table online: the table subscribes to its
    commands before it says `online`, so a command sent after this is heard."""
    try:
        with urllib.request.urlopen(f"{url}/api/view", timeout=2) as answer:
            return bool(json.load(answer)["controller"]["status"] == "online")
    except OSError:
        return False


class Started(ChildProcess):
    """`domino-table display` in a child process, its state folder `tmp_path/state`;
    `start` returns once it is on its broker."""

    runs = 0

    def __init__(self, broker: Mosquitto, tmp_path: Path, *flags: str) -> None:
        self.url = ""
        # --http-port 0: the system chooses the port, the display logs it (a port picked
        # here beforehand could be taken by another test's process meanwhile)
        args = [
            str(BIN), "display", "--table", samples.TABLE, "--mqtt-host", broker.host,
            "--mqtt-port", str(broker.port), "--http-host", "127.0.0.1",
            "--http-port", "0", "--reply-timeout", "2", *flags,
        ]  # fmt: skip
        state = {"STATE_DIRECTORY": str(tmp_path / "state")}
        Started.runs += 1
        super().__init__(args, tmp_path / f"display-{Started.runs}.out", stdout=True, env=state)

    def start(self) -> None:
        super().start()
        self.wait_until(self._serving)
        self.wait_until(lambda: on_broker(self.url))

    def _serving(self) -> bool:
        found = re.search(r"http: serving table \S+ on (http://127\.0\.0\.1:\d+)/", self.output())
        if found:
            self.url = found[1]
        return bool(found)


@pytest.mark.process
def test_the_display_asks_for_a_pin_made_at_its_first_start(
    broker: Mosquitto, controller: Controller, tmp_path: Path
) -> None:
    controller.answer = lambda c: samples.reply(c["id"])
    with Started(broker, tmp_path) as first:
        assert post_command(first.url, {"id": "a1", "action": "pass"})[0] == 401
    out = first.output()
    made = re.search(r"the page's buttons ask for the command PIN (\d{6}) \(kept in (\S+);", out)
    assert made, out
    pin, kept = made[1], Path(made[2])
    assert kept == tmp_path / "state" / f"display-{samples.TABLE}.pin"
    assert kept.read_text() == pin + "\n" and kept.stat().st_mode & 0o777 == 0o600
    with Started(broker, tmp_path) as again:  # the same PIN, not printed again
        assert post_command(again.url, {"id": "a2", "action": "pass"}, "000000")[0] == 401
        status, reply, _ = post_command(again.url, {"id": "a3", "action": "pass"}, pin)
        assert (status, reply["ok"]) == (200, True)
    out = again.output()
    assert pin not in out, out
    assert [c["id"] for c in controller.commands] == ["a3"]


@pytest.mark.process
def test_no_pin_opens_the_buttons(
    broker: Mosquitto, controller: Controller, tmp_path: Path
) -> None:
    controller.answer = lambda c: samples.reply(c["id"])
    with Started(broker, tmp_path, "--no-pin") as started:
        status, reply, _ = post_command(started.url, {"id": "o1", "action": "pass"})
        assert (status, reply["ok"]) == (200, True)
    out = started.output()
    assert "its command buttons are open to anyone who can reach the page (--no-pin)" in out
    assert not (tmp_path / "state").exists()  # no PIN made


def test_pin_flags_that_cannot_work_are_usage_errors(tmp_path: Path) -> None:
    both = ["--table", "t1", "--no-pin", "--command-pin-file", str(tmp_path / "pin")]
    result = CliRunner().invoke(display, both)
    assert result.exit_code == 2 and "not both" in result.output, result.output
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    result = CliRunner().invoke(display, ["--table", "t1"], env={"STATE_DIRECTORY": str(blocked)})
    assert result.exit_code == 2, result.output
    assert "cannot keep a new command PIN in" in result.output and "--no-pin" in result.output


@pytest.mark.process
def test_the_demo_shows_its_pin_and_its_display_asks_for_it(tmp_path: Path) -> None:
    # the system chooses the display's port, and the demo says which (a port picked here
    # beforehand could be taken by another test's process meanwhile)
    proc = subprocess.Popen(
        [str(BIN), "demo", "--pace", "0.2", "--seed", "7", "--http-port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        while not any("command PIN" in line for line in lines):
            line = proc.stdout.readline()
            assert line, "".join(lines)
            lines.append(line)
        found = re.search(r"its buttons ask for the command PIN (\d{6})\.", "".join(lines))
        assert found, "".join(lines)
        served = re.search(r"Display: open http://127\.0\.0\.1:(\d+)/ ", "".join(lines))
        assert served, "".join(lines)
        url = f"http://127.0.0.1:{served[1]}"
        wait_for(lambda: on_broker(url), 30, "the demo's display")
        # the demo names its display once it serves, which can be before its table is on
        # the broker: a command sent then was lost and timed out (1 run in 10)
        wait_for(lambda: table_online(url), 30, "the demo's table online on its display")
        assert post_command(url, {"id": "d1", "action": "undo"})[0] == 401
        status, reply, _ = post_command(url, {"id": "d2", "action": "undo"}, found[1])
        assert status == 200 and reply["id"] == "d2", reply  # the table's own answer
        # SIGUSR1: every thread's stack on standard error, and the demo goes on
        proc.send_signal(signal.SIGUSR1)
        stack = re.compile(r"^(Current thread|Thread) 0x[0-9a-f]+ \(most recent call first\):")
        while not any(stack.match(line) for line in lines):
            line = proc.stdout.readline()
            assert line, "".join(lines)
            lines.append(line)
        assert proc.poll() is None, "".join(lines)
    finally:
        proc.send_signal(signal.SIGINT)
        stopped(proc, lines)


def stopped(proc: subprocess.Popen[str], lines: list[str], within: float = 30.0) -> None:
    """`proc` (the demo, sent Ctrl-C) ends within `within` s; if not, the test fails with
    every thread's stack (`domino-table` dumps them on SIGUSR1) and what it printed."""
    try:
        proc.wait(within)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGUSR1)
        time.sleep(2.0)
        proc.kill()
        rest, _ = proc.communicate(timeout=30)
        pytest.fail(f"the demo did not stop within {within:g} s of Ctrl-C:\n{''.join(lines)}{rest}")
