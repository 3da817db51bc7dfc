"""Calibration: image pixels <-> table millimetres.

The four ArUco corner markers mark the play area's corners (`aruco_markers`: their
ids, finding them in a frame, printing the sheet); a homography found from them, or
from four points picked by hand, maps the table plane to the image and is saved in the
state directory (`homography`: `Calibration`).
"""
