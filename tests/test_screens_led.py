"""The 32x16 LED panel: what it shows, when it flashes, and that it allocates nothing.

The shot clock's seconds are read back from the seven-segment digits
(tests/support/screens.py), the warning must flash (lit in the first half of each
second, dark in the second) and only from the warning on, TIME at expiry is the
pattern below, and with the clock off (or between shots) the panel shows both scores
and the striker's break. `led.draw` returns the ms until the picture changes by
itself, which the app may use to schedule its next call; it is checked here too.
The byte-for-byte comparison with MicroPython and the expected files of the LED screens
are in tests/test_screens.py; tests/micropython/screens_led_heap.py runs the drawing
under `micropython.heap_lock()`.
"""

import sys

from support import mpy
from support import screens as S

sys.path.insert(0, str(mpy.REPO / "tests" / "micropython"))

import screens_catalogue as cat

from scoreboard.ui import draw, led

HEAP = mpy.REPO / "tests" / "micropython" / "screens_led_heap.py"
SHOT_AT = 1000  # CLOCK_RUN: the shot starts at 1000 ms, 45 s, warning at 10 s

TIME = """
................................
.######..##..##......##..######.
.######..##..###....###..######.
...##....##..####..####..##.....
...##....##..##.####.##..##.....
...##....##..##..##..##..##.....
...##....##..##..##..##..##.....
...##....##..##......##..#####..
...##....##..##......##..#####..
...##....##..##......##..##.....
...##....##..##......##..##.....
...##....##..##......##..##.....
...##....##..##......##..##.....
...##....##..##......##..######.
...##....##..##......##..######.
................................
"""


def _led(match, now):
    buf, fb = S.canvas(32, 16)
    nxt = led.draw(fb, match, now)
    return buf, nxt


def _rows(buf):
    return ["".join("#" if S.pixel(buf, 32, x, y) else "." for x in range(32))
            for y in range(16)]


def _seconds(buf):
    """The clock's seconds as the panel shows them (two wide digits, or three narrow)."""
    got = S.number_at(buf, 32, 0, 32, 0, 13, 16, 3, 2, draw.CENTRE)
    if got is None:
        got = S.number_at(buf, 32, 0, 32, 0, 9, 16, 2, 2, draw.CENTRE)
    return got


def _lit(buf):
    return S.ink(buf, 32, 0, 0, 32, 16)


def test_clock_seconds_in_big_digits():
    match = cat.play(cat.CLOCK_RUN)
    # From 10 s on (the warning) only the first half of each second is lit.
    for after_ms, shown in ((0, "45"), (13000, "32"), (13001, "32"), (14000, "31"),
                            (35400, "10"), (36001, "9"), (44100, "1")):
        buf, _ = _led(match, SHOT_AT + after_ms)
        assert _seconds(buf) == shown, (after_ms, _rows(buf))


def test_the_picture_says_when_it_changes_next():
    match = cat.play(cat.CLOCK_RUN)
    # 32.000 s left: the number changes in 1000 ms; 31.750 s left: in 750 ms.
    assert _led(match, SHOT_AT + 13000)[1] == 1000
    assert _led(match, SHOT_AT + 13250)[1] == 750
    # In the warning the picture changes every half second: 7.800 s left is lit until
    # 7.500 (300 ms), then dark until 7.000: 7.400 s left changes in 400 ms.
    assert _led(match, SHOT_AT + 37200)[1] == 300
    assert _led(match, SHOT_AT + 37600)[1] == 400
    assert _led(match, SHOT_AT + 46000)[1] == -1  # TIME: steady
    assert _led(cat.play(cat.OPENING), 0)[1] == -1  # the scores: until the next event


def test_the_warning_flashes_and_only_from_the_warning():
    match = cat.play(cat.CLOCK_RUN)
    lit_8 = _led(match, SHOT_AT + 37200)[0]  # 7.8 s left
    dark_8 = _led(match, SHOT_AT + 37700)[0]  # 7.3 s left
    assert _seconds(lit_8) == "8"
    assert _lit(dark_8) == 0
    # Before the warning (12.8 s and 12.3 s left) the digits stay lit all second.
    assert _seconds(_led(match, SHOT_AT + 32200)[0]) == "13"
    assert _seconds(_led(match, SHOT_AT + 32700)[0]) == "13"
    # Over the whole shot: on/off changes only in the last 10 s, two a second.
    changes = []
    was = True
    now = SHOT_AT
    while now < SHOT_AT + 45000:
        on = _lit(_led(match, now)[0]) > 0
        if on != was:
            changes.append(now - SHOT_AT)
            was = on
        now += 50
    assert changes and min(changes) >= 35000
    assert len(changes) == 19  # 10 dark halves: off, on, ..., off (the last half is TIME)


def test_time_at_expiry():
    match = cat.play(cat.CLOCK_RUN)
    for after in (45000, 45001, 60000):
        buf, nxt = _led(match, SHOT_AT + after)
        assert _rows(buf) == TIME.split(), _rows(buf)
        assert nxt == -1
    assert _seconds(_led(match, SHOT_AT + 44400)[0]) == "1"  # 0.6 s left: lit


def test_three_digit_clock_and_a_suspended_shot():
    text = cat.HEAD + "clock shot=120 warn=10\n@0 frame A\n@1000 pot red\n"
    match = cat.play(text)
    buf, _ = _led(match, 1000)
    assert S.number_at(buf, 32, 0, 32, 0, 9, 16, 2, 2, draw.CENTRE) == "120"
    suspended = cat.play(cat.CLOCK_RUN + "@6000 suspend\n")
    for now in (6000, 100000, 10 ** 9):
        buf, nxt = _led(suspended, now)
        assert _seconds(buf) == "40" and nxt == -1


def test_clock_off_shows_both_scores_and_the_break():
    buf, _ = _led(cat.play(cat.OPENING), 0)
    assert S.number_at(buf, 32, 0, 16, 0, 4, 7, 1, 1, draw.LEFT) == "32"
    assert S.number_at(buf, 32, 16, 16, 0, 4, 7, 1, 1, draw.RIGHT) == "6"
    assert S.number_at(buf, 32, 6, 20, 9, 5, 7, 1, 1, draw.CENTRE) == "9"  # A's break
    assert S.ink(buf, 32, 0, 9, 4, 7) > 0 and S.ink(buf, 32, 28, 9, 4, 7) == 0  # A's arrow
    buf, _ = _led(cat.play(cat.OPENING + "end\npot red\npot pink\n"), 0)
    assert S.number_at(buf, 32, 16, 16, 0, 4, 7, 1, 1, draw.RIGHT) == "13"
    assert S.number_at(buf, 32, 6, 20, 9, 5, 7, 1, 1, draw.CENTRE) == "7"  # B's break
    assert S.ink(buf, 32, 0, 9, 4, 7) == 0 and S.ink(buf, 32, 28, 9, 4, 7) > 0
    # Between two shots on the clock, the scores too.
    between = cat.play(cat.CLOCK_RUN + "@5000 hit\n")
    buf, _ = _led(between, 6000)
    assert S.number_at(buf, 32, 0, 16, 0, 4, 7, 1, 1, draw.LEFT) == "1"


def test_pool_straight_and_between_frames():
    buf, _ = _led(cat.play(cat.STRAIGHT), 0)
    assert S.number_at(buf, 32, 0, 16, 0, 4, 7, 1, 1, draw.LEFT) == "1"
    assert S.number_at(buf, 32, 16, 16, 0, 4, 7, 1, 1, draw.RIGHT) == "24"
    below = cat.play(cat.STRAIGHT[:cat.STRAIGHT.index("frame A")]
                     + "frame A\nfoul break\nagain\nfoul\n")  # A: -2, then -1
    buf, _ = _led(below, 0)
    assert S.number_at(buf, 32, 0, 16, 0, 4, 7, 1, 1, draw.LEFT) == "-3"
    buf, _ = _led(cat.play(cat.NINE), 0)  # racks 1-1, B at the table
    assert S.number_at(buf, 32, 1, 12, 0, 6, 12, 2, 2, draw.LEFT) == "1"
    assert S.ink(buf, 32, 24, 14, 8, 2) == 16 and S.ink(buf, 32, 0, 14, 8, 2) == 0
    buf, _ = _led(cat.play(cat.FRAME_OVER), 0)  # frames 0-1, nobody at the table
    assert S.number_at(buf, 32, 1, 12, 0, 6, 12, 2, 2, draw.LEFT) == "0"
    assert S.number_at(buf, 32, 19, 12, 0, 6, 12, 2, 2, draw.RIGHT) == "1"
    assert S.ink(buf, 32, 0, 14, 32, 2) == 0
    # A frame conceded with a shot on the clock: the frames won, not a clock running on.
    conceded = cat.play(cat.CLOCK_RUN + "@3000 concede\n")
    buf, nxt = _led(conceded, 3000)
    assert S.number_at(buf, 32, 19, 12, 0, 6, 12, 2, 2, draw.RIGHT) == "1" and nxt == -1
    dark, nxt = _led(None, 0)
    assert _lit(dark) == 0 and nxt == -1


def _late(buf):
    """The late start as the panel shows it, `M:SS`, or None when it shows no colon."""
    if not (S.ink(buf, 32, 15, 4, 2, 2) == 4 and S.ink(buf, 32, 15, 10, 2, 2) == 4):
        return None
    mins = S.number_at(buf, 32, 0, 14, 0, 6, 16, 2, 1, draw.RIGHT)
    return "%s:%s" % (mins, S.read_number(buf, 32, 18, 0, 6, 16, 2, 1, 2))


def test_a_called_match_counts_its_late_start_down_to_time():
    """Seed 004 1.7: the late start runs from the call; before the first frame the
    panel counts it down in M:SS, TIME once due; the rules' `late` minutes count."""
    called = cat.play(cat.HEAD + "@5000 called\n")
    for now, shown, nxt in ((5000, "15:00", 1000), (5001, "15:00", 999), (6000, "14:59", 1000),
                            (5000 + 9 * 60000 + 30500, "5:30", 500),
                            (5000 + 899001, "0:01", 999)):
        buf, got = _led(called, now)
        assert (_late(buf), got) == (shown, nxt), (now, _rows(buf))
    for now in (5000 + 900000, 10 ** 8):
        buf, got = _led(called, now)
        assert _rows(buf) == TIME.split() and got == -1
    short = cat.play(cat.HEAD.replace("match best-of 7", "match best-of 7\nrules late=5")
                     + "@0 called\n")
    assert _late(_led(short, 0)[0]) == "5:00"
    # The first frame starts the match: the late start is over, the scores show.
    started = cat.play(cat.HEAD + "@0 called\n@60000 frame A\n")
    buf, _ = _led(started, 61000)
    assert _late(buf) is None
    assert S.number_at(buf, 32, 0, 16, 0, 4, 7, 1, 1, draw.LEFT) == "0"
    assert _late(_led(cat.play(cat.HEAD), 0)[0]) is None  # not called: the frames won


def test_drawing_allocates_nothing_under_heap_lock(micropython_bin):
    rc, out = mpy.run_micropython(HEAP)
    assert rc == 0, out
    assert out.splitlines()[-1] == "OK", out
    words = out.split()
    lit, dark, time = int(words[1]), int(words[3]), int(words[5])
    # 47 s in 7 ms steps: 45 s of clock of which 5 s dark (ten half seconds), then TIME.
    assert lit > 5000 and 600 < dark < 800 and time > 200, out
    assert int(words[words.index("late-due") + 1]) == 10, out  # 900 063 to 900 936 ms: TIME
