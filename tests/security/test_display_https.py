"""The display page over HTTPS (`--https-cert-file`, `--https-key-file`): the real
`domino-table display` process serves the page and its API over TLS with a certificate
from a throwaway CA (so a command PIN does not cross the network in the clear), plain
HTTP on that port gets no page, and each wrong file is a usage error naming its flag."""

from __future__ import annotations

import json
import ssl
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from playwright.sync_api import Browser, expect

from display.cli import display
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.process import BIN, ChildProcess
from tests.fixtures.tiers import needs
from tests.security.broker import make_ca_and_server_cert, openssl

PIN = "2468"


@pytest.fixture(scope="module")
@needs("process")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ca.crt; server.crt with server.key (127.0.0.1 and localhost); other.key (a key
    of no certificate here); enc.key (server.key encrypted); junk.pem (not PEM)."""
    folder = tmp_path_factory.mktemp("https")
    make_ca_and_server_cert(folder)
    openssl("genpkey", "-algorithm", "RSA", "-out", "other.key", cwd=folder)
    openssl("pkey", "-in", "server.key", "-aes256", "-passout", "pass:x", "-out", "enc.key",
            cwd=folder)  # fmt: skip
    (folder / "junk.pem").write_text("not a certificate\n")
    return folder


def run(*args: str) -> click.testing.Result:
    return CliRunner().invoke(display, ["--table", "t1", *args])


@pytest.mark.parametrize(
    ("files", "flag", "words"),
    [
        (("server.crt", None), "--https-cert-file", "give --https-key-file too"),
        ((None, "server.key"), "--https-key-file", "give --https-cert-file too"),
        (("missing.crt", "server.key"), "--https-cert-file", "cannot read"),
        (("junk.pem", "server.key"), "--https-cert-file", "holds no PEM certificate"),
        (("server.crt", "junk.pem"), "--https-key-file", "holds no PEM private key"),
        (("server.crt", "enc.key"), "--https-key-file", "is encrypted"),
        (("server.crt", "other.key"), "--https-key-file", "the key must be the certificate's"),
    ],
)
def test_a_wrong_https_file_is_a_usage_error_naming_its_flag(
    certs: Path, files: tuple[str | None, str | None], flag: str, words: str
) -> None:
    cert, key = files
    args = []
    if cert is not None:
        args += ["--https-cert-file", str(certs / cert)]
    if key is not None:
        args += ["--https-key-file", str(certs / key)]
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{flag}'" in result.output and words in result.output


def fetch(url: str, context: ssl.SSLContext | None, body: dict[str, Any] | None = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=5, context=context) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.fixture
@needs("process")
def https_display(certs: Path, broker: Mosquitto, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A real display process serving HTTPS (with a command PIN); its base URL and log."""
    pin = tmp_path / "pin"
    pin.write_text(PIN + "\n")
    log = tmp_path / "display.log"
    args = [
        str(BIN), "display", "--table", "t1", "--mqtt-host", "127.0.0.1",
        "--mqtt-port", str(broker.port), "--http-host", "127.0.0.1", "--http-port", "0",
        "--https-cert-file", str(certs / "server.crt"),
        "--https-key-file", str(certs / "server.key"), "--command-pin-file", str(pin),
    ]  # fmt: skip
    trusted = ssl.create_default_context(cafile=str(certs / "ca.crt"))

    with ChildProcess(args, log, stdout=True) as proc:
        url = f"https://127.0.0.1:{proc.served_port()}"

        def connected() -> bool:
            status, view = fetch(f"{url}/api/view", trusted)
            return bool(status == 200 and view["broker"]["connected"])

        proc.wait_until(connected)
        yield url, log


def test_the_page_and_its_api_are_served_over_https_only(
    https_display: tuple[str, Path], certs: Path, browser: Browser
) -> None:
    url, log = https_display
    trusted = ssl.create_default_context(cafile=str(certs / "ca.crt"))
    status, view = fetch(f"{url}/api/view", trusted)
    assert status == 200 and view["table"] == "t1"
    # the PIN travels inside TLS; without it the command is refused as before
    status, reply = fetch(f"{url}/api/cmd", trusted, {"id": "c1", "action": "undo"})
    assert (status, reply["display_error"]) == (401, "pin_needed")
    # a client that does not trust the certificate's CA is refused by its own check
    with pytest.raises(urllib.error.URLError, match="CERTIFICATE_VERIFY_FAILED"):
        fetch(f"{url}/api/view", ssl.create_default_context())
    # plain HTTP on the same port gets no page
    with pytest.raises((urllib.error.URLError, ConnectionError, OSError)):
        fetch(url.replace("https://", "http://") + "/api/view", None)
    assert "serving table t1 on https://127.0.0.1:" in log.read_text()
    # the page itself, its scripts and its event stream, in Chromium over HTTPS
    context = browser.new_context(ignore_https_errors=True)  # the test CA is not the system's
    try:
        page = context.new_page()
        page.goto(url)
        expect(page).to_have_title("Domino table · t1", timeout=15_000)
        expect(page.locator("body")).to_contain_class("no-state")
    finally:
        context.close()
