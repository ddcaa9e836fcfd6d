"""The header of a match file: the lines before the first `frame` (docs/notation.md).

What is played (`game`, `match`, `breaks`), by whom (`side`), under which settings
(`rules`, `clock`), plus `sbn`, `id`, `box` and `date`. Each line is checked as it is
read, and what depends on two lines (a game and its kind of match) on whichever comes
second.

`box ID` is an addition to docs/notation.md's header (its rule: add words, never change one):
the box that made the match, written by the box when it starts one (journal.py), so
that a match id is unique per box and the host keys its database by both. Its ID is
checked by `check_id`, it is given at most once, and only in the header.

`lang CODE` is another (issue 18): the language of the match's event (en, pl, bg), which
the box speaks on that match's screens instead of its own settings' while the match is
played. At most once, header only; the replay JSON has no key for it (the notation's
words stay English whatever the language).

`table N` is a third (issue 24): the table the match is played on, a number 1..99 (from
`scoreboard setup`'s table column), so that whatever numbers the tables (the live side)
need not guess it from the id. At most once, header only; None when not given (older
headers stay valid).

The `rules` keys `threefoul=0|1` and `pushout=0|1` are additions too (issue 27 item 3,
the options clubs vary): the three-foul rule (nine-ball, ten-ball and straight pool by
default, eight-ball only when a club switches it on) and the push out after the break
(nine- and ten-ball; refused in eight-ball and straight pool). Each key is checked
against the game in `check()`, as `misses` is a snooker setting.
"""

from .vocab import SIDES
from .words import (GAMES, RULES_KEYS, RULES_SWITCHES, check_id, choice, clock_settings, count,
                    family, key_values, number, quote, shown, side)

HEADER_WORDS = ("sbn", "id", "box", "date", "lang", "table", "game", "match", "breaks",
                "side", "rules", "clock")
# The languages the box has tables for (scoreboard/lang's LANGS: the core imports
# nothing outside itself; tests/lang/test_i18n_match_lang.py keeps the two the same).
LANGS = ("en", "pl", "bg")


class Header:
    """The lines before the first `frame`: what is played, by whom, under which settings."""

    # The official values of the `rules` keys a header leaves out: the late start's
    # minutes (seed 004 1.7) and snooker's misses in a row.
    LATE = 15
    MISSES = 3

    def __init__(self):
        self.version = None
        self.id = None
        self.box = None  # the box that made the match (`box ID`), None until given
        self.date = None
        self.lang = None  # the event's language (`lang CODE`), None: the box's own
        self.table = None  # the table played on (`table N`, 1..99), None: not said
        self.game = None
        self.reds = 15
        self.kind = None  # best-of, frames, race-to, points
        self.target = 0
        self.by_points = False
        self.breaks = "alternate"
        self.sides = [(), ()]  # each a tuple of one or two names; () until given
        self.rules = ()  # key=value words as given
        self.clock = ()  # key=value words as given

    def __eq__(self, other):
        return self.lines() == other.lines()

    def rule(self, key, default):
        for kv in self.rules:
            if kv.startswith(key + "="):
                return int(kv[len(key) + 1:])
        return default

    def three_fouls(self):
        """Whether three fouls in a row lose the rack (cost 15 in straight pool):
        `rules threefoul=0|1`, by default on in nine-ball, ten-ball and straight pool,
        off in eight-ball (the WPA's rules); never in snooker."""
        if self.game is None or self.game == "snooker":
            return False
        return self.rule("threefoul", 1 if self.official_three_fouls() else 0) == 1

    def official_three_fouls(self):
        """Whether the WPA's rules play the three-foul rule in this game."""
        return self.game not in (None, "snooker", "eightball")

    def push_out(self):
        """Whether the shot after the break may be a push out: `rules pushout=0|1`, by
        default on in nine- and ten-ball; never in the other games."""
        return (self.game == "nineball" or self.game == "tenball") and \
            self.rule("pushout", 1) == 1

    def parse(self, tokens, quoted):
        """Take one header line; ValueError says what is wrong with it."""
        word = tokens[0]
        args = tokens[1:]
        if self.version is None:
            if word != "sbn":
                raise ValueError("the first line must be 'sbn 1'")
            count(args, 1, 1, word)
            if number(args[0], 0, 99) != 1:
                raise ValueError("unsupported format version %s" % args[0])
            self.version = 1
            return
        if word == "sbn":
            raise ValueError("'sbn' given twice")
        if word in ("id", "date", "box", "lang", "table"):
            self._single(word, args)
        elif word == "game":
            self._game(args)
        elif word == "match":
            self._match(args)
        elif word == "breaks":
            count(args, 1, 1, word)
            self.breaks = choice(args[0], ("alternate", "winner", "loser"), "breaks")
            self._check_game()
        elif word == "side":
            self._side(args, quoted)
        elif word == "rules":
            count(args, 1, 8, word)
            self.rules = key_values(args, RULES_KEYS, "rules", RULES_SWITCHES)
        elif word == "clock":
            count(args, 1, 8, word)
            clock_settings(args)
            self.clock = tuple(args)
        else:
            raise ValueError("unknown header word '%s'" % shown(word))

    def _single(self, word, args):
        """A word of one value, given once: `id`, `date`, `box`, `lang`, `table`."""
        count(args, 1, 1, word)
        if getattr(self, word) is not None:
            raise ValueError("'%s' given twice" % word)
        value = args[0]
        if word == "box":
            value = check_id(value, "box")
        elif word == "lang":
            value = choice(value, LANGS, "lang")
        elif word == "table":
            value = number(value, 1, 99)
        setattr(self, word, value)

    def _game(self, args):
        if self.game is not None:
            raise ValueError("'game' given twice")
        count(args, 1, 2, "game")
        game = choice(args[0], GAMES, "game")
        if len(args) == 2:
            if game != "snooker" or not args[1].startswith("reds="):
                raise ValueError("unexpected '%s' after game %s" % (args[1], game))
            reds = number(args[1][5:], 0, 15)
            if reds not in (15, 10, 6):
                raise ValueError("reds must be 15, 10 or 6")
            self.reds = reds
        self.game = game
        self._check_game()

    def _match(self, args):
        if self.kind is not None:
            raise ValueError("'match' given twice")
        count(args, 2, 4, "match")
        kind = choice(args[0], ("best-of", "frames", "race-to", "points"), "match")
        target = number(args[1], 1, 10000)
        rest = args[2:]
        by_points = False
        if rest:
            if kind != "frames" or len(rest) != 2 or rest[0] != "by" or rest[1] != "points":
                raise ValueError("unexpected '%s' in match" % " ".join(rest))
            by_points = True
        if kind == "best-of" and target % 2 == 0:
            raise ValueError("best-of needs an odd number of frames")
        self.kind = kind
        self.target = target
        self.by_points = by_points
        self._check_game()

    def _check_game(self):
        """What the game rules out, checked on whichever line makes it known."""
        if self.game is None:
            return
        fam = family(self.game)
        if self.kind is not None:
            want = ("best-of", "frames") if fam == "snooker" else \
                ("race-to",) if fam == "pool" else ("points",)
            if self.kind not in want:
                raise ValueError("%s is played as %s" % (self.game, " or ".join(want)))
        if fam == "snooker" and self.breaks != "alternate":
            raise ValueError("in snooker the break-off alternates")

    def _side(self, args, quoted):
        count(args, 2, 3, "side")
        s = SIDES.index(side(args[0]))
        names = args[1:]
        for i in range(len(names)):
            if i + 2 not in quoted:
                raise ValueError("names are double-quoted")
            if not names[i]:
                raise ValueError("empty name")
        if self.sides[s]:
            raise ValueError("side %s given twice" % args[0])
        self.sides[s] = tuple(names)

    def check(self):
        """ValueError naming the first required line that is missing or contradicted."""
        if self.version is None:
            raise ValueError("the first line must be 'sbn 1'")
        if self.game is None:
            raise ValueError("missing 'game' line")
        if self.kind is None:
            raise ValueError("missing 'match' line")
        for s in range(2):
            if not self.sides[s]:
                raise ValueError("missing 'side %s' line" % SIDES[s])
        for kv in self.rules:  # each key in the games it is a setting of
            key = kv[:kv.find("=")]
            if key == "misses" and self.game != "snooker":
                raise ValueError("'misses' is a snooker setting")
            if key == "threefoul" and self.game == "snooker":
                raise ValueError("'threefoul' is a pool setting")
            if key == "pushout" and self.game != "nineball" and self.game != "tenball":
                raise ValueError("'pushout' is a nine-ball and ten-ball setting")

    def lines(self):
        out = ["sbn %d" % (self.version or 1)]
        if self.id is not None:
            out.append("id " + self.id)
        if self.box is not None:
            out.append("box " + self.box)
        if self.date is not None:
            out.append("date " + self.date)
        if self.lang is not None:
            out.append("lang " + self.lang)
        if self.table is not None:
            out.append("table %d" % self.table)
        out.append("game snooker reds=%d" % self.reds if self.game == "snooker"
                   else "game %s" % self.game)
        out.append("match %s %d%s" % (self.kind, self.target,
                                      " by points" if self.by_points else ""))
        if self.breaks != "alternate":
            out.append("breaks " + self.breaks)
        for s in range(2):
            out.append("side %s %s" % (SIDES[s], " ".join(quote(n) for n in self.sides[s])))
        if self.rules:
            out.append("rules " + " ".join(self.rules))
        if self.clock:
            out.append("clock " + " ".join(self.clock))
        return out
