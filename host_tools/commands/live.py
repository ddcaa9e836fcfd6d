"""`scoreboard live [--port PORT]... [--bind ADDR] [--allow-host NAME]... [--http-port N]
[--db URL] [--lang en|pl|bg] [--mqtt URL]`: follow the boxes as they play and serve their scores on
http://127.0.0.1:N/ (host_tools/live/'s docstring says how; server.py lists the pages).

`--port` may be repeated (table N is the Nth port) or `auto` (the default): every USB
serial port and every running virtual device (ports.py), looked for again every few
seconds, so a box plugged in later becomes the next table. `--mqtt URL`: the boxes on the
club's Wi-Fi, through its broker (live/netfeed.py, live/consumer.py), and then no USB
port unless `--port` names one. `--lang` is the pages'
language (the overlay's and the TV page's words, from the box's own tables). Nothing
listens beyond loopback unless `--bind` says so, and there the desk's view (/api/desk)
needs the token printed at the start (guard.py; `--allow-host` adds a name the pages are
asked for by). A port that is not there yet is a table without signal until it appears.
Results are stored only with `--db` or `--db-file` (no default database, unlike sync).
Bad options, a port already taken, a database that does not open: one line on stderr and
exit 2 (1 for the listening socket). The arguments and the messages are here; the
following and the serving are host_tools/live/follow.py's `serve`.
"""

import asyncio
import ipaddress
import socket
import sys
import threading

from host_tools.live.follow import serve
from host_tools.live.guard import loopback
from host_tools.commands.options import add_mqtt_options
from host_tools.messages import fail, one_of, say
from host_tools.results.db import ENV, DbError, url_from
from host_tools.tournament import boxresults
from scoreboard.lang import LANGS

DEFAULT_HTTP_PORT = 8019
IDLE = 0.0  # --idle: a finished match is pulled at once (the bracket within a second)


def add_parser(sub):
    p = sub.add_parser("live", help="follow the boxes as they play: overlay, TV page, JSON")
    add_options(p)
    p.set_defaults(run=run)


def add_options(p, desk=False):
    """live's options (desk's too: `desk` changes what --db says, as its default is the
    results database `scoreboard tournament` uses)."""
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
    p.add_argument("--idle", type=float, default=IDLE, metavar="S",
                   help="with --db: seconds to wait after a match's last stroke before "
                        "it is pulled and marked (default %g: at once; a wait gives the "
                        "referee time to undo a mis-keyed last rack first)" % IDLE)
    # Not add_db_options: sync's --db has a default database; live stores nothing
    # unless told where, and says so. The desk's tournaments are in the results
    # database: it has tournament's default.
    p.add_argument("--db", default=None, metavar="URL",
                   help="the results database, its tournaments, and each finished match "
                        "stored there as `scoreboard sync` does: a file, sqlite:///FILE or "
                        "postgresql://... (default: $%s, else results.sqlite in the user's "
                        "data directory)" % ENV if desk else
                   "store each finished match as `scoreboard sync` does: a file, "
                   "sqlite:///FILE or postgresql://... (there also a live row per "
                   "table); without --db or --db-file nothing is stored ($%s is not "
                   "read)" % ENV)
    p.add_argument("--db-file", default=None, metavar="FILE",
                   help="read the --db URL from FILE (out of sight of `ps`)")
    p.add_argument("--lang", default="en",
                   help="the pages' language: en, pl or bg, the box's words (default: en)")
    add_mqtt_options(p, "the boxes on the club's Wi-Fi through the broker at URL: each "
                        "box a table, every line stored as it comes (needs --db); no USB "
                        "port is looked for unless --port says so")


class _Log:
    def __init__(self, prog="live"):
        self.lock = threading.Lock()
        self.prog = prog

    def __call__(self, text):
        with self.lock:
            say("%s: %s" % (self.prog, text), sys.stderr)


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


def run(args, prog="live", desk=None):
    """live, or with `desk` (a callable(url, log): the desk.Desk over the database) the
    desk: the same server with the desk's routes, the database its tournaments'."""
    log = _Log(prog)
    if args.lang not in LANGS:
        fail(prog, "--lang %s: the pages speak %s" % (args.lang, one_of(LANGS)))
        return 2
    if not 0 <= args.http_port <= 65535:
        fail(prog, "--http-port %d: a TCP port is 0 to 65535" % args.http_port)
        return 2
    if args.idle < 0:
        fail(prog, "--idle: seconds, 0 or more")
        return 2
    try:
        bind = check_bind(args.bind)
    except ValueError as e:
        fail(prog, e)
        return 2
    ports = args.port or (["auto"] if args.mqtt is None else [])
    auto = "auto" in ports
    fixed = [p for p in ports if p != "auto"]
    results = made = None
    if desk is not None or args.db is not None or args.db_file is not None:
        from host_tools.live.results import Results

        try:
            url = url_from(args.db, args.db_file)
            results = Results(url, log, bracket=boxresults)
        except DbError as e:
            fail(prog, e)
            return 2
        if desk is not None:
            made = desk(url, log)
    net = None
    if args.mqtt is not None:
        if results is None:
            fail(prog, "--mqtt: give --db (or --db-file): the lines the desk acknowledges "
                       "to the boxes must be stored")
            return 2
        from host_tools.mqtt.client import MqttError
        from host_tools.live.consumer import desk_connection

        try:
            net = (desk_connection(args.mqtt, args.broker_dir), url, boxresults)
        except MqttError as e:
            fail(prog, e)
            results.close()
            return 2
    if not loopback(bind):
        log("listening on %s: the pages are open to the network there; the desk's view "
            "(/api/desk)%s needs the token below" % (
                bind, " and every action of the desk" if desk is not None else ""))
    try:
        return asyncio.run(serve(fixed, auto, bind, args.http_port, results, args.idle, log,
                                 hosts=args.allow_host, lang=args.lang, desk=made,
                                 net=net))
    finally:
        if results is not None:
            results.close()
