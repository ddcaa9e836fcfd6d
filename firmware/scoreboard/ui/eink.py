"""The e-ink panel's screens: `draw(canvas, screen)` for every kind of `model.Screen`.

Drawn only through framebuf methods on the canvas passed in (MONO_HLSB, 1 = black).
The layout is picked from the size the canvas states (`width` and `height`, the whole
picture's even on a band of it: boards/board.py's canvas contract): 400x300 or larger
gets the full screens (the score screen is in `eink_score.py`), anything smaller the
compact ones of `compact.py` (the 128x64 OLED variant), imported only then: a 400x300
board never holds it. Every screen
clears the whole canvas first. On a board that draws the panel in bands (boards/pico.py)
`draw` runs once per band, on a canvas of panel coordinates (drivers/ssd1683.py). The
hint line at the bottom (what the keys do now) is `screen.hint`, which the owner of the
keys sets for the state it is in (the start menu, the key grammar): the screens hold no
key texts of their own.
"""

from micropython import const

from . import draw as gfx
from scoreboard.lang import t, upper

from . import eink_score, model
from .draw import BODY, CENTRE, LEFT, RIGHT, SMALL

_W = const(400)
_H = const(300)
_BAR_H = const(30)
_HINT_Y = const(284)
_ROW_H = const(26)
_COND_H = const(26)  # the start screen's conditions: two lines of small print and a gap


def draw(canvas, screen):
    """Draw `screen` (a model.Screen) on the canvas; the layout follows the canvas size."""
    w = canvas.width
    h = canvas.height
    if w < _W or h < _H:
        from . import compact

        compact.draw(canvas, screen, w, h)
        return
    kind = screen.kind
    if kind == "score" and screen.match is not None:
        eink_score.draw_score(canvas, screen)
    elif kind == "start":
        _start(canvas, screen)
    elif kind == "setup":
        _setup(canvas, screen)
    elif kind == "menu":
        _menu(canvas, screen)
    elif kind == "frame_end" and screen.match is not None:
        if screen.match.frame is None:  # no frame played yet: the score screen
            eink_score.draw_score(canvas, screen)
        else:
            _frame_end(canvas, screen)
    elif kind == "match_end" and screen.match is not None:
        _match_end(canvas, screen)
    else:
        _error(canvas, screen)


# -- shared parts -------------------------------------------------------------------------
def _title(canvas, left, right=None):
    canvas.fill(0)
    canvas.fill_rect(0, 0, _W, _BAR_H, 1)
    room = _W - 16
    if right:  # the format at the right, whole; the title has the rest
        rw = min(gfx.text_width(right, BODY), 192)
        gfx.text_at(canvas, right, _W - 8 - rw, 7, rw, RIGHT, BODY, 0)
        room -= rw + 12
    gfx.best(canvas, left, 8, 3, room, 0)


def _hint(canvas, screen):
    canvas.hline(0, _HINT_Y - 3, _W, 1)
    if screen.hint:  # the body face, else small print: every key's part kept
        gfx.best(canvas, screen.hint, 4, _HINT_Y, _W - 8, 1, LEFT, BODY)


def _message(canvas, screen, y, question=False):
    """The refusal or notice in a box of its own, over whatever the screen drew there;
    with `question`, else the entry (a question waiting for `ok`)."""
    text = model.banner(screen)
    if not text and question and screen.entry:
        text = screen.entry
    if text:  # one line in the body face, else two in small print
        canvas.fill_rect(0, y, _W, 27, 0)
        canvas.rect(0, y, _W, 27, 1)
        gfx.para(canvas, text, 6, y + 1, _W - 12)


def _rows(canvas, items, cursor, y0, bottom):
    """A list with the cursor's row inverted; scrolled so the cursor is always shown."""
    fits = (bottom - y0) // _ROW_H  # a longer list says where the cursor is: _menu
    first = 0
    if cursor >= fits:
        first = cursor - fits + 1
    # the rows shown in one face, the largest each fits (the body face at least: a row
    # too long for it alone goes smaller), not large and small by turns (issue 33)
    face = gfx.LARGE
    i = first
    while i < len(items) and i < first + fits:
        face = min(face, gfx.face_for(items[i], _W - 30))
        i += 1
    face = BODY if face < BODY else face
    top = (gfx.height(gfx.LARGE) - gfx.height(face)) // 2
    y = y0
    i = first
    while i < len(items) and i < first + fits:
        on = i == cursor
        if on:
            canvas.fill_rect(0, y, _W, _ROW_H - 2, 1)
            gfx.triangle(canvas, 6, y + 4, 15, True, 0)
        gfx.best(canvas, items[i], 24, y + top, _W - 30, 0 if on else 1, LEFT, face)
        y += _ROW_H
        i += 1
    if first:
        gfx.text(canvas, "^", _W - 8, y0 - 10, SMALL)
    if first + fits < len(items):
        gfx.text(canvas, "v", _W - 8, bottom - 8, SMALL)


# -- the screens --------------------------------------------------------------------------
def _start(canvas, screen):
    _title(canvas, t("e.scoreboard"), screen.title)
    queue = screen.queue
    # A refusal or a notice: in the boxed line above the hints, below the last row.
    _message(canvas, screen, _HINT_Y - 30)
    if not queue:
        gfx.best(canvas, t("e.no_queue"), 4, 86, _W - 8, 1, CENTRE)
        gfx.best(canvas, t("e.send_one"), 4, 130, _W - 8, 1, CENTRE, BODY)
        gfx.best(canvas, t("e.or_here"), 4, 154, _W - 8, 1, CENTRE, BODY)
        _hint(canvas, screen)
        return
    # The queue may be a window of a longer one (the start menu reads a few files).
    total = len(queue) if screen.queue_total is None else screen.queue_total
    gfx.text_at(canvas, t("e.prepared") % total, 8, 38, _W - 16, LEFT, BODY)
    y = 62
    cursor = screen.menu_cursor
    # The match under the cursor shows its playing conditions (what its summary has
    # after a line break) on two more lines of its row; one row fewer fits then. The
    # rows end above the refusal's box.
    at = cursor - screen.queue_first
    extra = _COND_H if 0 <= at < len(queue) and "\n" in queue[at][1] else 0
    fits = (_HINT_Y - 30 - y - extra) // 44
    first = cursor - fits + 1 if cursor >= fits else 0
    i = first
    while i < total and i < first + fits and 0 <= i - screen.queue_first < len(queue):
        qname, summary = queue[i - screen.queue_first]
        summary, _, rules = summary.partition("\n")
        on = i == cursor
        high = extra if on else 0
        if on:
            canvas.fill_rect(0, y, _W, 42 + high, 1)
            gfx.triangle(canvas, 6, y + 12, 17, True, 0)
        # "Ann v Bob, snooker best-of 7, clock 45s": the names large, the rest below.
        names, _, details = summary.partition(", ")
        gfx.best(canvas, names, 26, y + 1, _W - 32, 0 if on else 1)
        gfx.best(canvas, details or qname, 26, y + 25, _W - 32, 0 if on else 1, LEFT, BODY)
        if on and rules:  # "late 10 min, no push out": one line, else two in small print
            gfx.para(canvas, rules, 26, y + 42, _W - 32, 2, 0)
        y += 44 + high
        i += 1
    _hint(canvas, screen)


def _setup(canvas, screen):
    _title(canvas, t("e.new_match"))
    y = 40
    i = 0
    for label, value in screen.setup:
        on = i == screen.menu_cursor
        if on:
            canvas.fill_rect(0, y, _W, 28, 1)
            gfx.triangle(canvas, 6, y + 6, 15, True, 0)
        c = 0 if on else 1
        gfx.best(canvas, upper(label), 24, y + 6, 122, c, LEFT, BODY)
        gfx.best(canvas, "%s" % value, 150, y + 2, _W - 156, c)
        y += 32
        i += 1
    if screen.breaker is not None:
        gfx.text_at(canvas, t("e.breaks_off") % "AB"[screen.breaker], 24, y + 8, _W - 30, LEFT,
                    BODY)
    _message(canvas, screen, _HINT_Y - 30)
    _hint(canvas, screen)


def _menu(canvas, screen):
    items = screen.menu_items
    n = len(items)
    # More items than rows (snooker's menu in play has 9 for 8 rows): the title says
    # which of how many the cursor is on, so the rows below the last are known to be
    # there (issue 33: `abandon` was found by nobody).
    where = "%d/%d" % (screen.menu_cursor + 1, n) if n > (_HINT_Y - 28 - 40) // _ROW_H else None
    _title(canvas, screen.menu_title or t("e.menu"), where)
    _rows(canvas, items, screen.menu_cursor, 40, _HINT_Y - 28)
    _message(canvas, screen, _HINT_Y - 30, True)  # a refusal, else the question
    _hint(canvas, screen)


def _sides_big(canvas, match, values, y):
    """Both names and a big figure each: the end-of-frame and end-of-match screens."""
    for side in (0, 1):
        x = side * 200
        gfx.best(canvas, model.name(match, side), x + 6, y - 4, 188, 1, CENTRE)
        gfx.number(canvas, values[side], x, y + 24, 40, 72, 9, 9, CENTRE, 1, 200)
    canvas.fill_rect(190, y + 54, 20, 8, 1)


def _frame_end(canvas, screen):
    match = screen.match
    r = model.last_record(match)
    number, _, score, winner, how = r[0], r[1], r[2], r[3], r[4]
    kind = "e.rack_over" if match.family == "pool" else "e.frame_over"
    _title(canvas, t(kind) % number, model.match_format(match.header))
    won = match.frames_won()
    if score is None or match.family == "straight":
        _sides_big(canvas, match, won if score is None else score, 40)
    else:
        _sides_big(canvas, match, score, 40)
    gfx.best(canvas, model.frame_result(match, winner, how, (_W - 8) // 6), 4, 142, _W - 8, 1,
             CENTRE)
    if score is not None:
        for side in (0, 1):
            listed = r[5 + side]
            text = " ".join("%d" % b for b in listed[-6:]) if listed else "-"
            gfx.best(canvas, t("e.breaks") % text, side * 200 + 8, 176, 184, 1, LEFT, BODY)
    if score is not None and match.family != "straight":
        canvas.hline(0, 204, _W, 1)
        gfx.best(canvas, t("e.racks" if match.family == "pool" else "e.frames"), 100, 212, 200,
                 1, CENTRE, BODY)
        gfx.number(canvas, won[0], 0, 232, 22, 40, 6, 6, RIGHT, 1, 180)
        gfx.number(canvas, won[1], 220, 232, 22, 40, 6, 6, LEFT, 1, 180)
        canvas.fill_rect(192, 250, 16, 5, 1)
    _message(canvas, screen, _HINT_Y - 30)  # a refusal of `ok`, a full flash...
    _hint(canvas, screen)


def _match_end(canvas, screen):
    match = screen.match
    winner = match.outcome()[1]
    result = match.result()
    _title(canvas, t("e.match_over"), model.match_format(match.header))
    r = model.last_record(match)
    if result is not None and result[2] is not None:
        _sides_big(canvas, match, result[2], 38)
    elif match.family == "straight" and r is not None and r[2] is not None:
        _sides_big(canvas, match, r[2], 38)  # one game: its points, not frames 0-0
    else:
        _sides_big(canvas, match, match.frames_won(), 38)
    line = model.winner_words(match, winner, (_W - 8) // 6)
    gfx.best(canvas, line, 4, 138, _W - 8, 1, CENTRE)
    how = model.how_words(result)
    if how:
        gfx.best(canvas, how, 4, 164, _W - 8, 1, CENTRE, BODY)
    if match.family == "snooker" and match.frame is not None:  # no frame: no breaks
        high = match.high_breaks()
        gfx.best(canvas, t("e.high_break") % high[0], 8, 184, 184, 1, LEFT, BODY)
        gfx.best(canvas, t("e.high_break") % high[1], 208, 184, 184, 1, RIGHT, BODY)
    _frame_table(canvas, match, 204, _HINT_Y - 4)
    _message(canvas, screen, _HINT_Y - 30)
    _hint(canvas, screen)


def _frame_table(canvas, match, y0, bottom):
    """Each frame's score (or each rack's winner), in columns of 1x text."""
    canvas.hline(0, y0, _W, 1)
    cells = []
    for r in match.frames():
        number, _, score, winner, how = r[0], r[1], r[2], r[3], r[4]
        if score is None:
            cells.append("%d:%s" % (number, "-" if winner is None else "AB"[winner]))
        elif how == "restarted":
            cells.append(t("e.restart_cell") % number)
        else:
            cells.append("%d:%d-%d" % (number, score[0], score[1]))
    if not cells:
        return
    width = max(len(c) for c in cells) + 2
    per_row = max(1, (_W - 8) // (6 * width))
    rows = (bottom - y0 - 4) // 12
    for i, c in enumerate(cells[:per_row * rows]):
        gfx.text(canvas, c, 6 + (i % per_row) * 6 * width, y0 + 3 + (i // per_row) * 12, SMALL)


def _error(canvas, screen):
    _title(canvas, t("e.error"))
    text = screen.error or screen.message
    if not text:
        text = t("e.an_error") if screen.kind == "error" else t("e.unknown") % screen.kind
    lines = gfx.wrap(text, (_W - 12) // 8)
    y = 40
    for line in lines[:(_HINT_Y - 44) // 18]:
        gfx.text(canvas, line, 6, y, BODY)
        y += 18
    # No hint line: the box takes no key here, and the last screen's would mislead.
