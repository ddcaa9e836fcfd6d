"""The tests' desk on the MQTT side (issue 40, part A): a small checker that does what the
protocol (docs/notation.md, "The boxes over MQTT") asks of the desk, and records it all.

It subscribes as the `desk` user to every box's lines, state, status and replies. A line
`N OFFSET TEXT *CRC` of (box, stem) is committed only when it is the next one (N = last
+ 1, at the offset where the last one ended) with a right CRC-32; one already held is a
duplicate (counted, dropped); one past a gap asks the box to `resend` from the last
committed line. After commits it publishes the retained `ack` (coalesced every ACK_S).
Part B's desk does this into the results database; this one keeps the lines in RAM.
"""

import binascii
import threading
import time

ACK_S = 0.1


def crc(text):
    return "%08x" % (binascii.crc32(text) & 0xFFFFFFFF)


class Journal:
    """One (box, stem)'s committed lines."""

    def __init__(self):
        self.lines = []  # bytes of each line, `TEXT *CRC`
        self.next_off = 0
        self.duplicates = 0
        self.gaps = 0
        self.bad = 0
        self.acked = -1


class Desk:
    def __init__(self, server, resend=True, ack=True):
        self.server = server
        self.resend_on_gap = resend
        self.ack_on = ack
        self.journals = {}  # (box, stem) -> Journal
        self.states = {}  # box -> payload
        self.status = {}  # box -> payload
        self.replies = []  # (box, payload)
        self.events = []  # (time, kind, box)
        self.lock = threading.RLock()
        self._dirty = set()
        self._asked = {}
        self._stop = False
        self.client = server.client("desk")
        self.client.on_message = self._message
        self.client.on_connect = self._connected
        self._subscribe()
        threading.Thread(target=self._acker, daemon=True).start()

    def _subscribe(self):
        for t in ("sb/+/j/#", "sb/+/state", "sb/+/status", "sb/+/reply"):
            self.client.subscribe(t, qos=1)

    def _connected(self, client, userdata, flags, reason, props):
        self._subscribe()  # again after a broker restart

    def _message(self, client, userdata, msg):
        parts = msg.topic.split("/")
        box = parts[1]
        with self.lock:
            if parts[2] == "j":
                self._line(box, "/".join(parts[3:]), msg.payload)
            elif parts[2] == "state":
                self.states[box] = msg.payload
            elif parts[2] == "status":
                self.status[box] = msg.payload
                self.events.append((time.monotonic(), msg.payload.decode(), box))
            elif parts[2] == "reply":
                self.replies.append((box, msg.payload))

    def _line(self, box, stem, payload):
        j = self.journals.setdefault((box, stem), Journal())
        n, off, text = payload.split(b" ", 2)
        n, off = int(n), int(off)
        last = len(j.lines)
        if n <= last:
            j.duplicates += 1
            return
        if n > last + 1 or off != j.next_off:
            j.gaps += 1
            if self.resend_on_gap and self._asked.get((box, stem)) != last:
                self._asked[(box, stem)] = last
                self.client.publish("sb/%s/resend" % box, self.position(box, stem, j), qos=1)
            return
        body, star, sum_ = text.rpartition(b" *")
        if not star or crc(body).encode() != sum_:
            j.bad += 1
            return
        j.lines.append(text)
        j.next_off = off + len(text) + 1
        self._asked.pop((box, stem), None)
        self._dirty.add((box, stem))

    def position(self, box, stem, j):
        n = len(j.lines)
        return "%s %d %d %s" % (stem, n, j.next_off,
                                j.lines[-1][-8:].decode() if n else "-")

    def _acker(self):
        while not self._stop:
            time.sleep(ACK_S)
            if not self.ack_on:
                continue
            with self.lock:
                dirty, self._dirty = self._dirty, set()
                for box, stem in dirty:
                    j = self.journals[(box, stem)]
                    self.client.publish("sb/%s/ack/%s" % (box, stem),
                                        self.position(box, stem, j), qos=1, retain=True)
                    j.acked = len(j.lines)

    def ack_all(self):
        """Acknowledge every journal held (and from now on, after each commit)."""
        with self.lock:
            self._dirty.update(self.journals)
            self.ack_on = True

    def request(self, box, line):
        """A request line onto the box's `cmd` topic."""
        self.client.publish("sb/%s/cmd" % box, line, qos=1)

    def lines(self, box, stem):
        with self.lock:
            j = self.journals.get((box, stem))
            return list(j.lines) if j else []

    def journal(self, box, stem):
        return self.journals.get((box, stem))

    def wait(self, check, timeout=30, step=0.05):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if check(self):
                    return True
            time.sleep(step)
        return False

    def close(self):
        self._stop = True
        self.client.loop_stop()
        self.client.disconnect()
