"""The learned part's net ships with the package and runs through OpenCV's `dnn` on
frames of any size, in any thread; bad input and a missing model are said in words."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from vision.learned import LearnedError, PixelClass, probabilities
from vision.learned import net as learned_net


def _frame(h: int, w: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, (h, w, 3), dtype=np.uint8)


@pytest.mark.parametrize("shape", [(37, 53), (120, 90), (64, 64)])
def test_every_pixel_gets_a_probability_of_each_class(shape: tuple[int, int]) -> None:
    probs = probabilities(_frame(*shape))
    assert probs.shape == (len(PixelClass), *shape)
    assert probs.dtype == np.float32
    assert np.allclose(probs.sum(axis=0), 1.0, atol=1e-4)
    assert probs.min() >= 0.0


def test_the_model_is_package_data_of_a_few_hundred_kilobytes() -> None:
    data = learned_net.model_bytes()
    assert 50_000 < len(data) < 4_000_000


def test_a_grey_image_is_refused_in_words() -> None:
    with pytest.raises(LearnedError, match=r"a BGR image \(h, w, 3\)"):
        probabilities(np.zeros((32, 32), dtype=np.uint8))


def test_a_missing_model_says_to_reinstall(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(learned_net, "MODEL", "missing.onnx")
    monkeypatch.setattr(learned_net, "_local", threading.local())
    with pytest.raises(LearnedError, match=r"missing\.onnx is missing.*reinstall"):
        probabilities(_frame(32, 32))


def test_threads_each_read_alike() -> None:
    frame = _frame(96, 128, seed=3)
    want = probabilities(frame)
    got: list[np.ndarray] = []

    def run() -> None:
        got.append(probabilities(frame))

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 3
    for probs in got:
        assert np.allclose(probs, want, atol=1e-5)
