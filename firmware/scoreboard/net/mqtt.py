"""MQTT 3.1.1 (OASIS standard, 2014), the part the box speaks: CONNECT with a Last Will,
CONNACK, SUBSCRIBE and SUBACK, PUBLISH at QoS 0 and 1, PUBACK both ways, PINGREQ and
PINGRESP, DISCONNECT. No QoS 2, no MQTT 5: the desk's database dedups by line number
(docs/notation.md), and the broker of the clubs (Mosquitto) and every client speak 3.1.1.

Each packet is built whole in one buffer (`Packets`, preallocated; a packet that does not
fit gets one of its own), so that it goes out in one write: with Nagle's algorithm a
packet written in pieces waits ~40 ms for the broker's delayed ACK, which is what
umqtt.simple's five writes a publish cost (docs/figures.md). A journal line's publish
writes its `N OFFSET ` prefix digit by digit into the same buffer: nothing is formatted.

`header(buf, n)` reads a fixed header from received bytes: the packet's type and flags,
the header's length and the remaining length, once enough bytes have come.
"""

from micropython import const

CONNECT = const(0x10)
CONNACK = const(0x20)
PUBLISH = const(0x30)
PUBACK = const(0x40)
SUBSCRIBE = const(0x82)  # the reserved flags 0010
SUBACK = const(0x90)
PINGREQ = const(0xC0)
PINGRESP = const(0xD0)
DISCONNECT = const(0xE0)

_BUF = const(512)  # a journal line's publish is ~100 bytes; a long header line fits too
_RETAIN = const(0x01)
_QOS1 = const(0x02)
_WILL = const(0x04)
_WILL_QOS1 = const(0x08)
_WILL_RETAIN = const(0x20)
_PASSWORD = const(0x40)
_USER = const(0x80)
_CLEAN = const(0x02)

PING = b"\xc0\x00"
BYE = b"\xe0\x00"

# CONNACK's return codes (3.2.2.3), in words for the panel and the log.
REFUSED = ("accepted", "protocol version refused", "client id refused",
           "broker unavailable", "bad user name or password", "not authorised")


def width(n):
    """Decimal digits of n >= 0."""
    w = 1
    while n >= 10:
        n //= 10
        w += 1
    return w


def put_digits(buf, at, n):
    """n >= 0 in decimal into buf at `at`; the index after it."""
    end = at + width(n)
    k = end
    while True:
        k -= 1
        buf[k] = 0x30 + n % 10
        n //= 10
        if not n:
            return end


def _length_bytes(n):
    return 1 if n < 128 else 2 if n < 16384 else 3 if n < 2097152 else 4


def _put_length(buf, at, n):
    """The remaining length (2.2.3: 7 bits a byte, low first); the index after it."""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            buf[at] = b | 0x80
            at += 1
        else:
            buf[at] = b
            return at + 1


def _put_str(buf, at, data):
    """A UTF-8 string or binary field: two length bytes, then the bytes."""
    n = len(data)
    buf[at] = n >> 8
    buf[at + 1] = n & 0xFF
    buf[at + 2:at + 2 + n] = data
    return at + 2 + n


def header(buf, n):
    """(first byte, header length, remaining length) of the packet starting buf[0] when
    its fixed header is among the n bytes there, else None. ValueError for a remaining
    length longer than the standard's four bytes."""
    if n < 2:
        return None
    mult = 1
    size = 0
    i = 1
    while True:
        if i >= n:
            return None
        b = buf[i]
        size += (b & 0x7F) * mult
        i += 1
        if not b & 0x80:
            return buf[0], i, size
        mult <<= 7
        if i > 4:
            raise ValueError("bad remaining length")


class Packets:
    """The packets the box sends, each built in `buf` (valid until the next one)."""

    def __init__(self, size=_BUF):
        self.buf = bytearray(size)
        self.view = memoryview(self.buf)
        self._ack = bytearray(4)
        self._ack[0] = PUBACK
        self._ack[1] = 2

    def _room(self, total):
        if total <= len(self.buf):
            return self.buf, self.view
        big = bytearray(total)  # once in a while: a long header line, a long request
        return big, memoryview(big)

    def connect(self, client_id, user, password, will_topic, will, keepalive_s, clean=True):
        """CONNECT (3.1): protocol `MQTT` level 4, a Last Will at QoS 1, retained."""
        flags = (_CLEAN if clean else 0) | _WILL | _WILL_QOS1 | _WILL_RETAIN
        size = 10 + 2 + len(client_id) + 2 + len(will_topic) + 2 + len(will)
        if user is not None:
            flags |= _USER
            size += 2 + len(user)
        if password is not None:
            flags |= _PASSWORD
            size += 2 + len(password)
        buf, view = self._room(1 + _length_bytes(size) + size)
        buf[0] = CONNECT
        at = _put_length(buf, 1, size)
        at = _put_str(buf, at, b"MQTT")
        buf[at] = 4  # protocol level: 3.1.1
        buf[at + 1] = flags
        buf[at + 2] = keepalive_s >> 8
        buf[at + 3] = keepalive_s & 0xFF
        at = _put_str(buf, at + 4, client_id)
        at = _put_str(buf, at, will_topic)
        at = _put_str(buf, at, will)
        if user is not None:
            at = _put_str(buf, at, user)
        if password is not None:
            at = _put_str(buf, at, password)
        return view[:at]

    def subscribe(self, pid, topics):
        """SUBSCRIBE (3.8) to each of `topics` at QoS 1."""
        size = 2
        for t in topics:
            size += 2 + len(t) + 1
        buf, view = self._room(1 + _length_bytes(size) + size)
        buf[0] = SUBSCRIBE
        at = _put_length(buf, 1, size)
        buf[at] = pid >> 8
        buf[at + 1] = pid & 0xFF
        at += 2
        for t in topics:
            at = _put_str(buf, at, t)
            buf[at] = 1
            at += 1
        return view[:at]

    def publish(self, topic, payload, pid=0, retain=False, n=-1, off=-1, end=-1):
        """PUBLISH (3.3) of `payload` (bytes, or a buffer's first `end` bytes) at QoS 1
        with packet id `pid` (0: QoS 0). With n >= 0 the payload is preceded by
        `N OFF ` (a journal line's number and byte offset, docs/notation.md)."""
        plen = len(payload) if end < 0 else end
        if n >= 0:
            plen += width(n) + width(off) + 2
        size = 2 + len(topic) + (2 if pid else 0) + plen
        buf, view = self._room(1 + _length_bytes(size) + size)
        buf[0] = PUBLISH | (_QOS1 if pid else 0) | (_RETAIN if retain else 0)
        at = _put_str(buf, _put_length(buf, 1, size), topic)
        if pid:
            buf[at] = pid >> 8
            buf[at + 1] = pid & 0xFF
            at += 2
        if n >= 0:
            at = put_digits(buf, at, n)
            buf[at] = 0x20
            at = put_digits(buf, at + 1, off)
            buf[at] = 0x20
            at += 1
        k = len(payload) if end < 0 else end
        buf[at:at + k] = payload if end < 0 else memoryview(payload)[:end]
        return view[:at + k]

    def puback(self, pid):
        """PUBACK (3.4) of an incoming QoS 1 publish (its own small buffer: it may be
        written while a publish waits in `buf`)."""
        a = self._ack
        a[2] = pid >> 8
        a[3] = pid & 0xFF
        return a


def incoming(buf, start, end):
    """(topic, payload start, packet id) of a received PUBLISH whose body (after the
    fixed header) is buf[start:end]; packet id 0 at QoS 0. The topic is a memoryview."""
    view = memoryview(buf)
    n = (buf[start] << 8) | buf[start + 1]
    at = start + 2 + n
    topic = view[start + 2:at]
    pid = 0
    if buf[0] & 0x06:
        pid = (buf[at] << 8) | buf[at + 1]
        at += 2
    return topic, at, pid
