"""The tournament desk: many tables' finished games folded into one standings board, and,
given an event file, the whole event.

Standings only: `standings` is pure (result payloads -> ranked entries), `board` folds
the tables' topics, `desk` holds the desk's state and its MQTT link, `server` serves the
standings page. Running an event: `event` (the file), `journal` (SQLite, append-only)
folded into `ledger`, `pairing` and `rounds` (seating), `intake` and `commands` (what
tables and the director say, as journal records), `ranking` (tie-breaks), `views` (the
payloads), `runner` (the loop side), `pages` and `auth` (the pages), `exports` (CSV,
PDF). What it shares with the display (the MQTT client, TLS flags, Server-Sent Events,
secret files, the payload envelope) comes from `mqttweb`; `cli` is
`domino-table tournament`.
"""
