"""The web side of `scoreboard live`, on aiohttp (asyncio):

    /                       a list of the pages
    /table/N/overlay        the lower third for an OBS browser source (static/overlay.html)
    /tables                 every table on one page, for a TV (static/tables.html)
    /api/tables             JSON: a list of the tables (table.py's snapshot, whose
                            `replay` is docs/notation.md's replay JSON)
    /api/tables/N           JSON: one table
    /api/stream             Server-Sent Events: `line` per journal line taken (data: the
                            table, its line numbers and lines, the table after them),
                            `table` for any other change (signal, catch-up), `tables`
                            (every table) first, and again to a client too far behind;
                            each event has an id: a reconnect with `Last-Event-ID` (or
                            `?last=ID`) gets what it missed. `?table=N` follows one table.

The links (link.py) run in threads and hand their changes to the Hub through the event
loop (`call_soon_threadsafe`), so the Hub is only ever touched by the loop.
"""

import asyncio
import collections
import contextlib
import json
import time
from pathlib import Path

from aiohttp import web

STATIC = Path(__file__).resolve().parent / "static"
KEEP = 20000  # events kept for clients that reconnect
PING = 15.0  # seconds between two comments on a quiet stream (proxies keep it open)


def _ms():
    return int(time.time() * 1000)


class Hub:
    """The tables' latest snapshots and the numbered events, for the pages."""

    def __init__(self):
        self.tables = {}
        self.events = collections.deque(maxlen=KEEP)  # (id, table, text)
        self.last_id = 0
        self.clients = set()
        self.on_change = []  # callables(snapshot), e.g. the PostgreSQL rows

    def publish(self, kind, snap, lines=None):
        self.last_id += 1
        self.tables[snap["table"]] = snap
        data = {"kind": kind, "table": snap["table"], "server_ms": _ms(), "state": snap}
        if lines is not None:
            data["lines"] = [{"n": n, "line": text} for n, text in lines]
        text = "id: %d\nevent: %s\ndata: %s\n\n" % (self.last_id, kind, json.dumps(data))
        self.events.append((self.last_id, snap["table"], text))
        for q in list(self.clients):
            q.put_nowait((self.last_id, snap["table"], text))
        for call in self.on_change:
            call(snap)

    def snapshot_event(self, table=None):
        tables = [self.tables[n] for n in sorted(self.tables)
                  if table is None or n == table]
        data = {"kind": "tables", "server_ms": _ms(), "tables": tables}
        return "id: %d\nevent: tables\ndata: %s\n\n" % (self.last_id, json.dumps(data))


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
        number(request)
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

    async def stream(request):
        only = None
        if "table" in request.query:
            try:
                only = int(request.query["table"])
            except ValueError:
                raise web.HTTPBadRequest(text="table=N: a number") from None
        last = request.headers.get("Last-Event-ID", request.query.get("last"))
        try:
            last = int(last) if last not in (None, "") else None
        except ValueError:
            raise web.HTTPBadRequest(text="Last-Event-ID: a number") from None
        resp = web.StreamResponse(headers={
            "Content-Type": "text/event-stream", "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no"})
        await resp.prepare(request)
        q = asyncio.Queue()
        hub.clients.add(q)
        try:
            oldest = hub.events[0][0] if hub.events else hub.last_id + 1
            if last is None or last > hub.last_id or last < oldest - 1:
                await resp.write(("retry: 1000\n" + hub.snapshot_event(only)).encode())
            else:
                out = ["retry: 1000\n"]
                for eid, table, text in hub.events:
                    if eid > last and (only is None or table == only):
                        out.append(text)
                await resp.write("".join(out).encode())
            while True:
                try:
                    eid, table, text = await asyncio.wait_for(q.get(), PING)
                except asyncio.TimeoutError:
                    await resp.write(b": ping\n\n")
                    continue
                if eid is None:  # the server stops
                    break
                if only is None or table == only:
                    await resp.write(text.encode())
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            hub.clients.discard(q)
        return resp

    app.router.add_get("/", index)
    app.router.add_get("/tables", page("tables.html"))
    app.router.add_get("/table/{n}/overlay", overlay)
    app.router.add_get("/api/tables", tables)
    app.router.add_get("/api/tables/{n}", one)
    app.router.add_get("/api/stream", stream)
    app.router.add_static("/static/", STATIC)

    async def close_streams(app):
        for q in list(hub.clients):
            with contextlib.suppress(Exception):
                q.put_nowait((None, None, None))
    app.on_shutdown.append(close_streams)
    return app
