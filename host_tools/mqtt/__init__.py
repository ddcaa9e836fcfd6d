"""The desk's side of the boxes on the club's Wi-Fi (issue 40). The protocol both sides
follow is docs/notation.md, "The boxes over MQTT".

- broker.py: the MQTT broker the boxes and the desk meet at (Eclipse Mosquitto,
  configured for a club by `scoreboard broker`); imports nothing of the other host
  packages;
- client.py: the desk's connection to it (`--mqtt URL`, `mqtt://` ports).

Above them: device/netbox.py, the box contract (device/box.py) over the request channel
on `cmd`/`reply`; live/consumer.py, the boxes' journal lines into the results database,
each once, in order, acknowledged by offset (`live/desk --mqtt`).
"""
