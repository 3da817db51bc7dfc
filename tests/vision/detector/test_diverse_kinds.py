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


def test_a_tile_a_little_smaller_than_the_others_is_read_not_taken_for_covered(
    shared_dir: Path,
) -> None:
    # dbu 180119 and PIEZAS_A_ORDENAR2 (640x480 webcam): a 0-2 whose divider sits off
    # its middle, a 0-3 farther from the camera than the rest. At the frame's width
    # their squares reached past their ends onto the board, which looked like a hand
    # over them: "partly covered", and the tile was lost. Their halves are now placed
    # where their faces' ends are.
    for name in ("dbu__20230512_180119.jpg", "dbu__PIEZAS_A_ORDENAR2.jpg"):
        det = detect(photo(shared_dir, name), settings=Settings(tone=None))
        assert read(det) == labelled(shared_dir, name), name


def test_tiles_whose_dividers_merged_with_their_pips_are_read_by_the_pips_grid(
    shared_dir: Path,
) -> None:
    # dbu 174258: a dim webcam frame where a 6-0's column of pips merged with its
    # divider (no divider, no unsure place: the tile was simply not there);
    # ydh__slanted: a small 507x391 photo whose 0-3 and 3-6, end to end, lost their
    # dividers to pips touching them. The frame's tile width is known from the tiles
    # read surely; such tiles are read by their pips on each half's grid.
    for name in ("dbu__20230512_174258.jpg", "ydh__slanted.jpg"):
        det = detect(photo(shared_dir, name), settings=Settings(tone=None))
        assert read(det) == labelled(shared_dir, name), name
