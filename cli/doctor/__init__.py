"""`domino-table doctor` (`command.doctor`): checks a table's set-up and says how to fix
each problem.

One check per part, each short and with a timeout: the camera (and, when the service
runs, the status it publishes: state and warnings in words), the board's serial port
(and a HELLO handshake), GPIO for the panel, the MQTT broker (a real CONNECT with the
configured credentials), the state folder's disk, and the clock. Every check returns
`Finding`s; a problem carries one line saying what to do. The exit code is 1 when any
check found a problem. Nothing is changed: no file is written but a probe file in the
state folder (removed at once), and the broker connection uses its own client id so a
running service is not thrown off.

A module per part: `camera` (and the camera's published status), `board`, `gpio`,
`broker`, `host` (disk, clock, the running service), `voice`; `findings` is what a
check returns, `command` runs them all. It sits in the command line because it checks
every part of the table: it imports them all and nothing imports it.
"""
