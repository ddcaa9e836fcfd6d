"""The key grammar's state and its entries that take several keys: the base class of
`grammar.Grammar` (which adds the key dispatch), split out to keep modules small.

Here: `Result`; the entry state and its text for the screens (`entry()`, the menu
fields); reading the Match (state, view fields, the next breaker); snooker's foul and
pot entries; the pool and straight-pool keys; the number entry; opening a menu. Nothing
here changes the Match.
"""

from micropython import const

from scoreboard.core.vocab import COLOURS, SIDES

from . import keymaps, menus

__all__ = ("COLOURS", "CONFIRM", "FOUL", "IDLE", "MENU", "NUMBER", "POT", "SIDES", "Entries",
           "Result", "field")

IDLE = const(0)
FOUL = const(1)  # snooker foul entry
POT = const(2)  # snooker pot of several balls (reds, or the free ball with others)
NUMBER = const(3)  # keys stand for numbers 1..15
MENU = const(4)
CONFIRM = const(5)  # one line waiting for `ok`
_MIN_FOUL = const(4)
_MAX_FOUL = const(7)
_MAX_BALL = {"eightball": 15, "nineball": 9, "tenball": 10}


def colour_value(name):
    return COLOURS.index(name) + 2


def field(view, name, index):
    """A field of Match.view(): an object with named fields, or the older tuple."""
    if isinstance(view, tuple):
        return view[index]
    return getattr(view, name)


class Result:
    """What one key press gave: a line to apply, or a refusal, and what to show."""

    def __init__(self, line, refusal, entry, menu):
        self.line = line
        self.refusal = refusal
        self.entry = entry
        self.menu = menu

    def __repr__(self):
        return "Result(line=%r, refusal=%r, entry=%r)" % (self.line, self.refusal,
                                                          self.entry)


class Entries:
    """The entry state and the several-key entries (see the module docstring)."""

    def __init__(self, match):
        self.match = match
        self.family = keymaps.family_of(match.header.game)
        self.names = keymaps.keymap(self.family)
        self.first_breaker = 0  # who breaks frame 1: 0 (A) or 1 (B)
        self._walker = None
        self._clear()

    def _clear(self):
        self.mode = IDLE
        self._walker = None
        self._value = 0  # foul: the value asked for with `foul` presses (0: none)
        self._named = 0  # foul: bit c set when colour value c was named
        self._balls = []  # foul: balls down; pot: balls potted; pool pot: numbers
        self._miss = False
        self._time = False
        self._free = False  # pot entry: the free ball is among them
        self._prefix = None  # number entry: the line before the number(s)
        self._multi = False  # number entry: several (pool pot), ended by `ok`
        self._limit = 15
        self._confirm = None  # (text, line)

    # -- what the screens read -----------------------------------------------------------
    @property
    def menu_title(self):
        return self._walker.top()[0] if self._walker else None

    @property
    def menu_items(self):
        return [item[0] for item in self._walker.top()[1]] if self._walker else []

    @property
    def menu_cursor(self):
        return self._walker.top()[2] if self._walker else 0

    def menu(self):
        if not self._walker:
            return None
        return (self.menu_title, self.menu_items, self.menu_cursor)

    def entry(self):
        """The entry in progress (or what `ok` does now) as text, or None."""
        m = self.mode
        if m == FOUL or m == POT or m == NUMBER:
            return self._entry_text(m)
        if m == CONFIRM:
            return self._confirm[0]
        if m == MENU:
            return None
        state = self._state()
        if state == "start":
            return "FRAME 1 - %s breaks? ok (%s switches)" % (
                SIDES[self.first_breaker], "end" if self.family == "snooker" else "side")
        if state == "between":
            return "FRAME %d - %s breaks? ok" % (self.match.number + 1,
                                                 SIDES[self._next_breaker()])
        if state == "play" and "respot" in self._prompts():
            return "RESPOTTED BLACK - ok: who plays first?"
        return None

    # -- results -------------------------------------------------------------------------
    def _result(self, line=None, refusal=None):
        return Result(line, refusal, self.entry(), self.menu())

    def _done(self, line):
        self._clear()
        return self._result(line)

    def _refuse(self, why):
        return self._result(None, why)

    def _shown(self):
        return self._result()

    # -- reading the match ---------------------------------------------------------------
    def _state(self):
        m = self.match
        if m.finished():
            return "over"
        if not m.number:
            return "start"
        if m.frame is None or m.frame.ended:
            return "between"
        return "play"

    def _view(self):
        return self.match.view()

    def _prompts(self):
        return field(self._view(), "prompts", 11) or ()

    def _striker(self):
        return SIDES[field(self._view(), "striker", 0) or 0]

    def _next_breaker(self):
        """Who breaks the next frame (the match's break policy, as Match applies it)."""
        last = self.match.frame
        policy = self.match.header.breaks
        if policy == "alternate" or last.winner is None:
            return 1 - last.breaker
        return last.winner if policy == "winner" else 1 - last.winner

    def _time_flag(self, long):
        """A time foul: asked for, or the shot clock has run out."""
        clock = self.match.clock
        if long or (clock.enabled and clock.active and getattr(clock, "expired", False)):
            return True
        return "time" in self._prompts()

    # -- menus ---------------------------------------------------------------------------
    def _open_menu(self, state):
        m = self.match
        if state == "over":
            return self._refuse("the match is over")
        if state == "start":
            tree = menus.start_menu(m)
        elif state == "between":
            tree = menus.between_menu(m)
        else:
            tree = menus.play_menu(m, self.family, self._prompts())
        self._clear()
        self._walker = menus.Walker(tree)
        self.mode = MENU
        return self._shown()

    def _entry_text(self, m):
        """The text of a foul, pot or number entry in progress."""
        if m == FOUL:
            text = "FOUL %d" % self._foul_value()
            for b in self._balls:
                text += " " + b.upper()
            if self._miss:
                text += " MISS"
            if self._time:
                text += " TIME"
            return text + (" - balls down? ok" if self._named or self._balls
                           else " - ball? ok")
        if m == POT:
            text = "POT FREE" if self._free else "POT"
            for b in self._balls:
                text += " " + b.upper()
            return text + (" - with it? ok" if self._free else " - red adds, ok")
        if m == NUMBER:
            text = self._prefix.upper()
            if self._multi:
                for n in self._balls:
                    text += " %d" % n
                return text + " - balls? ok"
            return text + " - number? 1-%d" % self._limit

    # -- snooker -------------------------------------------------------------------------
    def _snooker(self, name, long):
        v = self._view()
        on = field(v, "ball_on", 3)
        free = field(v, "free_ball", 7)
        if name == "red":
            if long:
                return self._start_pot(False, ["red", "red"])
            return self._done("pot red")
        if name in COLOURS:
            if free and (on == "red" or (on in COLOURS and name != on)):
                return self._done("pot free")
            return self._done("pot " + name)
        if name == "foul" or name == "miss":
            self._clear()
            self.mode = FOUL
            self._miss = name == "miss"
            self._time = self._time_flag(long and name == "foul")
            return self._shown()
        if name == "free" and free:
            return self._start_pot(True, [])
        return self._done(name)  # free, again, replace, end

    def _start_pot(self, free, balls):
        self._clear()
        self.mode = POT
        self._free = free
        self._balls = balls
        return self._shown()

    def _reds_left(self):
        return field(self._view(), "reds", 4) or 0

    def _pot_key(self, name):
        if name == "ok":
            if not self._free and not self._balls:
                return self._done(None)
            words = ["pot"] + (["free"] if self._free else []) + self._balls
            return self._done(" ".join(words))
        if name == "undo":
            return self._done(None)
        if name == "red":
            if self._balls.count("red") >= self._reds_left():
                return self._refuse("only %d red(s) on the table" % self._reds_left())
            self._balls.append("red")
            return self._shown()
        if name in COLOURS and self._free:
            if self._balls:
                return self._refuse("one ball on with the free ball")
            self._balls.append(name)
            return self._shown()
        return self._refuse("ok ends the pot, undo cancels it")

    def _foul_base(self):
        on = field(self._view(), "ball_on", 3)
        return colour_value(on) if on in COLOURS else _MIN_FOUL

    def _foul_value(self):
        value = max(_MIN_FOUL, self._foul_base(), self._value)
        for c in range(2, 8):
            if self._named >> c & 1 and c > value:
                value = c
        return value

    def _foul_key(self, name, long):
        if name == "ok":
            return self._foul_line()
        if name == "miss":
            self._miss = True
            return self._foul_line()
        if name == "undo":
            return self._done(None)
        if name == "menu":
            self._clear()
            return self._open_menu(self._state())
        if name == "foul":
            if long:
                self._time = not self._time
            else:
                value = self._foul_value() + 1
                self._value = value if value <= _MAX_FOUL else 0  # past 7: the least
            return self._shown()
        if name == "red":
            if self._balls.count("red") >= self._reds_left():
                return self._refuse("only %d red(s) on the table" % self._reds_left())
            self._balls.append(name)
            return self._shown()
        if name in COLOURS:
            c = colour_value(name)
            base = self._foul_base()
            on = field(self._view(), "ball_on", 3)
            if on in COLOURS and c < base:
                return self._refuse("%s is not on the table" % name)
            if self._named >> c & 1:
                if name in self._balls:
                    return self._refuse("%s is down already" % name)
                self._balls.append(name)
            self._named |= 1 << c
            return self._shown()
        return self._refuse("finish the foul: ok (or miss), undo cancels")

    def _foul_line(self):
        words = ["foul", str(self._foul_value())] + self._balls
        if self._miss:
            words.append("miss")
        if self._time:
            words.append("time")
        return self._done(" ".join(words))

    # -- pool and straight pool ----------------------------------------------------------
    def _pool(self, name, long):
        if name == "rackA" or name == "rackB":
            letter = name[-1]
            if long:
                self._walker = menus.Walker(menus.rack_menu(self.match, letter))
                self.mode = MENU
                return self._shown()
            return self._done("rack " + letter)
        if name == "pot":
            return self._start_number("pot", True, _MAX_BALL[self.match.header.game])
        if name == "foul":
            return self._done("foul time" if self._time_flag(long) else "foul")
        return self._done(name)  # end, push, pass

    def _straight(self, name, long):
        if name == "ball":
            if long:
                return self._start_number("score", False, 15)
            return self._done("score 1")
        if name == "score":
            return self._start_number("score", False, 15)
        if name == "foul" or name == "break":
            words = "foul break" if name == "break" else "foul"
            return self._done(words + " time" if self._time_flag(long) else words)
        if name == "rerack":
            return self._done("rerack 15" if long else "rerack")
        return self._done(name)  # end, again

    def _start_number(self, prefix, multi, limit):
        self._clear()
        self.mode = NUMBER
        self._prefix = prefix
        self._multi = multi
        self._limit = limit
        return self._shown()

    def _number_key(self, name, long):
        if name == "ok":
            if not self._multi or not self._balls or long:
                return self._done(None)  # nothing entered: cancelled
            return self._done(self._prefix + " " + " ".join(str(n) for n in self._balls))
        n = keymaps.number(self.family, name)
        if not 1 <= n <= self._limit:
            return self._refuse("a number from 1 to %d" % self._limit)
        if not self._multi:
            return self._done("%s %d" % (self._prefix, n))
        if n in self._balls:
            self._balls.remove(n)  # a second press takes the ball back
        else:
            self._balls.append(n)
        return self._shown()

