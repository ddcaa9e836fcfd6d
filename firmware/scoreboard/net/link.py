"""One connection to the broker: the packets out, the packets in, and the deadlines.

The link is the MQTT session of one TCP connection (tcp.Conn): `open()` sends CONNECT
(client id and user = the box id, its password, a retained Last Will `offline` on its
status topic) and waits for CONNACK under a deadline; then `publish()` and `subscribe()`
write one packet each, and `receive()` (a task of its own) reads what comes and hands
each packet to the owner (`on_publish`, `on_puback`, ...).

What makes it safe on a link that goes silent (an access point gone, a desk PC switched
off: no FIN, no RST, so TCP itself would wait for minutes): the link counts what it is
owed an answer for (QoS 1 publishes in flight, a PINGREQ, a SUBSCRIBE), and `silent(now)`
says when nothing has come for SILENT_MS while something was owed. The task's watchdog
asks that every tick and drops the link (cancelling whatever waits on its socket), so no
step waits longer than that. With nothing in flight a PINGREQ goes out every
KEEPALIVE_S / 2, and the broker, hearing nothing for 1.5 x KEEPALIVE_S, publishes the
box's Last Will.

Packet ids: 1..65535, a new one for each QoS 1 packet; at most MAX_INFLIGHT of them
unanswered (`room()`). A PUBACK frees its slot; one for an id not in flight (a duplicate)
is ignored. Nothing is re-sent on the same connection: after a reconnect the outbox
re-reads from the desk's acknowledgement (outbox.py), so the link keeps no copies.

Allocation: the receive buffer is one bytearray; a packet is parsed in place. Waiting
for bytes costs MicroPython's poller a small entry per wait (asyncio's, not ours); an
idle link wakes only for its keepalive ping.
"""

from micropython import const

from scoreboard.core.ticks import ticks_diff
from scoreboard.net import mqtt
from scoreboard.net.tcp import wait_for_ms

MAX_INFLIGHT = const(8)  # QoS 1 packets unanswered at a time
KEEPALIVE_S = const(20)  # CONNECT's keepalive: the broker's Will after 30 s of silence
SILENT_MS = const(3000)  # owed an answer and nothing heard this long: the link is dead
HANDSHAKE_MS = const(5000)  # CONNECT to CONNACK
_RX = const(640)  # a request line (channel: 400 B) and its topic fit


class Refused(Exception):
    """The broker said no: `code` is CONNACK's (4, 5: the box's name or password)."""

    def __init__(self, code):
        Exception.__init__(self, mqtt.REFUSED[code] if code < len(mqtt.REFUSED) else
                           "refused (%d)" % code)
        self.code = code


class Link:
    def __init__(self, conn, packets, now, handler):
        self.conn = conn
        self.p = packets
        self.rx = bytearray(_RX)
        self.rxv = memoryview(self.rx)
        self.fill = 0  # received bytes in rx not yet taken
        self.slots = [0] * MAX_INFLIGHT  # packet ids in flight (0: free)
        self.inflight = 0
        self._pid = 0
        self.owed = 0  # answers owed beyond the publishes: PINGRESP, SUBACK
        self.since = now  # when the oldest answer owed was asked for (or the last came)
        self.heard = now  # the last packet from the broker
        self.said = now  # the last packet to it
        self.sent = 0  # packets written
        self.bytes_out = 0  # MQTT bytes written on this link
        # the task: now(), on_publish(topic, payload, retained, now), on_puback(pid, now),
        # on_suback(now), on_pingresp(now)
        self.handler = handler

    # -- writing ----------------------------------------------------------------------
    def _write(self, data, now):
        self.conn.write(data)
        self.sent += 1
        self.bytes_out += len(data)
        self.said = now

    def room(self):
        return self.inflight < MAX_INFLIGHT

    def _next_pid(self):
        pid = self._pid % 65535 + 1
        self._pid = pid
        return pid

    def _owe(self, now):
        if not self.inflight and not self.owed:
            self.since = now

    def publish(self, topic, payload, now, qos=1, retain=False, n=-1, off=-1, end=-1):
        """One PUBLISH, written now; its packet id (0 at QoS 0). Call room() first."""
        pid = 0
        if qos:
            pid = self._next_pid()
            self._owe(now)
            i = 0
            while self.slots[i]:
                i += 1
            self.slots[i] = pid
            self.inflight += 1
        self._write(self.p.publish(topic, payload, pid, retain, n, off, end), now)
        return pid

    def subscribe(self, topics, now):
        self._owe(now)
        self.owed += 1
        self._write(self.p.subscribe(self._next_pid(), topics), now)

    def ping(self, now):
        self._owe(now)
        self.owed += 1
        self._write(mqtt.PING, now)

    def ping_due(self, now):
        return not self.owed and ticks_diff(now, self.said) >= KEEPALIVE_S * 500

    def silent(self, now):
        """Whether an answer is owed and nothing has come for SILENT_MS."""
        if not self.inflight and not self.owed:
            return False
        last = self.heard if ticks_diff(self.heard, self.since) > 0 else self.since
        return ticks_diff(now, last) >= SILENT_MS

    async def drain(self):
        await self.conn.drain()

    def bye(self, now):
        """DISCONNECT (the Will is then not published): the box leaves on purpose."""
        try:
            self._write(mqtt.BYE, now)
        except OSError:
            pass

    # -- opening ------------------------------------------------------------------------
    async def open(self, client_id, user, password, will_topic, now):
        """CONNECT, then CONNACK within HANDSHAKE_MS: Refused when the broker says no."""
        self._owe(now)
        self.owed += 1
        self._write(self.p.connect(client_id, user, password, will_topic, b"offline",
                                   KEEPALIVE_S), now)
        await self.drain()
        code = await wait_for_ms(self._connack(), HANDSHAKE_MS)
        if code:
            raise Refused(code)

    async def _connack(self):
        while True:
            kind, start, end = await self._packet()
            if kind & 0xF0 == mqtt.CONNACK:
                self._take(end)
                self.owed -= 1
                return self.rx[start + 1] if end - start >= 2 else 255
            self._take(end)  # nothing else may come first: ignored

    # -- reading ------------------------------------------------------------------------
    async def _packet(self):
        """(first byte, body start, body end) of the next whole packet at rx[0]."""
        rx = self.rx
        while True:
            h = mqtt.header(rx, self.fill)
            if h is not None:
                kind, hlen, size = h
                if hlen + size > len(rx):  # longer than anything the box is sent
                    await self._skip(hlen + size)
                    continue
                if self.fill >= hlen + size:
                    return kind, hlen, hlen + size
            n = await self.conn.recv_into(self.rxv[self.fill:])
            if not n:
                raise OSError(104, "the broker closed the connection")
            self.fill += n

    async def _skip(self, total):
        """Read past a packet too long for rx (never one the protocol sends the box)."""
        while total > 0:
            if not self.fill:
                n = await self.conn.recv_into(self.rxv)
                if not n:
                    raise OSError(104, "the broker closed the connection")
                self.fill = n
            k = total if total < self.fill else self.fill
            self._take(k)
            total -= k

    def _take(self, end):
        """Drop the first `end` bytes of rx (the packet handled)."""
        rest = self.fill - end
        if rest:
            self.rx[0:rest] = self.rxv[end:self.fill]
        self.fill = rest

    async def receive(self):
        """Read and dispatch packets until the connection fails (raises)."""
        rx = self.rx
        h = self.handler
        while True:
            kind, start, end = await self._packet()
            now = h.now()
            self.heard = now
            t = kind & 0xF0
            if t == mqtt.PUBLISH:
                topic, at, pid = mqtt.incoming(rx, start, end)
                h.on_publish(topic, self.rxv[at:end], kind & 0x01, now)
                if pid:
                    self._write(self.p.puback(pid), now)
            elif t == mqtt.PUBACK and end - start >= 2:
                pid = (rx[start] << 8) | rx[start + 1]
                self._acked(pid)
                h.on_puback(pid, now)
            elif t == mqtt.PINGRESP or t == mqtt.SUBACK:
                if self.owed:
                    self.owed -= 1
                if t == mqtt.SUBACK:
                    h.on_suback(now)
                else:
                    h.on_pingresp(now)
            self._take(end)
            self.since = now

    def _acked(self, pid):
        slots = self.slots
        for i in range(MAX_INFLIGHT):
            if slots[i] == pid:
                slots[i] = 0
                self.inflight -= 1
                return
