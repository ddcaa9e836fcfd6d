"""The 32x16 LED panel: what it shows, when it flashes, and that it allocates nothing.

The shot clock's seconds are read back from the seven-segment digits
(tests/support/screens.py), the warning must flash (lit in the first half of each
second, dark in the second) and only from the warning on, TIME at expiry is the
pattern below, and with the clock off (or between shots) the panel shows the scores for
the room in turn, each the full panel high: the striker's, the other side's, the frames
won (issue 33: 7-dot digits with 1-dot strokes before, read at 7 m). No digit anywhere
has strokes under 2 dots. `led.draw` returns the ms until the picture changes by
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
    # the scores: the striker's until 4 s after the last event, then the other's
    assert _led(cat.play(cat.OPENING), 0)[1] == led.SCORE_MS
    assert _led(cat.play(cat.OPENING), 4500)[1] == led.SCORE_MS + led.OTHER_MS - 4500


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


def _score(buf):
    """(score, side) of the side shown alone, the panel high: its digits beside its
    arrow (A's at the left edge, B's at the right); None when no such picture."""
    arrows = []
    for side, x in ((0, 0), (1, 27)):  # the arrow and a blank column between it and them
        ref, fb = S.canvas(32, 16)
        draw.triangle(fb, 0 if side == 0 else 28, 4, 7, side == 1, 1)
        if S.region(buf, 32, x, 0, 5, 16) == S.region(ref, 32, x, 0, 5, 16):
            arrows.append(side)
    if len(arrows) != 1:
        return None
    side = arrows[0]
    x = 5 if side == 0 else 0
    for dw, t, gap in ((10, 3, 3), (7, 2, 3), (6, 2, 1)):
        got = S.number_at(buf, 32, x, 27, 0, dw, 16, t, gap, draw.CENTRE)
        if got is not None:
            return int(got) if got.lstrip("-").isdigit() else got, side
    return None


def _frames(buf):
    """The frames (racks) won, `a-b`, as the panel shows them between shots."""
    a = S.number_at(buf, 32, 1, 12, 0, 6, 12, 2, 2, draw.LEFT)
    b = S.number_at(buf, 32, 19, 12, 0, 6, 12, 2, 2, draw.RIGHT)
    return None if a is None or b is None else "%s-%s" % (a, b)


def test_clock_off_shows_the_scores_for_the_room_in_turn():
    """The striker's score (A 32), then B's (6) from 4 s after the last event, then the
    frames won from 6 s, again every 8 s; an event shows the striker's at once."""
    match = cat.play(cat.OPENING)
    for now, shown in ((0, (32, 0)), (3999, (32, 0)), (4000, (6, 1)), (5999, (6, 1)),
                       (8000, (32, 0)), (12500, (6, 1))):
        assert _score(_led(match, now)[0]) == shown, (now, _rows(_led(match, now)[0]))
    for now in (6000, 7999, 14000):
        buf, nxt = _led(match, now)
        assert _score(buf) is None and _frames(buf) == "0-0", now
        assert S.ink(buf, 32, 0, 14, 8, 2) == 16 and S.ink(buf, 32, 24, 14, 8, 2) == 0
        assert nxt == 8000 - now % 8000
    after = cat.play(cat.OPENING + "end\npot red\npot pink\n")  # B on 13, at the table
    assert _score(_led(after, 0)[0]) == (13, 1) and _score(_led(after, 4000)[0]) == (32, 0)
    # stamped: the striker's score first after each event, whenever it came
    stamped = cat.play(cat.HEAD + "@0 frame A\n@70000 pot red\n@91000 pot black\n")
    assert _score(_led(stamped, 91000)[0]) == (8, 0)
    assert _score(_led(stamped, 95000)[0]) == (0, 1)
    assert _frames(_led(stamped, 97000)[0]) == "0-0"
    assert _score(_led(stamped, 99000)[0]) == (8, 0)
    # three digits, strokes of 2
    assert _score(_led(cat.play(cat.HEAD + "frame A\n" + "pot red\npot black\n" * 15), 0)[0]
                  ) == (120, 0)
    # Between two shots on the clock, the scores too.
    between = cat.play(cat.CLOCK_RUN + "@5000 hit\n")
    assert _score(_led(between, 6000)[0]) == (1, 0)
    # waiting for `respot`, nobody at the table: A's, then B's
    level = cat.play(cat.RESPOT)
    assert _score(_led(level, 0)[0]) == (27, 0) and _score(_led(level, 4000)[0]) == (27, 1)


def test_pool_straight_and_between_frames():
    buf, nxt = _led(cat.play(cat.STRAIGHT), 0)  # B at the table: B's 24 first, then A's 1
    assert _score(buf) == (24, 1) and nxt == led.SCORE_MS
    assert _score(_led(cat.play(cat.STRAIGHT), 4000)[0]) == (1, 0)
    buf, nxt = _led(cat.play(cat.STRAIGHT), 6000)  # one game: no frames, the striker again
    assert _score(buf) == (24, 1) and nxt == led.SCORE_MS
    below = cat.play(cat.STRAIGHT[:cat.STRAIGHT.index("frame A")]
                     + "frame A\nfoul break\nagain\nfoul\n")  # A: -2, then -1; B to play
    assert _score(_led(below, 4000)[0]) == (-3, 0)
    third = cat.play(cat.THIRD_FOUL)  # -1 -1 -16: -18, A breaks again
    assert _score(_led(third, 0)[0]) == (-18, 0)
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
    assert _score(buf) == (0, 0)
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


def test_no_digit_on_the_led_has_strokes_under_two_dots(monkeypatch):
    """Every picture the LED draws, in every state of every scenario (each prefix that
    replays, at each phase of the scores' turn and with a clock's shot on, in every
    language) and of the catalogue: each seven-segment digit drawn has strokes of 2
    dots at least, and is 12 rows high or more (issue 33: the scores in play were 7 rows
    of 1-dot strokes, read at 7 m)."""
    from scoreboard import lang
    from scoreboard.core.replay import replay

    drawn = []
    real = draw.digit

    def digit(canvas, d, x, y, w, h, t, col=1):
        drawn.append((t, h))
        return real(canvas, d, x, y, w, h, t, col)

    monkeypatch.setattr(draw, "digit", digit)
    monkeypatch.setattr(led, "digit", digit)
    pictures = 0
    for path in mpy.scenario_files():
        lines = mpy.split_lines(path.read_text(encoding="utf-8"))
        for n in range(len(lines) + 1):
            try:
                match = replay(lines[:n])
            except Exception:  # a prefix the rules refuse (an error- scenario): not drawn
                continue
            last = match.time.last_ms
            for now in (last, last + 4500, last + 6500, last + 30000):
                for code in ("en", "bg"):
                    lang.use(code)
                    _led(match, now)
                    pictures += 1
    lang.use("en")
    for shown in cat.led_screens():
        _led(shown[1], shown[2])
    assert pictures > 2000 and len(drawn) > 2000
    thin = sorted({(t, h) for t, h in drawn if t < 2 or h < 12})
    assert thin == [], "digits with strokes under 2 dots or under 12 rows: %s" % thin
