"""A tournament in the results database (host_tools/results/db, migration 6): the same
SQL on SQLite and PostgreSQL.

Every change is one transaction: it bumps the tournament's `changes` first (on
PostgreSQL that locks the row, on SQLite the file: two desks changing one tournament
take turns), reads the tournament, lets `advance` make the change, writes the matches
whose sides, winner or status changed, and adds an audit row (`tournament_audit`: the
change's number, when, what, from where, and the details as JSON). A refused change
leaves nothing behind.

A match's `box_match` is the id a box's header carries for it (`ID-MATCH`, ID the
tournament's id made of its name, naming.py; at most the notation's 40 characters): a
stored match with that id is that tournament match's result when it comes from the box
the match was assigned to (`box_id`: identity.py); any other journal of it is held for
the desk (`hold`, `held`, `decide`). A tournament is found by its name as written or by
its id (`find`).
"""

import getpass
import json
import socket
from datetime import UTC, datetime

from host_tools.tournament import TournamentError, advance, brackets, identity, naming, seeding
from host_tools.tournament.model import Player, Result, Spec, Tournament
from host_tools.tournament.says import Said, word

NAME_MAX = naming.NAME_MAX
_MATCH_COLUMNS = ("id", "seq", "stage", "round", "a_from", "b_from", "a", "b", "winner",
                  "score_a", "score_b", "how", "status", "table_no", "box_match",
                  "entered_at", "entered_by")
_CHANGING = _MATCH_COLUMNS[6:]


def now():
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def source(via="cli"):
    """Where a change comes from: `cli user@host`."""
    try:
        user = getpass.getuser()
    except Exception:
        user = "?"
    return "%s %s@%s" % (via, user, socket.gethostname())


def check_name(name):
    """The name as it is kept (naming.check_name), or TournamentError."""
    return naming.check_name(name)


def box_match(name, match_id):
    """The id a box's header carries for the match: `ID-MATCH`."""
    return "%s-%s" % (naming.slug(name), match_id)


def find(db, key):
    """The stored name of the tournament named `key` or whose id is `key`, or None."""
    key = naming.clean(key)
    if db.rows("SELECT COUNT(*) FROM tournaments WHERE name = ?", (key,))[0][0]:
        return key
    for name in names(db):
        if naming.slug(name) == key:
            return name
    return None


def make(name, fmt, entries, game, conditions, draw_seed, groups=None, advance_k=None):
    """A new Tournament (drawn and resolved, not stored) of the players' `entries`."""
    name = check_name(name)
    order = seeding.ranked(entries, draw_seed)
    rank = {i: r + 1 for r, i in enumerate(order)}
    t = Tournament(name, fmt, game, conditions, draw_seed, groups, advance_k)
    t.players = [Player(i + 1, e.name, e.seed, e.club, rank[i]) for i, e in enumerate(entries)]
    t.specs = brackets.build(fmt, [i + 1 for i in order], groups, advance_k)
    return advance.resolve(t)


def _match_row(t, seq, spec):
    st = t.states[spec.id]
    r = t.results.get(spec.id)
    return (spec.id, seq, spec.stage, spec.round, spec.a_from, spec.b_from, st.a, st.b,
            st.winner, r.score[0] if r and r.score else None,
            r.score[1] if r and r.score else None, r.how if r else None, st.status,
            t.tables.get(spec.id), box_match(t.name, spec.id), r.at if r else None,
            r.by if r else None)


def _audit(db, t, seq, what, via, detail):
    db.execute("INSERT INTO tournament_audit (tournament, seq, at, what, source, detail) "
               "VALUES (?, ?, ?, ?, ?, ?)", (t.name, seq, now(), what, via,
                                             json.dumps(detail, sort_keys=True)))


def create(db, t, via):
    """Store the new tournament `t` (make's) in one transaction, with its audit row."""
    db.begin()
    try:
        if db.rows("SELECT COUNT(*) FROM tournaments WHERE name = ?", (t.name,))[0][0]:
            raise TournamentError("there is a tournament %s already", t.name)
        ident = naming.slug(t.name)
        other = next((n for n in names(db) if naming.slug(n) == ident), None)
        if other is not None:
            raise TournamentError("tournament name %s: its id %s is tournament %s's already "
                                  "(give it another name)", t.name, ident, other)
        db.execute("INSERT INTO tournaments (name, format, game, conditions, draw_seed, "
                   "groups_of, advance, champion, created_at, changes) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
                   (t.name, t.format, t.game, json.dumps(t.conditions, sort_keys=True),
                    t.draw_seed, t.groups, t.advance, t.champion, now()))
        for p in t.players:
            db.execute("INSERT INTO tournament_players (tournament, id, name, seed, club, "
                       "draw_rank) VALUES (?, ?, ?, ?, ?, ?)",
                       (t.name, p.id, p.name, p.seed, p.club, p.rank))
        for seq, spec in enumerate(t.specs, 1):
            db.execute("INSERT INTO tournament_matches (tournament, %s) VALUES (?, %s)" % (
                ", ".join(_MATCH_COLUMNS), ", ".join("?" * len(_MATCH_COLUMNS))),
                (t.name,) + _match_row(t, seq, spec))
        _audit(db, t, 1, "create", via, {"format": t.format, "players": len(t.players),
                                         "draw_seed": t.draw_seed, "game": t.game,
                                         "conditions": t.conditions})
        db.commit()
    except BaseException:
        db.rollback()
        raise
    return t


def names(db):
    return [r[0] for r in db.rows("SELECT name FROM tournaments ORDER BY name")]


def load(db, name):
    """The Tournament named `name` (or whose id it is), resolved; TournamentError when
    there is none."""
    name = _stored(db, name)
    rows = db.rows("SELECT format, game, conditions, draw_seed, groups_of, advance "
                   "FROM tournaments WHERE name = ?", (name,))
    fmt, game, conditions, draw_seed, groups, advance_k = rows[0]
    t = Tournament(name, fmt, game, json.loads(conditions), draw_seed, groups, advance_k)
    t.players = [Player(*r) for r in db.rows(
        "SELECT id, name, seed, club, draw_rank FROM tournament_players WHERE tournament = ? "
        "ORDER BY id", (name,))]
    for r in db.rows("SELECT id, stage, round, a_from, b_from, winner, score_a, score_b, how, "
                     "status, table_no, entered_at, entered_by FROM tournament_matches "
                     "WHERE tournament = ? ORDER BY seq", (name,)):
        mid, stage, rnd, a_from, b_from, winner, sa, sb, how, status, table = r[:11]
        t.specs.append(Spec(mid, stage, rnd, a_from, b_from))
        if how is not None:
            t.results[mid] = Result(winner, (sa, sb) if sa is not None else None, how,
                                    r[11], r[12])
        elif status in advance.ACTIVE:
            t.active[mid] = status
        if table is not None:
            t.tables[mid] = table
    return advance.resolve(t)


def _stored(db, key):
    """The stored name of tournament `key` (find), or TournamentError naming those
    there are."""
    name = find(db, key)
    if name is None:
        known = names(db)
        if known:
            raise TournamentError("no tournament %s in the database (it holds %s)", key,
                                  ", ".join(known[:10]) + (" ..." if len(known) > 10 else ""))
        raise TournamentError("no tournament %s in the database", key)
    return name


def _begin_change(db, name):
    """BEGIN, and (the tournament's stored name, the change's number: its `changes`,
    bumped: the lock)."""
    db.begin()
    try:
        name = _stored(db, name)
        return name, _bump(db, name)
    except BaseException:
        db.rollback()
        raise


def _bump(db, name):
    """The change's number, in the transaction under way (the `changes` bumped)."""
    cur = db.execute("UPDATE tournaments SET changes = changes + 1 WHERE name = ?", (name,))
    if cur.rowcount == 0:
        load(db, name)  # its message: no such tournament
        raise TournamentError("no tournament %s", name)
    return db.rows("SELECT changes FROM tournaments WHERE name = ?", (name,))[0][0]


def _rows(t):
    return {spec.id: _match_row(t, i, spec) for i, spec in enumerate(t.specs, 1)}


def _write(db, t, before):
    """UPDATE the matches whose derived columns differ from `before` ({id: row})."""
    for seq, spec in enumerate(t.specs, 1):
        row = _match_row(t, seq, spec)
        if row != before[spec.id]:
            db.execute("UPDATE tournament_matches SET %s WHERE tournament = ? AND id = ?" % (
                ", ".join("%s = ?" % c for c in _CHANGING)),
                row[len(_MATCH_COLUMNS) - len(_CHANGING):] + (t.name, spec.id))
    db.execute("UPDATE tournaments SET champion = ? WHERE name = ?", (t.champion, t.name))


def result(db, name, match_id, who, score, how="played", correct=False, via=None):
    """Enter a match's result (or its correction) in one transaction: returns the
    Tournament after it and the ids of the matches whose players it changed."""
    via = via or source()
    name, seq = _begin_change(db, name)
    try:
        t = load(db, name)
        before = {spec.id: _match_row(t, i, spec) for i, spec in enumerate(t.specs, 1)}
        was = str(advance.describe(t, match_id)) if match_id in t.results else None
        changed = advance.enter(t, match_id, who, score, how, correct, at=now(), by=via)
        _write(db, t, before)
        r = t.results[match_id]
        _audit(db, t, seq, "correction" if correct else "result", via, {
            "match": match_id, "winner": r.winner, "how": how,
            "score": list(r.score) if r.score else None, "before": was,
            "changed": changed})
        db.commit()
    except BaseException:
        db.rollback()
        raise
    return t, changed


def find_box_match(db, match_id):
    """(tournament, match) whose box header carries `match_id` (box_match), or None:
    what a stored match's id is checked against when results come in by themselves."""
    rows = db.rows("SELECT tournament, id FROM tournament_matches WHERE box_match = ?",
                   (match_id,))
    return tuple(rows[0]) if rows else None


def audit(db, name):
    """[(seq, at, what, source, detail)] of a tournament's changes, in order."""
    name = find(db, name) or name
    return db.rows("SELECT seq, at, what, source, detail FROM tournament_audit WHERE "
                   "tournament = ? ORDER BY seq", (name,))


# -- the tables: assign and call (issue 27 step 2) ----------------------------------------
TABLE_MAX = 99  # the header's `table N` (scoreboard.core.header)


def busy_table(db, table, name=None, match_id=None):
    """(tournament, match, status) of the active match (assigned, called, playing) on
    `table` other than `name`'s `match_id`, of any tournament in the database; or None."""
    for tname, mid, status in db.rows(
            "SELECT tournament, id, status FROM tournament_matches WHERE table_no = ? AND "
            "status IN (?, ?, ?) ORDER BY tournament, seq", (table,) + advance.ACTIVE):
        if (tname, mid) != (name, match_id):
            return tname, mid, status
    return None


def check_assign(db, t, match_id, table):
    """TournamentError unless `match_id` of `t` (loaded) may go to `table` now: its two
    players known and free (ready; or assigned or called already: it moves), the table
    a number 1..99 that no other active match holds."""
    spec = t.spec(match_id)
    if spec is None:
        raise TournamentError("no match %s in %s", match_id, t.name)
    if not isinstance(table, int) or not 1 <= table <= TABLE_MAX:
        raise TournamentError("table %s: tables are numbered 1 to %d", table, TABLE_MAX)
    st = t.states[match_id]
    if st.status not in ("ready", "assigned", "called"):
        raise TournamentError("%s is not ready: %s", match_id, _why_not(t, spec, st))
    other = busy_table(db, table, t.name, match_id)
    if other is not None:
        tname, mid, status = other
        what = advance.describe(t, mid) if tname == t.name else "%s %s" % (tname, mid)
        raise TournamentError("table %d is busy: %s is %s there", table, what,
                              word("status", status))


def _why_not(t, spec, st):
    if st.status == "bye":
        return Said("it is a bye")
    if st.status in ("done", "walkover"):
        return Said("it has its result (%s)", advance.describe(t, spec.id))
    if st.status == "playing":
        if spec.id in t.tables:
            return Said("it is being played on table %d", t.tables[spec.id])
        return Said("it is being played")
    if st.a is None or st.b is None:
        return Said("it waits for its players (%s v %s)",
                    advance.source_text(t, spec.a_from, st.a),
                    advance.source_text(t, spec.b_from, st.b))
    for other in t.specs:
        o = t.states[other.id]
        if other.id != spec.id and o.status in advance.ACTIVE + ("ready",) and (
                {o.a, o.b} & {st.a, st.b}):
            return Said("a player is in %s first (%s)", advance.describe(t, other.id),
                        word("status", o.status))
    return word("status", st.status)


def assign(db, name, match_id, table, via=None, box=None):
    """Put the match on `table` (status `assigned`) in one transaction with its audit
    row; the Tournament after it. TournamentError (nothing changed) unless check_assign
    lets it. Queueing its header on the table's box is the caller's (header.header_lines;
    `scoreboard tournament assign --port`), before this records it; `box`: the id of
    the box that claims the table now (its queued header's), the only box whose result
    the bracket takes (None: the first box that claims the table when it delivers)."""
    via = via or source()
    name, seq = _begin_change(db, name)
    try:
        t = load(db, name)
        check_assign(db, t, match_id, table)
        before = _rows(t)
        was = (t.active.get(match_id), t.tables.get(match_id))
        t.active[match_id] = "assigned"
        t.tables[match_id] = table
        advance.resolve(t)
        _write(db, t, before)
        db.execute("UPDATE tournament_matches SET box_id = ? WHERE tournament = ? AND id = ?",
                   (box, name, match_id))
        _audit(db, t, seq, "assign", via, {
            "match": match_id, "table": table, "box_match": box_match(name, match_id),
            "box": box,
            "before": {"status": was[0], "table": was[1]} if was[0] else None})
        db.commit()
    except BaseException:
        db.rollback()
        raise
    return t


def _set_status(db, name, match_id, via, what, status, check):
    """The match's status set to `status` in one transaction with its audit row (`what`,
    the match, its table and box id), once `check(t, spec, st)` has let it (it raises
    TournamentError otherwise, nothing changed); the Tournament after it."""
    name, seq = _begin_change(db, name)
    try:
        t = load(db, name)
        spec = t.spec(match_id)
        if spec is None:
            raise TournamentError("no match %s in %s", match_id, t.name)
        check(t, spec, t.states[match_id])
        before = _rows(t)
        t.active[match_id] = status
        advance.resolve(t)
        _write(db, t, before)
        _audit(db, t, seq, what, via, {"match": match_id, "table": t.tables.get(match_id),
                                       "box_match": box_match(name, match_id)})
        db.commit()
    except BaseException:
        db.rollback()
        raise
    return t


def assigned_box(db, name, match_id):
    """(table, box id) the match is assigned to (each None when not known)."""
    rows = db.rows("SELECT table_no, box_id FROM tournament_matches WHERE tournament = ? "
                   "AND id = ?", (name, match_id))
    return tuple(rows[0]) if rows else (None, None)


def call(db, name, match_id, via=None):
    """Announce an assigned match (status `called`; seed 004 1.7: the late start counts
    from now) in one transaction with its audit row, which holds the time (`called_at`
    reads it); the Tournament after it."""
    def check(t, spec, st):
        if st.status == "called":
            raise TournamentError("%s was called already, at %s", spec.id,
                                  called_at(db, t.name, spec.id))
        if st.status == "ready":
            raise TournamentError("%s has no table yet: assign it first", spec.id)
        if st.status != "assigned":
            raise TournamentError("%s cannot be called: %s", spec.id, _why_not(t, spec, st))
    return _set_status(db, name, match_id, via or source(), "call", "called", check)


def uncall(db, name, match_id, via=None):
    """Take a call back (a match called by mistake, or at the wrong table): `assigned`
    again, on its table, in one transaction with its audit row (`uncall`); refused once
    the match is played (`playing`, or its result in). The late start of a box that
    heard the call is the referee's to take back there (the box's `undo`)."""
    def check(t, spec, st):
        if st.status != "called":
            raise TournamentError("%s is not called: %s", spec.id,
                                  _why_not(t, spec, st) if st.status != "assigned"
                                  else word("status", "assigned"))
    return _set_status(db, name, match_id, via or source(), "uncall", "assigned", check)


def began(db, name, match_id, via=None):
    """A box has begun the match (its first frame's break-off is on its journal): an
    assigned or called match is `playing` (audit `playing`); the Tournament after it,
    or None when the match is past that (playing already, or decided) or not on a
    table: nothing to change."""
    try:
        return _set_status(db, name, match_id, via or source(), "playing", "playing",
                           _not_begun)
    except _Begun:
        return None


class _Begun(Exception):
    """The match is past `assigned` and `called`: nothing for `began` to change."""


def _not_begun(t, spec, st):
    if st.status not in ("assigned", "called"):
        raise _Begun()


def called_at(db, name, match_id):
    """When the match was last called (its `call` audit row's time, UTC), or None."""
    for seq, at, what, via, detail in reversed(audit(db, name)):
        if what == "call" and json.loads(detail).get("match") == match_id:
            return at
    return None


# -- results from the boxes ---------------------------------------------------------------
# The box's end of a match (the replay JSON's result `how`, and a forfeit's `why`) as
# the bracket's kind of result (seed 004 1.13-1.14; model.HOWS).
BOX_HOWS = {"played": "played", "conceded": "retired", "disqualified": "abandoned",
            "abandoned": "abandoned"}
FORFEIT_HOWS = {"late": "walkover", "retired": "retired", "conduct": "abandoned",
                "disqualified": "abandoned"}


def box_result(db, name, match_id, rec, outcome):
    """A match a box played, stored by the results database (`rec`: its `matches` row;
    `outcome`: Database.store's), made part of the bracket inside the transaction the
    caller has begun (host_tools/tournament/boxresults.py, the database's bracket): in
    play, the match is `playing`; final, its result is entered (a correction re-routes
    the bracket as `result --correct` does). TournamentError when it cannot be (the
    caller refuses the match then, row and all). Returns the audit row's `what`, or None
    when the bracket had nothing to change."""
    table, box = assigned_box(db, name, match_id)
    origin = rec.get("origin")
    why = identity.judge(match_id, table, box, origin)
    if why is not None:
        from host_tools.results.db import Held

        raise Held("tournament %s match %s: %s" % (name, match_id, why))
    if box is None:  # the first box that claims the table and delivers: bound now
        db.execute("UPDATE tournament_matches SET box_id = ? WHERE tournament = ? AND "
                   "id = ?", (origin.box, name, match_id))
    seq = _bump(db, name)
    t = load(db, name)
    st = t.states[match_id]
    if st.a is None or st.b is None:
        raise TournamentError("%s waits for its players: the box's %s v %s cannot be its "
                              "result", match_id, rec["side_a"], rec["side_b"])
    swap = _sides(t, st, rec, match_id)
    via = source("box %s" % (rec.get("box") or "?"))
    detail = {"match": match_id, "box_match": rec["id"], "box": rec.get("box"),
              "outcome": outcome, "status": rec["status"]}
    before = _rows(t)
    what = None
    entry = _box_entry(t, st, rec, swap)
    had = t.results.get(match_id)
    if entry is None:  # in play, or stopped with no winner: the desk enters it
        if had is None and t.active.get(match_id) != "playing":
            t.active[match_id] = "playing"
            advance.resolve(t)
            what = "playing"
    else:
        who, score, how = entry
        if had is not None and (had.winner, had.score, had.how) == (who, score, how):
            pass  # the bracket has this result already
        elif had is not None and not (outcome == "corrected" or (had.by or "").startswith(
                "box ")):
            raise TournamentError("%s has a result entered by hand (%s); the box's is %s: "
                                  "make them agree with `scoreboard tournament result "
                                  "--correct`", match_id, advance.describe(t, match_id),
                                  _told(t, who, score, how))
        else:
            was = str(advance.describe(t, match_id)) if had is not None else None
            changed = advance.enter(t, match_id, who, score, how, had is not None,
                                    at=now(), by=via)
            what = "box correction" if had is not None else "box result"
            detail.update(winner=who, how=how, score=list(score) if score else None,
                          before=was, changed=changed)
    # A journal held before (a correction without --accept-corrections) and taken now
    db.execute("UPDATE tournament_held SET decision = 'taken', decided_at = ?, decided_by = ? "
               "WHERE tournament = ? AND match = ? AND sha256 = ? AND decision IS NULL",
               (now(), via, name, match_id, rec["sha256"]))
    if what is None:
        db.execute("UPDATE tournaments SET changes = changes - 1 WHERE name = ?", (name,))
        return None
    _write(db, t, before)
    _audit(db, t, seq, what, via, detail)
    return what


def _sides(t, st, rec, match_id):
    """False when the box's side A is the match's side a, True when swapped;
    TournamentError when the box played other players (a correction re-routed it)."""
    a, b = advance.name_of(t, st.a).casefold(), advance.name_of(t, st.b).casefold()
    got = (rec["side_a"].casefold(), rec["side_b"].casefold())
    if got == (a, b):
        return False
    if got == (b, a):
        return True
    raise TournamentError("the box played %s v %s, but %s is %s now: enter its result by "
                          "hand", rec["side_a"], rec["side_b"], match_id,
                          advance.describe(t, match_id))


def _box_entry(t, st, rec, swap):
    """(winner, score or None, how) of a final match with a winner, else None."""
    if rec["status"] not in ("finished", "abandoned") or rec["winner"] not in ("A", "B"):
        return None
    result = json.loads(rec["report"]).get("result") or {}
    how = result.get("how") or "abandoned"
    kind = FORFEIT_HOWS.get(result.get("why"), "abandoned") if how == "forfeited" else \
        BOX_HOWS.get(how, "abandoned")
    if rec["status"] == "abandoned":
        kind = "abandoned"
    who = st.a if (rec["winner"] == "A") != swap else st.b
    score = None
    if kind == "played":
        score = (rec["frames_b"], rec["frames_a"]) if swap else (rec["frames_a"],
                                                                 rec["frames_b"])
    return who, score, kind


def _told(t, who, score, how):
    if score is None:
        return Said("%s, %s", advance.name_of(t, who), word("how", how))
    return Said("%s the winner, %d-%d", advance.name_of(t, who), score[0], score[1])


def high_breaks(db, name, least=0):
    """The breaks made in the tournament's matches the boxes played, highest first:
    [(break, player, match id)] (the `frames` rows' breaks, by the box_match ids); the
    high-break prize is the first."""
    t = load(db, name)
    name = t.name
    out = []
    for mid, side_a, side_b, breaks_a, breaks_b in db.rows(
            "SELECT tm.id, m.side_a, m.side_b, f.breaks_a, f.breaks_b FROM tournament_matches "
            "tm JOIN matches m ON m.id = tm.box_match JOIN frames f ON f.box = m.box AND "
            "f.match_id = m.id WHERE tm.tournament = ?", (name,)):
        for who, breaks in ((side_a, breaks_a), (side_b, breaks_b)):
            out += [(int(b), who, mid) for b in (breaks or "").split() if int(b) >= least]
    order = {s.id: i for i, s in enumerate(t.specs)}
    return sorted(out, key=lambda r: (-r[0], order.get(r[2], 0), r[1]))


# -- results held for the desk (issue 37) ---------------------------------------------------
_HELD_COLUMNS = ("n", "match", "box", "device", "box_table", "sha256", "result", "reason",
                 "held_at", "decision", "decided_at", "decided_by")


def hold(db, rec, frames, device, found, why):
    """Keep a tournament match's journal that the bracket does not take, for the desk
    (the bracket's hold: results/db, in a transaction of its own): "held", or "same" when
    the desk has decided on these very bytes (the box may mark its file then)."""
    from host_tools.results.db import result_text

    name, match_id = found
    origin = rec.get("origin")
    box = origin.box if origin is not None and origin.box else rec["box"]  # who gave it
    db.begin()
    try:
        rows = db.rows("SELECT decision FROM tournament_held WHERE tournament = ? AND "
                       "match = ? AND box = ? AND sha256 = ?",
                       (name, match_id, box, rec["sha256"]))
        if rows:
            db.rollback()
            return "held" if rows[0][0] is None else "same"
        seq = _bump(db, name)
        n = db.rows("SELECT COALESCE(MAX(n), 0) + 1 FROM tournament_held WHERE "
                    "tournament = ?", (name,))[0][0]
        text = result_text(rec["side_a"], rec["side_b"], rec["frames_a"], rec["frames_b"],
                           rec["status"])
        keep = {k: v for k, v in rec.items() if k != "origin"}
        db.execute("INSERT INTO tournament_held (tournament, n, match, box, device, "
                   "box_table, sha256, result, reason, rec, frames, held_at) VALUES "
                   "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (name, n, match_id, box, device,
                    origin.table if origin is not None else None, rec["sha256"], text,
                    why, json.dumps(keep, sort_keys=True), json.dumps(frames), now()))
        t = load(db, name)
        _audit(db, t, seq, "held", source("box %s" % box), {
            "match": match_id, "held": n, "box": box, "result": text, "why": why})
        db.commit()
    except BaseException:
        db.rollback()
        raise
    return "held"


def held(db, name, undecided=True):
    """The results held for the desk, as dicts (_HELD_COLUMNS, and `bracket`: what the
    bracket has for the match now, with its box), oldest first."""
    t = load(db, name)
    q = "SELECT %s FROM tournament_held WHERE tournament = ?" % ", ".join(_HELD_COLUMNS)
    if undecided:
        q += " AND decision IS NULL"
    out = []
    for row in db.rows(q + " ORDER BY n", (name,)):
        h = dict(zip(_HELD_COLUMNS, row))
        table, box = assigned_box(db, name, h["match"])
        r = t.results.get(h["match"])
        h.update(bracket=str(advance.describe(t, h["match"])) if r else None,
                 bracket_by=r.by if r else None, table=table, assigned_box=box)
        out.append(h)
    return out


def held_line(h):
    """One line of a held result, as sync, `tournament show` and the log say it."""
    return Said("held %d: %s from box %s%s: %s; the bracket has %s%s; %s",
                h["n"], h["match"], h["box"],
                Said(" (table %d)", h["box_table"]) if h["box_table"] else "", h["result"],
                h["bracket"] or Said("no result"),
                " (%s)" % h["bracket_by"] if h["bracket_by"] else "", h["reason"])


def decide(db, name, n, take, via=None):
    """The desk's decision on held result `n`: `take` makes it the match's result (the
    box's journal the match's one current row, the other boxes' kept as history, the
    bracket re-routed as a correction is; TournamentError when the bracket cannot take
    it: a later match it would change has started), else the bracket keeps what it has.
    One transaction with its audit row; the Tournament after it."""
    via = via or source()
    name, seq = _begin_change(db, name)
    try:
        rows = db.rows("SELECT match, rec, frames, device, decision FROM tournament_held "
                       "WHERE tournament = ? AND n = ?", (name, n))
        if not rows:
            raise TournamentError("no held result %s in %s", n, name)
        match_id, rec, frames, device, decision = rows[0]
        if decision is not None:
            raise TournamentError("held result %s was decided already (%s)", n, decision)
        rec, frames = json.loads(rec), json.loads(frames)
        t = load(db, name)
        what = "held kept"
        detail = {"match": match_id, "held": n, "box": rec["box"]}
        if take:
            before = _rows(t)
            st = t.states[match_id]
            entry = _box_entry(t, st, rec, _sides(t, st, rec, match_id))
            db.replace_current(rec, frames, device)
            if entry is not None:
                who, score, how = entry
                had = t.results.get(match_id)
                detail.update(winner=who, score=list(score) if score else None, how=how,
                              before=str(advance.describe(t, match_id)) if had else None)
                detail["changed"] = advance.enter(t, match_id, who, score, how,
                                                  had is not None, at=now(), by=via)
            _write(db, t, before)
            db.execute("UPDATE tournament_matches SET box_id = ? WHERE tournament = ? AND "
                       "id = ?", (rec["box"], name, match_id))
            what = "held taken"
        db.execute("UPDATE tournament_held SET decision = ?, decided_at = ?, decided_by = ? "
                   "WHERE tournament = ? AND n = ?",
                   ("taken" if take else "kept", now(), via, name, n))
        _audit(db, t, seq, what, via, detail)
        db.commit()
    except BaseException:
        db.rollback()
        raise
    return load(db, name)
