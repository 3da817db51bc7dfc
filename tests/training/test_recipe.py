"""The training of the learned veto runs end to end: a tiny net trained for a few steps
on the patches of a few rendered frames, exported to ONNX, run by OpenCV's `dnn` as the
package runs its nets, with the record the manifest takes. Needs the `train` extra
(PyTorch), which `./run test` installs: it fails, never skips, without it."""

from __future__ import annotations

import hashlib
import importlib.util
import tomllib
from pathlib import Path

import cv2
import numpy as np
import pytest

if importlib.util.find_spec("torch") is None:  # pragma: no cover - the set-up's fault
    pytest.fail(
        "PyTorch is missing: install the train extra (pip install -e '.[dev,train]'; "
        "./run test does)",
        pytrace=False,
    )

from training.figures import KINDS, load
from training.recipe import RECIPES, Chunk, Recipe, draw, plan, run
from vision.learned.manifest import nets, parse
from vision.learned.patches import ACROSS, LONG, net_input

TINY = Recipe("tiny", (Chunk("c", 0, 2),), Chunk("val", 100_000, 1), steps=4, batch=8, width=2)


@pytest.mark.process
def test_a_tiny_net_trains_exports_and_runs_in_opencv(tmp_path: Path) -> None:
    out = tmp_path / "tiny.onnx"
    threads = cv2.getNumThreads()
    recorded = run(TINY, tmp_path, out, jobs=1, command="python -m training.recipe tiny")
    assert cv2.getNumThreads() == threads  # the steps' one thread is not left behind

    patches, labels, kinds = load([tmp_path / "c.npz"])
    assert patches.shape[1:] == (ACROSS, LONG, 3) and len(patches) == len(labels) > 10
    assert {0, 1} <= set(labels.tolist()) and set(kinds.tolist()) <= set(range(len(KINDS)))

    net = cv2.dnn.readNetFromONNX(str(out))
    net.setInput(net_input(patches[:5]))
    logits = np.asarray(net.forward())
    assert logits.shape == (5, 1) and np.isfinite(logits).all()

    text = recorded.read_text(encoding="utf-8")
    (parsed,) = parse(text)  # the manifest reads the record as it reads its own
    data = out.read_bytes()
    assert parsed.sha256 == hashlib.sha256(data).hexdigest() and parsed.size == len(data)
    assert (parsed.width, parsed.height) == (LONG, ACROSS)
    record = tomllib.loads(text)["nets"]["tiny"]
    assert record["data"]["patches"] == len(patches) == sum(record["data"]["kinds"].values())
    assert record["data"]["seeds"] == [{"from": 0, "to": 1, "lookalike_every": 8}]
    assert record["trained"]["seed"] == 26 and record["trained"]["training_steps"] == 4
    assert record["trained"]["steps"] == plan(TINY, tmp_path, out)
    assert set(record["validation"]["right"]) == {"0.02", "0.05", "0.1", "0.2", "0.3", "0.5"}


def test_each_shipped_net_has_its_recipe() -> None:
    assert sorted(RECIPES) == sorted(n.name for n in nets())
    for name, recipe in RECIPES.items():
        lines = plan(recipe, Path("/tmp/veto"), Path(f"vision/learned/{name}.onnx"))
        assert lines[-1].startswith("python -m training.train /tmp/veto/c0.npz")
        assert f"--steps {recipe.steps} --seed 26" in lines[-1]
        trained = {c.start for c in recipe.chunks}
        assert recipe.val.start not in trained


@pytest.mark.process
def test_chunks_drawn_in_child_processes_are_the_chunks_drawn_here(tmp_path: Path) -> None:
    chunks = (Chunk("a", 3, 1), Chunk("b", 100_001, 1))
    (tmp_path / "here").mkdir()
    draw(chunks, tmp_path / "here", jobs=1)
    (tmp_path / "there").mkdir()
    draw(chunks, tmp_path / "there", jobs=2)
    for chunk in chunks:
        with (
            np.load(tmp_path / "here" / f"{chunk.name}.npz") as here,
            np.load(tmp_path / "there" / f"{chunk.name}.npz") as there,
        ):
            assert len(here["labels"]) > 0
            for key in ("patches", "labels", "kinds", "seeds"):
                assert np.array_equal(here[key], there[key]), (chunk.name, key)
