"""Issue 37 (round 5 N1): only the assigned box's result counts. A tournament match's
journal from any other box, and a box's own change the bracket cannot take, is held for
the desk (both results named), never applied in silence and never dropped, until the
desk takes or keeps it. On SQLite and on the project's real PostgreSQL.

The identity model itself (tournament/identity.py) is tested here too: which box is at
which table, and two boxes claiming one table.
"""

import json

import pytest

from support.hostfixtures import *  # noqa: F403  (fixtures: db_url, pg_server)
from host_tools.results.db import open_db
from host_tools.results.sync import load, record
from host_tools.tournament import TournamentError, boxresults, store
from host_tools.tournament.header import header_lines
from host_tools.results.db import Origin
from host_tools.tournament.identity import Claim, TableMap, judge
from host_tools.tournament.players import Entry
from scoreboard.core.words import with_checksum

WIN_A = ["frame A", "rack A", "frame", "rack A"]
WIN_B = ["frame A", "rack B", "frame", "rack B"]


def made(db, name="Pool"):
    entries = [Entry(n, i + 1 if i < 2 else None, None)
               for i, n in enumerate(("Ann", "Bob", "Cy", "Dana"))]
    t = store.make(name, "single", entries, "eightball",
                   {"winners": {"match": "race-to 2"}, "final": {"match": "race-to 2"}}, 3)
    store.create(db, t, "test")
    return store.load(db, name)


def journal(t, match_id, events):
    return [with_checksum(ln) for ln in header_lines(t, match_id) + events]


def put(db, lines, box, table, accept=False):
    """The journal as `scoreboard sync` stores it from box `box` claiming `table`."""
    match = load(lines)
    rec, frames = record(match.header.id, lines, match, None, in_play=False)
    rec["box"] = box
    return db.store(rec, frames, device=box, accept=accept, origin=Origin(box, table))


def winner(db, match_id, name="Pool"):
    t = store.load(db, name)
    r = t.results.get(match_id)
    return None if r is None else (store.advance.name_of(t, r.winner), r.score)


@pytest.fixture
def db(db_url):
    d = open_db(db_url, bracket=boxresults)
    yield d
    d.close()


def test_a_second_box_with_the_same_match_is_held_for_the_desk(db):
    """BOX1 at table 5 plays W1-01 and its result counts; EVIL (another box, claiming
    table 5 too or none) stores the same id with the other winner: held, with both
    results named, the bracket and the matches table unchanged, until the desk decides.
    While the defect was there EVIL's result replaced BOX1's in the bracket."""
    t = made(db)
    store.assign(db, "Pool", "W1-01", 5, "test", box="BOX1")
    a = store.advance.name_of(t, t.states["W1-01"].a)
    b = store.advance.name_of(t, t.states["W1-01"].b)
    assert put(db, journal(t, "W1-01", WIN_A), "BOX1", 5) == "new"
    assert winner(db, "W1-01") == (a, (2, 0))
    assert put(db, journal(t, "W1-01", WIN_B), "EVIL", 5) == "held"
    assert winner(db, "W1-01") == (a, (2, 0))  # the bracket did not move
    assert [r[0] for r in db.rows("SELECT box FROM matches WHERE id = 'Pool-W1-01'")] == [
        "BOX1"]
    held = store.held(db, "Pool")
    assert len(held) == 1
    h = held[0]
    assert (h["match"], h["box"], h["box_table"]) == ("W1-01", "EVIL", 5)
    assert h["result"] == "%s 0-2 %s" % (a, b) and h["bracket"] == "W1-01 (%s 2-0 %s)" % (a, b)
    assert "assigned to table 5's box BOX1, not to box EVIL" in h["reason"]
    line = str(store.held_line(h))
    assert line.startswith("held 1: W1-01 from box EVIL (table 5): %s 0-2 %s" % (a, b))
    # The same bytes again (the next sync): still held once, nothing doubled.
    assert put(db, journal(t, "W1-01", WIN_B), "EVIL", 5) == "held"
    assert len(store.held(db, "Pool")) == 1
    # A match never assigned anywhere is held too (it was "new" into the bracket).
    assert put(db, journal(t, "W1-02", WIN_A), "EVIL", None) == "held"
    assert winner(db, "W1-02") is None
    assert "never assigned to a table" in store.held(db, "Pool")[1]["reason"]
    # The desk keeps the bracket's: decided, the box's file may be marked (same).
    store.decide(db, "Pool", 1, take=False, via="test")
    assert [x["n"] for x in store.held(db, "Pool")] == [2]
    assert put(db, journal(t, "W1-01", WIN_B), "EVIL", 5) == "same"
    with pytest.raises(TournamentError, match="decided already"):
        store.decide(db, "Pool", 1, take=True, via="test")
    trail = [what for _, _, what, _, _ in store.audit(db, "Pool")]
    assert trail.count("held") == 2 and trail[-1] == "held kept"


def test_the_desk_takes_a_held_result_and_the_bracket_follows(db):
    t = made(db)
    store.assign(db, "Pool", "W1-01", 5, "test", box="BOX1")
    a = store.advance.name_of(t, t.states["W1-01"].a)
    b = store.advance.name_of(t, t.states["W1-01"].b)
    put(db, journal(t, "W1-01", WIN_A), "BOX1", 5)
    assert store.load(db, "Pool").states["F1"].a == t.states["W1-01"].a
    assert put(db, journal(t, "W1-01", WIN_B), "SPARE", 7) == "held"
    store.decide(db, "Pool", 1, take=True, via="desk test")
    assert winner(db, "W1-01") == (b, (0, 2))
    assert store.load(db, "Pool").states["F1"].a == t.states["W1-01"].b
    # One current row for the match, the other box's kept as history.
    assert db.rows("SELECT box FROM matches WHERE id = 'Pool-W1-01'") == [("SPARE",)]
    assert db.rows("SELECT box FROM match_versions WHERE id = 'Pool-W1-01'") == [("BOX1",)]
    assert store.assigned_box(db, "Pool", "W1-01") == (5, "SPARE")
    assert store.held(db, "Pool") == []
    detail = json.loads(store.audit(db, "Pool")[-1][4])
    assert detail["held"] == 1 and detail["before"] == "W1-01 (%s 2-0 %s)" % (a, b)


def test_a_boxs_own_change_after_the_bracket_moved_on_is_held(db):
    """The same box corrects W1-01 after F1 has started: held (the bracket cannot take
    it), where it was refused and never kept."""
    t = made(db)
    store.assign(db, "Pool", "W1-01", 5, "test", box="BOX1")
    store.assign(db, "Pool", "W1-02", 6, "test", box="BOX2")
    first = journal(t, "W1-01", WIN_A)
    put(db, first, "BOX1", 5)
    put(db, journal(t, "W1-02", WIN_A), "BOX2", 6)
    t = store.load(db, "Pool")
    store.assign(db, "Pool", "F1", 5, "test", box="BOX1")
    f1 = [with_checksum(ln) for ln in header_lines(t, "F1") + ["frame A"]]
    match = load(f1)
    rec, frames = record(match.header.id, f1, match, None, in_play=True)
    rec["box"] = "BOX1"
    assert db.store(rec, frames, device="BOX1", origin=Origin("BOX1", 5)) == "new"
    changed = first + [with_checksum(ln) for ln in ("undo", "rack B", "frame", "rack B")]
    assert put(db, changed, "BOX1", 5, accept=True) == "held"
    h = store.held(db, "Pool")[0]
    assert "which has started" in h["reason"] and h["box"] == "BOX1"
    with pytest.raises(TournamentError, match="which has started"):
        store.decide(db, "Pool", h["n"], take=True)


def test_a_match_assigned_before_its_box_was_heard_binds_the_box_that_claims_its_table(db):
    t = made(db)
    store.assign(db, "Pool", "W1-01", 3, "test")  # no box heard at table 3 then
    assert put(db, journal(t, "W1-01", ["frame A"]), "OTHER", 4) == "held"
    assert put(db, journal(t, "W1-01", ["frame A"]), "BOX3", 3) == "new"
    assert store.assigned_box(db, "Pool", "W1-01") == (3, "BOX3")


def test_the_table_map_never_gives_a_claimed_twice_table_to_either_box():
    m = TableMap([Claim("A", 5, "/dev/ttyACM0"), Claim("B", 5, "/dev/ttyACM1"),
                  Claim("C", 2, "/dev/ttyACM2"), Claim("D", None, "/dev/ttyACM3")])
    assert m.box_at(5) is None and m.box_at(2).box == "C" and m.box_at(7) is None
    assert list(m.conflicts()) == [5] and m.table_of("A") is None and m.table_of("C") == 2
    assert [(row[0], row[1].box, row[2]) for row in m.rows()] == [
        (2, "C", False), (5, "A", True), (5, "B", True), (None, "D", False)]
    assert judge("W1-01", 5, "A", Origin("A", 9)) is None  # the assigned box, wherever
    assert judge("W1-01", 5, None, Origin("B", 5)) is None
    assert "never assigned" in str(judge("W1-01", None, None, Origin("A", 5)))
