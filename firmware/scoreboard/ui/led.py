"""The 32x16 LED panel: the shot clock for the room, or the scores when it is not running.

`draw(canvas, match, now_ms)` paints the whole panel (MONO_HLSB, 1 = LED lit) through
framebuf methods and returns how many ms until the picture changes by itself (the next
second, the next flash, the next picture of the scores), or -1 when it only changes
with the next event. What it shows:

- a shot on the clock (running or suspended): its seconds, in digits the full panel
  high (16 rows; three narrower digits from 100 s up); from the warning (`warn` seconds
  left) the digits flash, lit in the first half of each second and dark in the second
  (the lit half starts when the number changes); `TIME` at expiry, steady (in
  Bulgarian a steady 0: its rule book's "time" is the warning ten seconds before the
  limit, seed 004 1.11, not the limit);
- otherwise (clock off, or between shots) in snooker and straight pool, the scores for
  the room in turn, each the full panel high (16 rows, strokes of 2 or 3 dots, read at
  about 16 m): the striker's score, an arrow on its side, for SCORE_MS from the last
  event (a pot shows it at once), then the other side's for OTHER_MS, then in snooker
  the frames won for FRAMES_MS (12 rows, a bar under the striker's side), and again;
  in pool: the racks won, with the bar;
- between frames and after the match (also when a ruling such as `concede` ended the
  frame with a shot on the clock): the frames (racks) won; no match: dark;
- a called match before its first frame (the late start, seed 004 1.7, counted from the
  call): the minutes and seconds still to go, `M:SS` the full panel high, for the player
  the table waits for and the room; `TIME` once it is due (in Bulgarian 0:00; the
  referee may then enter `forfeit X late`, which the e-ink panel asks for).
- the app stopped (`stopped`): `STOP`, steady, until the box starts again.

docs/design.md gives each picture's reading distance. The clock path reads only
`match.clock` and small ints and draws with integer arithmetic: it allocates nothing
(tests/micropython/screens_led_heap.py proves it under `micropython.heap_lock()`); so do
the snooker and straight-pool scores in turn and the late start.
"""

from micropython import const

from scoreboard.lang import current

from .draw import CENTRE, LEFT, RIGHT, count_digits, digit, number, triangle

_W = const(32)
_H = const(16)
_HALF = const(500)
SCORE_MS = const(4000)  # the striker's score, from the last event
OTHER_MS = const(2000)  # then the other side's
FRAMES_MS = const(2000)  # then the frames won (snooker)
_ARROW = const(7)  # the side's arrow: 7 rows, 4 columns, at the panel's edge


def _expired(canvas):
    """The limit reached: `TIME`, or a steady 0 in Bulgarian (there "time" is the warning
    ten seconds before it, seed 004 1.11)."""
    if current() == "bg":
        number(canvas, 0, 0, 0, 13, _H, 3, 2, CENTRE, 1, _W)
    else:
        _time(canvas)


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
        _expired(canvas)
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
        if current() != "bg":
            _time(canvas)
            return -1
        left = 0  # 0:00, steady
    secs = (left + 999) // 1000
    into = left - (secs - 1) * 1000 if left else -1
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


def _won(canvas, a, b, striker):
    """Two counts (frames or racks won), big, a dash between."""
    number(canvas, a, 1, 0, 6, 12, 2, 2, LEFT, 1, 0)
    number(canvas, b, 0, 0, 6, 12, 2, 2, RIGHT, 1, _W - 1)
    canvas.fill_rect(14, 5, 4, 2, 1)
    if striker is not None:
        canvas.fill_rect(0 if striker == 0 else _W - 8, 14, 8, 2, 1)


def _score(canvas, value, side):
    """One side's score the panel high, an arrow at its edge pointing out (A left, B
    right): two digits 10 dots wide with strokes of 3, three (or a minus and two) 7 wide
    with strokes of 2, four 6 wide (strokes 2): none under 2 dots a stroke."""
    x = _ARROW // 2 + 2 if side == 0 else 0  # the digits' 27 columns, beside the arrow
    room = _W - _ARROW // 2 - 2
    c = count_digits(value)
    if c <= 2:
        number(canvas, value, x, 0, 10, _H, 3, 3, CENTRE, 1, room)
    elif c == 3:
        number(canvas, value, x, 0, 7, _H, 2, 3, CENTRE, 1, room)
    else:
        number(canvas, value, x, 0, 6, _H, 2, 1, CENTRE, 1, room)
    if side == 0:
        triangle(canvas, 0, (_H - _ARROW) // 2, _ARROW, False, 1)
    else:
        triangle(canvas, _W - _ARROW // 2 - 1, (_H - _ARROW) // 2, _ARROW, True, 1)


def _scores(canvas, match, f, now_ms):
    """Snooker and straight pool in play: the striker's score, the other's, the frames
    won (snooker), in turn from the last event; returns ms to the next picture."""
    s = None if f.awaiting_respot else f.striker
    first = 0 if s is None else s  # waiting for `respot`: nobody at the table; A, then B
    last = match.time.last_ms
    since = now_ms - last if now_ms > last else 0
    cycle = SCORE_MS + OTHER_MS + (FRAMES_MS if match.family == "snooker" else 0)
    at = since % cycle
    if at < SCORE_MS:
        _score(canvas, f.score[first], first)
        return SCORE_MS - at
    if at < SCORE_MS + OTHER_MS:
        _score(canvas, f.score[1 - first], 1 - first)
        return SCORE_MS + OTHER_MS - at
    won = match.won  # the frame is in play: the frames won are the match's count
    _won(canvas, won[0], won[1], s)
    return cycle - at


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
    return _scores(canvas, match, f, now_ms)


