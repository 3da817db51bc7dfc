"""Looks: every look the detector takes at a frame, named, in order, switchable, recorded.

The detector reads a frame once (its first reading), then looks again where that
reading leaves something to explain: another tone, a coarser scale, a fainter pass
for thin dividers, a half read with a threshold of its own... Each such look is a
`Look` here: a name, when it applies, and what it does to a reading. They run in the
order of their list (`run_looks`), each on what the looks before it left, within a
budget of passes per frame (`LookSettings.budget`: a pass finds dividers and reads
their tiles once, the unit of a search's cost); a look not started because the
budget is spent is recorded as skipped. `Detection.looks` records, for each look that
ran (or was skipped), what it did (`vision.trace.LookRecord`): tiles added, removed
and re-read (other pips at the same place), passes spent, time (a look's time holds
the looks run inside it).

Looks come at three grains (`vision.trace.Grain`):

- frame looks (`vision.detector.detect.FRAME_LOOKS`), each a `Look[FrameView]`, on
  the whole frame's reading: the close-up probe, the first reading, the other tones,
  the colours of coloured faces, a coarser scale, tiles cut by the frame's edge, the
  learned veto;
- search looks (`vision.detector.search_pass.PASS_LOOKS`, `MATERIAL_LOOKS`), each a
  `Look[SearchView]`, inside one search of one tile-bright image at one scale: the
  fainter and the thin divider passes, the width the tiles show, the faint doubts,
  the reading by the pips' grid and by their spacing; then the tiles darker than a
  light table;
- reading looks (`READING_LOOKS`): a second reading of one half, one tile or one
  mark, made where it is read (`vision.detector.tile_reading`, `vision.pips`,
  `vision.tiles`): named here so that they can be turned off and counted
  (`Trace.inner`, `Trace.count`: how often each ran and changed a reading).

Any look but a first reading can be turned off (`LookSettings.off`): that is how
`benchmarks/vision.py --without LOOK` measures what each earns, per source.

How a look is added (say a reader that knows the players' set):

1. Write a class (a frozen dataclass suits) with `name` (unique: lower-case words
   joined by '-'), `grain` (`Grain.FRAME`), `base` (False), `searches` (whether it
   searches the frame again, and so is not started once the budget is spent),
   `applies(view, found) -> bool` and `run(view, found) -> Found`. `view` is a
   `vision.detector.detect.FrameView`: the frame, the searched crop and where it
   lies in the frame, the settings, the play area, the tile width when the caller
   knows it, the frame's `Trace`, and `view.read(settings)`, a search of the crop
   (its passes are counted and charged to the look). `found` is the reading so far
   (`vision.detector.planes.Found`, frame pixels: `tiles`, `unsure`, `width`...).
   `run` returns the reading it leaves (`dataclasses.replace(found, tiles=...)`),
   never changing `found` itself (frozen) and leaving what it does not judge as it
   was.
2. Hand the detector the list with it in its place: `detect(..., looks=with_look(
   FRAME_LOOKS, MyLook(...), before="veto"))`; the list's order is the order the
   looks run in. Its record is in `Detection.looks`, and `vision detect --explain`
   prints it.
3. Measure it per source (`benchmarks/vision.py --without NAME`, with `--looks`
   given the extra look): a look must help at least two sources other than the one
   that prompted it, and lose no tile anywhere, or it goes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from vision.detector.planes import Found
from vision.trace import Grain, Trace

__all__ = [
    "READING_LOOKS",
    "Grain",
    "Look",
    "ReadingLook",
    "Trace",
    "run_looks",
    "with_look",
]


class HasTrace(Protocol):
    """What a look looks at: anything that carries the frame's `Trace`."""

    @property
    def trace(self) -> Trace: ...


V_contra = TypeVar("V_contra", bound=HasTrace, contravariant=True)
V = TypeVar("V", bound=HasTrace)


class Look(Protocol[V_contra]):
    """One look at a reading: `applies` says whether it has anything to do, `run`
    returns the reading it leaves. A `base` look (a first reading) always runs and
    cannot be turned off; a look that `searches` again is not started once the
    frame's budget of passes is spent (one that only judges what was read, such as
    the learned veto, always runs)."""

    @property
    def name(self) -> str: ...

    @property
    def grain(self) -> Grain: ...

    @property
    def base(self) -> bool: ...

    @property
    def searches(self) -> bool: ...

    def applies(self, view: V_contra, found: Found) -> bool: ...

    def run(self, view: V_contra, found: Found) -> Found: ...


@dataclass(frozen=True, slots=True)
class ReadingLook:
    """A look made where it is needed rather than by `run_looks` (a second reading of
    one tile, one half or one mark): named so it can be turned off and counted
    there."""

    name: str
    what: str  # what it does, in a few words
    grain: Grain = Grain.READING


# The reading looks, in the order a search meets them.
READING_LOOKS: tuple[ReadingLook, ...] = (
    ReadingLook("slight-holes", "a large hole slight beside its tile is a mark (close-ups)"),
    ReadingLook("pins", "a line with a round head at its middle measured by its arms"),
    ReadingLook("split-heads", "a pip joined to a divider's end split from it"),
    ReadingLook("split-junctions", "lines that meet (a T, an L) cut apart"),
    ReadingLook("own-pip", "a half read against its own pip size (colour per number)"),
    ReadingLook("crescent", "a pip bitten by its highlight counted as a pip"),
    ReadingLook("reread-half", "a doubtful half read again at its own threshold"),
    ReadingLook("apart-half", "a doubtful half's marks opened apart"),
    ReadingLook("slide", "a short divider's tile read at places along its line"),
    ReadingLook("resize", "a doubtful tile read at other widths (near and far)"),
    ReadingLook("apart-tile", "a tile with marks that are no pips read opened apart"),
    ReadingLook("blank-face", "a blank's outline looked for at its face's size"),
    ReadingLook("face-anywhere", "a covered-looking tile's pips looked for off the material"),
    ReadingLook("face-fit", "a covered-looking tile fitted to its face's ends"),
    ReadingLook("merge-lines", "a line one pass dropped gives way to another's sure tile"),
)


def run_looks(looks: Sequence[Look[V]], view: V, found: Found) -> Found:
    """`found` after every look of `looks` in turn (see the module): a look turned
    off, or not started because the budget is spent, is recorded as skipped; one that
    does not apply is not recorded."""
    trace = view.trace
    for look in looks:
        if not look.base and not trace.on(look.name):
            trace.skip(look.name, look.grain, "off")
            continue
        if not look.applies(view, found):
            continue
        if look.searches and not look.base and trace.spent():
            trace.skip(look.name, look.grain, "budget")
            continue
        with trace.look(look.name, look.grain):
            after = look.run(view, found)
        if after is not found and after == found:
            after = found  # a reading equal to the one it looked at: nothing changed
        trace.changed(look.name, look.grain, found, after)
        found = after
    return found


L = TypeVar("L")


def with_look(looks: Sequence[L], look: L, *, before: str | None = None) -> tuple[L, ...]:
    """`looks` with `look` put in before the look named `before` (at the end when
    None)."""
    out = list(looks)
    if before is None:
        return (*out, look)
    names = [getattr(x, "name", "") for x in out]
    if before not in names:
        raise ValueError(f"no look named {before!r} to put {look!r} before (looks: {names})")
    out.insert(names.index(before), look)
    return tuple(out)
