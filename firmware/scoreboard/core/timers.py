"""Match timers: a pausable stopwatch (frame and match time) and the late-start timer.

Pure, like the shot clock: `now_ms` comes from the caller, the ticks module is injected
(default: the 2**30-period one). `suspend` pauses every timer; `resume` restarts them.

Limit: one running stretch (between start/resume and pause) must stay under half the
ticks period, 2**29 ms, about 6.2 days; ticks_diff cannot tell longer spans apart. A
match or a frame is far shorter, and each pause folds the stretch into a plain integer
total, which has no such limit.
"""

from micropython import const

from scoreboard.core import ticks as ticks_module

LATE_START_S = const(900)  # seed 004 1.7: 15 minutes after the match is called


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

    def __init__(self, limit_s=LATE_START_S, ticks=ticks_module):
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
