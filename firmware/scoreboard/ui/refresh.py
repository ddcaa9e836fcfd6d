"""When the e-ink panel refreshes, and how: the app's refresh policy as a small pure object.

An e-ink refresh takes 0.7 s (partial) to 2 s (full) and ghosts after many partials, so
the panel is not redrawn on every change:

- changes that come fast (keys a referee presses in a row) are coalesced: a refresh is
  due QUIET_MS after the last change, but never later than LATEST_MS after the first
  one that is still off the panel;
- the first picture (the boot's) goes up at once;
- a refresh is full when a change asked for it (a frame's or the match's end, a new
  match) or after FULL_EVERY - 1 partial ones (the ghosting), else partial.

The owner says `changed(now, full)` on every change, asks `due(now)` once a pass (None,
or whether the refresh is full) and says `taken(full)` when it hands one to the panel.
Times are ticks_ms values (they wrap); nothing here allocates (the app's pass runs it).
"""

from micropython import const

from scoreboard.core.ticks import ticks_diff

QUIET_MS = const(400)  # wait this long after the last change before refreshing
LATEST_MS = const(2000)  # ... but never keep a change off the panel longer than this
FULL_EVERY = const(10)  # a full refresh after this many partial ones (ghosting)


class Refresh:
    def __init__(self):
        self.dirty = False  # a change is not on the panel yet
        self.full = True  # ... and one of them asked for a full refresh
        self.changed_at = 0  # the last change
        self.since = 0  # the first change still off the panel
        self.partials = 0  # partial refreshes since the last full one
        self.asap = True  # the first picture goes up at once, not after QUIET_MS

    def changed(self, now, full=False):
        """What the panel shows changed at `now` (`full`: it wants a full refresh)."""
        if not self.dirty:
            self.since = now
        self.dirty = True
        self.full = self.full or full
        self.changed_at = now

    def due(self, now):
        """None, or True/False (full/partial) when the panel should refresh now."""
        if not self.dirty:
            return None
        if not self.asap and (ticks_diff(now, self.changed_at) < QUIET_MS
                              and ticks_diff(now, self.since) < LATEST_MS):
            return None  # changes are coming fast: coalesce
        return self.full or self.partials + 1 >= FULL_EVERY

    def taken(self, full):
        """A refresh (`full` or partial) went to the panel with every change so far."""
        self.dirty = False
        self.full = False
        self.asap = False
        self.partials = 0 if full else self.partials + 1
