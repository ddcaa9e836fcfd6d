"""The match's times in one object: stopwatches, late start, shot times and the clock.

"Match milliseconds" are defined here, once: what an `@MS` stamp counts, the time that
the stopwatches, the shot clock and the shot statistics are fed with. They are
milliseconds since the match started; after a reset they continue from the last stamp
(the box has no calendar clock). `MatchTime` turns the board's `ticks_ms()` into match
milliseconds for the app; the core only ever sees the stamps. A stamp is at most
`MAX_MS` (about 6.2 days): past that the ticks arithmetic could not tell spans apart,
so the parser refuses it with a reason.

`Timekeeper` is what a match keeps of time. Its `base` (a tuple) is what it was at the
start of the current segment, right after the last `frame` line: `restart()` rebuilds
the timers from it (undo folds the segment again from there), `new_segment()` moves it
to now, and `encode_base()` / `decode_base()` write it into a match checkpoint.
"""

from micropython import const

from . import ticks as ticks_module
from .clock import ShotClock
from .clocksettings import format_settings, parse_words
from .shots import ShotTimes
from .timers import LateStart, Stopwatch
from .views import Timing

MAX_MS = const(0x1FFFFFFF)  # the longest match time a stamp may give: 2**29 - 1 ms
_REBASE = const(0x10000000)  # MatchTime folds spans this long into its base


class MatchTime:
    """Match milliseconds from the board's ticks: `resume(last, now)` once (0 for a new
    match, the last stamp in the journal after a reset), then `ms(now)` as often as
    needed (at least every three days, which any loop does). Allocation free."""

    def __init__(self, ticks=ticks_module):
        self._ticks = ticks
        self._base = 0
        self._origin = 0

    def resume(self, last_stamp_ms, now_ticks):
        """Match time is `last_stamp_ms` at `now_ticks`, and runs on from there."""
        self._base = last_stamp_ms
        self._origin = now_ticks

    def ms(self, now_ticks):
        """The match milliseconds at `now_ticks` (never less than at the last call)."""
        d = self._ticks.ticks_diff(now_ticks, self._origin)
        if d < 0:
            return self._base
        if d >= _REBASE:
            self._base += d
            self._origin = now_ticks
            d = 0
        return self._base + d


class Timekeeper:
    """Frame and match stopwatches, the late start, shot times, the shot clock, and the
    last stamp, for one match. `settings`: the header's clock (Settings or None);
    `late_s`: the late-start limit in seconds."""
    STATE = ("stamped", "last_ms", "match_watch", "frame_watch", "late", "clock", "shots")

    def __init__(self, settings, late_s):
        self.late_s = late_s
        # (stamped, ms, match elapsed, clock settings, shot statistics) at the segment's start
        self.base = (False, 0, 0, settings, ShotTimes().snapshot())
        self.restart()

    def restart(self):
        """Every timer as it was at the start of the segment."""
        stamped, ms, elapsed, settings, shots = self.base
        self.stamped = stamped  # a line in effect carried `@MS`
        self.last_ms = ms
        self.match_watch = Stopwatch()
        self.match_watch.start(ms - elapsed)
        self.frame_watch = Stopwatch()
        self.frame_watch.start(ms)
        self.late = LateStart(self.late_s)
        self.clock = ShotClock(settings)
        self.shots = ShotTimes(*shots)

    def new_segment(self, ms, stamped):
        """A `frame` line at `ms`: the base moves here and the timers restart from it."""
        self.base = (stamped, ms, self.match_watch.elapsed_ms(ms), self.clock.settings,
                     self.shots.snapshot())
        self.restart()

    def at(self, ms):
        """The time of a line: its stamp, or the last stamp for a line without one.
        ValueError when the stamp goes back in time."""
        if ms is None:
            return self.last_ms
        if ms < self.last_ms:
            raise ValueError("time stamp @%d is earlier than @%d" % (ms, self.last_ms))
        return ms

    def mark(self, ms):
        """A stamped line was applied."""
        self.stamped = True
        self.last_ms = ms

    def pause(self, ms):
        """`suspend`: every timer stops."""
        for timer in (self.match_watch, self.frame_watch, self.late, self.clock, self.shots):
            timer.pause(ms)

    def resume(self, ms):
        for timer in (self.match_watch, self.frame_watch, self.late, self.clock, self.shots):
            timer.resume(ms)

    def time_is_up(self):
        """A shot on the clock has run out (the `time` prompt)."""
        c = self.clock
        return c.active and c.remaining_ms(self.last_ms) <= 0

    def report(self, in_frame):
        """A Timing of the match at the last stamp; None when no line carried `@MS`.
        `in_frame`: a frame has started (its time is reported)."""
        if not self.stamped:
            return None
        now = self.last_ms
        c = self.clock
        t = self.shots
        return Timing(self.match_watch.elapsed_ms(now),
                      self.frame_watch.elapsed_ms(now) if in_frame else None,
                      self.late.due(now) if self.late.active else None,
                      t.shots, t.total, t.longest,
                      (c.extensions_left(0), c.extensions_left(1)) if c.enabled else None)

    # -- the base in a checkpoint ---------------------------------------------------------
    def encode_base(self):
        """The base as `key=value` fields without spaces (for Match.checkpoint)."""
        stamped, ms, elapsed, settings, shots = self.base
        clock = format_settings(settings).replace(" ", ",") or "-"
        return "st=%d;ms=%d;el=%d;clk=%s;sh=%s" % (
            1 if stamped else 0, ms, elapsed, clock,
            ",".join("%d" % v for pair in shots for v in pair))

    def decode_base(self, fields):
        """Set the base from the fields of encode_base (a dict); ValueError if bad."""
        shots = [_int(v) for v in fields["sh"].split(",")]
        if len(shots) != 6:
            raise ValueError("bad shot figures")
        clock = fields["clk"]
        settings = None if clock == "-" else parse_words(clock.split(","))
        self.base = (fields["st"] == "1", _int(fields["ms"]), _int(fields["el"]), settings,
                     ((shots[0], shots[1]), (shots[2], shots[3]), (shots[4], shots[5])))
        self.restart()


def _int(text):
    if not text or len(text) > 12 or any(c < "0" or c > "9" for c in text):
        raise ValueError("bad number '%s'" % text)
    return int(text)
