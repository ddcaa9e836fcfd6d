"""Following the boxes as they play and serving their scores: `serve`, the loop behind
`scoreboard live` (host_tools/commands/live.py: its arguments and messages).

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


async def serve(fixed, auto, bind, http_port, results, idle, log, ready=None, stop=None,
                hosts=(), lang="en", desk=None):
    """Serve until `stop` (an asyncio.Event) is set, SIGTERM or Ctrl-C; `ready(url,
    links)` is called once listening. Beyond loopback the desk's token is printed once,
    in the desk's URL, beside the server's. `desk`: a desk.Desk (`scoreboard desk`),
    its pages served too and its address printed."""
    from aiohttp import web

    from host_tools.live.link import Link, stop_links
    from host_tools.live.numbering import Numbering, wanted
    from host_tools.device.ports import auto_ports
    from host_tools.live.server import calm, make_app
    from host_tools.live.stream import Hub
    from host_tools.live.table import Table

    loop = asyncio.get_running_loop()
    calm(loop, log)
    hub = Hub()
    if results is not None:
        hub.on_change.append(results.changed)
    stop = stop or asyncio.Event()
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        loop.add_signal_handler(signal.SIGTERM, stop.set)

    links = []
    numbering = Numbering()

    def renumber(link):
        """In the loop's thread, at each change of a table: the draw's number."""
        table = link.table
        want = wanted(table)
        ok, holder = numbering.claim(table, want, [x.table for x in links])
        if not ok:
            mark_conflicts()
            if holder is not None and numbering.conflict_once(want, table.port):
                log("table %d: box %s on %s claims table %d too: a conflict, neither gets "
                    "that table's matches until one is set to another table (scoreboard "
                    "setup --table N --port PORT)" % (holder.number, table.box_id or "?",
                                                      table.port, want))
            return
        if holder is not None:  # numbered by its port only: it makes room
            old = holder.number
            holder.number = numbering.free([x.table for x in links] + [table])
            hub.tables.pop(old, None)
            hub.add(holder.snapshot())
            log("table %d is now table %d (%s)" % (old, holder.number, holder.port))
        old = table.number
        table.number = want
        hub.tables.pop(old, None)
        mark_conflicts()
        log("table %d is table %d, as box %s claims (%s)" % (old, want, table.box_id or "?",
                                                             table.port))

    def mark_conflicts():
        """Every table whose box claims a table another box claims: its `conflict`."""
        from host_tools.tournament.identity import Claim, TableMap, conflict_text

        tables = [x.table for x in links]
        clash = TableMap([Claim(t.box_id or "?", t.claim, t.port) for t in tables
                          if t.signal]).conflicts()
        for t in tables:
            was = t.conflict
            t.conflict = (str(conflict_text(t.claim, clash[t.claim])) if t.claim in clash
                          else None)
            if was != t.conflict and t.number in hub.tables:
                hub.add(t.snapshot())

    def publish(kind, snap, lines, link=None):
        def on_loop():
            if link is not None:
                renumber(link)  # the snapshot was taken before: its number now
                mark_conflicts()
                hub.publish(kind, dict(snap, table=link.table.number,
                                       conflict=link.table.conflict), lines)
            else:
                hub.publish(kind, snap, lines)
        loop.call_soon_threadsafe(on_loop)

    def add(port):
        table = Table(numbering.first([x.table for x in links]), port)
        hub.add(table.snapshot())
        link = Link(table, None, results, idle, log)
        link.publish = lambda kind, snap, lines, link=link: publish(kind, snap, lines, link)
        links.append(link)
        link.start()
        log("table %d: %s" % (table.number, port))

    token = None if loopback(bind) else new_token()
    app = make_app(hub, bind, hosts, token, lang, desk)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, bind, http_port)
    try:
        await site.start()
    except OSError as e:
        await runner.cleanup()
        fail("live", "cannot listen on %s:%d: %s" % (bind, http_port, e.strerror or e))
        return 1
    port = site._server.sockets[0].getsockname()[1]  # the one picked for --http-port 0
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
    for p in fixed:
        add(p)
    if auto:
        for p in auto_ports():
            if p not in [x.table.port for x in links]:
                add(p)
        if not links:
            log("no box found yet: looking for one every %g s" % RESCAN)
    if ready is not None:
        ready(url, links)
    try:
        while not stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), RESCAN)
            if auto and not stop.is_set():
                for p in await loop.run_in_executor(None, auto_ports):
                    if p not in [x.table.port for x in links]:
                        add(p)
    finally:
        await loop.run_in_executor(None, stop_links, links)
        await runner.cleanup()
    return 0
