"""Project-wide test set-up.

A test fails when the code under test logs an error it did not expect: a test that
provokes one on purpose says so with `@pytest.mark.logs_errors`.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest_plugins = [
    "tests.fixtures.tiers",
    "tests.fixtures.mosquitto",
    "tests.fixtures.mqtt_fake",
    "tests.fixtures.browser",
    "tests.fixtures.camera_demo",
    "tests.fixtures.order",
]

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "logs_errors: the test expects error log records")
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # Each xdist worker already has a core: OpenCV's own thread pool on top of it
        # only makes two workers' threads wait on each other (the same results, more
        # CPU). Child processes (`domino-table run`) keep OpenCV's default.
        import cv2

        cv2.setNumThreads(1)


@pytest.fixture(autouse=True)
def _no_unexpected_error_logs(
    request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture
) -> Iterator[None]:
    yield
    if request.node.get_closest_marker("logs_errors"):
        return
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, "unexpected error logged: " + "; ".join(
        f"{r.name}: {r.getMessage()}" for r in errors
    )


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """`../shared` beside the project: specs, rules and the labelled photos."""
    if not SHARED.is_dir():
        pytest.fail(f"{SHARED} is missing: the tests read the specs and photos from it")
    return SHARED
