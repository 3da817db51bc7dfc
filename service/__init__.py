"""The table service: one table's sources, referee, record and publishers, joined.

- `app`: `TableService`, the one worker thread that owns the game, and what a table
  has wired to it;
- `core`: the table core: the game in table mode (`table`), the reconciler of what the
  sources see, commands, the table's own events and the bus that hands them on, the
  payloads of spec/mqtt.md, a desk's seating, replaying a told game;
- `store`: the journal (SQLite), the single source of truth, and its seq mark;
- `mqtt`: the table's MQTT link: topics, commands in, events, state and replies out,
  Home Assistant discovery, and the one way the service's paho clients are made;
- `camera`: the camera as a source, what it shows people (`camera/status`,
  `camera/snapshot`) and the commands about it; frame sources are found by name;
- `devices`: the players' panel and the instrumented board as publishers (and the
  board's buttons as commands);
- `subscribers`: what every publisher is (`Subscriber`) and the log of events.

It never imports the simulated table (`tablesim`), the demo, the display or the desk.
"""
