"""Issue 27 step 2, the box side of `scoreboard tournament`: `assign --port` queues the
match on a table's box (the virtual device: the real firmware on MicroPython behind a
pty) with a header that carries the match's own id and the stage's playing conditions;
`call --port` records the announcement and sends it to the box, which starts the queued
match with its `called` line (an older box without it: recorded, its reason said, exit
status 3); the referee plays the match there by a key script
(`scoreboard device --keys`); `scoreboard sync` stores it and the bracket fills itself,
in the same transaction as the match's row (on SQLite and on PostgreSQL). Then, on the
library, the box's other ends of a match (forfeits, retirements, disqualifications,
abandoned matches: seed 004 1.13-1.14), corrections re-routed or refused, and a bracket
update that fails taking the match row back with it.
"""

import json
import shutil
from datetime import UTC, datetime

import pytest

from host_tools.results.db import Conflict, open_db
from host_tools.results.sync import load, record
from host_tools.tournament import boxresults, store
from host_tools.tournament.header import header_lines
from host_tools.results.db import Origin
from scoreboard.core.words import with_checksum
from support.hostfixtures import *  # noqa: F403  (fixtures: db_url, pg_server)
from support.vdev import REPO, VirtualDevice, scoreboard

PLAYERS = "name,seed\nAnn,1\nBob,2\nCy,\nDana,\n"
# Snooker with six reds, best of one frame: Ann clears in one break of 75 (six reds each
# with the black, 6 x 8, then the colours, 27).
FIRST = ["ok", "red", "black", "red", "black"]
REST = ["red", "black"] * 4 + ["yellow", "green", "brown", "blue", "pink", "black"]


def ok(*args):
    rc, out, err = scoreboard(*args)
    assert rc == 0, out + err
    return out


def refused(*args):
    """The one line a refusal prints on stderr, nothing on stdout, exit status 1."""
    rc, out, err = scoreboard(*args)
    assert (rc, out) == (1, ""), (rc, out, err)
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err.strip()


def shown(url, name="Cup"):
    data = json.loads(ok("tournament", "show", name, "--json", "--db", url))
    return {m["id"]: m for m in data["matches"]}


def play(flash, tmp_path, keys, name):
    script = tmp_path / name
    script.write_text("\n".join(keys) + "\n", encoding="utf-8")
    ok("device", "--flash", flash, "--keys", script)


def sync(flash, url, *more):
    with VirtualDevice(flash) as dev:
        return scoreboard("sync", "--port", dev.port, "--db", url, *more)


@pytest.mark.needs_build  # the virtual device (the MicroPython unix port)
def test_assign_call_play_and_sync_fill_the_bracket(tmp_path, db_url):
    players = tmp_path / "players.csv"
    players.write_text(PLAYERS, encoding="utf-8")
    ok("tournament", "create", "Cup", "--format", "single", "--players", players, "--game",
       "snooker reds=6", "--best-of", "1", "--late", "10", "--clock", "shot=45  warn=10",
       "--seed", "3", "--db", db_url)
    m = shown(db_url)
    assert (m["W1-01"]["a"], m["W1-01"]["b"], m["W1-01"]["status"]) == (1, 3, "ready")
    flash = tmp_path / "box"

    # Refused in one line, nothing recorded: a match not ready, a box not there.
    assert refused("tournament", "assign", "Cup", "F1", "--table", "5", "--db", db_url) == (
        "tournament: F1 is not ready: it waits for its players (the winner of W1-01 v the "
        "winner of W1-02)")
    why = refused("tournament", "assign", "Cup", "W1-01", "--table", "5", "--port",
                  tmp_path / "no-such-port", "--db", db_url)
    assert why.startswith("tournament: ") and "no-such-port" in why
    assert shown(db_url)["W1-01"]["status"] == "ready"

    with VirtualDevice(flash) as dev:
        out = ok("tournament", "assign", "Cup", "W1-01", "--table", "5", "--port", dev.port,
                 "--db", db_url)
    assert out.strip() == ("Cup: W1-01 (Ann v Cy) on table 5, queued on %s as "
                           "queue/Cup-W1-01.sbn (box HOST-3F2A0001)" % dev.port)
    head = (flash / "queue" / "Cup-W1-01.sbn").read_text(encoding="utf-8").splitlines()
    assert head[:2] == ["sbn 1", "id Cup-W1-01"]
    for line in ("table 5", "game snooker reds=6", "match best-of 1", 'side A "Ann"',
                 'side B "Cy"', "rules late=10", "clock shot=45 warn=10"):
        assert line in head, head
    m = shown(db_url)
    assert (m["W1-01"]["status"], m["W1-01"]["table"]) == ("assigned", 5)
    # The table is busy now; another match is refused there, and W1-02 without a port
    # is only recorded (its box queued later).
    assert refused("tournament", "assign", "Cup", "W1-02", "--table", "5", "--db",
                   db_url) == "tournament: table 5 is busy: W1-01 (Ann v Cy) is assigned there"
    assert refused("tournament", "call", "Cup", "W1-02", "--db", db_url) == (
        "tournament: W1-02 has no table yet: assign it first")
    assert ok("tournament", "assign", "Cup", "W1-02", "--table", "6", "--db", db_url).strip(
        ) == "Cup: W1-02 (Bob v Dana) on table 6"

    # The call reaches the table's box (--port): the queued match starts there with its
    # `called` line, as the referee's `called` starts it, the late start (the stage's
    # rules late=10) counting from the announcement (seed 004 1.7).
    before = datetime.now(UTC).replace(microsecond=0)
    with VirtualDevice(flash) as dev:
        out = ok("tournament", "call", "Cup", "W1-01", "--port", dev.port, "--db", db_url)
    db = open_db(db_url, bracket=boxresults)
    at = store.called_at(db, "Cup", "W1-01")
    db.close()
    assert out.strip() == ("Cup: W1-01 (Ann v Cy) called to table 5 at %s; the box on %s "
                           "started Cup-W1-01 with the call (late start 10 min)" % (at, dev.port))
    when = datetime.strptime(at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    assert before <= when <= datetime.now(UTC)
    assert shown(db_url)["W1-01"]["status"] == "called"
    assert not (flash / "queue" / "Cup-W1-01.sbn").exists()
    lines = (flash / "matches" / "Cup-W1-01.sbn").read_text(encoding="utf-8").splitlines()
    assert [ln.rsplit(" *", 1)[0] for ln in lines if ln.startswith("@")] == ["@0 called"]
    assert refused("tournament", "call", "Cup", "W1-01", "--db", db_url) == (
        "tournament: W1-01 was called already, at %s" % at)
    # A box that does not take the call (here an older one, whose firmware has no
    # `called`): the call is recorded all the same, the box's reason one line on stderr,
    # exit status 3.
    old = tmp_path / "old-firmware"
    shutil.copytree(REPO / "firmware", old)
    channel = old / "scoreboard" / "channel.py"
    text = channel.read_text(encoding="utf-8")
    assert ' "called": Channel.called,' in text
    channel.write_text(text.replace(' "called": Channel.called,', ""), encoding="utf-8")
    (tmp_path / "old-box").mkdir()
    with VirtualDevice(tmp_path / "old-box", firmware=old) as dev:
        rc, out, err = scoreboard("tournament", "call", "Cup", "W1-02", "--port", dev.port,
                                  "--db", db_url)
    assert rc == 3 and out.startswith("Cup: W1-02 (Bob v Dana) called to table 6 at "), (
        rc, out, err)
    assert err.splitlines() == [
        "tournament: the call is recorded; table 6's box did not take it: the box's firmware "
        "has no call from the desk (its late start counts from the referee's `called`): "
        "`scoreboard flash --port %s` updates it" % dev.port]
    assert shown(db_url)["W1-02"]["status"] == "called"

    # The referee plays it on the box; a sync mid-match marks it playing...
    play(flash, tmp_path, FIRST, "first.txt")
    rc, out, err = sync(flash, db_url)
    assert rc == 0 and "1 in progress copied as unfinished" in out, out + err
    m = shown(db_url)
    assert m["W1-01"]["status"] == "playing" and m["F1"]["a"] is None
    # ... and the sync after the last ball puts the result into the bracket.
    play(flash, tmp_path, REST, "rest.txt")
    rc, out, err = sync(flash, db_url)
    assert rc == 0, out + err
    assert out.strip().splitlines()[-1] == "sync: pulled 1, skipped 0, refused 0"
    m = shown(db_url)
    assert (m["W1-01"]["status"], m["W1-01"]["winner"], m["W1-01"]["score"],
            m["W1-01"]["table"]) == ("done", 1, [1, 0], 5)
    assert (m["F1"]["a"], m["F1"]["b"], m["F1"]["status"]) == (1, None, "waiting")
    db = open_db(db_url, bracket=boxresults)
    try:
        row = db.match("Cup-W1-01")
        assert (row["status"], row["winner"], row["side_a"]) == ("finished", "A", "Ann")
        assert store.high_breaks(db, "Cup") == [(75, "Ann", "W1-01")]
        trail = [(what, via.split()[0], json.loads(detail).get("match"))
                 for _, _, what, via, detail in store.audit(db, "Cup")]
        assert trail == [("create", "cli", None), ("assign", "cli", "W1-01"),
                         ("assign", "cli", "W1-02"), ("call", "cli", "W1-01"),
                         ("call", "cli", "W1-02"),
                         ("playing", "box", "W1-01"), ("box result", "box", "W1-01")]
    finally:
        db.close()
    rc, out, err = sync(flash, db_url)  # nothing new: the bracket is not touched again
    assert rc == 0 and out.strip().splitlines()[-1] == "sync: pulled 0, skipped 1, refused 0"
    db = open_db(db_url, bracket=boxresults)
    assert len(store.audit(db, "Cup")) == 7
    db.close()


# -- the library: the box's ends of a match, corrections, the transaction -----------------

def journal(t, match_id, events, swap=False):
    """The box's journal lines of `match_id` (its queued header, then `events`)."""
    head = header_lines(t, match_id)
    if swap:  # the desk page may queue the players the other way round
        a = next(ln for ln in head if ln.startswith("side A "))
        b = next(ln for ln in head if ln.startswith("side B "))
        head = [("side A " + b[7:] if ln == a else "side B " + a[7:] if ln == b else ln)
                for ln in head]
    return [with_checksum(ln) for ln in head + events]


def put(db, lines, in_play=False, accept=False, box="BOX1"):
    """The journal as the box it was assigned to delivers it: a ready match is assigned
    to a table of its own on `box` first, as the desk does (only the assigned box's
    result counts: test_tournament_identity.py has the other boxes')."""
    match = load(lines)
    rec, frames = record(match.header.id, lines, match, None, in_play=in_play)
    rec["box"] = box
    name, mid = rec["id"].split("-", 1)
    t = store.load(db, name)
    if mid not in t.tables and t.states[mid].status == "ready":
        store.assign(db, name, mid, len(t.tables) + 1, "test", box=box)
    table = store.assigned_box(db, name, mid)[0]
    return db.store(rec, frames, device=box, accept=accept, origin=Origin(box, table))


def made(db, fmt="single", names=("Ann", "Bob", "Cy", "Dana"), name="Pool"):
    from host_tools.tournament.players import Entry

    entries = [Entry(n, i + 1 if i < 2 else None, None) for i, n in enumerate(names)]
    t = store.make(name, fmt, entries, "eightball", {"winners": {"match": "race-to 2"},
                                                     "losers": {"match": "race-to 2"},
                                                     "final": {"match": "race-to 2"}}, 3)
    store.create(db, t, "test")
    return store.load(db, name)


def state(db, match_id, name="Pool"):
    t = store.load(db, name)
    r = t.results.get(match_id)
    return (t.states[match_id].status, t.states[match_id].winner,
            r.score if r else None, r.how if r else None)


@pytest.fixture
def sqlite_db(tmp_path):
    db = open_db(str(tmp_path / "r.sqlite"), bracket=boxresults)
    yield db
    db.close()


def test_forfeits_retirements_and_abandoned_matches_follow_the_rule_book(sqlite_db):
    db = sqlite_db
    t = made(db, "double", names=("Ann", "Bob", "Cy", "Dana", "Eve", "Fay", "Gus", "Hal"))
    first = [s.id for s in t.specs if s.id.startswith("W1-")]
    a, b = t.states[first[0]].a, t.states[first[0]].b
    # A late start: B never came (seed 004 1.7): a walkover, no score.
    assert put(db, journal(t, first[0], ["called", "forfeit B late"])) == "new"
    assert state(db, first[0]) == ("walkover", a, None, "walkover")
    # A retirement (1.13): the winner and the loser, no score.
    put(db, journal(t, first[1], ["frame A", "rack A", "forfeit A retired"]))
    assert state(db, first[1])[1:] == (t.states[first[1]].b, None, "retired")
    # Disqualified, and abandoned naming a winner (1.14): no score either.
    put(db, journal(t, first[2], ["frame A", "forfeit B disqualified"]))
    assert state(db, first[2])[1:] == (t.states[first[2]].a, None, "abandoned")
    # Abandoned without a winner: the bracket waits for the desk's result, the match
    # stays on the table as played.
    put(db, journal(t, first[3], ["frame A", "abandon"]))
    assert state(db, first[3]) == ("playing", None, None, None)
    t = store.load(db, "Pool")
    loser = [s for s in t.specs if s.a_from == "l:" + first[0] or s.b_from == "l:" + first[0]]
    st = t.states[loser[0].id]
    assert b in (st.a, st.b) and st.status == "ready"  # one loss: still in
    # A pool match conceded by the striker (A, who breaks): a retirement, B goes on.
    put(db, journal(t, loser[0].id, ["frame A", "concede"]))
    assert state(db, loser[0].id)[1:] == (st.b, None, "retired")


def test_a_correction_re_routes_the_bracket_or_is_refused_with_the_reason(sqlite_db):
    db = sqlite_db
    t = made(db)
    w1 = journal(t, "W1-01", ["frame A", "rack A", "frame", "rack A"], swap=True)
    assert put(db, w1) == "new"
    st = store.load(db, "Pool").states["W1-01"]
    # The box had the players the other way round: side B (the match's a) won 2-0.
    assert state(db, "W1-01") == ("done", st.b, (0, 2), "played")
    assert store.load(db, "Pool").states["F1"].a == st.b
    # Corrected on the box (undo, then the other side wins): held for the desk without
    # --accept-corrections (issue 37: kept, with both results), re-routed with it.
    again = w1 + [with_checksum(ln) for ln in ("undo", "rack B", "frame", "rack B")]
    assert put(db, again) == "held"
    held = store.held(db, "Pool")
    assert len(held) == 1 and "corrected on the box" in held[0]["reason"]
    assert put(db, again, accept=True) == "corrected"
    assert store.held(db, "Pool") == []  # taken by the box's own correction
    assert state(db, "W1-01") == ("done", st.a, (2, 1), "played")
    assert store.load(db, "Pool").states["F1"].a == st.a
    # Once the final has started, a correction that changes its players is refused with
    # the reason, and the corrected journal is not stored either.
    t = store.load(db, "Pool")
    store.result(db, "Pool", "W1-02", t.states["W1-02"].a, (2, 0), via="test")
    t = store.load(db, "Pool")
    assert put(db, journal(t, "F1", ["frame A"]), in_play=True) == "new"
    assert state(db, "F1")[0] == "playing"
    back = again + [with_checksum(ln) for ln in ("undo", "rack A")]
    assert put(db, back, accept=True) == "held"
    why = store.held(db, "Pool")[0]["reason"]
    assert "it changes who plays in F1" in why and "which has started" in why
    assert db.match("Pool-W1-01")["frames_a"] == 1  # the version before stays
    assert state(db, "W1-01") == ("done", st.a, (2, 1), "played")


def test_a_failing_bracket_update_takes_the_match_row_back(sqlite_db, monkeypatch):
    db = sqlite_db
    t = made(db)
    lines = journal(t, "W1-01", ["frame A", "rack A", "frame", "rack A"])
    other = [ln.replace('"%s"' % store.advance.name_of(t, t.states["W1-01"].b), '"Zed"')
             if "side B" in ln else ln for ln in lines]
    other = [with_checksum(ln.rsplit(" *", 1)[0]) for ln in other]
    store.assign(db, "Pool", "W1-01", 1, "test", box="BOX1")
    audit = len(store.audit(db, "Pool"))
    assert put(db, other) == "held"  # for the desk (issue 37), not stored as a match
    why = store.held(db, "Pool")[0]["reason"]
    assert "the box played" in why and "enter its result by hand" in why
    assert db.match("Pool-W1-01") is None and db.counts() == (0, 0)
    assert [w for _, _, w, _, _ in store.audit(db, "Pool")[audit:]] == ["held"]
    assert state(db, "W1-01")[0] == "assigned"
    # A result entered by hand that the box's differs from is held, not stored.
    store.result(db, "Pool", "W1-01", t.states["W1-01"].b, (0, 2), via="test")
    assert put(db, lines) == "held"
    assert "entered by hand" in store.held(db, "Pool")[1]["reason"] and db.counts() == (0, 0)
    # Opened without the tournament's bracket, the database refuses a tournament match,
    # never stores it beside a bracket that misses it.
    monkeypatch.setattr(db, "bracket", None)
    with pytest.raises(Conflict) as e:
        put(db, journal(t, "W1-02", ["frame A"]), in_play=True)
    assert "opened without its bracket" in str(e.value) and db.counts() == (0, 0)


@pytest.mark.needs_build  # the virtual device (the MicroPython unix port)
def test_live_stores_a_tournament_match_into_the_bracket(tmp_path):
    """`live --db`'s pull (host_tools/live/results.py, what a followed table runs when a
    match ends) fills the bracket as sync does."""
    from host_tools.device.connect import open_box
    from host_tools.live.results import Results

    url = str(tmp_path / "r.sqlite")
    players = tmp_path / "players.csv"
    players.write_text(PLAYERS, encoding="utf-8")
    ok("tournament", "create", "Pool", "--format", "single", "--players", players, "--race",
       "1", "--breaks", "winner", "--seed", "3", "--db", url)
    flash = tmp_path / "box"
    with VirtualDevice(flash) as dev:
        ok("tournament", "assign", "Pool", "W1-02", "--table", "2", "--port", dev.port,
           "--db", url)
    head = (flash / "queue" / "Pool-W1-02.sbn").read_text(encoding="utf-8").splitlines()
    assert "breaks winner" in head and "match race-to 1" in head
    play(flash, tmp_path, ["ok", "rackB"], "keys.txt")  # side B wins the one rack
    with VirtualDevice(flash) as dev, open_box(dev.port) as board:
        counts = Results(url, bracket=boxresults).pull(board, 2)
    assert counts["pulled"] == 1
    m = shown(url, "Pool")
    assert (m["W1-02"]["status"], m["W1-02"]["winner"], m["W1-02"]["score"]) == (
        "done", m["W1-02"]["b"], [0, 1])
    assert m["F1"]["b"] == m["W1-02"]["b"]


def test_a_result_by_hand_the_box_agrees_with_is_kept_as_it_is(sqlite_db):
    db = sqlite_db
    t = made(db)
    a = t.states["W1-01"].a
    store.assign(db, "Pool", "W1-01", 1, "test", box="BOX1")
    store.result(db, "Pool", "W1-01", a, (2, 0), via="test")
    trail = len(store.audit(db, "Pool"))
    assert put(db, journal(t, "W1-01", ["frame A", "rack A", "frame", "rack A"])) == "new"
    assert db.match("Pool-W1-01")["frames_a"] == 2  # the row is stored
    assert len(store.audit(db, "Pool")) == trail  # and the bracket had nothing to change
    assert store.load(db, "Pool").results["W1-01"].by == "test"
    assert db.rows("SELECT changes FROM tournaments WHERE name = 'Pool'")[0][0] == trail
