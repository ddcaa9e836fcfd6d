"""What the buzzer says, and a player that never blocks the loop.

`PATTERNS` is the one table of the box's sounds (the driver, drivers/buzzer.py, only
makes tones). Each is a flat tuple of (frequency in Hz, milliseconds) pairs, 0 Hz a
rest. The player starts the pattern's first tone at once and moves on as `update(now)` is called
from the loop (every pass), so a beep never delays a key. A new sound replaces the one
playing, except that the shot clock's TIME is never cut short by a lesser sound.
Volume (duty cycle, 0..100 %; 0 is mute) is the player's; the board only makes tones.
"""

from micropython import const

from scoreboard.core.ticks import ticks_add, ticks_diff

# The referee's sounds: a high short beep for the warning and each counted second, a
# long double tone at TIME, a low buzz for a refused entry, a rising run at frame end.
PATTERNS = {
    "warn": (1800, 150, 0, 100, 1800, 150),
    "beep": (2200, 80),
    "time": (2600, 500, 0, 120, 2600, 700),
    "refuse": (220, 300),
    "frame_end": (1000, 120, 0, 60, 1400, 120, 0, 60, 1900, 260),
    "match_end": (1000, 150, 1400, 150, 1900, 150, 2500, 400),
}
_IMPORTANT = "time"
_IDLE = const(-1)


class Sounds:
    def __init__(self, board, volume=60):
        self.board = board
        self.volume = volume
        self._name = None
        self._pattern = ()
        self._i = _IDLE
        self._until = 0

    def play(self, name, now=None):
        """Start sound `name` (a key of PATTERNS) now."""
        if self._i != _IDLE and self._name == _IMPORTANT and name != _IMPORTANT:
            return
        self._name = name
        self._pattern = PATTERNS[name]
        self._i = 0
        self._start(self.board.ticks_ms() if now is None else now)

    def _start(self, now):
        p = self._pattern
        freq = p[self._i]
        if freq == 0 or self.volume <= 0:
            self.board.quiet()
        else:
            self.board.tone(freq, self.volume)
        self._until = ticks_add(now, p[self._i + 1])

    def update(self, now):
        """Called every pass: moves to the pattern's next tone when this one is over."""
        if self._i == _IDLE or ticks_diff(now, self._until) < 0:
            return
        self._i += 2
        if self._i >= len(self._pattern):
            self._i = _IDLE
            self.board.quiet()
            return
        self._start(now)

    @property
    def playing(self):
        return self._i != _IDLE

    def quiet(self):
        self._i = _IDLE
        self.board.quiet()
