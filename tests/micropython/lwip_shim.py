"""The Pico W's socket semantics on the MicroPython unix port, for the net task's tests.

On the Pico W the sockets are lwIP's (extmod/modlwip.c), and three of their ways differ
from the unix port's, each of which would let network code pass here and hang there:

- `setblocking(True)` means no timeout at all: a `settimeout(t)` given before is lost
  (umqtt.simple's only timeout goes that way: docs/figures.md). Here too.
- `getaddrinfo` of a name (not an address) asks DNS and blocks with no timeout: here it
  holds the caller DNS_MS before answering, so a name in the loop shows as a stall.
- Nagle's algorithm is on unless TCP_NODELAY is set: the same on Linux, so the kernel
  itself delays a small segment written after another one still unacknowledged.

`install()` puts a stand-in `socket` module in sys.modules (asyncio imports `socket` when
it connects, so this must come first); its sockets are the unix port's own (a subclass:
the poller still polls their descriptors) and record what the code did with them:
`stats()` -> [(nodelay, writes, bytes, blocking calls, timeouts set)] per socket made, and
`resolved` the names looked up.
"""

import io
import select
import sys
import time

import socket as _real

DNS_MS = 2000
_POLL = 3  # MP_STREAM_POLL, what the poller asks a Python stream (io.IOBase)
_CLOSE = 4
_ERR_HUP = 0x18  # POLLERR | POLLHUP: reported whether asked for or not
_sockets = []
resolved = []


class Socket(io.IOBase):
    """The port's socket inside a Python stream (a subclass of the port's socket type
    would not poll: the poller needs the stream protocol, which io.IOBase gives), with
    lwIP's ways and a record of what was done with it."""

    def __init__(self, *args):
        self.s = _real.socket(*args)
        self._poll = select.poll()
        self._poll.register(self.s, select.POLLIN | select.POLLOUT)
        self.nodelay = False
        self.writes = 0
        self.bytes = 0
        self.blocking_calls = 0  # setblocking(True): no timeout at all, from then on
        self.timeouts = 0
        _sockets.append(self)

    def settimeout(self, t):
        self.timeouts += 1
        self.s.settimeout(t)

    def setblocking(self, flag):
        if flag:  # modlwip: socket->timeout = -1, whatever settimeout() said
            self.blocking_calls += 1
            self.s.settimeout(None)
        else:
            self.s.setblocking(False)

    def setsockopt(self, level, option, value):
        if level == 6 and option == 1:  # IPPROTO_TCP, TCP_NODELAY
            self.nodelay = bool(value)
        self.s.setsockopt(level, option, value)

    def connect(self, address):
        return self.s.connect(address)

    def readinto(self, buf, n=-1):
        return self.s.readinto(buf) if n < 0 else self.s.readinto(buf, n)

    def read(self, n=-1):
        return self.s.read(n) if n >= 0 else self.s.read()

    def recv(self, n):
        return self.s.recv(n)

    def write(self, data):
        n = self.s.write(data)
        self.writes += 1
        self.bytes += n or 0
        return n

    def send(self, data):
        n = self.s.send(data)
        self.writes += 1
        self.bytes += n or 0
        return n

    def fileno(self):
        return self.s.fileno()

    def close(self):
        self.s.close()

    def ioctl(self, request, arg):
        if request == _POLL:  # ipoll: nothing allocated (the idle box is measured)
            ready = 0
            for _, ev in self._poll.ipoll(0):
                ready |= ev
            return ready & (arg | _ERR_HUP)
        if request == _CLOSE:
            self.s.close()
            return 0
        return -1


def _numeric(host):
    parts = host.split(".")
    return len(parts) == 4 and all(p.isdigit() for p in parts)


def getaddrinfo(host, port, *args):
    if not _numeric(host):  # lwIP's DNS query: the caller waits, with no timeout
        resolved.append(host)
        time.sleep_ms(DNS_MS)
    return _real.getaddrinfo(host, port, *args)


class _Module:
    """What `import socket` gives once installed: the port's module, but these two."""


def install():
    m = _Module()
    for name in dir(_real):
        if not name.startswith("__"):
            setattr(m, name, getattr(_real, name))
    m.socket = Socket
    m.getaddrinfo = getaddrinfo
    m.IPPROTO_TCP = 6
    m.TCP_NODELAY = 1
    sys.modules["socket"] = m


def stats():
    return [(s.nodelay, s.writes, s.bytes, s.blocking_calls, s.timeouts) for s in _sockets]
