"""The instrumented board's serial link (protocol version 1, docs/design/board.md).

Three layers, each usable on its own:

- `codec` (with `messages`): pure bytes <-> typed frames, CRC-16/CCITT-FALSE.
- `link`: `BoardLink` owns the serial port and a reader thread; `session` is its pure
  state machine (sequence numbers, acks and resends, handshake, SYNC on any doubt).
- `adapter`: `BoardAdapter` turns the link's events into observations for the service
  (`engine.surface.Snapshot`) and small events of its own, and sends LED/BEEP commands.

`emulator` plays a board on a pseudo-terminal, for tests and for a laptop.
"""
