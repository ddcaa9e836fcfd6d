"""The key grammar: key names in, notation event lines (or a refusal with a reason) out.

Pure: it reads the Match (never changes it) to know the ball on, the free ball, the
clock, whether a frame is over; the app applies the lines. Interface:

    g = Grammar(match)               # match: scoreboard.core.match.Match
    r = g.press("pink")              # a key name of keymaps.keymap(g.family)
    r = g.press("foul", long=True)   # a LONG event (hold past long_ms)
    r.line      # an event line without stamp ("pot pink"), or None
    r.refusal   # why the key was refused (show it, low beep), or None
    r.entry     # g.entry() after the press: the entry in progress as text, or None
    r.menu      # (title, items, cursor) while a menu is open, else None
    r.own       # an item of the menu's owner was chosen (menus.OWN): its data, or None
    g.menu_title, g.menu_items, g.menu_cursor   # the same, for the screens
    g.hint()    # what the keys do now, in a few words, for the hint line (or None)
    g.ok_word() # in play: what `ok` gives now, "hit" or "go" with a shot clock, or None
    g.cancel()  # drop the entry in progress and close the menu

The app: for a PRESS event call `press(name)`, for a LONG `press(name, long=True)`
(REPEAT events are not needed); when `line` is set, parse it, apply it to the Match
(a ValueError there is a refusal too: show its text) and journal it; then redraw with
`entry()` and the menu (`r.entry` was read before the line was applied). In a number
entry the key names "1".."15" are taken too (key scripts, the simulator). A key held
long where it has no long meaning counts as a short press. After the Match changes by
other means (recovery), make a new Grammar.

This module is what every game shares: the states around play (before the first frame
`ok` gives `frame A` and the side key, snooker `end`, pool and straight `side`, switches
to `frame B`; with a frame over `ok` gives `frame`, the breaker being the match's
`next_breaker()`, and `undo` takes back the event that ended it; with the match over only
`undo` is taken), and in play `undo` (it cancels an entry in progress first), `menu` (the
rarer words, menus.py: `menu` moves down, long `menu` up, `ok` chooses, `undo` goes
back), `ok` with a shot clock (`go`, or `hit` while a shot is on the clock; long:
`extend`), the keys that mean the same on every legend that has them (`go`, `hit`,
`extend`, `side`, `warn`, `concede`; `warn` is refused with the rules' reason where the
match plays no three-foul rule, `rules threefoul=0` or eight-ball's default), the number
entry (the keys stand for keymaps.NUMBERS; `ok` ends a list of balls, a number key held
long adds its ball and ends the list at once, `ok` alone cancels) and the confirmation:
a decision that ends a frame or the match (`concede`, `claim`, `award`, `restart`,
`forfeit`, `abandon`) is asked once, naming who ("A (Ann) concedes the frame? ok"),
before its line is given; `undo` says no and goes back to the menu. Who concedes is
chosen (menus.concede_menu), and a concession by the side not at the table is refused
with its reason: only the striker may (docs/notation.md).

What the panel says the keys do now is here too, so it follows the state: `entry()`
(the entry in progress; else the decision pending after a foul or a push out, the free
ball to nominate, TIME, and with a shot clock what `ok` does, `hit` or `go`:
`ok_word()`, "B: play, again or free? ok:go", "ok: hit - the shot clock stops") and
`hint()` (the menus, the question, a
frame over and who breaks next, the match over); the texts are the constants below.
Each game family's own keys and menu are in its module, `snooker.py`, `pool.py` and
`straight.py`, loaded for the match's family only, each a `Keys(match)` with the same
interface: `key(name, long)` (a key in play that is not the grammar's), `menu(prompts)`
(the menu in play), `clear()`, `pending(view)` (the decision waiting in play as text, or
None), and for an entry of several keys of its own (snooker's foul and pot)
`entry_key(name, long)` and `entry_text()`. A key answers with a Result (result.py: a
line, a refusal, or what the grammar opens next), never by calling the grammar back;
what they read of the match in play is play.py's, as here. The side key that switches
the first breaker is `keymaps.side_key`, switched by `switch_breaker` here and on the
start screen alike. Every key, per game, short and long: hardware/keypad.md (from
legends.py).
"""

from micropython import const

from scoreboard.core.vocab import SIDES
from scoreboard.lang import fit, label, refusal, t, upper, word

from . import keymaps, menus, play
from .result import ENTRY as _FAMILY_ENTRY
from .result import GIVEN, NUMBER as _FAMILY_NUMBER, PLAY_MENU, TREE, Result

__all__ = ("CONFIRM", "ENTRY", "IDLE", "MENU", "NUMBER", "WHO_CHARS", "Grammar", "Result",
           "switch_breaker")

IDLE = const(0)
ENTRY = const(1)  # a family's entry of several keys (snooker's foul or pot)
NUMBER = const(2)  # keys stand for numbers 1..15
MENU = const(3)
CONFIRM = const(4)  # one line waiting for `ok`
WHO_CHARS = const(13)  # a name in a question, at most (grammar.who), the ellipsis too

# The texts of what the keys do now are the language table's `g.` keys (scoreboard/lang;
# short: the 128x64 OLED shows 18 characters a line).


def switch_breaker(family, name, breaker):
    """Who breaks frame 1 (0: A, 1: B) after key `name` before it has begun: the other
    side when `name` is the family's side key (keymaps.side_key), else -1. The one
    switch, for this grammar and the start screen alike."""
    return 1 - breaker if name == keymaps.side_key(family) else -1


def _family_keys(grammar):
    """The Keys of the match's family; only that family's module is imported (with
    pool.py for straight pool, whose keys build on pool's)."""
    fam = grammar.family
    if fam == "snooker":
        from . import snooker

        return snooker.Keys(grammar.match)
    if fam == "pool":
        from . import pool

        return pool.Keys(grammar.match)
    from . import straight

    return straight.Keys(grammar.match)


class Grammar:
    """Key names to notation lines: see the module docstring."""

    def __init__(self, match):
        self.match = match
        self.family = match.family
        self.names = keymaps.keymap(self.family)
        self.first_breaker = 0  # who breaks frame 1: 0 (A) or 1 (B)
        self.family_keys = _family_keys(self)
        self._walker = None
        self.clear()

    def clear(self):
        """Drop the entry in progress and close the menu."""
        self._clear_own()
        self.family_keys.clear()

    def _clear_own(self):
        """clear() but for the family's own entry (which it has just begun)."""
        self.mode = IDLE
        self._walker = None
        self._balls = []  # number entry: the numbers chosen
        self._prefix = None  # number entry: the line before the number(s)
        self._multi = False  # number entry: several (pool pot), ended by `ok`
        self._limit = 15
        self._confirm = None  # (text, line)

    def cancel(self):
        """Drop the entry in progress and close the menu (an idle timeout, a new screen)."""
        self.clear()

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
        if m == ENTRY:
            return self.family_keys.entry_text()
        if m == NUMBER:
            return self._number_text()
        if m == CONFIRM:
            return self._confirm[0]
        if m == MENU:
            return None
        state = self.state()
        if state == "start":
            return t("g.start") % (SIDES[self.first_breaker], label(keymaps.side_key(self.family)))
        if state == "between":
            return t("g.between") % SIDES[self.match.next_breaker()]
        if state != "play":
            return None
        if self.match.suspended:
            return t("g.suspended")
        v = self.view()
        if "respot" in v.prompts:
            return t("g.respot")
        if self.time_flag(False):
            text = t("g.time") % SIDES[v.striker or 0]
        else:
            text = self.family_keys.pending(v)
        # With a shot clock `ok` is `hit` or `go` (_ok): the line says which, so an `ok`
        # pressed "to start the clock" while a shot is on it (a `hit`) is no surprise.
        ok = self.ok_word()
        if ok is None:
            return text
        if text is None:
            return t("g.ok_" + ok)
        return t("g.pending_" + ok) % text

    def hint(self):
        """What the keys do now, for the hint line of the screens that have one (menus,
        a frame over, the match over); None in play, where the entry line says it."""
        m = self.mode
        if m == CONFIRM:
            return t("g.confirm_hint")
        if m == MENU:
            return t("g.menu_hint")
        if m != IDLE:
            return None
        state = self.state()
        if state == "between":
            key = "g.between_hint" if self.family == "snooker" else "g.between_hint_rack"
            return t(key) % (self.match.number + 1, SIDES[self.match.next_breaker()])
        if state == "over":
            return t("g.over_hint")
        return None

    def who(self, s):
        """`A (Ann)`: a side named for a question, the name kept short: its surnames, cut
        with an ellipsis past WHO_CHARS (`B (Brzęczyszczy…)`: the question must still
        end in `ok`, and a cut name must look cut)."""
        names = self.match.header.sides[s]
        label = " & ".join(names)
        if len(label) > WHO_CHARS:
            label = fit(" & ".join(n.split(" ")[-1] for n in names), WHO_CHARS)
        return t("g.who") % (SIDES[s], label)

    def question(self, line):
        """The question asked once before `line` is given when it is a decision that
        ends a frame or the match, naming who; None for any other line."""
        words = line.split(" ")
        w = words[0]
        fam = self.family
        unit = "frame" if fam == "snooker" else ("rack" if fam == "pool" else "game")
        if w == "concede":
            key = "g.q.concede_frame" if fam == "snooker" else "g.q.concede_match"
            return t(key) % self.who(self.striker_side())
        if w == "claim":
            return t("g.q.claim") % self.who(self.striker_side())
        if w == "award":
            return t("g.q.award_" + unit) % (self.who(SIDES.index(words[1])), word(words[2]))
        if w == "restart":
            return t("g.q.restart_" + unit) % self.match.number
        if w == "forfeit":
            who = self.who(SIDES.index(words[1]))
            if words[2] == "late":  # seed 004 1.7: the match lost without play
                return t("g.q.forfeit_late") % who
            return t("g.q.forfeit") % (who, word(words[2]))
        if w == "abandon":
            if len(words) > 1:
                return t("g.q.abandon_winner") % self.who(SIDES.index(words[1]))
            return t("g.q.abandon")
        return None

    # -- what a press gives (for the families too) -----------------------------------------
    def _result(self, line=None, refusal=None):
        return Result(line, refusal, self.entry(), self.menu())

    def done(self, line):
        """The entry is over: `line` to apply (None: nothing, the entry cancelled)."""
        self.clear()
        return self._result(line)

    def refuse(self, why):
        """The key is refused, and nothing changes."""
        return self._result(None, why)

    def shown(self):
        """The key changed only what is shown (an entry, a menu)."""
        return self._result()

    def _answer(self, r):
        """Act on a family's answer to a key (result.py) and fill in what to show."""
        if r.refusal is None:
            then = r.then
            if then == GIVEN:
                return self.done(r.line)
            if then == PLAY_MENU:
                return self.open_menu()
            if then == TREE:
                return self.walk(r.data)
            if then == _FAMILY_NUMBER:
                d = r.data
                return self.start_number(d[0], d[1], d[2])
            if then == _FAMILY_ENTRY:
                self._clear_own()
                self.mode = ENTRY
        r.entry = self.entry()
        r.menu = self.menu()
        return r

    def walk(self, tree):
        """Open the menu `tree` (menus.py)."""
        self._walker = menus.Walker(tree)
        self.mode = MENU
        return self.shown()

    def start_number(self, prefix, multi, limit):
        """A number entry of 1..`limit` for the line `prefix N` (`multi`: several, as
        pool's `pot 3 9`, ended by `ok`)."""
        self.clear()
        self.mode = NUMBER
        self._prefix = prefix
        self._multi = multi
        self._limit = limit
        return self.shown()

    # -- reading the match (for the families too) ------------------------------------------
    def state(self):
        """over, start (no frame yet), between (a frame over) or play."""
        m = self.match
        if m.finished():
            return "over"
        if not m.number:
            return "start"
        if m.frame is None or m.frame.ended:
            return "between"
        return "play"

    def view(self):
        """The frame in play (Match.view(), a views.View)."""
        return self.match.view()

    def prompts(self):
        return self.view().prompts or ()

    def striker(self):
        """The striker's letter (A while the board waits for `respot`)."""
        return play.striker(self.match)

    def striker_side(self):
        """The striker: 0 (A) or 1 (B), as play.striker_side."""
        return play.striker_side(self.match)

    def time_flag(self, long):
        """A time foul: asked for (a long press), or the shot clock has run out."""
        return play.time_flag(self.match, long)

    # -- the key press -------------------------------------------------------------------
    def press(self, name, long=False):
        """One key: `name` from the game's keymap (in a number entry also "1".."15")."""
        mode = self.mode
        if name not in self.names and not (mode == NUMBER and name.isdigit()):
            return self.refuse(t("g.no_key") % (name, self.family))
        if mode == MENU:
            return self._menu_key(name, long)
        if mode == NUMBER:
            return self._number_key(name, long)
        if mode == CONFIRM:
            if name == "ok":
                return self.done(self._confirm[1])
            if name == "undo":  # no: back to the menu it was chosen in
                self._confirm = None
                self.mode = MENU if self._walker else IDLE
                return self.shown()
            return self.refuse(t("g.ok_undo"))
        if mode == ENTRY:
            return self._answer(self.family_keys.entry_key(name, long))
        return self._idle(name, long)

    def _idle(self, name, long):
        state = self.state()
        if name == "menu":
            return self.open_menu()
        if state == "over":
            if name == "undo":
                return self.done("undo")
            return self.refuse(t("g.match_over"))
        if state == "start":
            if name == "ok":
                return self.done("frame " + SIDES[self.first_breaker])
            breaker = switch_breaker(self.family, name, self.first_breaker)
            if breaker >= 0:
                self.first_breaker = breaker
                return self.shown()
            return self.refuse(t("g.no_frame" if self.family == "snooker" else "g.no_rack"))
        if state == "between":
            if name == "ok":
                return self.done("frame")
            if name == "undo":
                return self.done("undo")
            return self.refuse(t("g.frame_over" if self.family == "snooker" else "g.rack_over")
                               % self.match.number)
        if name == "undo":
            return self.done("undo")
        if name == "ok":
            return self._ok(long)
        # The keys of the clock and of the match, the same on every legend that has them.
        if name in ("go", "hit", "extend"):
            return self.done(name)
        if name == "side":
            return self.refuse(t("g.side"))
        if name == "concede":  # who concedes, then the question
            return self.walk(menus.concede_menu(self.match, "MATCH", self.striker_side()))
        if name == "warn":
            m = self.match
            if not m.header.three_fouls():  # the rules' reason, before any line is made
                return self.refuse(t("=eight-ball has no three-foul rule"
                                     if m.header.game == "eightball"
                                     else "=the three-foul rule is off in this match"))
            return self.done("warn " + self.striker())
        return self._answer(self.family_keys.key(name, long))

    def ok_word(self):
        """What `ok` gives in play with nothing in progress: `hit` while a shot is on
        the shot clock, `go` while none is, None without a clock (a long `ok`: `extend`)."""
        clock = self.match.clock
        if not clock.enabled:
            return None
        return "hit" if clock.active else "go"

    def _ok(self, long):
        if "respot" in self.prompts():
            return self.walk(menus.respot_menu(self.match))
        ok = self.ok_word()
        if ok is not None:
            return self.done("extend" if long else ok)
        return self.refuse(t("g.nothing"))

    # -- menus ---------------------------------------------------------------------------
    def open_menu(self):
        """The menu of the rarer words for the state the match is in."""
        m = self.match
        state = self.state()
        if state == "over":
            return self.refuse(t("g.match_over"))
        if state == "start":
            tree = menus.start_menu(m)
        elif state == "between":
            tree = menus.between_menu(m)
        else:
            tree = self.family_keys.menu(self.prompts())
        self.clear()
        return self.walk(tree)

    def _menu_key(self, name, long):
        w = self._walker
        if name == "menu":
            w.move(-1 if long else 1)
            return self.shown()
        if name == "undo":
            if not w.back():
                self.clear()
            return self.shown()
        if name != "ok":
            return self.refuse(t("g.menu_keys"))
        kind, data = w.choose()
        if kind == menus.LINE:
            return self.decide(data)
        if kind == menus.STRIKER:
            striker = self.striker_side()
            if data[1] != striker:
                return self.refuse(t("g.not_striker") % SIDES[striker])
            return self.decide(data[0])
        if kind == menus.NUMBER:
            return self.start_number(data, False, 15)
        if kind == menus.OWN:  # the menu's owner acts on it (the start screen's set-up)
            self.clear()
            r = self.shown()
            r.own = data
            return r
        return self.shown()

    def decide(self, line):
        """`line` chosen: given at once, or, for a decision that ends a frame or the
        match, once its question has been answered with `ok`."""
        if line == "claim":  # the rules' reason before the question, not after its `ok`
            why = play.claim_refusal(self.match)
            if why is not None:
                return self.refuse(refusal(why, self.family))
        text = self.question(line)
        if text is None:
            return self.done(line)
        self.mode = CONFIRM
        self._confirm = (text, line)
        return self.shown()

    # -- the number entry ------------------------------------------------------------------
    def _number_text(self):
        words = self._prefix.split(" ")
        if words[0] == "penalty":
            text = t("g.PENALTY") % words[1]
        else:
            text = t("g." + words[0].upper(), upper(self._prefix))
        if self._multi:
            for n in self._balls:
                text += " %d" % n
            return text + t("g.balls")
        return text + t("g.number") % self._limit

    def _number_key(self, name, long):
        if name == "ok":
            if not self._multi or not self._balls or long:
                return self.done(None)  # nothing entered: cancelled
            return self.done(self._prefix + " " + " ".join(str(n) for n in self._balls))
        n = keymaps.number(self.family, name)
        if not 1 <= n <= self._limit:
            return self.refuse(t("g.range") % self._limit)
        if not self._multi:
            return self.done("%s %d" % (self._prefix, n))
        if long:  # held: the last ball, the entry ends: `pot 9!` is `pot 9` in 2 presses
            if n not in self._balls:
                self._balls.append(n)
            return self.done(self._prefix + " " + " ".join(str(b) for b in self._balls))
        if n in self._balls:
            self._balls.remove(n)  # a second press takes the ball back
        else:
            self._balls.append(n)
        return self.shown()
