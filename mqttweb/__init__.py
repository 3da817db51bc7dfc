"""MQTT and web plumbing shared by the table display, the tournament desk and the table
service, so that none of them imports another's internals.

- `envelope`: the `v`, `table`, `ts` (and `seq`) every payload carries, `utc_ts()` and
  the compact JSON they are published as (the table service and the desk);
- `client`: the paho client of a subscriber (the display, the desk) with its MQTT TLS
  flags, why a connection failed, and the hand-off from paho's thread into asyncio;
- `link`: the subscriber's link to its broker (the display's, the desk's): connect,
  subscribe, log each refusal once, hand every paho callback to the loop;
- `sse`: the open pages of one stream (a one-slot queue each) and the Server-Sent Events
  that feed each page (the display, the desk);
- `web`: a page from a `static/` folder, the MQTT link started and stopped with the
  aiohttp app, and the server run until cancelled (the display, the desk);
- `secret_file`: a password or PIN read from a file named on the command line.
- `broker_flags`: the broker's command-line flags of the display and the desk (host,
  port, user, password file and the TLS flags), read back as their settings' fields.

It imports nothing of ours (paho-mqtt, aiohttp and click only).
"""
