"""The tournament desk: many tables' finished games folded into one standings board.

`standings` is pure (result payloads -> ranked entries); `desk` holds the desk's state
and its MQTT link; `server` serves the standings page; `cli` is `domino-table tournament`.
"""
