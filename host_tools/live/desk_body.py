"""The desk's actions' JSON bodies, checked (desk.py's POSTs): every field of the type it
must have, else a TournamentError of one line naming the field (answered 400), never a
500 with a traceback in the log: text fields are strings, numbers whole numbers (or
their digits as a string, as a form's input gives them), `stages` an object of objects,
and `correct` a JSON boolean (`"no"` is not false, nor is it true: it is refused).
"""

import secrets

from host_tools.tournament import TournamentError, conditions, players, store
from host_tools.tournament.model import FORMATS, HOWS, STAGE_KEYS


def text(body, key, empty=None):
    """The string `body[key]`, trimmed (`empty` for none or ""); TournamentError for
    another type."""
    value = body.get(key)
    if value is None:
        return empty
    if not isinstance(value, str):
        raise TournamentError('"%s": a text is needed', key)
    return value.strip() or empty


def number(value, what, low=1, high=10 ** 6):
    """A whole number from `low` to `high` (or its digits as a string), None for none or
    ""; TournamentError for anything else."""
    if value in (None, ""):
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise TournamentError("%s: a whole number from %d", what, low)
    return value


def flag(body, key):
    """The JSON boolean `body[key]` (absent: false); TournamentError for anything else."""
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise TournamentError('"%s": true or false (a JSON boolean)', key)
    return value


def new_tournament(body):
    """The Tournament the create form asks for (drawn, not stored), as `tournament
    create` makes it from its options."""
    name = store.check_name(text(body, "name", ""))
    fmt = body.get("format")
    if fmt not in FORMATS:
        raise TournamentError("the format is %s", ", ".join(FORMATS))
    race, best = number(body.get("race"), "race"), number(body.get("best_of"), "best of")
    if race and best:
        raise TournamentError("give a race or a best-of, not both")
    given = body.get("stages") or {}
    if not isinstance(given, dict):
        raise TournamentError('"stages": an object {stage: {"race" or "best_of": N}}')
    stages = {}
    for key, value in given.items():
        if key not in STAGE_KEYS or not isinstance(value, dict):
            raise TournamentError("no stage %s (the stages: %s)", key, ", ".join(STAGE_KEYS))
        stages[key] = (number(value.get("race"), key + " race"),
                       number(value.get("best_of"), key + " best of"))
    groups = number(body.get("groups"), "groups")
    advance_k = number(body.get("advance"), "advance")
    conditions.check_groups(fmt, groups, advance_k)
    game = text(body, "game")
    clock = text(body, "clock")
    breaks = text(body, "breaks")
    if breaks not in (None, "alternate", "winner", "loser"):
        raise TournamentError("breaks %s: alternate, winner or loser", breaks)
    rules = {k: number(body.get(k), k) for k in ("late", "misses")}
    for k in ("threefoul", "pushout"):
        rules[k] = conditions.switch(text(body, k), k)
    game, conds = conditions.conditions(fmt, game, race, best, stages, clock, breaks,
                                        {k: v for k, v in rules.items() if v is not None})
    entries = players.entries(text(body, "players", ""), "players")
    seed = number(body.get("seed"), "the draw's seed", 0, 2 ** 31 - 1)
    seed = seed if seed is not None else secrets.randbelow(10 ** 9)
    return store.make(name, fmt, entries, game, conds, seed, groups, advance_k)


def result(body):
    """(match, winner, score or None, how, correct) of a result's body."""
    match = text(body, "match", "")
    how = text(body, "how", "played")
    if how not in HOWS:
        raise TournamentError("unknown kind of result %s", how)
    winner = body.get("winner")
    if not (isinstance(winner, str) or (isinstance(winner, int) and
                                        not isinstance(winner, bool))):
        raise TournamentError('"winner": a player\'s id or name')
    score = body.get("score")
    if score is not None:
        if not (isinstance(score, list) and len(score) == 2):
            raise TournamentError("a score is two numbers")
        score = tuple(number(x, "a score", 0, 9999) for x in score)
        if None in score:
            raise TournamentError("give both scores")
    return match, winner, score, how, flag(body, "correct")
