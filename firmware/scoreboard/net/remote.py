"""The desk's requests over MQTT: the request channel's own verbs and framing
(scoreboard/channel.py), with the broker in place of the USB console.

A request arrives on the box's `cmd` topic as one request line, `#SB? SEQ VERB ARGS
*CRC32`, exactly as `scoreboard sync` or the desk writes it down the cable; each line of
the answer (`SB! SEQ - ...`, `SB! SEQ ok ...`, `SB! SEQ err ...`, each with its CRC-32)
goes out as one message on the box's `reply` topic. So every verb the channel has (and
any it gets) works over MQTT unchanged, with the same checks and the same answers; only
the pace differs: one answer line a step, and the next only once the last has gone
(`Out.room`), so a long `read` never piles up in RAM.
"""

from micropython import const

from scoreboard.channel import Channel

_QUEUED = const(2)  # answer lines waiting for the link at most


class Out:
    """The answer lines the channel writes, kept until the net task publishes them
    (each without its `\\r\\n`)."""

    def __init__(self):
        self.lines = []

    def write(self, data):
        data = bytes(data)
        if data[-2:] == b"\r\n":
            data = data[:-2]
        self.lines.append(data)
        return len(data)

    def room(self):
        return len(self.lines) < _QUEUED


class RemoteChannel(Channel):
    """A Channel fed request lines by the net task instead of reading a console."""

    def __init__(self, app):
        self.replies = Out()
        Channel.__init__(self, app, None, self.replies)  # no console: nothing polled
        self.budget_ms = 0  # one answer line a step: the link takes them one by one

    def take(self, line, now):
        """A request line (bytes, without its newline) from the `cmd` topic."""
        self.now = now
        self._request(bytes(line).rstrip(b"\r\n"))

    def step(self, now):
        """The next answer line, if one is being made and the last has gone out."""
        if self.job is not None and self.replies.room():
            self.now = now
            self._step()

    def busy(self):
        return self.job is not None or bool(self.replies.lines)
