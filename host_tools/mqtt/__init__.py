"""The desk's side of the boxes on the club's Wi-Fi (issue 40): the MQTT broker the boxes
and the desk meet at (broker.py: Eclipse Mosquitto, configured for a club by `scoreboard
broker`). The protocol both sides follow is docs/notation.md, "The boxes over MQTT".

Imports nothing of the other host packages.
"""
