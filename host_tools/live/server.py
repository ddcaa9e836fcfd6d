"""The web side of `scoreboard live`, on aiohttp (asyncio):

    /                       a list of the pages
    /table/N/overlay        the lower third for an OBS browser source (static/overlay.html),
                            also before table N's box is found: the page waits for it
    /tables                 every table on one page, for a TV (static/tables.html)
    /api/tables             JSON: a list of the tables (table.py's snapshot, whose
                            `replay` is NOTATION.md's replay JSON)
    /api/tables/N           JSON: one table
    /api/stream             Server-Sent Events: `line` per journal line taken (data: the
                            table, its line numbers and lines, the table after them),
                            `table` for any other change (signal, catch-up), `tables`
                            (every table) first, and again to a client too far behind;
                            each event has an id: a reconnect with `Last-Event-ID` (or
                            `?last=ID`) gets what it missed. `?table=N` follows one table.

The Hub (the tables and the events) and the stream are stream.py's.
"""

from pathlib import Path

from aiohttp import web

from host_tools.live import stream

STATIC = Path(__file__).resolve().parent / "static"
MAX_TABLE = 999  # the highest table number an overlay may wait for


def make_app(hub):
    """The aiohttp application over the Hub's tables."""
    app = web.Application()

    def page(name):
        async def handler(request):
            return web.FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})
        return handler

    def number(request):
        try:
            n = int(request.match_info["n"])
        except ValueError:
            raise web.HTTPNotFound(text="no such table") from None
        if n not in hub.tables:
            raise web.HTTPNotFound(text="no table %d here (tables: %s)" % (
                n, ", ".join(str(x) for x in sorted(hub.tables)) or "none yet"))
        return n

    async def overlay(request):
        # Any table number, found or not: an OBS browser source loads its page once and
        # never asks again, so the page waits for its table itself (live.js).
        n = request.match_info["n"]
        if not (n.isdigit() and 1 <= int(n) <= MAX_TABLE):
            raise web.HTTPNotFound(text="no such table: /table/N/overlay, N from 1")
        return await page("overlay.html")(request)

    async def tables(request):
        return web.json_response([hub.tables[n] for n in sorted(hub.tables)])

    async def one(request):
        n = number(request)
        return web.json_response(hub.tables.get(n))

    async def index(request):
        items = "".join('<li><a href="/table/%d/overlay">table %d: overlay</a></li>' % (n, n)
                        for n in sorted(hub.tables))
        return web.Response(content_type="text/html", text=(
            "<!doctype html><meta charset=utf-8><title>scoreboard live</title>"
            "<h1>scoreboard live</h1><ul><li><a href=/tables>every table (TV)</a></li>"
            "%s<li><a href=/api/tables>/api/tables</a></li>"
            "<li><a href=/api/stream>/api/stream</a></li></ul>" % items))

    app.router.add_get("/", index)
    app.router.add_get("/tables", page("tables.html"))
    app.router.add_get("/table/{n}/overlay", overlay)
    app.router.add_get("/api/tables", tables)
    app.router.add_get("/api/tables/{n}", one)
    app.router.add_get("/api/stream", stream.handler(hub))
    app.router.add_static("/static/", STATIC)

    async def close_streams(app):
        hub.close()
    app.on_shutdown.append(close_streams)
    return app
