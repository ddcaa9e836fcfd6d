"""The desk's side of the server (`scoreboard desk`: `live` with these routes too): the
tournaments of the results database (host_tools/tournament, the library `scoreboard
tournament` is), their pages and their JSON.

    /desk                       the desk: the tournaments, and the form that creates and
                                draws one (static/desk.html)
    /desk/ID                    the desk of the tournament whose id (naming.py: made
                                of its name) or name is ID: the table board (free
                                tables, the queue of ready matches, assign and call, a
                                result by hand), the bracket as it fills, the placings
    /desk/ID/tv                 the TV page: slides that fill the screen (the tables and
                                what their boxes play, the groups, the bracket's
                                rounds, the placings), every name 4% of its height
    /desk/ID/print              the print view: A4 bracket sheets, a match sheet per match
                                (`?match=ID`: that match's alone)
    /api/tournaments            JSON: {"names": [...], "tournaments": [{"name", "id"}],
                                "tables": [...]}
    /api/tournament/NAME        JSON: `scoreboard tournament show --json` (view.as_dict)
                                and what the pages draw besides (`extra`, by match: where
                                each side comes from, how it ended, its stage's length;
                                the groups' tables; the draw's seed; the tables)
    POST /api/tournament        create and draw: {"name", "format", "players": the CSV's
                                text, "race" | "best_of", "game", "seed", "groups",
                                "advance", "stages": {stage: {"race" | "best_of": N}},
                                the conditions: "clock" words, "breaks", "late",
                                "misses", "threefoul" and "pushout" ("on", "off", or
                                ""/null: the game's own rule)}
    POST /api/tournament/NAME/assign   {"match", "table"}: the header queued first on
                                       the table's box when one is heard there
    POST /api/tournament/NAME/call     {"match"}: the call sent to the table's box too
                                       when one is heard there (`box` in the answer:
                                       {"ok", "said"}: what it did, or why not)
    POST /api/tournament/NAME/uncall   {"match"}: the call taken back (assigned again)
    POST /api/tournament/NAME/result   {"match", "winner", "score": [a, b] or null,
                                        "how", "correct"}
    POST /api/tournament/NAME/decide   {"held": N, "take": true|false}: a result held
                                       for the desk taken, or the bracket's kept

Which box is which table is the boxes' own say (tournament/identity.py): a table's box is
the one box whose settings claim it (`box_at`); a table two boxes claim is a conflict,
shown on the desk, and neither gets its matches. Assign queues the header on that box
and records the box as the match's (only its result counts); a match moved to another
table is first taken back from the box it was queued on (`withdraw`), and the move is
refused when that box has started it. A call goes only to the match's own box. The
results held for the desk (another box's journal of a match, a change the bracket cannot
take) are in each tournament's JSON (`held`, with both results and the boxes) until
decided.

An action answers the tournament after it, or 400 with {"error": one line} (the
library's TournamentError, as `scoreboard tournament` prints it, in the desk's
`--lang`); its body is checked field by field (desk_body.py). Beyond loopback every
action needs the token the server printed at its start (guard.py, as `Authorization:
Bearer` or `?token=`); the pages and their JSON stay open. An action is a JSON POST of
this server's own pages: another content type, or an Origin header of another site, is
refused (a page elsewhere cannot post a form to the desk on loopback).

Every change of a tournament, the desk's own or not (`scoreboard tournament result` in
another process, a result a box's sync stored), is a `tournament` event on the stream
(stream.py's Hub.notice): the desk looks at the tournaments' change counters every
POLL seconds. The database is used from one thread of its own, one connection; the
exchanges with the boxes (assign's header, call) from threads of theirs, so a box slow
to answer holds up neither the pages nor the other tables.

The table board follows the boxes: a match assigned or called whose box (its header's
id, `ID-MATCH`) has begun its first frame is `playing` from that stroke on
(store.began, audit `playing`), told by the box's lines as they come (the Hub's
on_change), not by a pull.
"""

import asyncio
import contextlib
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

from aiohttp import web

from host_tools.live import desk_body
from host_tools.live.server import DESK, GUARD, static_page
from host_tools.live.stream import HUB
from host_tools.results.db import DbError, open_db
from host_tools.tournament import TournamentError, advance, naming, store, view
from host_tools.tournament.header import header_lines
from host_tools.tournament.says import Said, core, text

POLL = 0.2  # seconds between two looks at the tournaments' change counters
MAX_BODY = 256 * 1024  # an action's JSON (the players' CSV of 256 players fits)
PAGES = {"": "desk.html", "tv": "desk-tv.html", "print": "desk-print.html"}


# -- assign: the header onto the table's box first ------------------------------------
def queue_on_box(port, lines, where):
    """Queue a match's header on the box on `port` as `setup` does (through its owner,
    this server's link: device/owner.py); (box id, file on the box)."""
    from host_tools.live import onbox

    box, _, name = onbox.queue(port, lines, where)
    return box, name


def withdraw_from_box(port, box_match, table, box):
    from host_tools.live import onbox

    return onbox.withdraw(port, box_match, table, box)


def header_for(db, name, match_id, table):
    """The header of `match_id` on `table` (checked as store.assign will check it), for
    the table's box before the assignment is recorded, as `tournament assign --port`
    does."""
    t = store.load(db, name)
    store.check_assign(db, t, match_id, table)
    t.tables[match_id] = table
    return header_lines(t, match_id)


def box_failed(table, e):
    """A box exchange's error as the desk says it: one line, the table named (a Said:
    the box's own words said in the desk's language where says.CORE knows them)."""
    return Said("table %s's box: %s", table, core((str(e).splitlines() or
                                                   [type(e).__name__])[0]))


# -- call: the table's box hears it too -----------------------------------------------
def tell_box(port, name, match_id, table):
    """The call sent to the box on `port`, as `tournament call --port` does: {"ok",
    "said"} of the box. The call is recorded whatever the box says: the announcement
    was made."""
    from host_tools.device.connect import call_box
    from host_tools.device.box import BoardError

    try:
        return {"ok": True, "said": call_box(port, store.box_match(name, match_id))}
    except (BoardError, OSError) as e:
        return {"ok": False, "said": box_failed(table, e)}


# -- what the pages read --------------------------------------------------------------
def as_page(t, changes=None):
    """view.as_dict(t) and, under `extra`, what the pages draw besides it."""
    data = view.as_dict(t)
    extra = {}
    for s in t.specs:
        r = t.results.get(s.id)
        extra[s.id] = {"from": [s.a_from, s.b_from], "how": r.how if r else None,
                       "format": advance.match_format(t, s),
                       "conditions": advance.condition_words(t, s)}
    groups = {}
    for s in t.specs:
        if s.stage.startswith("group "):
            groups.setdefault(s.stage[6:], []).append(s)
    data.update({
        "game": t.game, "draw_seed": t.draw_seed, "changes": changes, "extra": extra,
        "players": [{"id": p.id, "name": p.name, "seed": p.seed, "club": p.club}
                    for p in t.players],
        "groups": {g: [list(row) for row in advance.table(t, specs)]
                   for g, specs in groups.items()}})
    return data


class Desk:
    """The desk's routes over the database `url` (None: the default file), with the
    club's tables 1..`tables` on its board (and any a box is found on)."""

    def __init__(self, url=None, tables=8, log=None, lang="en", bracket=None):
        self.url = url
        self.bracket = bracket  # results/db's: a result entered here moves the bracket
        self.tables = tables
        self.log = log or (lambda text: None)
        self.lang = lang    # what the desk says (its refusals), as its pages speak
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="desk-db")
        self.boxes = ThreadPoolExecutor(4, thread_name_prefix="desk-box")  # box exchanges
        self.db = None      # the pool's thread's connection
        self.seen = {}      # tournament -> its change counter last published
        self.hub = None
        self.said = None    # the last database trouble logged (once)
        self.begun = set()  # (box match id, table) seen begun (began: once each)
        self.watching = None  # the watch's task, while the app runs

    # -- in the pool's thread ---------------------------------------------------------
    def _db(self):
        if self.db is None:
            self.db = open_db(self.url, bracket=self.bracket)
        return self.db

    def _changes(self, name):
        rows = self._db().rows("SELECT changes FROM tournaments WHERE name = ?", (name,))
        return rows[0][0] if rows else None

    def _state(self, name):
        # The counter before the tournament: a change committed between the two is
        # published again at the next look (the counter then differs), never lost.
        name = store.find(self._db(), name) or name
        changes = self._changes(name)
        t = store.load(self._db(), name)
        self.seen[name] = changes
        held = [dict(h, reason=text(core(h["reason"]), self.lang))
                for h in store.held(self._db(), name)]
        return dict(as_page(t, changes), held=held)

    def _names(self):
        """[(name, id)] of the tournaments."""
        return [(n, naming.slug(n)) for n in store.names(self._db())]

    def _look(self):
        """The tournaments changed since last published: their states."""
        out = []
        for name, changes in self._db().rows("SELECT name, changes FROM tournaments"):
            if self.seen.get(name) != changes:
                out.append(self._state(name))
        return out

    def _act(self, name, verb, body, via):
        """Create, or a result by hand, in the pool's thread."""
        db = self._db()
        if verb == "create":
            t = desk_body.new_tournament(body)
            store.create(db, t, via)
            return self._state(t.name)
        if verb == "uncall":
            store.uncall(db, name, desk_body.text(body, "match", ""), via)
            return self._state(name)
        match, winner, score, how, correct = desk_body.result(body)
        store.result(db, name, match, winner, score, how, correct, via)
        return self._state(name)

    def _header(self, name, match, table):
        return header_for(self._db(), name, match, table)

    def _where(self, name, match):
        """(status, table, box) the match is on now."""
        t = store.load(self._db(), name)
        return (t.active.get(match),) + store.assigned_box(self._db(), name, match)

    def _assigned(self, name, match, table, via, box=None):
        store.assign(self._db(), name, match, table, via, box=box)
        return self._state(name)

    def _decided(self, name, body, via):
        n = desk_body.number(body.get("held"), "the held result", 1)
        if n is None or not isinstance(body.get("take"), bool):
            raise TournamentError('decide: {"held": N, "take": true or false}')
        store.decide(self._db(), name, n, desk_body.flag(body, "take"), via)
        return self._state(name)

    def _called(self, name, match, via):
        """store.call; the state after it and the match's table (or None)."""
        t = store.call(self._db(), name, match, via)
        return self._state(name), t.tables.get(match)

    def _began(self, box_match, table, box, via):
        """A box has begun the match `box_match` on `table`: the tournament match's
        state after store.began, or None when nothing changed (not a tournament match,
        another box than the match's own, or past `called`). A match not yet bound to a
        box (assigned before any box was heard at its table) is moved by the box at its
        table."""
        found = store.find_box_match(self._db(), box_match)
        if found is None:
            return None
        name, match = found
        t = store.load(self._db(), name)
        _, owner = store.assigned_box(self._db(), name, match)
        if owner is not None and owner != box:
            return None  # another box: only the match's own box moves it
        if owner is None and t.tables.get(match) not in (None, table):
            return None  # the box of another table: the desk's assignment says where
        if store.began(self._db(), name, match, via) is None:
            return None
        return self._state(name)

    def _close(self):
        if self.db is not None:
            with contextlib.suppress(Exception):
                self.db.close()
            self.db = None

    def _reset(self):
        """A connection that failed is opened again for the next request."""
        self._close()

    # -- on the loop ------------------------------------------------------------------
    async def _run(self, fn, *args):
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.pool, fn, *args)
        except DbError:
            await loop.run_in_executor(self.pool, self._reset)
            raise

    async def _on_box(self, fn, *args):
        """A box exchange, in a thread of its own: a box slow to answer never holds up
        the database's thread (the pages, the other tables' actions, the watch)."""
        return await asyncio.get_running_loop().run_in_executor(self.boxes, fn, *args)

    async def _assign(self, name, body, via):
        """The match taken back from the box it was queued on when it moves (refused
        when that box has started it), its header queued on the table's box when one is
        heard there, then the assignment recorded with that box (refused: the header
        stays queued, and the answer says so). A table two boxes claim is refused."""
        from host_tools.device.box import BoardError
        from host_tools.results.draw import SetupError
        from host_tools.live import onbox
        from host_tools.tournament.identity import conflict_text

        match = desk_body.text(body, "match", "")
        table = desk_body.number(body.get("table"), "the table", 1, 999)
        if table is None:
            raise TournamentError("%s: which table?", match)
        boxes = self.box_map()
        clash = boxes.conflicts().get(table)
        if clash:
            raise TournamentError(conflict_text(table, clash))
        here = boxes.box_at(table)
        lines = await self._run(self._header, name, match, table)  # its checks first
        status, old_table, old_box = await self._run(self._where, name, match)
        notes = []
        if status in ("assigned", "called") and old_box is not None and (
                here is None or old_box != here.box):
            old = next((c for c in boxes.claims if c.box == old_box), None)
            if old is None:
                notes.append(onbox.not_reached(old_table, old_box))
            else:
                try:
                    notes.append(await self._on_box(withdraw_from_box, old.where,
                                                    store.box_match(name, match),
                                                    old_table, old_box))
                except (BoardError, OSError) as e:
                    raise TournamentError("not moved: %s", box_failed(old_table, e)
                                          ) from None
        queued = None
        if here is not None:
            try:
                queued = await self._on_box(queue_on_box, here.where, lines,
                                            "%s %s" % (name, match))
            except (SetupError, BoardError, OSError) as e:
                raise TournamentError(box_failed(table, e)) from None
        try:
            state = await self._run(self._assigned, name, match, table, via,
                                    queued[0] if queued else None)
        except TournamentError as e:
            if queued:
                raise TournamentError("%s; its header stays queued on the box",
                                      e.said) from None
            raise
        if notes:
            state = dict(state, box={"ok": True, "said": "; ".join(text(n, self.lang)
                                                                for n in notes)})
        return state

    async def _call(self, name, body, via):
        """The call recorded, then sent to the match's own box (the one it was queued
        on) when it is heard, wherever it is; else to the table's box when the match
        was assigned before any box was heard there."""
        match = desk_body.text(body, "match", "")
        state, table = await self._run(self._called, name, match, via)
        _, _, owner = await self._run(self._where, name, match)
        boxes = self.box_map()
        if owner is not None:
            claim = next((c for c in boxes.claims if c.box == owner), None)
        else:
            claim = boxes.box_at(table) if isinstance(table, int) else None
        box = None
        if claim is not None:
            box = await self._on_box(tell_box, claim.where, name, match, table)
            box = dict(box, said=text(box["said"], self.lang))
        elif owner is not None:
            box = {"ok": False, "said": text(Said(
                "table %s's box %s is not heard: the call is recorded", table, owner),
                self.lang)}
        return dict(state, box=box)

    def table_changed(self, snap):
        """The Hub's on_change (on the loop), at each line a box journals: a box that has
        begun a tournament match's first frame makes it `playing` (once a match)."""
        replay = snap.get("replay") or {}
        box = snap.get("box_id") or snap.get("box")  # the box's hello, else its header
        seen = (snap.get("id"), snap.get("table"), box)
        if not seen[0] or seen in self.begun or not (replay.get("current") or
                                                      replay.get("frames")):
            return
        self.begun.add(seen)
        via = store.source("box %s" % (box or "?"))
        asyncio.get_running_loop().create_task(self._mark_began(seen, via))

    async def _mark_began(self, seen, via):
        try:
            state = await self._run(self._began, seen[0], seen[1], seen[2], via)
        except (TournamentError, DbError) as e:
            self.begun.discard(seen)  # looked at again at the box's next line
            self.log("desk: %s: %s" % (seen[0], e))
            return
        if state is not None:
            self.publish(state)

    def publish(self, state):
        if self.hub is not None:
            self.hub.notice("tournament", {"name": state["name"], "tournament": dict(
                state, tables=self.board_tables(), boxes=self.box_rows())})

    async def watch(self):
        while True:
            try:
                for state in await self._run(self._look):
                    self.publish(state)
                self.said = None
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the database away: told once, looked at again
                line = "desk: the database: %s" % (str(e).strip().splitlines() or ["?"])[0]
                if line != self.said:
                    self.said = line
                    self.log(line)
            await asyncio.sleep(POLL)

    def box_map(self):
        """The boxes heard now, by the table their settings claim (identity.TableMap)."""
        from host_tools.tournament.identity import Claim, TableMap

        snaps = self.hub.tables.values() if self.hub else ()
        return TableMap([Claim(s["box_id"], s.get("claim"), s["port"]) for s in snaps
                         if s.get("signal") and s.get("box_id") and s.get("port")])

    def box_port(self, table):
        """The port of the one box whose settings claim `table` when it is heard (its
        header is queued there on assign), else None (the match is only recorded): never
        a port's order, never a match header's words."""
        claim = self.box_map().box_at(table) if isinstance(table, int) else None
        return claim.where if claim is not None else None

    def box_rows(self):
        """Which box is at which table, for the pages: [{table, box, port, conflict}]."""
        return [{"table": table, "box": c.box, "port": c.where, "conflict": clash}
                for table, c, clash in self.box_map().rows()]

    def board_tables(self):
        return sorted(set(range(1, self.tables + 1)) | set(self.hub.tables if self.hub else ()))

    # -- what the routes ask, on the loop ----------------------------------------------
    async def names(self):
        """[(name, id)] of the tournaments."""
        return await self._run(self._names)

    async def tournament(self, name):
        """The state of the tournament `name` (its name or id), as its page reads it."""
        return await self._run(self._state, name)

    async def action(self, verb, name, body, via):
        """A desk action (`verb`: create, assign, call, uncall, result, decide) on the
        tournament `name` with its checked JSON `body`, done `via` (the audit's who):
        the tournament's state after it."""
        if verb == "assign":
            return await self._assign(name, body, via)
        if verb == "call":
            return await self._call(name, body, via)
        if verb == "decide":
            return await self._run(self._decided, name, body, via)
        return await self._run(self._act, name, verb, body, via)

    def attach(self, app, lang=None):
        """The desk served by `app` (server.py's make_app, which holds the Hub and the
        Guard): its routes (`routes` below), the Hub's changes heard, the watch of the
        tournaments started and stopped with the app; `lang` the pages' language (the
        desk's refusals too)."""
        self.hub = app[HUB]
        self.lang = lang or self.lang
        self.hub.on_change.append(self.table_changed)
        app.add_routes(routes)
        app.on_startup.append(self.start)
        app.on_cleanup.append(self.stop)

    async def start(self, app):
        self.watching = asyncio.get_running_loop().create_task(self.watch())

    async def stop(self, app):
        if self.watching is not None:
            self.watching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.watching
        await asyncio.get_running_loop().run_in_executor(self.pool, self._close)
        self.pool.shutdown(wait=False)
        self.boxes.shutdown(wait=False)


# -- the desk's routes: its state is the app's DESK (server.py's make_app) -------------
routes = web.RouteTableDef()


def refuse(request, status, why, headers=None):
    """A refusal of one line, in the desk's language (a Said, an error)."""
    line = (text(why, request.app[DESK].lang).splitlines() or ["refused"])[0]
    return web.json_response({"error": line}, status=status, headers=headers)


@routes.get("/desk")
@routes.get("/desk/")
@routes.get("/desk/{name}")
@routes.get("/desk/{name}/{page}")
async def tournament_page(request):
    which = request.match_info.get("page", "")
    if which not in PAGES:
        raise web.HTTPNotFound(text="no such page")
    return static_page(PAGES[which])


@routes.get("/api/tournaments")
async def names(request):
    desk = request.app[DESK]
    try:
        got = await desk.names()
    except DbError as e:
        return refuse(request, 503, str(e))
    return web.json_response({"names": [n for n, _ in got],
                              "tournaments": [{"name": n, "id": i} for n, i in got],
                              "tables": desk.board_tables(),
                              "boxes": desk.box_rows()})


@routes.get("/api/tournament/{name}")
async def one(request):
    desk = request.app[DESK]
    try:
        got = await desk.tournament(request.match_info["name"])
    except TournamentError as e:
        return refuse(request, 404, e)
    except DbError as e:
        return refuse(request, 503, str(e))
    return web.json_response(dict(got, tables=desk.board_tables(), boxes=desk.box_rows()))


def foreign(request):
    """Why a POST is not one of the desk's pages' own, or None."""
    if not request.app[GUARD].desk_ok(request):
        return 401, Said("this needs the desk's token, printed by scoreboard desk at "
                         "its start: open the desk by the address it printed")
    if request.content_type != "application/json":
        return 415, Said("an action is a JSON POST")
    origin = request.headers.get("Origin")
    if origin is not None and urlsplit(origin).netloc.lower() != request.host.lower():
        return 403, Said("an action comes from the desk's own pages")
    return None


@routes.post("/api/tournament")
@routes.post("/api/tournament/{name}/{verb:assign|call|uncall|result|decide}")
async def act(request):
    desk = request.app[DESK]
    why = foreign(request)
    if why is not None:
        return refuse(request, *why, {"WWW-Authenticate": "Bearer"} if why[0] == 401 else None)
    if request.content_length is not None and request.content_length > MAX_BODY:
        return refuse(request, 413, Said("too large: at most %d KB", MAX_BODY // 1024))
    try:
        body = await request.json()
    except (ValueError, RecursionError):  # RecursionError: nested too deep
        return refuse(request, 400, Said("the action's body is not JSON (or nested too deep)"))
    if not isinstance(body, dict):
        return refuse(request, 400, Said("the action's body is a JSON object"))
    verb = request.match_info.get("verb", "create")
    name = request.match_info.get("name")
    via = "desk %s" % (request.remote or "?")
    try:
        state = await desk.action(verb, name, body, via)
    except TournamentError as e:
        return refuse(request, 400, e)
    except DbError as e:
        return refuse(request, 503, str(e))
    box = state.pop("box", None)  # the caller's alone, not every page's
    desk.publish(state)
    return web.json_response(dict(state, tables=desk.board_tables(), box=box,
                                  boxes=desk.box_rows()))
