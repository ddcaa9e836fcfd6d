"""The event stream of `scoreboard live`: the Hub, which holds the tables' latest
snapshots and the numbered events, and /api/stream, which sends them to the pages as
Server-Sent Events (server.py's docstring says what a client gets).

The links (link.py) run in threads and hand their changes to the Hub through the event
loop (`call_soon_threadsafe`), so the Hub is only ever touched by the loop.

Every cost of a reader is bounded, whatever the readers do (a page that never reads, a
chatty box, a flood of pages):
- at most MAX_STREAMS streams at once, and at most PER_ADDRESS from one client address
  (one client holding connections open cannot lock the TV and the overlays out); one
  more is answered 503 with Retry-After;
- the history (KEEP events, KEEP_CHARS characters) goes out a PAGE at a time, each
  write waiting until the reader has taken the one before (aiohttp drains), so a reader
  that does not read holds a page, never the whole history;
- each stream has a queue of at most QUEUE events: a reader that falls that far behind
  is dropped (its connection cut). The browser comes back with its Last-Event-ID and
  gets the history from there, or every table when that is no longer kept.
"""

import asyncio
import json
import time

from aiohttp import web

KEEP = 20000  # events kept for clients that reconnect...
KEEP_CHARS = 32 * 1024 * 1024  # ...and at most this much of them
PING = 15.0  # seconds between two comments on a quiet stream (proxies keep it open)
LOOK = 1.0  # seconds between two looks whether a quiet stream's reader is still there
MAX_STREAMS = 200  # streams at once (each an open file: the process has ~1024)
# Streams from one client address: a room's pages (a TV, an overlay for every table in
# OBS, the desk's own) fit; one client cannot take them all.
PER_ADDRESS = 32
RETRY_AFTER = 10  # seconds, to a stream refused
QUEUE = 1000  # events a stream may be behind before it is dropped
PAGE = 64 * 1024  # characters of history in one write
RETRY = b"retry: 1000\n"  # the browser's wait before it reconnects, ms


def _ms():
    return int(time.time() * 1000)


def public(snap):
    """A table as every viewer sees it: without its box's device path (the desk's)."""
    return {k: v for k, v in snap.items() if k != "port"}


class Client:
    """One stream: the events for it not yet written (`table`: the one it follows, or
    None), and its connection, to cut."""

    def __init__(self, table, transport):
        self.table = table
        self.queue = asyncio.Queue(QUEUE)
        self.transport = transport


class Hub:
    """The tables' latest snapshots (`tables`: as the desk sees them, device paths
    included) and the numbered events (as every viewer sees them: `public`)."""

    def __init__(self):
        self.tables = {}
        # (id, table, text), ids one after another: a list, so that a reader's place in
        # it is found by its id at once (a deque is walked to an index)
        self.events = []
        self.chars = 0  # the events' text, in all
        # Ids go on from the last run's: a page that comes back to a `live` started again
        # sends its Last-Event-ID, and must be sent every table then, not the new run's
        # events after that number. Microseconds since the epoch: a run publishes far
        # fewer events than it lasts microseconds, and the ids stay exact in JavaScript.
        self.last_id = time.time_ns() // 1000
        self.clients = set()
        self.on_change = []  # callables(snapshot), e.g. the PostgreSQL rows
        # The server's own counters (the desk's view shows them): streams open now and
        # at most, refused for too many, dropped for falling behind.
        self.stats = {"streams": 0, "peak": 0, "refused": 0, "dropped": 0}

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
        n = snap["table"]
        self.tables[n] = snap
        data = {"kind": kind, "table": n, "server_ms": _ms(), "state": public(snap)}
        if lines is not None:
            data["lines"] = [{"n": k, "line": text} for k, text in lines]
        self._send(n, kind, data)

    def notice(self, kind, data):
        """An event that is no table's (the desk's `tournament`, data: the tournament
        as /api/tournament/NAME gives it): for the streams that follow every table."""
        self.last_id += 1
        self._send(None, kind, dict(data, kind=kind, server_ms=_ms()))

    def _send(self, n, kind, data):
        text = "id: %d\nevent: %s\ndata: %s\n\n" % (self.last_id, kind, json.dumps(data))
        self.events.append((self.last_id, n, text))
        self.chars += len(text)
        old = 0
        while old < len(self.events) - 1 and (len(self.events) - old > KEEP or
                                              self.chars > KEEP_CHARS):
            self.chars -= len(self.events[old][2])
            old += 1
        if old:
            del self.events[:old]
        for c in list(self.clients):
            if c.table is None or c.table == n:
                try:
                    c.queue.put_nowait((self.last_id, n, text))
                except asyncio.QueueFull:
                    self.drop(c)

    def drop(self, client):
        """Cut a stream that fell QUEUE events behind: its writes fail, its handler
        ends, and the browser reconnects with its last id."""
        self.clients.discard(client)
        self.stats["dropped"] += 1
        if client.transport is not None:
            client.transport.abort()

    def oldest(self):
        """The first id the history holds (one past the last when it holds none)."""
        return self.events[0][0] if self.events else self.last_id + 1

    def snapshot_event(self, table=None):
        tables = [public(self.tables[n]) for n in sorted(self.tables)
                  if table is None or n == table]
        data = {"kind": "tables", "server_ms": _ms(), "tables": tables}
        return "id: %d\nevent: tables\ndata: %s\n\n" % (self.last_id, json.dumps(data))

    def close(self):
        """End every stream (the server stops)."""
        for c in list(self.clients):
            try:
                c.queue.put_nowait((None, None, None))
            except asyncio.QueueFull:
                self.drop(c)


HUB = web.AppKey("hub", Hub)  # the application's Hub (server.py's make_app)


async def _history(hub, resp, last, upto, only):
    """Write the events after `last` up to `upto` (for table `only`, or all) a PAGE at
    a time. Returns the id the stream is at then: `upto`, or later when the history
    moved past the reader meanwhile and every table was sent instead."""
    nxt = last + 1
    while nxt <= upto:
        first = hub.oldest()
        if nxt < first:  # the reader took so long that the rest is no longer kept
            await resp.write(hub.snapshot_event(only).encode())
            return hub.last_id
        out, size = [], 0
        events, i = hub.events, nxt - first
        while i < len(events) and nxt <= upto and size < PAGE:
            _, table, text = events[i]
            i += 1
            nxt += 1
            if only is None or table == only:
                out.append(text)
                size += len(text)
        if out:
            await resp.write("".join(out).encode())  # waits for the reader (drain)
    return upto


async def events(request):
    """/api/stream: the Hub's events (the app's HUB) as Server-Sent Events."""
    hub = request.app[HUB]
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
    stats = hub.stats
    who = request.remote or "?"
    by = stats.setdefault("by_address", {})
    if stats["streams"] >= MAX_STREAMS or by.get(who, 0) >= PER_ADDRESS:
        stats["refused"] += 1
        many = by.get(who, 0) >= PER_ADDRESS
        resp = web.Response(status=503, headers={"Retry-After": str(RETRY_AFTER)},
                            text="too many pages follow this server%s (%d): try again "
                                 "in a moment\n" % (" from %s" % who if many else "",
                                                     PER_ADDRESS if many else MAX_STREAMS))
        resp.force_close()  # its open file back at once
        return resp
    by[who] = by.get(who, 0) + 1
    stats["streams"] += 1
    stats["peak"] = max(stats["peak"], stats["streams"])
    client = Client(only, request.transport)
    resp = web.StreamResponse(headers={
        "Content-Type": "text/event-stream", "Cache-Control": "no-cache",
        "X-Accel-Buffering": "no"})
    try:
        await resp.prepare(request)  # a reader gone already fails here: quietly
        # From here on every event reaches the queue; the history and the snapshot
        # are taken at the same moment, without an await between.
        hub.clients.add(client)
        upto = at = hub.last_id
        if last is None or last > upto or last < hub.oldest() - 1:
            await resp.write(RETRY + hub.snapshot_event(only).encode())
        else:
            await resp.write(RETRY)
            at = await _history(hub, resp, last, upto, only)
        quiet = 0.0
        while True:
            try:
                eid, _, text = await asyncio.wait_for(client.queue.get(), LOOK)
            except asyncio.TimeoutError:
                # aiohttp does not end a handler whose reader has gone: look, so
                # that a page closed gives its place back within LOOK seconds.
                if request.transport is None or request.transport.is_closing():
                    break
                quiet += LOOK
                if quiet >= PING:
                    quiet = 0.0
                    await resp.write(b": ping\n\n")
                continue
            quiet = 0.0
            if eid is None:  # the server stops
                break
            if eid > at:  # not in the snapshot already sent
                await resp.write(text.encode())
    except (ConnectionError, asyncio.CancelledError):
        pass  # the reader left, or was dropped
    finally:
        hub.clients.discard(client)
        stats["streams"] -= 1
        by[who] -= 1
        if not by[who]:
            del by[who]
    return resp
