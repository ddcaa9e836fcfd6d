"""Following the boxes as they play and serving their scores: `serve`, the loop behind
`scoreboard live` (host_tools/commands/live.py: its arguments and messages), over a
`Follower` (the tables followed, their links, their numbers).

Each port is a table (live/link.py reads it; with `auto` every USB serial port and every
running virtual device, device/ports.py, looked for again every RESCAN seconds, so a box
plugged in later becomes the next table); the tables are published to the pages
(live/stream.py's hub, live/server.py's app), and a table renumbered when its draw names
its number. Beyond loopback the desk's token is printed once.
"""

import asyncio
import contextlib
import signal
import socket
import sys

from host_tools.live.guard import loopback, new_token
from host_tools.messages import fail, say

RESCAN = 2.0  # seconds between two looks for new boxes (auto)


class Follower:
    """The tables followed: a Link (live/link.py) per port, each change of theirs
    published to `hub` on `loop` (the links run in threads of their own), and each
    table numbered as its box claims (live/numbering.py), a table two boxes claim
    marked as a conflict."""

    def __init__(self, hub, results, idle, log, loop):
        from host_tools.live.numbering import Numbering

        self.hub = hub
        self.results = results  # live/results.py's, or None: nothing is stored
        self.idle = idle
        self.log = log
        self.loop = loop
        self.links = []
        self.numbering = Numbering()

    def tables(self):
        return [x.table for x in self.links]

    async def rescan(self):
        """A table for every box found now (device/ports.py: USB serial ports and
        virtual devices) that is not followed yet."""
        from host_tools.device.ports import auto_ports

        for port in await self.loop.run_in_executor(None, auto_ports):
            if port not in [t.port for t in self.tables()]:
                self.add(port)

    def add(self, port):
        from host_tools.live.link import Link
        from host_tools.live.table import Table

        table = Table(self.numbering.first(self.tables()), port)
        self.hub.add(table.snapshot())
        link = Link(table, None, self.results, self.idle, self.log)
        link.publish = lambda kind, snap, lines, link=link: self.publish(kind, snap, lines,
                                                                         link)
        self.links.append(link)
        link.start()
        self.log("table %d: %s" % (table.number, port))

    def publish(self, kind, snap, lines, link=None):
        """A link's change (from its thread), published on the loop."""
        def on_loop():
            if link is not None:
                self.renumber(link)  # the snapshot was taken before: its number now
                self.mark_conflicts()
                self.hub.publish(kind, dict(snap, table=link.table.number,
                                            conflict=link.table.conflict), lines)
            else:
                self.hub.publish(kind, snap, lines)
        self.loop.call_soon_threadsafe(on_loop)

    def renumber(self, link):
        """In the loop's thread, at each change of a table: the draw's number."""
        from host_tools.live.numbering import wanted

        table, hub, log = link.table, self.hub, self.log
        want = wanted(table)
        ok, holder = self.numbering.claim(table, want, self.tables())
        if not ok:
            self.mark_conflicts()
            if holder is not None and self.numbering.conflict_once(want, table.port):
                log("table %d: box %s on %s claims table %d too: a conflict, neither gets "
                    "that table's matches until one is set to another table (scoreboard "
                    "setup --table N --port PORT)" % (holder.number, table.box_id or "?",
                                                      table.port, want))
            return
        if holder is not None:  # numbered by its port only: it makes room
            old = holder.number
            holder.number = self.numbering.free(self.tables() + [table])
            hub.tables.pop(old, None)
            hub.add(holder.snapshot())
            log("table %d is now table %d (%s)" % (old, holder.number, holder.port))
        old = table.number
        table.number = want
        hub.tables.pop(old, None)
        self.mark_conflicts()
        log("table %d is table %d, as box %s claims (%s)" % (old, want, table.box_id or "?",
                                                             table.port))

    def mark_conflicts(self):
        """Every table whose box claims a table another box claims: its `conflict`."""
        from host_tools.tournament.identity import Claim, TableMap, conflict_text

        tables = self.tables()
        clash = TableMap([Claim(t.box_id or "?", t.claim, t.port) for t in tables
                          if t.signal]).conflicts()
        for t in tables:
            was = t.conflict
            t.conflict = (str(conflict_text(t.claim, clash[t.claim])) if t.claim in clash
                          else None)
            if was != t.conflict and t.number in self.hub.tables:
                self.hub.add(t.snapshot())

    def stop(self):
        """Every link stopped (blocking: from a thread of the executor)."""
        from host_tools.live.link import stop_links

        stop_links(self.links)


async def listen(app, bind, http_port):
    """`app` served on bind:http_port: (its runner, the TCP port it listens on: the one
    picked for 0). OSError when it cannot listen, nothing left open."""
    from aiohttp import web

    runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    try:
        await web.TCPSite(runner, bind, http_port).start()
    except OSError:
        await runner.cleanup()
        raise
    return runner, runner.addresses[0][1]


def announce(bind, port, token, desk):
    """The server's address (and the desk's, with the token beyond loopback) on stdout;
    the URL of its pages."""
    host = "[%s]" % bind if ":" in bind else bind
    url = "http://%s:%d/" % (host, port)
    say("live: %s" % url)
    here = socket.gethostname() if bind in ("0.0.0.0", "::") else host
    if desk is not None:  # the desk's pages: with the token beyond loopback
        say("desk: http://%s:%d/desk%s" % (here if token else host, port,
                                           "?token=" + token if token else ""))
    if token is not None:  # printed here once, and nowhere else
        say("live: desk: http://%s:%d/api/desk?token=%s" % (here, port, token))
    sys.stdout.flush()
    return url


async def serve(fixed, auto, bind, http_port, results, idle, log, ready=None, stop=None,
                hosts=(), lang="en", desk=None, net=None):
    """Serve until `stop` (an asyncio.Event) is set, SIGTERM or Ctrl-C; `ready(url,
    links)` is called once listening. Beyond loopback the desk's token is printed once,
    in the desk's URL, beside the server's. `desk`: a desk.Desk (`scoreboard desk`),
    its pages served too and its address printed. `net`: (the desk's broker connection,
    the database URL, the bracket): the boxes on the club's Wi-Fi are tables too, their
    lines stored by the consumer (netfeed.py)."""
    from host_tools.live.server import calm, make_app
    from host_tools.live.stream import Hub

    loop = asyncio.get_running_loop()
    calm(loop, log)
    hub = Hub()
    if results is not None:
        hub.on_change.append(results.changed)
    stop = stop or asyncio.Event()
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        loop.add_signal_handler(signal.SIGTERM, stop.set)
    follower = Follower(hub, results, idle, log, loop)
    token = None if loopback(bind) else new_token()
    try:
        runner, port = await listen(make_app(hub, bind, hosts, token, lang, desk), bind,
                                    http_port)
    except OSError as e:
        fail("live", "cannot listen on %s:%d: %s" % (bind, http_port, e.strerror or e))
        return 1
    url = announce(bind, port, token, desk)
    feed = None
    if net is not None:
        from host_tools.live.netfeed import NetFeed

        feed = NetFeed(follower, net[0], log)
        feed.start(net[1], net[2])
        log("boxes on the broker at %s" % net[0].where)
    for p in fixed:
        follower.add(p)
    if auto:
        await follower.rescan()
        if not follower.links:
            log("no box found yet: looking for one every %g s" % RESCAN)
    if ready is not None:
        ready(url, follower.links)
    try:
        while not stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), RESCAN)
            if auto and not stop.is_set():
                await follower.rescan()
    finally:
        if feed is not None:
            await loop.run_in_executor(None, feed.stop)
        await loop.run_in_executor(None, follower.stop)
        await runner.cleanup()
    return 0
