"""What the camera path reads: frames, and the sources they come from.

Every source is a `FrameSource`: a context manager whose `read()` returns the next
`Frame` (a BGR image and the source's clock in seconds) or None when there is none
right now, and whose `close()` may be called any number of times. `finished` tells a
source that will never give another frame (a folder read to its end, a simulated game
played out) from one that has none at the moment (a camera that stopped).

The real sources are in `vision.sources`; a simulated table's in `tablesim.camera`.
This module is all the pipeline needs of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Protocol, Self

import numpy as np
import numpy.typing as npt

from vision.errors import VisionError

__all__ = ["ClosingSource", "Frame", "FrameSource", "Image", "SourceError", "frames"]

Image = npt.NDArray[np.uint8]


class SourceError(VisionError):
    """A frame source could not be made or read."""


@dataclass(frozen=True, slots=True, eq=False)
class Frame:
    """One frame: a BGR image and when it was taken, in the source's clock (seconds)."""

    image: Image
    at: float

    def __repr__(self) -> str:
        h, w = self.image.shape[:2]
        return f"Frame({w}x{h}, at={self.at:.3f})"


class FrameSource(Protocol):
    """What the pipeline reads frames from."""

    name: str

    @property
    def finished(self) -> bool: ...

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None: ...


class ClosingSource:
    """Context-manager plumbing shared by the sources: leaving `with` closes them."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError


def frames(source: FrameSource, limit: int | None = None) -> Sequence[Frame]:
    """Every frame a finite source gives (or the first `limit`), for tests and tools."""
    out: list[Frame] = []
    while not source.finished and (limit is None or len(out) < limit):
        frame = source.read()
        if frame is not None:
            out.append(frame)
    return out
