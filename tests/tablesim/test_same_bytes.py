"""Rendered frames are the same bytes on every OpenCV version and CPU (issue 17).

The digest below was taken on x86-64 with OpenCV 5.0 and numpy 2.4, and is what
OpenCV 4.11 with numpy 1.26 (the Pi's) and the arm64 chroot (`docs/design/arm64.md`) give:
a vision test then reads the same picture everywhere. The frames cover every table
surface and tile set, both lights, glare, blur, noise, the markers, and a moving hand
with its shadow reaching in from beyond the frame.

If you change what the renderer draws on purpose, this digest changes: check that the
new one is the same with `.venv-cv411` (`DEVELOPERS.md`) or in the arm64 chroot, then
put it here.
"""

from __future__ import annotations

import hashlib

import pytest

from engine.surface import SeenTile
from tablesim.render import (
    Camera,
    FaceDownTile,
    Hand,
    Lighting,
    RenderStyle,
    Scene,
    Surface,
    TileStyle,
    render_frame,
)
from tablesim.render.lookalikes import Kind, lookalike

DIGEST = "7c841664ebf2610dbd866cd0e43cd2c79fe24fc40f19e00adcefa993f967924b"
# The frames modelled on real failures (issue 26): textured tables, domed pins, glossy
# pips and faces, light from any side, soft shadows, a phone's sharpening and JPEG.
LOOKALIKES_DIGEST = "f2c080412288129aef3ee3cf661b3c52e2fd1537e2a3bcc8d19340ad9bd3f30b"
LINE = (
    SeenTile(6, 6, 450, 288, 450, 312),
    SeenTile(6, 3, 474, 300, 498, 300),
    SeenTile(3, 5, 522, 300, 546, 300),
    SeenTile(2, 4, 200, 150, 200, 174),
)
SCENE = Scene(LINE, (FaceDownTile(800, 520, 20),))


def frames_digest() -> str:
    """sha256 over one small frame per table surface, the tile sets taken in turn."""
    cameras = (
        Camera.overhead(SCENE.size_mm, (640, 480)),
        Camera.over((450.0, 300.0), 0.7, keystone=0.2, rotation_deg=17.0),
    )
    sets = list(TileStyle)
    digest = hashlib.sha256()
    for k, surface in enumerate(Surface):
        style = RenderStyle(
            tiles=sets[k % len(sets)],
            surface=surface,
            lighting=Lighting.LAMP if k % 2 else Lighting.DAYLIGHT,
            glare=0.3,
            brass_pin=k % 3 == 0,
        )
        hand = Hand((330.0, 260.0), (700.0, 560.0), blur_px=3.0) if k % 4 == 0 else None
        out = render_frame(SCENE, cameras[k % 2], style, seed=3, hand=hand)
        digest.update(out.image.tobytes())
    return digest.hexdigest()


@pytest.mark.slow
def test_rendered_frames_are_the_same_bytes_everywhere() -> None:
    assert frames_digest() == DIGEST


def lookalikes_digest() -> str:
    """sha256 over one frame of each kind of `tablesim.render.lookalikes`."""
    digest = hashlib.sha256()
    for kind in Kind:
        digest.update(lookalike(kind, 1).rendered.image.tobytes())
    return digest.hexdigest()


@pytest.mark.slow
def test_frames_like_real_failures_are_the_same_bytes_everywhere() -> None:
    assert lookalikes_digest() == LOOKALIKES_DIGEST
