"""The detector: one camera frame in, the face-up tiles read (pixels), no calibration.

`detect.detect(frame, play_area, settings)` picks the tile-bright image for the set's
tone (`settings.Settings.tone`) and runs one search pass (`search_pass`): tiles are
found by their dividers (`vision.tiles`), their pips counted in each half
(`vision.pips`), face-down tiles and unreadable places listed. What it reports is in
`results` (`Detection`, `FoundTile`, `UnsureRegion`), where it looks in `play_area`.
`accuracy` scores it on labelled photos, `overlay` draws what it found.
"""
