"""`scoreboard live`'s web side without a box, for the tests: `Web(hub)` serves
server.py's application on loopback from an event loop in a thread of its own, as
`live` serves it, and `publish()` hands it a table's change the way the links do
(through the loop). `snapshot(n)` is a table as table.py shows one, with a match
in play, built from journal lines (no box, no serial port).
"""

import asyncio
import socket
import threading

from aiohttp import web

from host_tools.live.server import make_app
from host_tools.live.stream import Hub
from host_tools.live.table import Table
from scoreboard.core.words import with_checksum
from support.livebox import MATCH


def snapshot(n, port="/dev/ttyACM9", pots=("red",), names=("Ann", "Bob")):
    """Table n's snapshot: MATCH between `names`, frame 1 begun, `pots` potted by A; its
    box (PICO-0000000N) claims table n (its settings)."""
    text = MATCH.replace('"Ann"', '"%s"' % names[0]).replace('"Bob"', '"%s"' % names[1])
    lines = [with_checksum(t) for t in text.splitlines()] + [with_checksum("@0 frame A")]
    lines += [with_checksum("@%d pot %s" % (1000 * (i + 1), ball))
              for i, ball in enumerate(pots)]
    t = Table(n, port)
    t.load("M-%d" % n, lines)
    t.signal = True
    t.status = "live"
    t.box_id, t.claim = "PICO-%08X" % n, n
    return t.snapshot()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Web:
    """make_app(hub, **options) listening on 127.0.0.1:`port` (0: any free one)."""

    def __init__(self, hub=None, port=0, **options):
        self.hub = hub if hub is not None else Hub()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.runner = None
        self.port = self.call(self._start(port, options))
        self.url = "http://127.0.0.1:%d/" % self.port

    async def _start(self, port, options):
        self.runner = web.AppRunner(make_app(self.hub, **options), access_log=None,
                                    shutdown_timeout=0.5)
        await self.runner.setup()
        await web.TCPSite(self.runner, "127.0.0.1", port).start()
        return self.runner.addresses[0][1]

    def call(self, coro, timeout=20):
        """Run `coro` on the server's loop and wait for its value."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def publish(self, kind, snap, lines=None):
        async def go():
            self.hub.publish(kind, snap, lines)
        self.call(go())

    def stop(self):
        if self.runner is not None:
            self.call(self.runner.cleanup())
            self.runner = None
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()
