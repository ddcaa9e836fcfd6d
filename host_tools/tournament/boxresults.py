"""Results come in by themselves: the bracket a results database is opened with
(`open_db(url, bracket=boxresults)`, host_tools/results/db), which puts a match a box
played into its tournament's bracket inside the transaction that stores the match's row.
The commands that store matches (sync, live, desk, tournament) open their database with
it, and so must any other program that stores matches of a tournament; without it the
database refuses such a match rather than store it beside a bracket that misses it.

A result from a box the match was not assigned to (tournament/identity.py), and one the
bracket cannot take (the box played other players, a correction that would change a
match already started, a result entered by hand that differs) is a Conflict with the
reason: the match row is rolled back with it and the journal is held for the desk
(`hold`: `sync` says `held ...` (`held_text`), the desk page and `tournament show` list
it) until the desk takes or keeps it (store.decide); the box keeps its file meanwhile.
"""

from host_tools.results.db import Conflict
from host_tools.tournament import TournamentError, store

hold = store.hold


def take(db, rec, outcome, found):
    """A stored match's result into its bracket: `found` is (tournament, match id) of
    `rec["id"]`; Conflict (the row rolled back) when the bracket cannot take it."""
    name, match_id = found
    try:
        store.box_result(db, name, match_id, rec, outcome)
    except TournamentError as e:
        raise Conflict("tournament %s match %s: %s" % (name, match_id, e)) from None


def held_text(db, mid, rec):
    """The `held` line of journal `mid` that the desk must decide on, as sync prints it."""
    found = db.rows("SELECT tournament FROM tournament_matches WHERE box_match = ?", (mid,))
    for h in store.held(db, found[0][0]) if found else ():
        if h["sha256"] == rec["sha256"]:
            return "%s; the desk decides (scoreboard tournament decide %s %d take|keep)" % (
                store.held_line(h), found[0][0], h["n"])
    return "held %s from box %s for the desk" % (mid, rec["box"])
