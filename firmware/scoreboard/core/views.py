"""What the report and the screens read of a match, with names, not positions.

`View`: the frame in play, docs/notation.md's `current` object. `Match.view()` fills one View
that the match keeps and returns it each time (the same object, refilled: no allocation
but the prompts list), so read it before the next event or copy what must be kept.
`Timing`: elapsed times and shot statistics from the `@MS` stamps (`Match.timing()`).
Fields that do not apply to a game are None (for example `reds` in pool).
"""


class View:
    """The frame in play: striker (0, 1, or None while the board waits for `respot`),
    score (pair, or None for a pool rack), brk (the striker's break or run), ball_on
    (`red`, `colour` or a colour's name), reds, remaining, snookers_required, free_ball,
    respotted_black, fouls (fouls in a row, pair), misses (misses in a row, pair),
    prompts (list of codes in docs/notation.md's order)."""

    def __init__(self):
        self.striker = None
        self.score = None
        self.brk = None
        self.ball_on = None
        self.reds = None
        self.remaining = None
        self.snookers_required = None
        self.free_ball = None
        self.respotted_black = None
        self.fouls = None
        self.misses = None
        self.prompts = None

    def fill(self, striker, score, brk, fouls, prompts):
        """What every game has; the snooker-only fields go back to None."""
        self.striker = striker
        self.score = score
        self.brk = brk
        self.fouls = fouls
        self.prompts = prompts
        self.ball_on = self.reds = self.remaining = self.snookers_required = None
        self.free_ball = self.respotted_black = self.misses = None
        return self


class Timing:
    """match_ms, frame_ms (None between frames), late_start_due (None when the match was
    not called), and per side (pairs indexed 0 = A, 1 = B): shots, total (ms), longest
    (ms), extensions (extensions left, or None without a shot clock)."""

    def __init__(self, match_ms, frame_ms, late_start_due, shots, total, longest,
                 extensions):
        self.match_ms = match_ms
        self.frame_ms = frame_ms
        self.late_start_due = late_start_due
        self.shots = shots
        self.total = total
        self.longest = longest
        self.extensions = extensions

    def average_ms(self, side):
        """The average shot of a side in whole ms, or None before its first shot."""
        n = self.shots[side]
        return self.total[side] // n if n else None
