"""What the installer tests share, made once per run on the one worker they all use
(`xdist_group("install")`): the wheelhouse of dependencies (downloaded once), the clean
tree and the sdist and wheel built from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.install.release import Dists, build, clean_tree
from tests.install.standin import Wheelhouse


@pytest.fixture(scope="session")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Wheelhouse:
    return Wheelhouse.fill(tmp_path_factory.mktemp("wheels"))


@pytest.fixture(scope="session")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project as `git archive` gives it, outside the checkout."""
    return clean_tree(tmp_path_factory.mktemp("release") / "domino-table")


@pytest.fixture(scope="session")
def dists(tmp_path_factory: pytest.TempPathFactory, tree: Path, wheels: Wheelhouse) -> Dists:
    """The sdist and the wheel, built from the clean tree with no network (setuptools
    from the wheelhouse)."""
    return build(tree, tmp_path_factory.mktemp("dist"), wheels.env)
