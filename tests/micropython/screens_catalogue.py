"""Every screen of the panels, drawn from matches replayed from notation lines.

Runs under MicroPython (the unix port, with the real framebuf) and CPython (with
host_tools/compat/framebuf.py); tests/test_screens.py compares the bytes of both runs
with each other and with tests/screens/NAME.fb.

    micropython tests/micropython/screens_catalogue.py OUTDIR [--bands]

writes OUTDIR/NAME.fb for every screen and prints `NAME PANEL W H` lines. The screens
of the start menu and of a match are filled the way the app fills them, from the real
StartMenu and key grammar after the keys named (`keyed`, `start`): what their hint and
entry lines say is theirs, one state of the keys per screen. `render()`
gives the same as a list of (name, panel, w, h, bytes) in-process. With `--bands`
(`render(bands=True)`) the e-ink and OLED screens are drawn as the boards draw them, in
bands of the driver's `BAND_ROWS` rows put together (drivers/ssd1683.py `draw_bands`),
which must give the same bytes as a canvas of the whole panel.
"""

import sys

import _paths

_paths.setup(__file__)


from drivers.ssd1683 import BAND_ROWS, Band, draw_bands  # noqa: E402

from scoreboard import lang  # noqa: E402
from scoreboard.core.replay import replay  # noqa: E402
from scoreboard.keys.grammar import Grammar  # noqa: E402
from scoreboard.files import parse_header  # noqa: E402
from scoreboard.startmenu import StartMenu  # noqa: E402
from scoreboard.ui import eink, led, model  # noqa: E402

HEAD = ('sbn 1\ngame snooker reds=15\nmatch best-of 7\nside A "Ronnie O\'Sullivan"\n'
        + 'side B "Judd Trump"\n')
CLOCKED = HEAD + "clock shot=45 warn=10 ext=1x25\n"

OPENING = HEAD + """frame A
pot red
pot black
pot red
pot pink
pot red
pot black
end
pot red
pot blue
end
pot red
pot black
pot red
"""

# A leads 64-0 with 3 reds left; B twice fouled with a miss and was made to play again.
SNOOKERS = HEAD.replace("reds=15", "reds=10") + """frame A
pot red
pot black
pot red
pot black
pot red
pot black
pot red
pot black
pot red
pot black
pot red
pot black
pot red
pot black
end
foul 4 miss
replace
foul 4 miss
replace
"""

COLOURS = HEAD.replace("reds=15", "reds=6") + """frame B
pot red
pot black
pot red
pot pink
pot red
pot black
pot red
pot blue
end
pot red
pot black
pot red
pot black
pot yellow
pot green
pot brown
"""

# Level after the last black (docs/rules.md): the board waits for `respot A` or `respot B`.
RESPOT = HEAD.replace('"Ronnie O\'Sullivan"', '"Ann"').replace('"Judd Trump"', '"Bob"') + """\
frame A
end
foul 5
pot red red red red red red red
pot black
pot red red red red red red red red
end
pot yellow
pot green
pot brown
pot blue
pot pink
pot black
"""

# B fouls, A takes a free ball.
FREE = OPENING + "end\nfoul 4\nfree\n"

# Stamped lines, the clock on: A's shot started at 1000 ms (45 s), then a ruling at 50 s.
TIMED = CLOCKED + """@0 frame A
@1000 pot red
@50000 penalty B 4
"""
CLOCK_RUN = CLOCKED + """@0 frame A
@1000 pot red
"""

DOUBLES = HEAD.replace('side B "Judd Trump"', 'side B "Ann Lee" "Bo Chen"').replace(
    'side A "Ronnie O\'Sullivan"', 'side A "Ray Reardon" "Cliff"') + """frame A
pot red
pot black
end
pot red
"""

FRAME_OVER = HEAD.replace("best-of 7", "best-of 3") + """frame A
pot red
pot black
pot red
pot black
pot red
pot pink
end
pot red
pot blue
end
concede
"""

MATCH_OVER = FRAME_OVER + """frame B
pot red
pot black
end
concede
"""

NINE = """sbn 1
game nineball
match race-to 5
side A "Shane Van Boening"
side B "Jayson Shaw"
frame A
rack A
frame B
rack B run
frame A
pot 1 2
end
foul
pot 3
end
foul
end
"""

NINE_OVER = """sbn 1
game nineball
match race-to 2
side A "Shane"
side B "Jayson"
frame A
rack A
frame B
rack A
"""

STRAIGHT = """sbn 1
game straight
match points 100
side A "Mosconi"
side B "Greenleaf"
frame A
foul break
again
score 3
end
score 11
score 13
end
score 1
foul
"""

STRAIGHT_OVER = STRAIGHT.replace("match points 100", "match points 40") + "score 14\nscore 2\n"

# Decisions pending in play (issue 17 item 4) and the clock's states on the footer.
AFTER_MISS = OPENING + "end\nfoul 4 miss\n"  # B missed the red: A's choice
PUSHED = NINE.split("pot 1 2", 1)[0] + "end\npush\n"  # rack 3: A broke, B pushed out
BROKE_FOUL = STRAIGHT.split("again", 1)[0]  # A's opening-break foul: B to choose
PAUSED = CLOCK_RUN + "@5000 suspend\n"
RACK_ONE = NINE_OVER.split("frame B", 1)[0]  # rack 1 won by A; B breaks rack 2
RERACKED = STRAIGHT.split("score 13", 1)[0]  # B's 11 left one ball: the board re-racked
# Issue 33: A's third foul in a row, warned: -16, and A breaks again with 15 racked.
THIRD_FOUL = STRAIGHT.split("foul break", 1)[0] + "foul\nend\nfoul\nend\nwarn A\nfoul\n"
CALLED = HEAD + "@0 called\n"  # the late start runs (seed 004 1.7)


def lines(text):
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def play(text):
    return replay(lines(text))


def _screen(kind, match=None, **fields):
    s = model.Screen(kind, match)
    for k, value in fields.items():
        setattr(s, k, value)
    return s


def keyed(kind, text, keys="", **fields):
    """The `kind` screen of the match `text` after `keys` (`name!` a long press) went
    to its key grammar, filled as the app fills it: the grammar's entry, hint and menu,
    the last key's refusal. Keys that would give a line are not among them."""
    match = play(text)
    g = Grammar(match)
    message = None
    for k in keys.split():
        r = g.press(k.rstrip("!"), k.endswith("!"))
        assert r.line is None, (k, r.line)
        message = r.refusal
    s = _screen(kind, match, entry=g.entry(), hint=g.hint(), message=message, **fields)
    if g.menu_items:
        s.menu_title = g.menu_title
        s.menu_items = g.menu_items
        s.menu_cursor = g.menu_cursor
    return s


class _Queue:
    """A queue/ folder in RAM for the start menu (scoreboard.files.Queue's reads):
    QUEUE's names and summaries, each a match of HEAD's header with the summary's names
    (the start menu writes each line from its header, in the match's language), or of
    the header text an entry gives third."""

    def __init__(self, queue):
        self.queue = queue

    def names(self):
        for entry in self.queue:
            yield entry[0]

    def header_of(self, name):
        for entry in self.queue:
            if entry[0] == name:
                if len(entry) > 2:
                    return parse_header(lines(entry[2]))
                a, b = entry[1].split("  ")[0].split(" v ")
                return parse_header(lines(HEAD.replace("Ronnie O'Sullivan", a)
                                          .replace("Judd Trump", b)))
        return parse_header(lines(HEAD))

    def entry(self, name):
        for entry in self.queue:
            if entry[0] == name:
                return entry[1], self.header_of(name)
        return "no such file", None

    def read(self, name):
        return lines(HEAD)


def start(queue, keys="", **fields):
    """The start menu's screen after `keys`, filled by the StartMenu itself."""
    menu = StartMenu(_Queue(queue))
    for k in keys.split():
        r = menu.press(k.rstrip("!"), k.endswith("!"))
        # nothing but the screen changed (None: the StartMenu of firmware before issue 25)
        assert r is None or (r.refusal is None and r.header is None and r.setting is None), \
            (k, r)
    s = model.Screen()
    menu.fill(s)
    for k, value in fields.items():
        setattr(s, k, value)
    return s


QUEUE = [("final-table1", "O'Sullivan v Trump  best of 7"),
         ("semi-2", "Higgins v Robertson  best of 5, clock 45s"),
         ("pool-9", "M\u00fcller v S\u00e1nchez  10-ball race to 7")]
# A club's nine-ball match (issue 27 item 3): the start screen shows the conditions that
# differ from the official rules under the match under the cursor (the first by name).
CLUB = """sbn 1
game nineball
match race-to 7
breaks winner
side A "Ann"
side B "Bob"
rules late=10 threefoul=0 pushout=0
"""
CLUB_QUEUE = [("club-9", "Ann v Bob  9-ball", CLUB)] + QUEUE
MENU = ["respot", "claim", "concede", "award", "penalty", "restart", "clock on",
        "suspend", "forfeit", "abandon", "called", "sound"]
ERROR = ("MemoryError: memory allocation failed, allocating 2048 bytes\n"
         "in app.step (key scan)\n\nmatch PICO-3F2A-0042: journal intact, 118 lines")


def eink_screens():
    """(name, Screen) for the e-ink panel, in the order of the README."""
    timed = play(TIMED)
    return [
        ("score-snooker", keyed("score", OPENING, "foul pink")),
        ("score-snookers", _screen("score", play(SNOOKERS),
                                   message="'again' only right after a foul")),
        ("score-colours", _screen("score", play(COLOURS))),
        ("score-frame-ball", _screen("score", play(COLOURS + "pot blue\npot pink\n"))),
        ("score-respot", _screen("score", play(RESPOT))),
        ("score-free-ball", keyed("score", FREE)),
        ("score-clock", _screen("score", timed, clock_s=0)),
        ("score-doubles", _screen("score", play(DOUBLES))),
        ("score-nineball", keyed("score", NINE)),
        ("score-straight", _screen("score", play(STRAIGHT))),
        ("start", start(QUEUE, title="PICO-3F2A")),
        ("start-empty", start([], title="PICO-3F2A")),
        ("start-conditions", start(CLUB_QUEUE, title="PICO-3F2A")),
        ("setup", start([], "menu end ok menu")),
        ("menu", keyed("menu", OPENING, "menu menu")),
        ("frame-end", keyed("frame_end", FRAME_OVER)),
        ("frame-end-nineball", keyed("frame_end", RACK_ONE)),
        ("match-end", keyed("match_end", MATCH_OVER)),
        ("match-end-nineball", keyed("match_end", NINE_OVER)),
        ("match-end-straight", keyed("match_end", STRAIGHT_OVER)),
        ("error", _screen("error", error=ERROR)),
        ("score-forfeit-before-play", keyed("match_end", HEAD + "forfeit B late\n")),
        ("score-before-play", keyed("frame_end", HEAD + "called\n")),
        # Issue 17: one screen per state of the hint and entry lines.
        ("setup-start", start([], "menu ok ok ok")),
        ("start-before-play", start(QUEUE, "menu menu menu")),
        ("start-forfeit-asked", start(QUEUE, "menu menu menu ok menu ok ok")),
        ("menu-respot", keyed("menu", RESPOT, "ok menu")),
        ("menu-concede-who", keyed("menu", OPENING, "menu menu ok")),
        ("menu-concede-refused", keyed("menu", OPENING, "menu menu ok menu ok")),
        ("menu-concede-asked", keyed("menu", OPENING, "menu menu ok ok")),
        ("menu-between-forfeit-asked", keyed("menu", FRAME_OVER,
                                             "menu menu menu menu menu ok menu ok ok")),
        ("score-after-miss", keyed("score", AFTER_MISS)),
        ("score-push-out", keyed("score", PUSHED)),
        ("score-breaking-foul", keyed("score", BROKE_FOUL)),
        ("score-foul-max", keyed("score", OPENING, "foul foul foul foul")),
        ("score-foul-past-max", keyed("score", OPENING, "foul foul foul foul foul")),
        ("score-rerack-refused", keyed("score", RERACKED, "rerack")),
        ("score-time", keyed("score", TIMED)),
        ("score-clock-on", keyed("score", CLOCK_RUN)),
        ("score-clock-paused", keyed("score", PAUSED)),
        # Issue 33: the late start's minutes, and its forfeit question once due (the
        # app sets `late_min` each minute); the menu then; a third foul's re-break;
        # a foul with two reds down, counted; a forfeit for a late start at the end.
        ("score-late-start", keyed("score", CALLED, late_min=12)),
        ("score-late-start-due", keyed("score", CALLED, late_min=0)),
        ("menu-late-start-due", keyed("menu", CALLED, "menu", late_min=0)),
        ("score-third-foul", keyed("score", THIRD_FOUL)),
        ("score-foul-reds-down", keyed("score", OPENING, "pink! red!")),
        ("match-end-forfeit-late", keyed("match_end", CALLED + "forfeit B late\n")),
    ]


COMPACT = ("score-snooker", "score-snookers", "score-nineball", "score-straight", "start",
           "start-conditions",
           "setup", "menu", "frame-end", "match-end", "error", "score-before-play",
           "menu-concede-asked", "score-after-miss", "frame-end-nineball",
           "score-late-start-due", "score-foul-reds-down")


def led_screens():
    """(name, match, now_ms[, language]) for the LED panel: in snooker in play the
    striker's score, the other's from 4 s after the last event, the frames won from 6 s
    (issue 33: scores for the room, 16 rows high)."""
    run = play(CLOCK_RUN)
    return [
        ("clock-32", run, 1000 + 13000),
        ("clock-warn-lit", run, 1000 + 37200),
        ("clock-warn-dark", run, 1000 + 37700),
        ("clock-time", run, 1000 + 46000),
        ("scores", play(OPENING), 0),
        ("scores-straight", play(STRAIGHT), 0),
        ("racks-nineball", play(NINE), 0),
        ("frames-between", play(FRAME_OVER), 0),
        ("late-start", play(HEAD + "@0 called\n"), 5 * 60000 + 30500),
        ("late-start-due", play(HEAD + "@0 called\n"), 15 * 60000),
        ("scores-other", play(OPENING), 4500),
        ("scores-frames", play(FRAME_OVER.replace("concede\n", "") + "concede\nframe\n"
                               + "pot red\n"), 6500),
        ("scores-three-digits", play(HEAD + "frame A\n" + "pot red\npot black\n" * 15), 0),
        ("scores-straight-below", play(THIRD_FOUL), 0),
        ("clock-time-bg", run, 1000 + 46000, "bg"),
        ("late-start-due-bg", play(HEAD + "@0 called\n"), 15 * 60000, "bg"),
    ]


def _canvas(w, h):
    """A canvas of the whole picture (a Band of every row: it states its size)."""
    band = Band(w, h, h)
    return band.buf, band


def _panel(screen, w, h, bands):
    """The panel's bytes: the screen drawn on one canvas, or band by band."""
    if bands:
        buf = bytearray(((w + 7) // 8) * h)
        draw_bands(lambda canvas: eink.draw(canvas, screen), Band(w, h, BAND_ROWS), buf)
        return bytes(buf)
    buf, fb = _canvas(w, h)
    eink.draw(fb, screen)
    return bytes(buf)


def rendered(bands=False):
    """Every screen as (name, panel, w, h, framebuffer bytes), one at a time (the
    MicroPython run writes each and lets it go: they would not all fit its heap)."""
    shown = eink_screens()
    for name, screen in shown:
        yield ("eink-" + name, "eink", 400, 300, _panel(screen, 400, 300, bands))
    for name, screen in shown:
        if name in COMPACT:
            yield ("oled-" + name, "eink", 128, 64, _panel(screen, 128, 64, bands))
    for shown in led_screens():
        buf, fb = _canvas(32, 16)
        lang.use(shown[3] if len(shown) > 3 else "en")
        led.draw(fb, shown[1], shown[2])
        lang.use("en")
        yield ("led-" + shown[0], "led", 32, 16, bytes(buf))


def render(bands=False):
    """Every screen as (name, panel, w, h, framebuffer bytes)."""
    return list(rendered(bands))


def main(outdir):
    for name, panel, w, h, data in rendered("--bands" in sys.argv):
        with open(outdir + "/" + name + ".fb", "wb") as f:
            f.write(data)
        print(name, panel, w, h)


if __name__ == "__main__":
    main(sys.argv[1])
