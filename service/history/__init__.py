"""The record of a table's games: events, inputs and frames kept on its disk.

`HistoryRecorder` (a subscriber of the table core's bus) keeps it while the table runs
and answers the `history` and `frame` commands; `HistoryStore` is the record on disk,
which `domino-table history` reads (`service.history.cli`). See docs/design/history.md.
"""

from service.history.events import HistoryAnswer, HistoryFrame, HistoryTrouble
from service.history.publisher import HistoryPublisher
from service.history.recorder import HistoryRecorder
from service.history.store import GameRecord, GameSummary, HistoryError, HistoryStore

__all__ = [
    "GameRecord",
    "GameSummary",
    "HistoryAnswer",
    "HistoryError",
    "HistoryFrame",
    "HistoryPublisher",
    "HistoryRecorder",
    "HistoryStore",
    "HistoryTrouble",
]
