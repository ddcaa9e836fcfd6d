"""Snooker's keys: one press per pot, the foul entry and the pot of several balls, and
snooker's part of the menu. The grammar (`grammar.py`) takes what every game shares and
hands the rest to `Keys` (its interface is in grammar.py's docstring).

A ball key pots that ball (`pot pink`); with a free ball on, a colour that is not on is
the free ball (`pot free`); a long `red` starts a pot of several reds (each `red` adds
one, `ok` ends it), and `free` with the free ball on starts a pot of the free ball with
others. The foul entry (`foul`, or `miss`) is worth the least the ball on allows: a
colour names the ball concerned (value up to 7), the same colour again or a red says it
went down (a colour held long says both at once, a red held long two reds down: `foul
pink! ok` is `foul 6 pink`, three presses), `foul` again adds a point up to 7 (the
entry shows `FOUL 7 (max)`; one more is refused, never turned back to the least), a
long `foul` toggles `time` (set already when the clock has run out), `miss` ends it
with `miss`, `ok` ends it: `foul
pink ok` gives `foul 6`. `again`, `free`, `replace` and `end` are their words. After a
foul the panel shows the incoming side's choices, and with a free ball on that the
side nominates (`pending`).
"""

from micropython import const

from scoreboard.core.vocab import COLOURS, SIDES
from scoreboard.lang import t, tn, upper_word, word

from . import menus, play
from .result import ENTRY, PLAY_MENU, give, keep, opens, refuse

_FOUL = const(1)  # the foul entry
_POT = const(2)  # a pot of several balls (reds, or the free ball with others)
_MIN_FOUL = const(4)
_MAX_FOUL = const(7)


def colour_value(name):
    return COLOURS.index(name) + 2


def _penalty(letter):
    """Snooker's penalty: 4 to 7 points to the other side."""
    items = [(str(n), menus.LINE, "penalty %s %d" % (letter, n)) for n in (4, 5, 6, 7)]
    return menus.SUB, (t("k.penalty_points") % letter, items)


class Keys:
    """Snooker's keys for the grammar of `match` (grammar.py): each key's answer is a
    Result of result.py's."""

    def __init__(self, match):
        self.match = match
        self.clear()

    def clear(self):
        self.entry = 0  # _FOUL, _POT or 0
        self.value = 0  # foul: the value asked for with `foul` presses (0: none)
        self.named = 0  # foul: bit c set when colour value c was named
        self.balls = []  # foul: balls down; pot: balls potted
        self.miss = False
        self.time = False
        self.free = False  # pot entry: the free ball is among them

    def menu(self, prompts):
        match = self.match
        items = []
        if "respot" in prompts:
            items.append((t("k.respot"), menus.SUB, menus.respot_menu(match)))
        items.append((t("k.claim"), menus.LINE, "claim"))
        items.append((t("k.concede_frame"), menus.SUB, menus.concede_menu(
            match, "FRAME", play.striker_side(match))))
        items.append((t("k.award"), menus.SUB, menus.award_menu(match)))
        items.append((t("k.penalty"), menus.SUB, menus.sides_menu(
            match, t("k.penalised"), _penalty)))
        items.append((t("k.restart"), menus.LINE, "restart"))
        return menus.play_menu(match, items)

    def pending(self, v):
        """The decision waiting in play (View `v`): the incoming side's choices right
        after a foul, the free ball to nominate; else None."""
        f = self.match.frame
        side = SIDES[v.striker or 0]
        if f.last == "foul":
            return t("k.after_miss" if f.foul_miss else "k.after_foul") % side
        if v.free_ball:
            return t("k.free_ball") % side
        return None

    # -- in play -------------------------------------------------------------------------
    def key(self, name, long):
        v = self.match.view()
        on = v.ball_on
        free = v.free_ball
        if name == "red":
            if long:
                return self._start_pot(False, ["red", "red"])
            return give("pot red")
        if name in COLOURS:
            if long:  # held: a foul, this ball the one concerned (`pink!`, `ok`: `foul 6`)
                return self._start_foul(name)
            if free and (on == "red" or (on in COLOURS and name != on)):
                return give("pot free")
            return give("pot " + name)
        if name == "foul" or name == "miss":
            self.clear()
            self.entry = _FOUL
            self.miss = name == "miss"
            self.time = play.time_flag(self.match, long and name == "foul")
            return opens(ENTRY)
        if name == "free" and free:
            return self._start_pot(True, [])
        return give(name)  # free, again, replace, end

    def _start_foul(self, concerned):
        """The foul entry, `concerned` named (a colour held in play): `black!`, `pink!`,
        `ok` is `foul 7 pink` and `pink!`, `red!`, `ok` is `foul 6 red red`, three
        presses each (issue 33)."""
        self.clear()
        self.entry = _FOUL
        self.time = play.time_flag(self.match, False)
        r = self._foul_key(concerned, False)
        if r.refusal is not None:  # a colour no longer on the table: no entry
            self.clear()
            return r
        return opens(ENTRY)

    def _start_pot(self, free, balls):
        self.clear()
        self.entry = _POT
        self.free = free
        self.balls = balls
        return opens(ENTRY)

    def _reds_left(self):
        return self.match.view().reds or 0

    # -- the entries ---------------------------------------------------------------------
    def entry_text(self):
        """The text of the foul or pot entry in progress, the balls counted (`FOUL 4, 2
        REDS`, `POT: 3 REDS`: issue 33, the reds were a word each)."""
        balls = self._balls_words()
        if self.entry == _FOUL:
            value = self._foul_value()
            text = t("k.foul") % value + (t("k.max") if value == _MAX_FOUL else "")
            if balls:
                text += ", " + balls
            if self.miss:
                text += t("k.MISS")
            if self.time:
                text += t("k.TIME")
            return text + t("k.balls_down" if self.named or self.balls else "k.ball")
        if self.free:
            text = t("k.pot_free") + (", " + balls if balls else "")
            return text + t("k.with_it")
        return t("k.pot") % balls + t("k.red_adds")

    def _balls_words(self):
        """The balls of the entry in words: each colour, the reds counted where they
        first come (`PINK, 2 REDS`); "" for none."""
        reds = self.balls.count("red")
        words = []
        for b in self.balls:
            if b != "red":
                words.append(upper_word(b))
            elif reds:
                words.append(upper_word(b) if reds == 1 else tn("k.reds", reds) % reds)
                reds = 0
        return ", ".join(words)

    def entry_key(self, name, long):
        if self.entry == _FOUL:
            return self._foul_key(name, long)
        return self._pot_key(name)

    def _pot_key(self, name):
        if name == "ok":
            if not self.free and not self.balls:
                return give(None)
            words = ["pot"] + (["free"] if self.free else []) + self.balls
            return give(" ".join(words))
        if name == "undo":
            return give(None)
        if name == "red":
            if self.balls.count("red") >= self._reds_left():
                return refuse(tn("k.only_reds", self._reds_left()) % self._reds_left())
            self.balls.append("red")
            return keep()
        if name in COLOURS and self.free:
            if self.balls:
                return refuse(t("k.one_ball"))
            self.balls.append(name)
            return keep()
        return refuse(t("k.ok_ends_pot"))

    def _foul_base(self):
        on = self.match.view().ball_on
        return colour_value(on) if on in COLOURS else _MIN_FOUL

    def _foul_value(self):
        value = max(_MIN_FOUL, self._foul_base(), self.value)
        for c in range(2, 8):
            if self.named >> c & 1 and c > value:
                value = c
        return value

    def _foul_key(self, name, long):
        if name == "ok":
            return self._foul_line()
        if name == "miss":
            self.miss = True
            return self._foul_line()
        if name == "undo":
            return give(None)
        if name == "menu":
            return opens(PLAY_MENU)
        if name == "foul":
            if long:
                self.time = not self.time
            else:
                value = self._foul_value() + 1
                if value > _MAX_FOUL:  # never wrapped back to the least: said, not done
                    return refuse(t("k.foul_max"))
                self.value = value
            return keep()
        if name == "red":
            # held: two reds down (as in the pot entry), so `foul red! ok` is 3 presses
            n = 2 if long else 1
            if self.balls.count("red") + n > self._reds_left():
                return refuse(tn("k.only_reds", self._reds_left()) % self._reds_left())
            self.balls.extend(["red"] * n)
            return keep()
        if name in COLOURS:
            c = colour_value(name)
            base = self._foul_base()
            on = self.match.view().ball_on
            if on in COLOURS and c < base:
                return refuse(t("k.not_on_table") % word(name))
            # a second press, or one held, says it went down: `foul pink! ok` is
            # `foul 6 pink` in 3 presses (issue 26), `foul pink pink ok` still works
            if self.named >> c & 1 or long:
                if name in self.balls:
                    return refuse(t("k.down_already") % word(name))
                self.balls.append(name)
            self.named |= 1 << c
            return keep()
        return refuse(t("k.finish_foul"))

    def _foul_line(self):
        words = ["foul", str(self._foul_value())] + self.balls
        if self.miss:
            words.append("miss")
        if self.time:
            words.append("time")
        return give(" ".join(words))
