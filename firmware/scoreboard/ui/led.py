"""The 32x16 LED panel: the shot clock for the room, or the scores when it is not running.

`draw(canvas, match, now_ms)` paints the whole panel (MONO_HLSB, 1 = LED lit) through
framebuf methods and returns how many ms until the picture changes by itself (the next
second, the next flash), or -1 when it only changes with the next event. What it shows:

- a shot on the clock (running or suspended): its seconds, in digits the full panel
  high (16 rows; three narrower digits from 100 s up); from the warning (`warn` seconds
  left) the digits flash, lit in the first half of each second and dark in the second
  (the lit half starts when the number changes); `TIME` at expiry, steady;
- otherwise (clock off, or between shots) in snooker and straight pool: both scores
  along the top (A left, B right), the striker's break (run) below, with an arrow on the
  striker's side; in pool: the racks won, with the arrow;
- between frames and after the match (also when a ruling such as `concede` ended the
  frame with a shot on the clock): the frames (racks) won; no match: dark;
- a called match before its first frame (the late start, seed 004 1.7, counted from the
  call): the minutes and seconds still to go, `M:SS` the full panel high, for the player
  the table waits for and the room; `TIME` once it is due (the referee may then enter
  `forfeit X late`).
- the app stopped (`stopped`): `STOP`, steady, until the box starts again.

The clock path reads only `match.clock` and small ints and draws with integer
arithmetic: it allocates nothing (tests/micropython/screens_led_heap.py proves it under
`micropython.heap_lock()`); so does the snooker and straight-pool score path.
"""

from micropython import const

from .draw import CENTRE, LEFT, RIGHT, digit, number, triangle

_W = const(32)
_H = const(16)
_HALF = const(500)


def _time(canvas):
    """`TIME`, 14 rows high, strokes 2 wide."""
    y = 1
    h = 14
    x = 1
    canvas.fill_rect(x, y, 6, 2, 1)  # T
    canvas.fill_rect(x + 2, y, 2, h, 1)
    x += 8
    canvas.fill_rect(x, y, 2, h, 1)  # I
    x += 4
    canvas.fill_rect(x, y, 2, h, 1)  # M
    canvas.fill_rect(x + 8, y, 2, h, 1)
    i = 0
    while i < 4:
        canvas.fill_rect(x + 2 + i, y + 1 + i, 1, 2, 1)
        canvas.fill_rect(x + 7 - i, y + 1 + i, 1, 2, 1)
        i += 1
    x += 12
    canvas.fill_rect(x, y, 2, h, 1)  # E
    canvas.fill_rect(x, y, 6, 2, 1)
    canvas.fill_rect(x, y + 6, 5, 2, 1)
    canvas.fill_rect(x, y + h - 2, 6, 2, 1)


def stopped(canvas):
    """`STOP`, 14 rows high, strokes 2 wide: the app has stopped (App.show_stopped), the
    box takes no key until it starts again."""
    canvas.fill(0)
    y = 1
    h = 14
    x = 1
    canvas.fill_rect(x, y, 6, 2, 1)  # S
    canvas.fill_rect(x, y, 2, 7, 1)
    canvas.fill_rect(x, y + 6, 6, 2, 1)
    canvas.fill_rect(x + 4, y + 6, 2, 8, 1)
    canvas.fill_rect(x, y + h - 2, 6, 2, 1)
    x += 8
    canvas.fill_rect(x, y, 6, 2, 1)  # T
    canvas.fill_rect(x + 2, y, 2, h, 1)
    x += 8
    canvas.rect(x, y, 6, h, 1)  # O
    canvas.rect(x + 1, y + 1, 4, h - 2, 1)
    x += 8
    canvas.fill_rect(x, y, 2, h, 1)  # P
    canvas.fill_rect(x, y, 6, 2, 1)
    canvas.fill_rect(x + 4, y, 2, 8, 1)
    canvas.fill_rect(x, y + 6, 6, 2, 1)


def _seconds(canvas, secs):
    if secs >= 100:
        number(canvas, secs, 0, 0, 9, _H, 2, 2, CENTRE, 1, _W)
    else:
        number(canvas, secs, 0, 0, 13, _H, 3, 2, CENTRE, 1, _W)


def _clock(canvas, clock, now_ms):
    """The shot on the clock; returns ms to the next change, or -1."""
    left = clock.remaining_ms(now_ms)
    if left <= 0:
        _time(canvas)
        return -1
    secs = (left + 999) // 1000
    into = left - (secs - 1) * 1000  # ms of this second still to come: 1..1000
    running = clock.running
    warn = clock.settings.warn
    if running and warn and secs <= warn:
        if into > _HALF:
            _seconds(canvas, secs)
            return into - _HALF
        return into
    _seconds(canvas, secs)
    return into if running else -1


def _late(canvas, late, now_ms):
    """The late start's M:SS to go (99:59 at most); returns ms to the next change, or
    -1 once due (TIME)."""
    left = late.remaining_ms(now_ms)
    if left <= 0:
        _time(canvas)
        return -1
    secs = (left + 999) // 1000
    into = left - (secs - 1) * 1000
    mins = secs // 60
    if mins > 99:
        mins, secs = 99, 59
    secs %= 60
    number(canvas, mins, 0, 0, 6, _H, 2, 1, RIGHT, 1, 14)
    canvas.fill_rect(15, 4, 2, 2, 1)  # the colon
    canvas.fill_rect(15, 10, 2, 2, 1)
    digit(canvas, secs // 10, 18, 0, 6, _H, 2, 1)
    digit(canvas, secs % 10, 25, 0, 6, _H, 2, 1)
    return into


def _arrow(canvas, side, y):
    if side == 0:
        triangle(canvas, 0, y, 7, False, 1)
    elif side == 1:
        triangle(canvas, _W - 4, y, 7, True, 1)


def _won(canvas, a, b, striker):
    """Two counts (frames or racks won), big, a dash between."""
    number(canvas, a, 1, 0, 6, 12, 2, 2, LEFT, 1, 0)
    number(canvas, b, 0, 0, 6, 12, 2, 2, RIGHT, 1, _W - 1)
    canvas.fill_rect(14, 5, 4, 2, 1)
    if striker is not None:
        canvas.fill_rect(0 if striker == 0 else _W - 8, 14, 8, 2, 1)


def _scores(canvas, f):
    """Snooker and straight pool: both scores on top, the striker's break below."""
    score = f.score
    number(canvas, score[0], 0, 0, 4, 7, 1, 1, LEFT, 1, 0)
    number(canvas, score[1], 0, 0, 4, 7, 1, 1, RIGHT, 1, _W)
    s = f.striker
    if s is None:  # waiting for `respot`: no one at the table
        return
    number(canvas, f.brk, 0, 9, 5, 7, 1, 1, CENTRE, 1, _W)
    _arrow(canvas, s, 9)


def draw(canvas, match, now_ms):
    """Paint the LED panel for `match` at `now_ms` (the board's ticks_ms); returns ms until
    the picture changes by itself, or -1. Allocation free on the clock path."""
    canvas.fill(0)
    if match is None:
        return -1
    f = match.frame
    in_play = f is not None and not f.ended
    clock = match.clock
    if in_play and clock.enabled and clock.active:
        return _clock(canvas, clock, now_ms)
    if f is None and match.time.late.active:
        return _late(canvas, match.time.late, now_ms)
    if not in_play:
        won = match.frames_won()
        _won(canvas, won[0], won[1], None)
        return -1
    if match.family == "pool":
        won = match.frames_won()
        _won(canvas, won[0], won[1], f.striker)
        return -1
    _scores(canvas, f)
    return -1


