"""The tests' Chromium is found where its package put it, under either of its names; with
none, the message says what to install (what `./run test` checks before pytest)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.browser import ChromiumMissingError, find_chromium


def command(folder: Path, name: str) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return path


def test_chromium_browser_is_found_where_chromium_is_missing(tmp_path: Path) -> None:
    """Raspberry Pi OS's and Ubuntu's package name, which `./run`'s fallback installs."""
    only = command(tmp_path / "bin", "chromium-browser")
    assert find_chromium(str(only.parent)) == str(only)


def test_chromium_comes_first_and_path_order_is_kept(tmp_path: Path) -> None:
    first = command(tmp_path / "a", "chromium-browser")
    second = command(tmp_path / "b", "chromium")
    assert find_chromium(f"{first.parent}:{second.parent}") == str(second)
    assert find_chromium(f"{tmp_path / 'a'}") == str(first)


def test_a_file_that_is_not_executable_is_no_browser(tmp_path: Path) -> None:
    (tmp_path / "chromium").write_text("")
    with pytest.raises(ChromiumMissingError):
        find_chromium(str(tmp_path))


@pytest.mark.process
def test_no_browser_fails_saying_what_to_install(tmp_path: Path) -> None:
    with pytest.raises(ChromiumMissingError, match="none of chromium, chromium-browser"):
        find_chromium(str(tmp_path))
    result = subprocess.run(
        [sys.executable, "-m", "tests.fixtures.browser"],
        capture_output=True, text=True, check=False, timeout=60,
        env={**os.environ, "PATH": str(tmp_path)},
        cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    assert result.returncode == 1
    assert "sudo apt-get install chromium" in result.stderr


def test_this_machine_has_one() -> None:
    """The one the browser fixture launches (the display tests drive it)."""
    assert os.access(find_chromium(), os.X_OK)
