"""The event stream of `scoreboard live`: the Hub, which holds the tables' latest
snapshots and the numbered events, and /api/stream, which sends them to the pages as
Server-Sent Events (server.py's docstring says what a client gets).

The links (link.py) run in threads and hand their changes to the Hub through the event
loop (`call_soon_threadsafe`), so the Hub is only ever touched by the loop.
"""

import asyncio
import collections
import json
import time

from aiohttp import web

KEEP = 20000  # events kept for clients that reconnect
PING = 15.0  # seconds between two comments on a quiet stream (proxies keep it open)


def _ms():
    return int(time.time() * 1000)


def public(snap):
    """A table as every viewer sees it: without its box's device path (the desk's)."""
    return {k: v for k, v in snap.items() if k != "port"}


class Hub:
    """The tables' latest snapshots (`tables`: as the desk sees them, device paths
    included) and the numbered events (as every viewer sees them: `public`)."""

    def __init__(self):
        self.tables = {}
        self.events = collections.deque(maxlen=KEEP)  # (id, table, text)
        # Ids go on from the last run's: a page that comes back to a `live` started again
        # sends its Last-Event-ID, and must be sent every table then, not the new run's
        # events after that number. Microseconds since the epoch: a run publishes far
        # fewer events than it lasts microseconds, and the ids stay exact in JavaScript.
        self.last_id = time.time_ns() // 1000
        self.clients = set()
        self.on_change = []  # callables(snapshot), e.g. the PostgreSQL rows

    def add(self, snap):
        """A table live has just found (its port): an event for the pages already
        waiting for it; nothing has changed for the database (on_change)."""
        self._event("table", snap)

    def publish(self, kind, snap, lines=None):
        self._event(kind, snap, lines)
        for call in self.on_change:
            call(snap)

    def _event(self, kind, snap, lines=None):
        self.last_id += 1
        self.tables[snap["table"]] = snap
        data = {"kind": kind, "table": snap["table"], "server_ms": _ms(),
                "state": public(snap)}
        if lines is not None:
            data["lines"] = [{"n": n, "line": text} for n, text in lines]
        text = "id: %d\nevent: %s\ndata: %s\n\n" % (self.last_id, kind, json.dumps(data))
        self.events.append((self.last_id, snap["table"], text))
        for q in list(self.clients):
            q.put_nowait((self.last_id, snap["table"], text))

    def snapshot_event(self, table=None):
        tables = [public(self.tables[n]) for n in sorted(self.tables)
                  if table is None or n == table]
        data = {"kind": "tables", "server_ms": _ms(), "tables": tables}
        return "id: %d\nevent: tables\ndata: %s\n\n" % (self.last_id, json.dumps(data))

    def close(self):
        """End every stream (the server stops)."""
        for q in list(self.clients):
            q.put_nowait((None, None, None))


def handler(hub):
    """The /api/stream handler over `hub`."""
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
    return stream
