"""Set enrolment: the players' whole set read at once, and its model kept.

The whole set lies face up, loose (`read`: a still frame, or photos, read against the
set's tile list, `check`: what was missed, read wrong or is not in the set, each way
of making the tiles bright tried in turn until the set reads right; several still
frames agreed tile by tile, `agree`), or on the enrolment mat (`mat_read`: each slot
looked at where the mat says; `mat_enrol`: the mat read as the set). When every tile
was read right, the set model is made (`vision.set_model`: its look measured,
`measure`, and every half cropped at its number) and kept in the state directory;
every later frame is read with it.
"""
