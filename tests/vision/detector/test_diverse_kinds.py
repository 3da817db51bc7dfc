"""Each failure kind of issue 26 on a real diverse-dev photo that shows it (read from
`../shared` at run time): the photo is read with the set's tone and scale unknown, as
`vision detect` reads it, and must give its labelled tiles and nothing else."""

from __future__ import annotations

from pathlib import Path

from tests.vision.diverse import labelled, photo, read
from vision.detector.detect import Settings, detect


def test_a_close_up_on_crinkled_leather_reads_its_tile_and_none_in_the_texture(
    shared_dir: Path,
) -> None:
    # ydh__pic: two ivory tiles 380 px wide on black leather (the top one cut by the
    # frame). Read at the frame's own scale first, the leather's cracks and grain made
    # four sure "tiles" 24 px wide (0-2, 0-5, 0-5, 0-6) and the real one was lost.
    name = "ydh__pic.jpg"
    det = detect(photo(shared_dir, name), settings=Settings(tone=None))
    assert read(det) == labelled(shared_dir, name)
    assert 300 < det.tile_width_px < 460
