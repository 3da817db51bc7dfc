"""`domino-table demo` and the demo's simulated parts, above the table service (as Home
Assistant keeps its simulator in `components/demo`).

- the command (`cli`) and its options (`options`); its three runs, each in its own
  module: a table on the board emulator (`board_table`), a table read through a
  simulated camera (`camera_table`), a whole event at several tables (`whole_event`,
  with `hall` and `hall_watch`); what they share (`running`: one table opened whole;
  `printer`: the events printed);
- the simulated parts: players at an emulated board who say over MQTT what a table
  cannot see (`players`), players at a table a tournament desk seats
  (`seated_players`), a private Mosquitto (`broker`), and the simulated camera
  (`sim_camera`), which the service finds by the name `sim` (an entry point).

Only the command line imports it; the service never does.
"""
