"""The camera path over time: frames in, settled observations of the table out (mm).

`pipeline.Pipeline.feed(frame)`: no reading while the scene moves (`settled`: the
motion gate, an arm lying still), calibration when a still period begins
(`vision.calibration`), the detector (`vision.detector`), places it left unsure read
again by the tile's known size on calibrated frames (`known_size`), and a reading
passed on only once it holds for a few frames and differs from the last (`settled`).
"""
