"""A tournament in the results database (host_tools/results/db, migration 6): the same
SQL on SQLite and PostgreSQL.

Every change is one transaction: it bumps the tournament's `changes` first (on
PostgreSQL that locks the row, on SQLite the file: two desks changing one tournament
take turns), reads the tournament, lets `advance` make the change, writes the matches
whose sides, winner or status changed, and adds an audit row (`tournament_audit`: the
change's number, when, what, from where, and the details as JSON). A refused change
leaves nothing behind.

A match's `box_match` is the id a box's header carries for it (`NAME-MATCH`, at most the
notation's 40 characters): a stored match with that id is that tournament match's result.
"""

import getpass
import json
import socket
from datetime import UTC, datetime

from host_tools.tournament import TournamentError, advance, brackets, seeding
from host_tools.tournament.model import Player, Result, Spec, Tournament
from scoreboard.core.words import check_id

NAME_MAX = 32  # a tournament's name: its match ids (NAME-L12-064) fit the 40 of an id
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
    try:
        check_id(name, "tournament name")
    except ValueError as e:
        raise TournamentError(str(e)) from None
    if len(name) > NAME_MAX:
        raise TournamentError("tournament name %s is %d characters (at most %d: its match "
                              "ids go into the boxes' headers)" % (name, len(name), NAME_MAX))
    return name


def box_match(name, match_id):
    return "%s-%s" % (name, match_id)


def make(name, fmt, entries, game, conditions, draw_seed, groups=None, advance_k=None):
    """A new Tournament (drawn and resolved, not stored) of the players' `entries`."""
    check_name(name)
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
            raise TournamentError("there is a tournament %s already" % t.name)
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
    """The Tournament `name`, resolved; TournamentError when there is none."""
    rows = db.rows("SELECT format, game, conditions, draw_seed, groups_of, advance "
                   "FROM tournaments WHERE name = ?", (name,))
    if not rows:
        known = names(db)
        raise TournamentError("no tournament %s in the database%s" % (
            name, " (it holds %s)" % ", ".join(known[:10]) + (" ..." if len(known) > 10
                                                              else "") if known else ""))
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


def _begin_change(db, name):
    """BEGIN, and the change's number (the tournament's `changes`, bumped: the lock)."""
    db.begin()
    cur = db.execute("UPDATE tournaments SET changes = changes + 1 WHERE name = ?", (name,))
    if cur.rowcount == 0:
        db.rollback()
        load(db, name)  # its message: no such tournament
        raise TournamentError("no tournament %s" % name)
    return db.rows("SELECT changes FROM tournaments WHERE name = ?", (name,))[0][0]


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
    seq = _begin_change(db, name)
    try:
        t = load(db, name)
        before = {spec.id: _match_row(t, i, spec) for i, spec in enumerate(t.specs, 1)}
        was = advance.describe(t, match_id) if match_id in t.results else None
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
    return db.rows("SELECT seq, at, what, source, detail FROM tournament_audit WHERE "
                   "tournament = ? ORDER BY seq", (name,))
