"""Straight pool's keys: balls scored, fouls and breaking fouls, re-racks, and straight
pool's part of the menu. The grammar (`grammar.py`) takes what every game shares and
hands the rest to `Keys` (its interface is in grammar.py's docstring).

`ball` scores one (`score 1`; held long, a number entry of the balls), `score` starts a
number entry of 1 to 15 balls, `foul` and `break` are `foul` and `foul break` (with
`time` held long or once the clock has run out), `rerack` is `rerack` (`rerack 15` held
long); `end` and `again` are their words. A penalty takes points off by number.
"""

from . import menus, pool


def _penalty(letter):
    """Straight pool's penalty: a number of points taken off."""
    return menus.NUMBER, "penalty " + letter


class Keys(pool.Keys):
    """Straight pool's keys for a Grammar `g` (grammar.py): the pool keys' pattern (the
    `side` key, no entry of several keys of its own), its own keys and menu."""

    def menu(self, prompts):
        match = self.g.match
        items = [("rerack 15", menus.LINE, "rerack 15"),
                 ("foul break time", menus.LINE, "foul break time"),
                 ("concede match", menus.LINE, "concede"),
                 ("penalty", menus.SUB, menus.sides_menu(
                     match, "PENALTY: WHO IS PENALISED?", _penalty)),
                 ("award", menus.SUB, menus.award_menu(match)),
                 ("restart", menus.LINE, "restart")]
        return menus.play_menu(match, items, (("foul time", menus.LINE, "foul time"),))

    def key(self, name, long):
        g = self.g
        if name == "ball":
            if long:
                return g.start_number("score", False, 15)
            return g.done("score 1")
        if name == "score":
            return g.start_number("score", False, 15)
        if name == "foul" or name == "break":
            words = "foul break" if name == "break" else "foul"
            return g.done(words + " time" if g.time_flag(long) else words)
        if name == "rerack":
            return g.done("rerack 15" if long else "rerack")
        return g.done(name)  # end, again
