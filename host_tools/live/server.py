"""The web side of `scoreboard live`, on aiohttp (asyncio):

    /                       a list of the pages
    /table/N/overlay        the lower third for an OBS browser source (static/overlay.html),
                            also before table N's box is found: the page waits for it
    /tables                 every table on one page, for a TV (static/tables.html)
    /words.js               the pages' words in the language live speaks (`--lang`:
                            words.py, from the box's tables)
    /api/tables             JSON: a list of the tables (table.py's snapshot, whose
                            `replay` is docs/notation.md's replay JSON)
    /api/tables/N           JSON: one table
    /api/desk               JSON for the desk: the tables with their boxes' device paths
                            (the other pages do not show them) and the streams' counters
                            (stream.py); beyond loopback it needs the token live printed
                            at its start (guard.py)
    /desk ...               with `scoreboard desk`: the tournaments' pages and actions
                            (desk.py lists them); a `tournament` event on the stream
                            for every change of one
    /api/stream             Server-Sent Events: `line` per journal line taken (data: the
                            table, its line numbers and lines, the table after them),
                            `table` for any other change (signal, catch-up), `tables`
                            (every table) first, and again to a client too far behind;
                            each event has an id: a reconnect with `Last-Event-ID` (or
                            `?last=ID`) gets what it missed. `?table=N` follows one table.
                            At most 200 at once (then 503, Retry-After); a reader that
                            falls far behind is cut, and comes back with its last id.

Every request's Host header is checked (guard.py). The Hub (the tables and the events)
and the stream are stream.py's.
"""

import errno
import time
from pathlib import Path

from aiohttp import web

from host_tools.live import stream
from host_tools.live.words import script
from host_tools.live.guard import Guard
from host_tools.live.stream import HUB, public
from host_tools.messages import shown

STATIC = Path(__file__).resolve().parent / "static"
MAX_TABLE = 999  # the highest table number an overlay may wait for
OUT_OF = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}  # a failed accept's
SAY_EVERY = 60.0  # seconds between two log lines of failed accepts


def calm(loop, log, clock=time.monotonic):
    """One log line a minute while connections cannot be accepted (the process is out
    of open files, or the system of memory), instead of asyncio's traceback for each
    failed accept: up to a backlog's worth of them a second, megabytes a second."""
    said = {"at": None, "since": 0}

    def handler(loop, context):
        exc = context.get("exception")
        callback = getattr(context.get("handle"), "_callback", None)
        if getattr(callback, "__name__", "") == "_start_serving" and isinstance(
                exc, (OSError, ValueError)):
            return  # asyncio's retry of the accepts, due after the server has closed
        if not (isinstance(exc, OSError) and exc.errno in OUT_OF):
            loop.default_exception_handler(context)
            return
        said["since"] += 1
        now = clock()
        if said["at"] is None or now - said["at"] >= SAY_EVERY:
            text = "cannot take more connections: %s; the pages already open go on" % (
                (exc.strerror or str(exc)).lower())
            if said["since"] > 1:
                text += " (%d failed since the last such line)" % said["since"]
            log(text)
            said["at"], said["since"] = now, 0
    loop.set_exception_handler(handler)


def plain(status, text, headers=None):
    """A one-line refusal, as plain text (a Host header in it is never a page's)."""
    return web.Response(status=status, text=text + "\n", headers={
        "X-Content-Type-Options": "nosniff", **(headers or {})})


def static_page(name):
    """A page of static/, never kept by the browser (live's own pages and the desk's)."""
    return web.FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})


# What the application holds (make_app sets them; the handlers read them).
GUARD = web.AppKey("guard", Guard)
WORDS = web.AppKey("words", str)        # words.js in the pages' language
DESK = web.AppKey("desk", object)       # a desk.Desk (`scoreboard desk`), or None

routes = web.RouteTableDef()


@web.middleware
async def guarded(request, handler):
    if not request.app[GUARD].host_ok(request.host):
        return plain(403, "this server does not answer to the name %s (scoreboard "
                          "live --allow-host NAME adds one)" % shown(request.host[:80]))
    return await handler(request)


def number(request):
    """The table of /api/tables/{n}, found; else 404 naming the tables there are."""
    hub = request.app[HUB]
    try:
        n = int(request.match_info["n"])
    except ValueError:
        raise web.HTTPNotFound(text="no such table") from None
    if n not in hub.tables:
        raise web.HTTPNotFound(text="no table %d here (tables: %s)" % (
            n, ", ".join(str(x) for x in sorted(hub.tables)) or "none yet"))
    return n


@routes.get("/")
async def index(request):
    hub = request.app[HUB]
    items = "".join('<li><a href="/table/%d/overlay">table %d: overlay</a></li>' % (n, n)
                    for n in sorted(hub.tables))
    return web.Response(content_type="text/html", text=(
        "<!doctype html><meta charset=utf-8><title>scoreboard live</title>"
        "<h1>scoreboard live</h1><ul><li><a href=/tables>every table (TV)</a></li>"
        "%s%s<li><a href=/api/tables>/api/tables</a></li>"
        "<li><a href=/api/stream>/api/stream</a></li></ul>" % (
            "<li><a href=/desk>the tournament desk</a></li>" if request.app[DESK] else "",
            items)))


@routes.get("/tables")
async def tables_page(request):
    return static_page("tables.html")


@routes.get("/table/{n}/overlay")
async def overlay(request):
    # Any table number, found or not: an OBS browser source loads its page once and
    # never asks again, so the page waits for its table itself (live.js).
    n = request.match_info["n"]
    if not (n.isascii() and n.isdigit() and 1 <= int(n) <= MAX_TABLE):
        raise web.HTTPNotFound(text="no such table: /table/N/overlay, N from 1")
    return static_page("overlay.html")


@routes.get("/words.js")
async def words(request):
    return web.Response(text=request.app[WORDS], content_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})


@routes.get("/api/tables")
async def tables(request):
    hub = request.app[HUB]
    return web.json_response([public(hub.tables[n]) for n in sorted(hub.tables)])


@routes.get("/api/tables/{n}")
async def one(request):
    n = number(request)
    return web.json_response(public(request.app[HUB].tables[n]))


@routes.get("/api/desk")
async def desk_view(request):
    if not request.app[GUARD].desk_ok(request):
        return plain(401, "this needs the desk's token, printed by scoreboard live at "
                          "its start: ?token=... or Authorization: Bearer ...",
                     {"WWW-Authenticate": "Bearer"})
    hub = request.app[HUB]
    return web.json_response({"tables": [hub.tables[n] for n in sorted(hub.tables)],
                              "streams": hub.stats})


routes.get("/api/stream")(stream.events)
routes.static("/static/", STATIC)


async def close_streams(app):
    app[HUB].close()


def make_app(hub, bind="127.0.0.1", hosts=(), token=None, lang="en", desk=None):
    """The aiohttp application over the Hub's tables, listening on `bind`: guard.py's
    Guard with the other names it answers to (`hosts`) and the desk's `token` (None:
    the desk's view needs none); the pages speak `lang` (en, pl, bg). `desk`: a
    desk.Desk, whose routes (the tournaments' pages and actions) it serves too."""
    app = web.Application(middlewares=[guarded])
    app[HUB] = hub
    app[GUARD] = Guard(bind, hosts, token)
    app[WORDS] = script(lang)
    app[DESK] = desk
    app.add_routes(routes)
    if desk is not None:
        desk.attach(app, lang)
    app.on_shutdown.append(close_streams)
    return app
