"""The one table of the notation's event words: per word, the games that take it, how
its arguments are read, and what kind of word it is.

Adding a word is one row here (and its rule in the frame or the match): the parser
(`notation.py`) reads the argument kind and the counts, the match (`match.py`) reads the
kind and the flags, both straight from `WORDS` (the tests' questions of the table are in
tests/support/wordtable.py).

Kinds, as the match treats them:
- `stroke`: a shot was played (`pot`, `foul`, `end`, `score`, `push`): the shot ends,
  the next one is set and timed. The frame's first stroke is the break-off.
- `decision`: the referee sets the balls for the next shot (`again`, `free`, `replace`,
  `respot`, `pass`, `rerack`): the next shot is set and timed.
- `result`: the rack's last shot was played and won it (`rack`).
- `ruling`: a ruling that is not a shot (`warn`, `penalty`, `award`, `claim`,
  `concede`): shot timing goes on.
- `match`: the match itself handles it (`forfeit`, `abandon`, `called`, `suspend`,
  `resume`, `restart`).
- `clock`: the shot clock (`clock`, `go`, `hit`, `extend`).
- `frame` and `undo`: a new frame; the withdrawal of the last event.
Flags: `SUSPENDED_OK` (taken while play is suspended), `PRE_FRAME` (taken between the
header and the first `frame`), `RESPOT_OK` (taken while the board waits for `respot`).
"""

from micropython import const

# The ball colours of snooker, in order of value (2 to 7): the one definition.
COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")
SIDES = ("A", "B")
FAMILIES = ("snooker", "pool", "straight")
# The header's games; eight-, nine- and ten-ball are the pool family.
GAMES = ("snooker", "eightball", "nineball", "tenball", "straight")

# Games, as a bit mask.
SNOOKER = const(1)
POOL = const(2)
STRAIGHT = const(4)
_ALL = const(7)

# Flags.
SUSPENDED_OK = const(1)
PRE_FRAME = const(2)
RESPOT_OK = const(4)
_ANYTIME = const(7)  # suspended, before the first frame, waiting for respot

# How the words after an event word are read (the parser's cases).
ARG_NONE = const(0)  # nothing
ARG_SIDE_OPT = const(1)  # an optional side: `frame [A]`, `abandon [A]`
ARG_SIDE = const(2)  # one side: `respot A`, `warn A`
ARG_SIDE_WHY = const(3)  # a side and a reason: `award A miss3`, `forfeit A late`
ARG_PENALTY = const(4)  # a side and points: `penalty A 4`
ARG_CLOCK = const(5)  # `on KEY=VALUE...` or `off`
ARG_RACK = const(6)  # a side, then `run` and/or `golden`
ARG_COUNT = const(7)  # a number of balls, 1 to 15: `score 3`
ARG_RERACK = const(8)  # nothing, or 15
ARG_POT = const(9)  # snooker: ball names; pool: ball numbers
ARG_FOUL = const(10)  # snooker: value, balls, miss, time; pool/straight: details

# (word, games, kind, flags, argument kind, fewest words after it, most), in the order
# that `words_for` gives them (a tuple: dict order differs between the interpreters).
TABLE = (
    ("frame", _ALL, "frame", 0, ARG_SIDE_OPT, 0, 1),
    ("undo", _ALL, "undo", SUSPENDED_OK | RESPOT_OK, ARG_NONE, 0, 0),
    ("pot", SNOOKER | POOL, "stroke", 0, ARG_POT, 1, 16),
    ("foul", _ALL, "stroke", 0, ARG_FOUL, 0, 20),
    ("end", _ALL, "stroke", 0, ARG_NONE, 0, 0),
    ("score", STRAIGHT, "stroke", 0, ARG_COUNT, 1, 1),
    ("push", POOL, "stroke", 0, ARG_NONE, 0, 0),
    ("again", SNOOKER | STRAIGHT, "decision", 0, ARG_NONE, 0, 0),
    ("free", SNOOKER, "decision", 0, ARG_NONE, 0, 0),
    ("replace", SNOOKER, "decision", 0, ARG_NONE, 0, 0),
    ("respot", SNOOKER, "decision", RESPOT_OK, ARG_SIDE, 1, 1),
    ("pass", POOL, "decision", 0, ARG_NONE, 0, 0),
    ("rerack", STRAIGHT, "decision", 0, ARG_RERACK, 0, 1),
    ("rack", POOL, "result", 0, ARG_RACK, 1, 3),
    ("warn", POOL | STRAIGHT, "ruling", 0, ARG_SIDE, 1, 1),
    ("penalty", _ALL, "ruling", 0, ARG_PENALTY, 2, 2),
    ("award", _ALL, "ruling", SUSPENDED_OK | RESPOT_OK, ARG_SIDE_WHY, 2, 2),
    ("claim", SNOOKER, "ruling", 0, ARG_NONE, 0, 0),
    ("concede", _ALL, "ruling", 0, ARG_NONE, 0, 0),
    ("forfeit", _ALL, "match", _ANYTIME, ARG_SIDE_WHY, 2, 2),
    ("abandon", _ALL, "match", _ANYTIME, ARG_SIDE_OPT, 0, 1),
    ("called", _ALL, "match", PRE_FRAME, ARG_NONE, 0, 0),
    ("suspend", _ALL, "match", 0, ARG_NONE, 0, 0),
    ("resume", _ALL, "match", SUSPENDED_OK, ARG_NONE, 0, 0),
    ("restart", _ALL, "match", RESPOT_OK, ARG_NONE, 0, 0),
    ("clock", _ALL, "clock", _ANYTIME, ARG_CLOCK, 1, 9),
    ("go", _ALL, "clock", RESPOT_OK, ARG_NONE, 0, 0),
    ("hit", _ALL, "clock", RESPOT_OK, ARG_NONE, 0, 0),
    ("extend", _ALL, "clock", RESPOT_OK, ARG_NONE, 0, 0),
)
WORDS = {row[0]: row for row in TABLE}

AWARD_WHY = ("miss3", "conduct", "time", "other")
FORFEIT_WHY = ("late", "conduct", "retired", "disqualified")


def family(game):
    """The family of a header's game word (snooker, pool, straight): the one place that
    says so, for the parser, the match, the keys and the screens."""
    if game == "snooker" or game == "straight":
        return game
    if game == "eightball" or game == "nineball" or game == "tenball":
        return "pool"
    raise ValueError("unknown game '%s'" % game)


def family_bit(fam):
    if fam == "snooker":
        return SNOOKER
    if fam == "pool":
        return POOL
    return STRAIGHT


def reasons(word):
    """The reasons a word takes (`award`, `forfeit`), else ()."""
    if word == "award":
        return AWARD_WHY
    if word == "forfeit":
        return FORFEIT_WHY
    return ()
