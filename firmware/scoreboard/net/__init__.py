"""The box on the club's Wi-Fi: its journal to the desk through an MQTT broker.

One more asyncio task beside the app's (`task.Net`, started by App.run() when the
board can reach a network): it never blocks the passes, and every step it waits for has
a deadline. The journal is its outbox (`outbox.Outbox`): a line goes out only once it
is on flash, read back from the file, with its number and byte offset; the desk's
retained acknowledgement says where to go on after any break. The protocol (topics,
payloads, QoS, what is retained, the broker's ACL, the order and dedup rules) is in
docs/notation.md, "The boxes over MQTT".

    mqtt.py      MQTT 3.1.1 packets, each built in one buffer (one write a packet)
    tcp.py       a TCP connection on asyncio (CPython's or MicroPython's), TCP_NODELAY
    link.py      one connection to the broker: packets in and out, and its deadlines
    outbox.py    the journal files as the outbox: what the desk lacks, line by line
    state.py     the score as the TV shows it, one retained line
    remote.py    the desk's requests (scoreboard/channel.py's verbs) over MQTT
    task.py      the task: Wi-Fi, the broker, reconnecting with back-off, all of it
"""
