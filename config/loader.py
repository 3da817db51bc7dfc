"""Loads `settings.toml` plus command-line overrides into a validated `Settings`.

Every problem is collected and raised together in one `SettingsError`, each line naming
where it comes from (the file, or the flag of an override), the `section.key` and what
is allowed: `settings.toml: mqtt.port: 70000 is not a port (1-65535)`.
"""

from __future__ import annotations

import logging
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import SecretStr, ValidationError

from config.errors import SettingsError
from config.explain import describe
from config.settings import SECRET_KEYS, Settings

log = logging.getLogger(__name__)

DEFAULTS_FILE = Path(__file__).with_name("defaults.toml")


def flag_of(key: str) -> str:
    """The conventional command-line flag of a dotted key: `serial.port` -> `--serial-port`."""
    return "--" + key.replace(".", "-").replace("_", "-")


class _Sources:
    """Says where a dotted key's value came from: the settings file or a flag."""

    def __init__(self, file_label: str, overrides: Mapping[str, object], flags: Mapping[str, str]):
        self.file_label = file_label
        self.flags = {key: flags.get(key, flag_of(key)) for key in overrides}

    def line(self, key: str, reason: str) -> str:
        for override, flag in self.flags.items():
            if key == override or key.startswith((override + ".", override + "[")):
                return f"{flag} ({key}): {reason}"
        return f"{self.file_label}: {key}: {reason}" if key else f"{self.file_label}: {reason}"


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise SettingsError(
            [f"{path}: no such settings file: create it (see config/examples/) or fix the path"]
        ) from None
    except OSError as exc:
        raise SettingsError([f"{path}: cannot read the settings file ({exc.strerror})"]) from exc
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError([f"{path}: not valid TOML: {exc}"]) from exc


def _pop_secrets(data: dict[str, Any], sources: _Sources, problems: list[str]) -> None:
    """Refuse secrets written in the settings themselves: they belong in a file or env var."""
    for key in SECRET_KEYS:
        *parents, leaf = key.split(".")
        node: Any = data
        for part in parents:
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, dict) and leaf in node:
            del node[leaf]
            problems.append(
                sources.line(
                    key,
                    "secrets are not written in the settings: put it in a file named by "
                    f"{key}_file (chmod 600) or an environment variable named by {key}_env",
                )
            )


# Keys holding a path: a relative one given on the command line means from the current
# folder (in the settings file, from the file's folder).
PATH_KEYS = frozenset(
    {
        "state.dir",
        "table.rules",
        "camera.source",
        "mqtt.password_file",
        "mqtt.tls.ca_file",
        "mqtt.tls.cert_file",
        "mqtt.tls.key_file",
        "mqtt.tls.key_passphrase_file",
    }
)


def _from_cwd(key: str, value: object) -> object:
    """A relative path given by a flag, made absolute against the current folder."""
    if key not in PATH_KEYS or not isinstance(value, str | Path):
        return value
    text = str(value)
    if key == "camera.source" and text in ("sim", "picamera"):  # keywords, not folders
        return value
    looks_like_path = isinstance(value, Path) or "/" in text or text.endswith(".toml")
    if key == "table.rules" and not looks_like_path:
        return value  # a ruleset's name
    path = Path(text).expanduser()
    return str(path if path.is_absolute() else Path.cwd() / path)


def _apply_overrides(
    data: dict[str, Any], overrides: Mapping[str, object], sources: _Sources, problems: list[str]
) -> None:
    for key, value in overrides.items():
        value = _from_cwd(key, value)  # noqa: PLW2901 - the override as it will be used
        *parents, leaf = key.split(".")
        node = data
        for depth, part in enumerate(parents):
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                problems.append(sources.line(".".join(parents[: depth + 1]), "is not a section"))
                break
            node = child
        else:
            node[leaf] = value


def _read_secret(
    key: str,
    *,
    path: Path | None,
    env_name: str | None,
    environ: Mapping[str, str],
    sources: _Sources,
    problems: list[str],
) -> SecretStr | None:
    if path is not None:
        try:
            text = path.read_text(encoding="utf-8").rstrip("\r\n")
            mode = path.stat().st_mode
        except OSError as exc:
            problems.append(
                sources.line(
                    f"{key}_file",
                    f"cannot read {path} ({exc.strerror}): create it (chmod 600) or fix the path",
                )
            )
            return None
        if mode & 0o077:
            log.warning("settings: %s is readable by other users: chmod 600 %s", path, path)
        if not text:
            problems.append(sources.line(f"{key}_file", f"{path} is empty"))
            return None
        return SecretStr(text)
    if env_name is not None:
        value = environ.get(env_name)
        if not value:
            problems.append(
                sources.line(
                    f"{key}_env",
                    f"the environment variable {env_name} is not set: export it, or use {key}_file",
                )
            )
            return None
        return SecretStr(value)
    return None


def _with_secrets(
    settings: Settings, environ: Mapping[str, str], sources: _Sources, problems: list[str]
) -> Settings:
    mqtt = settings.mqtt
    password = _read_secret(
        "mqtt.password",
        path=mqtt.password_file,
        env_name=mqtt.password_env,
        environ=environ,
        sources=sources,
        problems=problems,
    )
    tls = mqtt.tls
    passphrase = _read_secret(
        "mqtt.tls.key_passphrase",
        path=tls.key_passphrase_file,
        env_name=tls.key_passphrase_env,
        environ=environ,
        sources=sources,
        problems=problems,
    )
    tls = tls.model_copy(update={"key_passphrase": passphrase})
    mqtt = mqtt.model_copy(update={"password": password, "tls": tls})
    return settings.model_copy(update={"mqtt": mqtt})


def load_settings(
    path: Path | None,
    overrides: Mapping[str, object] | None = None,
    *,
    flags: Mapping[str, str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Settings:
    """Read, merge and validate the settings; raise `SettingsError` listing every problem.

    `path` is the settings file (None: the built-in defaults, `config/defaults.toml`).
    `overrides` maps dotted keys to values from command-line flags
    (`{"serial.port": "/dev/ttyACM0"}`), already typed (an int for a port). Problems in
    an override name its flag: `flags` maps a dotted key to the flag's text, by default
    `--section-key`. Secrets are read from the files or environment variables (`environ`,
    by default `os.environ`) the settings name.
    """
    overrides = dict(overrides or {})
    file = path if path is not None else DEFAULTS_FILE
    sources = _Sources(str(path) if path is not None else "defaults", overrides, flags or {})
    data = _read_toml(file)
    problems: list[str] = []
    _pop_secrets(data, sources, problems)
    for key in overrides:
        if key in SECRET_KEYS:
            problems.append(sources.line(key, f"give {key}_file or {key}_env instead"))
    _apply_overrides(
        data, {k: v for k, v in overrides.items() if k not in SECRET_KEYS}, sources, problems
    )
    base_dir = file.resolve().parent if path is not None else Path.cwd()
    try:
        settings = Settings.model_validate(data, context={"base_dir": base_dir})
    except ValidationError as exc:
        for error in exc.errors():
            problems.extend(sources.line(key, reason) for key, reason in describe(error, Settings))
        raise SettingsError(problems) from None
    settings = _with_secrets(
        settings, environ if environ is not None else os.environ, sources, problems
    )
    if problems:
        raise SettingsError(problems)
    log.debug("settings: loaded from %s", sources.file_label)
    return settings
