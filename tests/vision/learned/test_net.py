"""The learned veto's net ships with the package and runs through OpenCV's `dnn` on any
number of candidates, in any thread; bad input and a missing model are said in words."""

from __future__ import annotations

import threading
from dataclasses import replace

import numpy as np
import pytest

from vision.learned import LearnedError, manifest, tile_odds, tile_scores
from vision.learned import net as learned_net
from vision.learned.patches import ACROSS, LONG


def _frame(h: int, w: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, (h, w, 3), dtype=np.uint8)


CANDIDATES = [((10.0, 10.0), (30.0, 12.0)), ((50.0, 40.0), (50.0, 80.0)), ((0.0, 0.0), (0.0, 0.0))]


@pytest.mark.parametrize("count", [0, 1, 3])
def test_each_candidate_gets_a_probability(count: int) -> None:
    scores = tile_scores(_frame(90, 120), CANDIDATES[:count])
    assert scores.shape == (count,) and scores.dtype == np.float32
    assert ((scores >= 0) & (scores <= 1)).all()


def test_a_batch_scores_each_candidate_as_alone() -> None:
    frame = _frame(90, 120, seed=1)
    together = tile_scores(frame, CANDIDATES)
    alone = np.concatenate([tile_scores(frame, [c]) for c in CANDIDATES])
    assert np.allclose(together, alone, atol=1e-5)


def test_the_models_are_package_data_of_a_few_hundred_kilobytes() -> None:
    for net in manifest.nets():
        assert 50_000 < len(manifest.checked_bytes(net)) < 2_000_000


def test_a_grey_frame_and_wrong_patches_are_refused_in_words() -> None:
    with pytest.raises(LearnedError, match=r"a BGR uint8 frame \(h, w, 3\)"):
        tile_scores(np.zeros((32, 32), dtype=np.uint8), CANDIDATES)
    with pytest.raises(LearnedError, match=rf"patches \(n, {ACROSS}, {LONG}, 3\)"):
        tile_odds(np.zeros((2, 10, 10, 3), dtype=np.uint8))


def test_a_missing_model_says_to_reinstall(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = replace(manifest.nets()[0], file="missing.onnx")
    monkeypatch.setattr(learned_net, "nets", lambda: (missing,))
    monkeypatch.setattr(learned_net, "_local", threading.local())
    with pytest.raises(LearnedError, match=r"missing\.onnx is missing.*reinstall"):
        tile_scores(_frame(32, 32), CANDIDATES)


def test_threads_each_read_alike() -> None:
    frame = _frame(96, 128, seed=3)
    want = tile_scores(frame, CANDIDATES)
    got: list[np.ndarray] = []

    def run() -> None:
        got.append(tile_scores(frame, CANDIDATES))

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 3
    for scores in got:
        assert np.array_equal(scores, want)
