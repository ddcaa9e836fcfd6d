"""Results come in by themselves: the results database's hook (host_tools/results/db
`on_store`) that puts a match a box played into its tournament's bracket, inside the
transaction that stores the match's row. Registered on import: the commands import
this module (sync, live, tournament, and so every `scoreboard` command, whose entry
point loads them all), and so must any other program that stores matches of a
tournament; without it the database refuses such a match rather than store it beside a
bracket that misses it.

A result from a box the match was not assigned to (tournament/identity.py), and one the
bracket cannot take (the box played other players, a correction that would change a
match already started, a result entered by hand that differs) is a Conflict with the
reason: the match row is rolled back with it and the journal is held for the desk
(store.hold: `sync` says `held ...`, the desk page and `tournament show` list it) until
the desk takes or keeps it (store.decide); the box keeps its file meanwhile.
"""

from host_tools.results.db import Conflict, on_hold, on_store
from host_tools.tournament import TournamentError, store


def take(db, rec, outcome, found):
    """Database.store's hook: `found` is (tournament, match id) of `rec["id"]`."""
    name, match_id = found
    try:
        store.box_result(db, name, match_id, rec, outcome)
    except TournamentError as e:
        raise Conflict("tournament %s match %s: %s" % (name, match_id, e)) from None


on_store(take)
on_hold(store.hold)
