"""Finding tiles in a frame: where each face-up domino lies, which way, how wide.

The frame is made tile-bright (tiles light, their marks dark) and split into tile
material and dark marks (`dark_marks`). Every face-up domino has one divider line
across its middle: dividers say where a tile lies and which way (`dividers`), also
where a divider meets the gap beside its tile (`meeting_lines`). Tile-shaped regions
with no marks left over are face-down tiles (`face_down`). Reading the pips of the
tiles found is `vision.pips`' job.
"""
