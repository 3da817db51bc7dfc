"""MQTT and web plumbing shared by the table display, the tournament desk and the table
service, so that none of them imports another's internals.

- `envelope`: the `v`, `table`, `ts` (and `seq`) every payload carries, `utc_ts()` and
  the compact JSON they are published as (the table service and the desk);
- `client`: the paho client of a subscriber (the display, the desk) with its MQTT TLS
  flags, why a connection failed, and the hand-off from paho's thread into asyncio;
- `sse`: one Server-Sent Events stream per page (the display, the desk);
- `secret_file`: a password or PIN read from a file named on the command line.

It imports nothing of ours (paho-mqtt, aiohttp and click only).
"""
