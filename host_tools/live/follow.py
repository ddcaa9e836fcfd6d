"""`scoreboard live [--port PORT]... [--bind ADDR] [--allow-host NAME]... [--http-port N]
[--db URL]`: follow the boxes as they play and serve their scores on
http://127.0.0.1:N/ (the package's docstring says how; server.py lists the pages).

`--port` may be repeated (table N is the Nth port) or `auto` (the default): every USB
serial port and every running virtual device (ports.py), looked for again every few
seconds, so a box plugged in later becomes the next table. Nothing listens beyond
loopback unless `--bind` says so, and there the desk's view (/api/desk) needs the token
printed at the start (guard.py; `--allow-host` adds a name the pages are asked for by).
A port that is not there yet is a table without signal until it appears. Results are
stored only with `--db` or `--db-file` (no default database, unlike sync). Bad
options, a port already taken, a database that does not open: one line on stderr and
exit 2 (1 for the listening socket).
"""

import asyncio
import contextlib
import ipaddress
import signal
import socket
import sys
import threading

from host_tools.live.guard import loopback, new_token
from host_tools.results.db import ENV, DbError, url_from
from host_tools.messages import fail, say

DEFAULT_HTTP_PORT = 8019
RESCAN = 2.0  # seconds between two looks for new boxes (auto)


def add_parser(sub):
    p = sub.add_parser("live", help="follow the boxes as they play: overlay, TV page, JSON")
    p.add_argument("--port", action="append", default=None, metavar="PORT",
                   help="a box's serial port (repeat for more tables); auto: every box "
                        "found (the default)")
    p.add_argument("--bind", default="127.0.0.1", metavar="ADDR",
                   help="the address the web server listens on (default 127.0.0.1)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="another name the pages are asked for by (the club's DNS name, a "
                        "proxy's); this computer's own names need none. Repeat for more")
    p.add_argument("--http-port", type=int, default=DEFAULT_HTTP_PORT, metavar="N",
                   help="its TCP port (default %d; 0: any free one)" % DEFAULT_HTTP_PORT)
    p.add_argument("--idle", type=float, default=10.0, metavar="S",
                   help="with --db: seconds without a stroke, between frames, before a "
                        "finished match is pulled and marked (default 10)")
    # Not add_db_options: sync's --db has a default database; live stores nothing
    # unless told where, and says so.
    p.add_argument("--db", default=None, metavar="URL",
                   help="store each finished match as `scoreboard sync` does: a file, "
                        "sqlite:///FILE or postgresql://... (there also a live row per "
                        "table); without --db or --db-file nothing is stored ($%s is not "
                        "read)" % ENV)
    p.add_argument("--db-file", default=None, metavar="FILE",
                   help="read the --db URL from FILE (out of sight of `ps`)")
    p.set_defaults(run=run)


class _Log:
    def __init__(self):
        self.lock = threading.Lock()

    def __call__(self, text):
        with self.lock:
            say("live: " + text, sys.stderr)


def check_bind(addr):
    """The bind address if it is an IP address or a name that resolves; ValueError."""
    try:
        ipaddress.ip_address(addr)
        return addr
    except ValueError:
        pass
    try:
        socket.getaddrinfo(addr, None)
    except (socket.gaierror, UnicodeError):
        raise ValueError("--bind %s: not an address of this computer" % addr) from None
    return addr


def run(args):
    log = _Log()
    if not 0 <= args.http_port <= 65535:
        fail("live", "--http-port %d: a TCP port is 0 to 65535" % args.http_port)
        return 2
    if args.idle < 0:
        fail("live", "--idle: seconds, 0 or more")
        return 2
    try:
        bind = check_bind(args.bind)
    except ValueError as e:
        fail("live", e)
        return 2
    ports = args.port or ["auto"]
    auto = "auto" in ports
    fixed = [p for p in ports if p != "auto"]
    results = None
    if args.db is not None or args.db_file is not None:
        from host_tools.live.results import Results

        try:
            results = Results(url_from(args.db, args.db_file), log)
        except DbError as e:
            fail("live", e)
            return 2
    if not loopback(bind):
        log("listening on %s: the pages are open to the network there; the desk's view "
            "(/api/desk) needs the token below" % bind)
    try:
        return asyncio.run(serve(fixed, auto, bind, args.http_port, results, args.idle, log,
                                 hosts=args.allow_host))
    finally:
        if results is not None:
            results.close()


async def serve(fixed, auto, bind, http_port, results, idle, log, ready=None, stop=None,
                hosts=()):
    """Serve until `stop` (an asyncio.Event) is set, SIGTERM or Ctrl-C; `ready(url,
    links)` is called once listening. Beyond loopback the desk's token is printed once,
    in the desk's URL, beside the server's."""
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
            if holder is not None and numbering.conflict_once(want, table.port):
                log("table %d: the draw names table %d for %s too; it stays table %d" % (
                    holder.number, want, table.port, table.number))
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
        log("table %d is table %d of the draw (%s)" % (old, want, table.port))

    def publish(kind, snap, lines, link=None):
        def on_loop():
            if link is not None:
                renumber(link)  # the snapshot was taken before: its number now
                hub.publish(kind, dict(snap, table=link.table.number), lines)
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
    app = make_app(hub, bind, hosts, token)
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
    if token is not None:  # printed here once, and nowhere else
        here = socket.gethostname() if bind in ("0.0.0.0", "::") else host
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

