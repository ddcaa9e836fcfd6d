"""Shot times per side, from the `@MS` stamps: shots, total, longest.

A shot runs from the moment the balls are set (`go`, or an outcome line) to the strike
(`hit`, or the next outcome line when no `hit` came), with or without a shot clock.
Time while play is suspended is not counted. Plain ints: stamps are ms since the match
started, never wrapped.
"""


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
