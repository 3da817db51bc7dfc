"""Set enrolment: the players' whole set read at once, and its look kept.

The whole set lies face up. A still frame (or photos) is read against the set's tile
list (`check`: what was missed, read wrong or is not in the set), each way of making
the tiles bright tried in turn until the set reads right (`read_set`). When every
tile was read right, the set's look is measured (`measure`: the faces' and pips'
colours, the tile's size) and kept in the state directory (`look`: `SetLook`); every
later frame is read the way that read the set (its tone, or its faces' colour) and
with its tile size.
"""
