"""A TCP connection on asyncio that never blocks the loop, the same on MicroPython (the
Pico W's lwIP, the unix port) and on CPython (the tests' reference runs).

`connect(host, port, timeout_ms)` -> Conn: the socket is non-blocking from the start
(asyncio's own connect), the broker named by its address only: `getaddrinfo` blocks with
no timeout on lwIP when it has to ask a DNS server, so a name is refused here before any
socket call (`address()`). TCP_NODELAY is set: every packet is one write (mqtt.Packets),
and Nagle's algorithm would hold each small one back for the peer's delayed ACK.

    conn.write(data)          queue one packet (written at once when the socket takes it)
    await conn.drain()        until the socket took what was queued
    await conn.recv_into(mv)  bytes into the memoryview, at least one; 0 at the end
    conn.close()

Nothing here has a timeout of its own after the connect: the link (link.py) knows what
it waits for and gives up on a silent peer itself, by cancelling the task waiting here.
"""

import sys

try:
    import asyncio
except ImportError:  # pragma: no cover - every port the box runs on has it
    asyncio = None

_MICROPYTHON = sys.implementation.name == "micropython"
IPPROTO_TCP = 6  # the same numbers in lwIP and Linux (the unix port has no names for them)
TCP_NODELAY = 1


def address(host):
    """`host` when it is a dotted IPv4 address; ValueError saying why otherwise."""
    parts = host.split(".")
    if len(parts) == 4:
        for p in parts:
            if not p.isdigit() or len(p) > 3 or int(p) > 255:
                break
        else:
            return host
    raise ValueError("the broker by its IPv4 address (a name would need DNS): %s" % host)


def sleep_ms(ms):
    """asyncio's sleep in milliseconds (MicroPython's sleep_ms allocates nothing)."""
    if _MICROPYTHON:
        return asyncio.sleep_ms(ms)
    return asyncio.sleep(ms / 1000)


def wait_for_ms(aw, ms):
    """`aw` within `ms` milliseconds, else asyncio.TimeoutError (it is cancelled)."""
    if _MICROPYTHON:
        return asyncio.wait_for_ms(aw, ms)
    return asyncio.wait_for(aw, ms / 1000)


async def connect(host, port, timeout_ms):
    """A Conn to host:port (an IPv4 address), within `timeout_ms`."""
    address(host)
    reader, writer = await wait_for_ms(asyncio.open_connection(host, port), timeout_ms)
    if _MICROPYTHON:  # one Stream both ways, its socket `s`
        return Conn(reader, writer, getattr(writer, "s"))
    return Conn(reader, writer, writer.get_extra_info("socket"))


class Conn:
    def __init__(self, reader, writer, sock):
        self.reader = reader
        self.writer = writer
        self.sock = sock
        self.closed = False
        try:
            sock.setsockopt(IPPROTO_TCP, TCP_NODELAY, 1)
        except (OSError, AttributeError):  # pragma: no cover - every stack here has it
            pass

    def write(self, data):
        self.writer.write(data)

    async def drain(self):
        await self.writer.drain()

    async def recv_into(self, view):
        """At least one byte into `view` (a memoryview); 0 when the peer closed."""
        if _MICROPYTHON:
            n = await self.reader.readinto(view)
            return n or 0
        data = await self.reader.read(len(view))
        view[:len(data)] = data
        return len(data)

    def close(self):
        """Drop the connection (no goodbye: that is DISCONNECT's, sent before)."""
        if self.closed:
            return
        self.closed = True
        try:
            if _MICROPYTHON:
                self.sock.close()
            else:
                self.writer.close()
        except OSError:
            pass
