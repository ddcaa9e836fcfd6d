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

Its parts are here too (one module: each would cost its own objects in RAM):

- `Stopwatch`, a pausable stopwatch (frame and match time), and `LateStart`, the
  late-start timer. Pure, like the shot clock: `now_ms` comes from the caller, the ticks
  module is injected (default: the 2**30-period one). Limit: one running stretch
  (between start/resume and pause) must stay under half the ticks period, 2**29 ms,
  about 6.2 days; ticks_diff cannot tell longer spans apart. A match or a frame is far
  shorter, and each pause folds the stretch into a plain integer total, which has no
  such limit.
- `ShotTimes`, the shot times per side from the `@MS` stamps: shots, total, longest. A
  shot runs from the moment the balls are set (`go`, or an outcome line) to the strike
  (`hit`, or the next outcome line when no `hit` came), with or without a shot clock.
  Time while play is suspended is not counted. Plain ints: stamps are ms since the match
  started, never wrapped.
"""

from micropython import const

from . import ticks as ticks_module
from .clock import ShotClock
from .clocksettings import format_settings, parse_words
from .views import Timing

MAX_MS = const(0x1FFFFFFF)  # the longest match time a stamp may give: 2**29 - 1 ms
_REBASE = const(0x10000000)  # MatchTime folds spans this long into its base
_LATE_START_S = const(900)  # seed 004 1.7: 15 minutes after the match is called


class Stopwatch:
    """Elapsed running time in ms: start, pause, resume; a pause is not counted."""
    STATE = ("_total", "_since", "started", "running")

    def __init__(self, ticks=ticks_module):
        self._ticks = ticks
        self._total = 0  # ms of the stretches already closed by a pause
        self._since = 0  # ticks when the current stretch began
        self.started = False
        self.running = False

    def reset(self):
        self._total = 0
        self.started = False
        self.running = False

    def start(self, now_ms):
        """(Re)start from zero, running."""
        self._total = 0
        self._since = now_ms
        self.started = True
        self.running = True

    def pause(self, now_ms):
        if not self.running:
            return False
        self._total += self._ticks.ticks_diff(now_ms, self._since)
        self.running = False
        return True

    def resume(self, now_ms):
        if not self.started or self.running:
            return False
        self._since = now_ms
        self.running = True
        return True

    def elapsed_ms(self, now_ms):
        if self.running:
            return self._total + self._ticks.ticks_diff(now_ms, self._since)
        return self._total


class LateStart:
    """`called`: a player not at the table `limit_s` seconds later loses the match
    (`forfeit X late`, entered by the referee). Paused while play is suspended."""
    STATE = ("limit_ms", "_watch")

    def __init__(self, limit_s=_LATE_START_S, ticks=ticks_module):
        self.limit_ms = limit_s * 1000
        self._watch = Stopwatch(ticks)

    def call(self, now_ms):
        """The match is called to the table: the timer starts (again, if it ran)."""
        self._watch.start(now_ms)

    def cancel(self):
        """Both players are there (the match starts): the timer stops for good."""
        self._watch.reset()

    def pause(self, now_ms):
        return self._watch.pause(now_ms)

    def resume(self, now_ms):
        return self._watch.resume(now_ms)

    @property
    def active(self):
        """Called and not cancelled (running or paused)."""
        return self._watch.started

    def remaining_ms(self, now_ms):
        """Ms until the late start is due (0 once due; the full limit when not called)."""
        if not self._watch.started:
            return self.limit_ms
        left = self.limit_ms - self._watch.elapsed_ms(now_ms)
        return left if left > 0 else 0

    def due(self, now_ms):
        """True once the limit has run out since `call` (suspended time not counted)."""
        return self._watch.started and self._watch.elapsed_ms(now_ms) >= self.limit_ms


class ShotTimes:
    STATE = ("shots", "total", "longest", "side", "since", "paused_at")

    def __init__(self, shots=(0, 0), total=(0, 0), longest=(0, 0)):
        self.shots = list(shots)
        self.total = list(total)
        self.longest = list(longest)
        self.side = None  # whose shot is being timed, or None
        self.since = 0
        self.paused_at = None

    def snapshot(self):
        """What a new segment starts from (no shot runs across a `frame` line)."""
        return (tuple(self.shots), tuple(self.total), tuple(self.longest))

    def start(self, ms, side):
        self.side = side
        self.since = ms
        self.paused_at = None

    def cancel(self):
        self.side = None

    def strike(self, ms):
        side = self.side
        if side is None:
            return
        if self.paused_at is not None:
            ms = self.paused_at
        used = ms - self.since
        self.shots[side] += 1
        self.total[side] += used
        self.longest[side] = max(self.longest[side], used)
        self.side = None

    def pause(self, ms):
        if self.side is not None and self.paused_at is None:
            self.paused_at = ms

    def resume(self, ms):
        if self.paused_at is not None:
            self.since += ms - self.paused_at
            self.paused_at = None


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
