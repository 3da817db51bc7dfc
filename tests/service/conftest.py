"""Fixtures of the service tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.tiers import needs
from tests.service.faults import Rig, rig_for


@pytest.fixture
@needs("process")
def rig(broker: Mosquitto, tmp_path: Path) -> Iterator[Rig]:
    """A walnut table for two on an emulated board, its service online (the fault tests)."""
    yield from rig_for(broker, tmp_path)
