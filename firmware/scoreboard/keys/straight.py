"""Straight pool's keys: balls scored, fouls and breaking fouls, re-racks, and straight
pool's part of the menu. The grammar (`grammar.py`) takes what every game shares and
hands the rest to `Keys` (its interface is in grammar.py's docstring).

`ball` scores one (`score 1`; held long, a number entry of the balls), `score` starts a
number entry of 1 to the most one stroke may score (14 of a full rack, else the balls
on the table: the prompt says `1-14`), `foul` and `break` are `foul` and `foul break` (with
`time` held long or once the clock has run out), `rerack` is `rerack` (`rerack 15` held
long; `rerack` is refused while 15 balls are on the table: the board re-racks by itself
when one is left); `end` and `again` are their words. A penalty takes points off by
number. After an opening-break foul the panel shows the incoming side's choice.
"""

from scoreboard.core.vocab import SIDES
from scoreboard.lang import t

from . import menus, play, pool
from .result import NUMBER, give, opens, refuse

_RACK = 15


def _penalty(letter):
    """Straight pool's penalty: a number of points taken off."""
    return menus.NUMBER, "penalty " + letter


class Keys(pool.Keys):
    """Straight pool's keys for the grammar of `match` (grammar.py): the pool keys'
    pattern (the `side` key, no entry of several keys of its own), its own keys and
    menu."""

    def pending(self, v):
        """After an opening-break foul: the incoming side's choice; after a third foul in
        a row, that the offender breaks again, all 15 racked, under the opening-break
        rules (issue 33: the score said -16, nothing said who breaks); else None."""
        f = self.match.frame
        if f.last == "foul-break":
            return t("t.broke_foul") % SIDES[v.striker or 0]
        if f.last == "foul" and f.opening:  # only the third foul leaves a break to come
            return t("t.rebreak") % SIDES[v.striker or 0]
        return None

    def _most(self):
        """The most balls one `score` may give: those on the table, 14 of a full rack
        (the 15th then comes from the next rack: docs/rules.md)."""
        balls = self.match.frame.balls
        return _RACK - 1 if balls >= _RACK else balls

    def menu(self, prompts):
        match = self.match
        items = [(t("t.rerack15"), menus.LINE, "rerack 15"),
                 (t("t.foul_break_time"), menus.LINE, "foul break time"),
                 (t("p.concede_match"), menus.SUB, menus.concede_menu(
                     match, "MATCH", play.striker_side(match))),
                 (t("k.penalty"), menus.SUB, menus.sides_menu(
                     match, t("k.penalised"), _penalty)),
                 (t("k.award"), menus.SUB, menus.award_menu(match)),
                 (t("t.restart"), menus.LINE, "restart")]
        return menus.play_menu(match, items, ((t("p.foul_time"), menus.LINE, "foul time"),))

    def key(self, name, long):
        if name == "ball":
            if long:
                return opens(NUMBER, ("score", False, self._most()))
            return give("score 1")
        if name == "score":
            return opens(NUMBER, ("score", False, self._most()))
        if name == "foul" or name == "break":
            words = "foul break" if name == "break" else "foul"
            return give(words + " time" if play.time_flag(self.match, long) else words)
        if name == "rerack":
            if not long and self.match.frame.balls == _RACK:
                return refuse(t("t.reracked"))
            return give("rerack 15" if long else "rerack")
        return give(name)  # end, again
