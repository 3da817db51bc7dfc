"""The display page over HTTPS: `--https-cert-file` and `--https-key-file`.

Without them the page is plain HTTP, and a command PIN crosses the network in the clear.
The certificate's chain and key are loaded (and checked) before the server starts, so a
wrong file is a usage error naming its flag, not a failure on the first visit.
"""

from __future__ import annotations

import ssl
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

CERT_FLAG = "--https-cert-file"
KEY_FLAG = "--https-key-file"

F = TypeVar("F", bound=Callable[..., Any])


def https_options(command: F) -> F:
    """Add the HTTPS flags to a click command (read back with `https_context`)."""
    file = click.Path(dir_okay=True, path_type=Path)
    command = click.option(
        KEY_FLAG,
        type=file,
        default=None,
        help="The HTTPS certificate's private key (PEM, not encrypted); needs --https-cert-file.",
    )(command)
    return click.option(
        CERT_FLAG,
        type=file,
        default=None,
        help="Serve the page over HTTPS with this certificate (PEM, its chain after it) "
        "[default: plain HTTP].",
    )(command)


def _bad(flag: str, why: str) -> click.BadParameter:
    return click.BadParameter(why, param_hint=f"'{flag}'")


def _pem(flag: str, path: Path, marker: bytes, what: str) -> bytes:
    try:
        text = path.read_bytes()
    except OSError as exc:
        raise _bad(flag, f"cannot read {path}: {exc.strerror}") from exc
    if marker not in text:
        raise _bad(flag, f"{path} holds no PEM {what}")
    return text


def https_context(
    https_cert_file: Path | None, https_key_file: Path | None
) -> ssl.SSLContext | None:
    """The server's SSL context for the flags (None: plain HTTP); a click error naming
    the flag whose file is wrong."""
    if https_cert_file is None and https_key_file is None:
        return None
    if https_key_file is None:
        raise _bad(CERT_FLAG, f"a certificate needs its private key: give {KEY_FLAG} too")
    if https_cert_file is None:
        raise _bad(KEY_FLAG, f"a private key needs its certificate: give {CERT_FLAG} too")
    _pem(CERT_FLAG, https_cert_file, b"-----BEGIN CERTIFICATE-----", "certificate")
    key = _pem(KEY_FLAG, https_key_file, b"PRIVATE KEY-----", "private key")
    if b"ENCRYPTED" in key:
        raise _bad(KEY_FLAG, f"{https_key_file} is encrypted: the display needs a plain key "
                   "(readable by its user only, mode 600)")  # fmt: skip
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        # password "": OpenSSL must never prompt on a terminal
        context.load_cert_chain(str(https_cert_file), str(https_key_file), password="")
    except ssl.SSLError as exc:
        raise _bad(
            KEY_FLAG,
            f"cannot use {https_key_file} with {https_cert_file} ({exc.reason or exc}): "
            "the key must be the certificate's own",
        ) from exc
    return context
