"""Pool's keys (eight-, nine- and ten-ball): who won the rack, the balls potted, fouls,
and pool's part of the menu. The grammar (`grammar.py`) takes what every game shares and
hands the rest to `Keys` (its interface is in grammar.py's docstring).

`rackA` / `rackB` give `rack A` / `rack B`; held long they open the rack's details
(break and run, nine-ball's golden break). `pot` starts a number entry of the balls
potted (1 to the game's highest ball, the rules' `BALLS`), `foul` is `foul` (`foul time`
held long or once the clock has run out); `end`, `push` and `pass` are their words.
After a push out the panel shows whose choice it is, to play or pass (`pending`). In a
match whose header switches the push out off (`rules pushout=0`) `push` is refused with
the rules' reason.
"""

from scoreboard.core.rules.pool import BALLS
from scoreboard.core.vocab import SIDES
from scoreboard.lang import t

from . import menus, play
from .result import NUMBER, TREE, give, opens, refuse


def rack_menu(match, letter):
    """Who won the rack, with its details (`run`, nine-ball's `golden`) or none."""
    items = [(t("p.rack"), menus.LINE, "rack " + letter),
             (t("p.break_run"), menus.LINE, "rack %s run" % letter)]
    if match.header.game == "nineball":
        items.append((t("p.golden"), menus.LINE, "rack %s golden" % letter))
        items.append((t("p.golden_run"), menus.LINE, "rack %s run golden" % letter))
    return (t("p.RACK") % letter, items)


class Keys:
    """Pool's keys for the grammar of `match` (grammar.py): each key's answer is a
    Result of result.py's."""

    def __init__(self, match):
        self.match = match

    # No entry of several keys of its own (the number entry is the grammar's): never in
    # ENTRY, so these three have nothing to do.
    def clear(self):
        pass

    def entry_text(self):
        return None

    def entry_key(self, name, long):
        return refuse(t("p.no_entry"))

    def pending(self, v):
        """The decision waiting in play (View `v`): after a push out, the incoming
        side's choice; else None."""
        return t("p.pushed") % SIDES[v.striker or 0] if self.match.frame.last == "push" \
            else None

    def menu(self, prompts):
        match = self.match
        items = [(t("p.details") % "A", menus.SUB, rack_menu(match, "A")),
                 (t("p.details") % "B", menus.SUB, rack_menu(match, "B")),
                 (t("p.concede_match"), menus.SUB, menus.concede_menu(
                     match, "MATCH", play.striker_side(match))),
                 (t("k.award"), menus.SUB, menus.award_menu(match)),
                 (t("p.restart"), menus.LINE, "restart")]
        return menus.play_menu(match, items, ((t("p.foul_time"), menus.LINE, "foul time"),))

    def key(self, name, long):
        match = self.match
        if name == "rackA" or name == "rackB":
            letter = name[-1]
            if long:
                return opens(TREE, rack_menu(match, letter))
            return give("rack " + letter)
        if name == "pot":
            return opens(NUMBER, ("pot", True, BALLS[match.header.game]))
        if name == "foul":
            return give("foul time" if play.time_flag(match, long) else "foul")
        if name == "push" and match.header.game != "eightball" and not match.header.push_out():
            return refuse(t("=the push out is off in this match"))  # `rules pushout=0`
        return give(name)  # end, push, pass
