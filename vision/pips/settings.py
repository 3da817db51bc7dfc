"""The thresholds of reading pips, one frozen value: `PipSettings`.

The counter of each half (`counting`) and its second looks (`second_look`: a half's
own threshold, the marks opened apart, the faint look) share it; the detector's
`vision.detector.settings.Settings.pips` holds it.
"""

from __future__ import annotations

from dataclasses import dataclass

from vision.tuning import check_bounds


@dataclass(frozen=True, slots=True)
class PipSettings:
    """Where a pip may lie, what shape and size it has, how a half is judged."""

    # where a pip centre may lie, in tile widths from the half's centre
    half_reach: float = 0.40
    # pips keep this far (tile widths) from the divider line (a centre pin sits on it)
    divider_clearance: float = 0.12
    max_round_elongation: float = 1.8  # a pip is at most this long for its thickness
    crescent_area: float = 1.0  # a pip bitten by its highlight: at most a pip's area ...
    crescent_elongation: float = 2.2  # ... and at most this long for its thickness
    max_pips: int = 12
    # how far a chain of k = 2, 3, 4 merged pips may be from k pips' area: the necks
    # between small pips blurred together add up to a pip's area along a line of four
    chain_area: tuple[float, float, float] = (0.6, 0.6, 1.6)
    # how far (in tile widths) a pip may sit from the mirror image of another
    symmetry_tolerance: float = 0.15
    own_below: float = 0.9  # a half read less surely is read again against its own pip
    own_sure: float = 0.8  # ... and that reading kept when at least this sure
    own_range: tuple[float, float] = (0.25, 2.5)  # ... its median round mark of this size
    # the second look: a doubtful half thresholded on its own, at least this contrast
    min_contrast: int = 20
    apart: float = 0.6  # a pip touching a line comes apart by an opening of this share
    apart_rim: float = 0.06  # ... looked for up to this share of a width from the edge
    # the faint look: marks at this share of the frame's mark threshold, never closer
    # to the face than `faint_min` grey levels (sensor noise on a max filter)
    faint_share: float = 0.5
    faint_min: int = 16
    faint_pip: float = 0.4  # a faint mark counts as a possible pip from this share ...
    faint_growth: float = 4.0  # ... up to this many times a pip's area

    def __post_init__(self) -> None:
        check_bounds(
            self,
            {
                "half_reach": (0.1, 1.0),
                "divider_clearance": (0.0, 0.5),
                "max_round_elongation": (1.0, 10.0),
                "crescent_area": (0.0, 10.0),
                "crescent_elongation": (1.0, 10.0),
                "max_pips": (1, 100),
                "chain_area": (0.0, 10.0),
                "symmetry_tolerance": (0.0, 1.0),
                "own_below": (0.0, 1.0),
                "own_sure": (0.0, 1.0),
                "own_range": (0.0, 100.0),
                "min_contrast": (1, 254),
                "apart": (0.0, 2.0),
                "apart_rim": (0.0, 0.5),
                "faint_share": (0.0, 1.0),
                "faint_min": (0, 254),
                "faint_pip": (0.0, 10.0),
                "faint_growth": (1.0, 100.0),
            },
        )


PIPS = PipSettings()  # the defaults, for callers that read a half on its own
