"""The shot clock: pure, fed with `now_ms` and a ticks module, never sleeping.

docs/rules.md (seed 004, 1.11): the clock runs from the moment the balls are at rest and set
(`go`, or an outcome line unless the clock waits for `go`) to the strike (`hit`). A
warning comes at `warn` seconds left; the professional profile counts the last seconds
down audibly (`beeps`); each side has `ext_count` extensions of `ext_secs` per frame;
the first shot after a legal break may have its own limit (`first`), with no extension.
At expiry the clock only raises TIME: the referee confirms the foul (`foul time`).

Each shot keeps an absolute deadline (`ticks_add` at the start, `ticks_diff` on every
read), so a late or jittery loop never makes it drift, and the ticks wrap-around is
harmless. `tick(now_ms)` is the hot path: it only compares and stores small ints and
returns a small int event code, so it runs under `micropython.heap_lock()`.

Settings are whole seconds (`clocksettings.py`: `Settings`, `profile()`,
`parse_words()` for the notation's `clock` keys); inside, everything is integer ms.
"""

from micropython import const

from scoreboard.core import ticks as ticks_module
from scoreboard.core.clocksettings import (  # noqa: F401  (the settings' API, from here too)
    PROFILES, Settings, format_settings, parse_settings, parse_words, profile)

# Events returned by tick(), in increasing importance.
EV_NONE = const(0)
EV_BEEP = const(1)  # one of the last `beeps` seconds has begun
EV_WARN = const(2)  # `warn` seconds left
EV_TIME = const(3)  # expired (once per shot)

_NEVER = const(-1)  # a threshold below any remaining time that tick() still looks at
_IDLE = const(0)
_RUNNING = const(1)


class ShotClock:
    """One shot clock for both sides. Sides are 0 (A) and 1 (B).

    A shot is started (`start`), stopped at the strike (`stop`), may be extended
    (`extend`), and is frozen by `pause` (suspended play) until `resume`. `tick` reports
    the warning, the countdown beeps and the expiry, each once per shot. Shot-time
    statistics are the match's (`shots.py`): they are kept with or without a clock.
    """
    STATE = ("settings", "enabled", "_shot_ms", "_first_ms", "_warn_ms", "_beeps_ms",
              "_ext_ms", "_ext_count", "_ext_left", "_state", "_suspended", "side", "first",
              "expired", "_deadline", "_limit_ms", "_left_ms", "_warn_at", "_beep_at",
              "_next")

    def __init__(self, settings=None, ticks=ticks_module):
        self._ticks = ticks
        self.settings = None
        self.enabled = False
        self._shot_ms = 0
        self._first_ms = 0
        self._warn_ms = 0
        self._beeps_ms = 0
        self._ext_ms = 0
        self._ext_count = 0
        self._ext_left = [0, 0]
        self._state = _IDLE
        self._suspended = False
        self.side = 0
        self.first = False
        self.expired = False
        self._deadline = 0
        self._limit_ms = 0  # this shot's limit, extensions included
        self._left_ms = 0  # remaining when idle (last shot) or suspended
        self._warn_at = _NEVER  # remaining ms at which the next event is due, or _NEVER
        self._beep_at = _NEVER
        self._next = _NEVER
        self.configure(settings)

    # --- settings ---------------------------------------------------------------
    def configure(self, settings):
        """Impose settings (None: off) from now on. A running shot is dropped; both sides
        get their full extensions; a suspension stays."""
        if settings is not None:
            settings.validate()
            settings = settings.copy()
        self.settings = settings
        self.enabled = settings is not None
        if settings is None:
            self._shot_ms = self._first_ms = self._warn_ms = self._beeps_ms = 0
            self._ext_ms = self._ext_count = 0
        else:
            self._shot_ms = settings.shot * 1000
            self._first_ms = settings.first * 1000
            self._warn_ms = settings.warn * 1000
            self._beeps_ms = settings.beeps * 1000
            self._ext_ms = settings.ext_secs * 1000
            self._ext_count = settings.ext_count
        self._reset_shot()
        self.new_frame()

    def off(self):
        """`clock off`: no clock from now on."""
        self.configure(None)

    def new_frame(self):
        """A new frame (rack): both sides get their extensions back; no shot runs."""
        self._ext_left[0] = self._ext_count
        self._ext_left[1] = self._ext_count
        self._reset_shot()

    def _reset_shot(self):
        self._state = _IDLE
        self.expired = False
        self.first = False
        self._limit_ms = self._shot_ms
        self._left_ms = self._shot_ms
        self._warn_at = self._beep_at = self._next = _NEVER

    # --- the shot ---------------------------------------------------------------
    def start(self, now_ms, side, first=False):
        """Balls at rest and set: `side` (0 or 1) is on the clock. `first`: this is the
        first shot after the break-off (its own limit when `first` is set, and no
        extension). Returns False, changing nothing, when the clock is off. A shot
        already running is replaced. During a suspension the shot starts
        frozen and begins to run at `resume`."""
        if not self.enabled:
            return False
        first = bool(first) and self._first_ms > 0
        limit = self._first_ms if first else self._shot_ms
        self.side = 1 if side else 0
        self.first = first
        self.expired = False
        self._limit_ms = limit
        self._left_ms = limit
        self._deadline = self._ticks.ticks_add(now_ms, limit)
        self._state = _RUNNING
        self._arm(limit)
        return True

    def stop(self, now_ms):
        """The strike (`hit`): the clock stops. Returns the ms the shot took (over the
        limit after an expiry, a suspension excluded), or -1 when no shot was running."""
        if self._state != _RUNNING:
            return -1
        left = self._remaining(now_ms)
        used = self._limit_ms - left
        self._state = _IDLE
        self._left_ms = left
        self._warn_at = self._beep_at = self._next = _NEVER
        return used

    def extend(self, now_ms):
        """The running side takes an extension: exactly ext seconds more. False, with no
        change, when no shot runs, it has expired, it is a first shot, or the side has
        none left. The warning and countdown that the extension moves back into the
        future will come again."""
        if (self._state != _RUNNING or self.expired or self.first
                or self._ext_left[self.side] <= 0 or self._remaining(now_ms) <= 0):
            return False
        self._ext_left[self.side] -= 1
        self._limit_ms += self._ext_ms
        if self._suspended:
            self._left_ms += self._ext_ms
            self._arm(self._left_ms)
        else:
            self._deadline = self._ticks.ticks_add(self._deadline, self._ext_ms)
            self._arm(self._ticks.ticks_diff(self._deadline, now_ms))
        return True

    def extensions_left(self, side):
        return self._ext_left[1 if side else 0]

    # --- suspended play -----------------------------------------------------------
    def pause(self, now_ms):
        """`suspend`: the clock stops with its remaining time kept exactly."""
        if self._suspended:
            return False
        self._suspended = True
        if self._state == _RUNNING:
            self._left_ms = self._ticks.ticks_diff(self._deadline, now_ms)
        return True

    def resume(self, now_ms):
        """`resume`: the clock runs again from the time it had left."""
        if not self._suspended:
            return False
        self._suspended = False
        if self._state == _RUNNING:
            self._deadline = self._ticks.ticks_add(now_ms, self._left_ms)
        return True

    @property
    def suspended(self):
        return self._suspended

    @property
    def running(self):
        """A shot is on the clock and counting (not suspended; also past expiry, until
        the strike)."""
        return self._state == _RUNNING and not self._suspended

    @property
    def active(self):
        """A shot is on the clock (running or suspended)."""
        return self._state == _RUNNING

    @property
    def limit_ms(self):
        """This shot's limit with its extensions (or the next shot's, between shots)."""
        return self._limit_ms

    # --- reading --------------------------------------------------------------------
    def _remaining(self, now_ms):
        if self._state == _RUNNING and not self._suspended:
            return self._ticks.ticks_diff(self._deadline, now_ms)
        return self._left_ms

    def remaining_ms(self, now_ms):
        """Ms left on the shot: negative past expiry; between shots, what the last shot
        had left at its strike (the full limit before any shot)."""
        return self._remaining(now_ms)

    def seconds_left(self, now_ms):
        """Whole seconds for the display, rounded up, never below 0."""
        left = self._remaining(now_ms)
        if left <= 0:
            return 0
        return (left + 999) // 1000

    def _arm(self, left):
        # The events still ahead of a shot with `left` ms remaining. An event exactly
        # at `left` is not ahead (a limit is never warned or beeped at its start).
        self._warn_at = self._warn_ms if 0 < self._warn_ms < left else _NEVER
        beep = _NEVER
        if self._beeps_ms > 0 and left > 1:
            beep = ((left - 1) // 1000) * 1000
            beep = min(beep, self._beeps_ms)
            if beep <= 0:
                beep = _NEVER
        self._beep_at = beep
        self._set_next()

    def _set_next(self):
        # Plain comparisons, no builtin calls: this runs inside tick().
        nxt = self._warn_at
        if self._beep_at > nxt:  # noqa: PLR1730
            nxt = self._beep_at
        if nxt < 0:  # noqa: PLR1730
            nxt = 0  # only the expiry is ahead
        self._next = nxt

    def tick(self, now_ms):
        """Call often. Returns EV_TIME, EV_WARN, EV_BEEP or EV_NONE. Each event comes
        once per shot; when a late tick finds several due, it returns the most important
        and the lesser ones are folded into it (a beep is never sounded late); TIME is
        never lost. Allocates nothing."""
        if self._state != _RUNNING or self._suspended or self.expired:
            return EV_NONE
        left = self._ticks.ticks_diff(self._deadline, now_ms)
        if left > self._next:
            return EV_NONE
        if left <= 0:
            self.expired = True
            self._warn_at = self._beep_at = self._next = _NEVER
            return EV_TIME
        event = EV_NONE
        if left <= self._beep_at:
            event = EV_BEEP
            beep = ((left - 1) // 1000) * 1000  # the next whole second below
            self._beep_at = beep if beep > 0 else _NEVER
        if left <= self._warn_at:
            event = EV_WARN
            self._warn_at = _NEVER
        self._set_next()
        return event
