"""The simulated table: players, a game on a surface, and a camera over it.

One loop plays the table (`table.play_table`: typed steps, importing only `engine`);
its consumers turn the steps into what a source of the table service would give:

- `scenes`: what a camera sees after each step and hears after it (`sim_game`,
  `sim_whole_game`, `chain_games`);
- `camera`: those scenes rendered as camera frames with hands passing (`SimSource`,
  a `vision.frames.FrameSource`);
- `render`: the renderer of synthetic frames with their ground truth;
- the board demo (`demo.players`) lays the same steps on the board emulator and says
  them over MQTT.

`tablesim` may import `engine`, `vision` (its frames and calibration markers) and
OpenCV/NumPy; nothing of the camera path imports it. Importing this package loads
only the engine-only table.
"""

from __future__ import annotations

from tablesim.table import (
    Action,
    Clear,
    Ending,
    Lay,
    PlaySurface,
    Reveal,
    Say,
    Step,
    play_table,
)

__all__ = [
    "Action",
    "Clear",
    "Ending",
    "Lay",
    "PlaySurface",
    "Reveal",
    "Say",
    "Step",
    "play_table",
]
