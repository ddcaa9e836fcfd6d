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
    g.menu_title, g.menu_items, g.menu_cursor   # the same, for the screens
    g.cancel()  # drop the entry in progress and close the menu

The app: for a PRESS event call `press(name)`, for a LONG `press(name, long=True)`
(REPEAT events are not needed); when `line` is set, parse it, apply it to the Match
(a ValueError there is a refusal too: show its text) and journal it; then redraw with
`entry()` and the menu (`r.entry` was read before the line was applied). In a number
entry the key names "1".."15" are taken too (key scripts, the simulator). A key held
long where it has no long meaning counts as a short press. After the Match changes by
other means (recovery), make a new Grammar.

States: before the first frame `ok` gives `frame A` (the side key, snooker `end`, pool
and straight `side`, switches to `frame B`); with a frame over `ok` gives `frame` (the
break policy picks the breaker, `entry()` says who) and `undo` takes back the event that
ended it; with the match over only `undo` is taken. In play: one press per pot, `undo`
in one (it cancels an entry in progress first), `menu` for the rarer words (menus.py:
`menu` moves down, long `menu` up, `ok` chooses, `undo` goes back); with a shot clock
`ok` is `go` or `hit` (`hit` while a shot is on the clock), a long `ok` is `extend`.
A foul entry (snooker `foul` or `miss`) is worth the least the ball on allows: a colour
names the ball concerned (value up to 7), the same colour again or a red says it went
down, `foul` again adds a point, a long `foul` toggles `time` (set already when the
clock has run out), `miss` ends it with `miss`, `ok` ends it: `foul pink ok` gives
`foul 6`. Number entries (pool `pot`, straight `score`, straight penalties): the keys
stand for keymaps.NUMBERS; `ok` ends a list of balls, `ok` alone cancels. Every key, per
game, short and long: hardware/keypad.md (from legends.py).
"""

from . import menus
from .entries import CONFIRM, FOUL, MENU, NUMBER, POT, SIDES, Entries, Result

__all__ = ("Grammar", "Result")


class Grammar(Entries):
    """Key names to notation lines: see the module docstring."""

    def cancel(self):
        """Drop the entry in progress and close the menu (an idle timeout, a new screen)."""
        self._clear()

    # -- the key press -------------------------------------------------------------------
    def press(self, name, long=False):
        """One key: `name` from the game's keymap (in a number entry also "1".."15")."""
        mode = self.mode
        if name not in self.names and not (mode == NUMBER and name.isdigit()):
            return self._refuse("no key '%s' in %s" % (name, self.family))
        if mode == MENU:
            return self._menu_key(name, long)
        if mode == NUMBER:
            return self._number_key(name, long)
        if mode == CONFIRM:
            if name == "ok":
                return self._done(self._confirm[1])
            if name == "undo":
                return self._done(None)
            return self._refuse("ok confirms, undo cancels")
        if mode == FOUL:
            return self._foul_key(name, long)
        if mode == POT:
            return self._pot_key(name)
        return self._idle(name, long)

    def _idle(self, name, long):
        state = self._state()
        if name == "menu":
            return self._open_menu(state)
        if state == "over":
            if name == "undo":
                return self._done("undo")
            return self._refuse("the match is over")
        if state == "start":
            if name == "ok":
                return self._done("frame " + SIDES[self.first_breaker])
            if name == ("end" if self.family == "snooker" else "side"):
                self.first_breaker = 1 - self.first_breaker
                return self._shown()
            return self._refuse("no frame yet: ok starts frame 1")
        if state == "between":
            if name == "ok":
                return self._done("frame")
            if name == "undo":
                return self._done("undo")
            return self._refuse("frame %d is over: ok starts the next" % self.match.number)
        if name == "undo":
            return self._done("undo")
        if name == "ok":
            return self._ok(long)
        if self.family == "snooker":
            return self._snooker(name, long)
        if name in ("go", "hit", "extend"):
            return self._done(name)
        if name == "side":
            return self._refuse("side switches the breaker before the first frame")
        if name == "concede":
            self.mode = CONFIRM
            self._confirm = ("CONCEDE THE MATCH? ok", "concede")
            return self._shown()
        if name == "warn":
            return self._done("warn " + self._striker())
        if self.family == "pool":
            return self._pool(name, long)
        return self._straight(name, long)

    def _ok(self, long):
        if "respot" in self._prompts():
            self._walker = menus.Walker(menus.respot_menu(self.match))
            self.mode = MENU
            return self._shown()
        clock = self.match.clock
        if clock.enabled:
            if long:
                return self._done("extend")
            return self._done("hit" if clock.active else "go")
        return self._refuse("nothing to confirm")

    # -- menus ---------------------------------------------------------------------------
    def _menu_key(self, name, long):
        w = self._walker
        if name == "menu":
            w.move(-1 if long else 1)
            return self._shown()
        if name == "undo":
            if not w.back():
                self._clear()
            return self._shown()
        if name != "ok":
            return self._refuse("menu moves, ok chooses, undo goes back")
        kind, data = w.choose()
        if kind == menus.LINE:
            return self._done(data)
        if kind == menus.NUMBER:
            return self._start_number(data, False, 15)
        return self._shown()
