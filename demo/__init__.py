"""The demo's simulated parts, above the table service (as Home Assistant keeps its
simulator in `components/demo`): players at an emulated board who say over MQTT what a
table cannot see (`players`), players at a table a tournament desk seats
(`seated_players`), and a private Mosquitto (`broker`). Only the command line imports
it; the service never does."""
