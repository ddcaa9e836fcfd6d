"""The score screen of the 400x300 e-ink panel: snooker, pool and straight-pool variants.

One layout, read from across a room at the top and by the referee below:

    y   0  names (the striker's inverted, with an arrow)        | two columns, A | B
    y  36  the big figure: frame score (snooker), racks (pool), points (straight)
    y 126  FRAMES / BREAK (snooker), FOULS and WARNED (pool, straight): frames won up
           to 99 and breaks up to 155 in the large face, the label gives way
    y 158  the last three breaks (runs) of the frame
    y 188  a row of cells: ball on, reds, remaining, snookers (snooker); the balls on
           the table (pool); target, what each side needs, balls (straight)
    y 224  the prompts in words, inverted bars (two at most; before the first frame of a
           called match, the late start's minutes, then its forfeit question)
    y 260  the refusal (boxed), else the entry in progress, what `ok` does or the
           decision pending (the key grammar's `entry()`): one line, or two of small
           print
    y 288  the frame number, the match format, the match time (h:mm); the shot clock
           and its state (on, stopped, paused, TIME), with its warning and extensions
           when they fit (small print)

Faces (draw.py): names and the values in the large face (12x24) if they fit, labels
and prompts in the body face (8x16), small print (6x12) where a field is narrow.
"""

from micropython import const

from scoreboard.lang import t, upper_word

from . import draw, model
from .draw import BODY, CENTRE, LARGE, LEFT, RIGHT, SMALL

_W = const(400)
_COL = const(200)
_NAME_H = const(28)
_BIG_Y = const(36)
_BIG_H = const(86)
_BIG_W = const(46)
_BIG_T = const(10)
_BIG_GAP = const(10)
_ROW1_Y = const(130)
_ROW2_Y = const(158)
_LINE_Y = const(184)
_CELLS_Y = const(188)
_PROMPT_Y = const(224)
_PROMPT_H = const(17)
_ENTRY_Y = const(260)
_FOOT_Y = const(288)


def _name_field(match, side):
    """(the name shown, its width, the doubles partner or None, the partner's width)."""
    at_table = model.player(match, side)  # doubles: the player at the table
    if at_table is None:
        return model.name(match, side), _COL - 28, None, 0
    names = match.header.sides[side]
    partner = "& " + names[1 - names.index(at_table)]
    pw = min(draw.text_width(partner), 72)
    return at_table, _COL - 34 - pw, partner, pw


def _name_face(match):
    """The face both names are drawn in: the largest each fits (issue 33: `Иван Петров`
    large beside `Георги Димитров` small read as two ranks), the body face at least (a
    name too long for it alone goes smaller, cut)."""
    face = LARGE
    for side in (0, 1):
        name, width, _, _ = _name_field(match, side)
        face = min(face, draw.face_for(name, width))
    return BODY if face < BODY else face


def _header(canvas, match, fig, side, face):
    x = side * _COL
    striker = fig is not None and fig.striker == side
    col = 0 if striker else 1
    if striker:
        canvas.fill_rect(x, 0, _COL, _NAME_H, 1)
        draw.triangle(canvas, x + 6, 5, 17, True, 0)
    name, width, partner, pw = _name_field(match, side)
    if partner is not None:
        draw.text_at(canvas, partner, x + _COL - 4 - pw, 8, pw, LEFT, SMALL, col)
    y = 2 + (draw.height(LARGE) - draw.height(face)) // 2
    draw.best(canvas, name, x + 24, y, width, col, LEFT, face)
    if not striker:
        canvas.hline(x, _NAME_H - 1, _COL, 1)


def _big(canvas, side, value):
    draw.number(canvas, value, side * _COL, _BIG_Y, _BIG_W, _BIG_H, _BIG_T, _BIG_GAP,
                CENTRE, 1, _COL)


def label(canvas, key, x, y, width, col=1, align=LEFT):
    """The label `key` in the body face (centred on a 16-pixel line at y), else the small
    one, else its designed short form (`key` + `_short`) if the table has one: the
    width it took."""
    s = t(key)
    if not draw.fits(s, width, BODY) and not draw.fits(s, width, SMALL):
        s = t(key + "_short", s)
    draw.best(canvas, s, x, y, width, col, align, BODY)
    return min(width, draw.text_width(s, BODY if draw.fits(s, width, BODY) else SMALL))


def _label_value(canvas, x, y, key, value, width, col=1):
    """A label, then the value in the large face, the value whole (the label gives way):
    both on a 24-pixel line at y."""
    vw = draw.text_width(value, LARGE)
    lw = label(canvas, key, x, y + 4, width - vw - 4, col)
    draw.text(canvas, value, x + lw + 4, y, LARGE, col)


def _breaks_row(canvas, match, side, key):
    listed = model.breaks(match, side)
    x = side * _COL + 10
    if not listed:
        return
    _label_value(canvas, x, _ROW2_Y, key, " ".join("%d" % b for b in listed), _COL - 16)


def _cell(canvas, i, key, value, n=4, arg=None):
    """Cell i of n: its label (key, with `arg`) in small print, the value large below,
    in the largest face that holds it whole."""
    w = _W // n
    x = i * w
    s = t(key) if arg is None else t(key) % arg
    if not draw.fits(s, w - 6, SMALL):
        s = t(key + "_short", s) if arg is None else t(key + "_short", s) % arg
    draw.text_at(canvas, s, x + 3, _CELLS_Y, w - 6, LEFT, SMALL)
    draw.best(canvas, value, x + 3, _CELLS_Y + 12, w - 6)
    if i:
        canvas.vline(x, _CELLS_Y, 34, 1)


def _prompts(canvas, match, fig, extra):
    lines = []
    if fig is not None:
        for code in fig.prompts:
            lines.append(model.prompt_words(code, fig, match))
    lines.extend(extra)
    y = _PROMPT_Y
    for s in lines[:2]:
        draw.inverse_bar(canvas, 0, y, _W, _PROMPT_H, s, 1, 4, BODY)
        y += _PROMPT_H + 1


def _entry(canvas, screen):
    """The refusal or notice boxed, else the entry: one line in the body face, else two
    in small print (a refusal keeps its reason)."""
    text = model.banner(screen)
    if text:
        canvas.rect(0, _ENTRY_Y, _W, 27, 1)
        draw.para(canvas, text, 6, _ENTRY_Y + 1, _W - 12)
    elif screen.entry:
        draw.para(canvas, "> " + screen.entry, 4, _ENTRY_Y + 1, _W - 8)


def _footer(canvas, screen, match):
    canvas.hline(0, _FOOT_Y - 2, _W, 1)
    f = match.frame
    left = model.match_format(match.header)
    if match.family != "straight":
        kind = "s.rack_n" if match.family == "pool" else "s.frame_n"
        if f is not None:
            left = t(kind) % f.number + "  " + left
    time = model.elapsed(match)
    if time is not None:
        left += "  " + time
    x = draw.text(canvas, left, 4, _FOOT_Y, SMALL)
    room = _W - 4 - x - 8
    right = model.clock_words(match, screen.clock_s)
    if draw.text_width(right) > room:  # the clock's state is kept, its details go
        right = model.clock_words(match, screen.clock_s, True)
    draw.text_at(canvas, right, x + 8, _FOOT_Y, room, RIGHT, SMALL)


def _columns(canvas, match, fig):
    if draw.rows_on(canvas, 0, _NAME_H):
        face = _name_face(match)
        for side in (0, 1):
            _header(canvas, match, fig, side, face)
    canvas.vline(_COL - 1, 0, _LINE_Y, 1)
    canvas.vline(_COL, 0, _LINE_Y, 1)
    canvas.hline(0, _LINE_Y, _W, 1)


def _snooker(canvas, screen, match, fig):
    r = model.last_record(match)
    score = fig.score if fig is not None else (r[2] if r is not None else (0, 0))
    won = match.frames_won()
    row1 = draw.rows_on(canvas, _ROW1_Y - 4, _ROW1_Y + 24)
    row2 = draw.rows_on(canvas, _ROW2_Y, _ROW2_Y + 24)
    for side in (0, 1):
        x = side * _COL + 10
        _big(canvas, side, score[side])
        if row1:  # frames won up to 99, the label gives way (issue 26)
            _label_value(canvas, x, _ROW1_Y - 2, "s.frames", "%d" % won[side], 84)
        if row1 and fig is not None and fig.striker == side:  # the break, inverted
            canvas.fill_rect(x + 86, _ROW1_Y - 4, 98, 28, 1)
            _label_value(canvas, x + 89, _ROW1_Y - 2, "s.break", "%d" % fig.brk, 94, 0)
        if row2:
            _breaks_row(canvas, match, side, "s.breaks")
    extra = []
    cells = draw.rows_on(canvas, _CELLS_Y, _CELLS_Y + 36)
    if fig is None:
        extra.append(t("s.frame_over") if r is not None else t("s.first_frame"))
        if cells:
            _cell(canvas, 0, "s.ball_on", "-")
        return extra
    if cells:
        _cell(canvas, 0, "s.ball_on", upper_word(fig.ball_on) if fig.ball_on else "-")
    if fig.free_ball:
        extra.append(t("s.free_ball"))
    if cells:
        _cell(canvas, 1, "s.reds", "%d" % fig.reds)
        _cell(canvas, 2, "s.remaining", "%d" % fig.remaining)
        k = fig.snookers_required
        _cell(canvas, 3, "s.snookers", "-" if k is None else "%d" % k)
    if fig.respotted_black and "respot" not in fig.prompts:
        extra.append(t("s.respotted"))
    return extra


def _fouls(canvas, x, y, n, warned):
    """FOULS and three boxes, one filled per foul in a row; WARNED after them, kept in
    the side's own column (issue 26: it ran into B's)."""
    nx = x + label(canvas, "s.fouls", x, y + 1, 72)
    i = 0
    while i < 3:
        bx = nx + 6 + i * 17
        if i < n:
            canvas.fill_rect(bx, y + 1, 14, 14, 1)
        else:
            canvas.rect(bx, y + 1, 14, 14, 1)
        i += 1
    if warned:
        label(canvas, "s.warned", nx + 59, y + 1, x + 184 - nx - 59)


def _pool(canvas, screen, match, fig):
    won = match.frames_won()
    f = match.current()
    for side in (0, 1):
        _big(canvas, side, won[side])
        x = side * _COL + 10
        if fig is not None:
            _fouls(canvas, x, _ROW1_Y, fig.fouls[side], f.warned[side])
        label(canvas, "s.racks_won", x, _ROW2_Y + 1, 184)
    if fig is None:
        return [t("s.rack_over") if match.frame is not None else t("s.first_rack")]
    left = model.balls_left(match) or ()
    draw.text_at(canvas, t("s.balls_on_table"), 4, _CELLS_Y + 1, _W - 8, LEFT, SMALL)
    game_ball = f.game_ball
    x = 4
    for n in left:
        if n == game_ball:
            canvas.fill_rect(x, _CELLS_Y + 13, 24, 22, 1)
        else:
            canvas.rect(x, _CELLS_Y + 13, 24, 22, 1)
        draw.text_at(canvas, "%d" % n, x, _CELLS_Y + 16, 24, CENTRE, BODY,
                     0 if n == game_ball else 1)
        x += 26
    return []


def _straight(canvas, screen, match, fig):
    r = model.last_record(match)
    score = fig.score if fig is not None else (r[2] if r is not None else (0, 0))
    f = match.current()
    target = match.header.target
    for side in (0, 1):
        x = side * _COL + 10
        _big(canvas, side, score[side])
        if fig is not None:
            _fouls(canvas, x, _ROW1_Y, fig.fouls[side], f.warned[side])
        _breaks_row(canvas, match, side, t("s.runs"))
    if fig is None:
        return [t("s.game_over") if match.frame is not None else t("s.game_start")]
    balls = getattr(f, "balls", None)
    _cell(canvas, 0, "s.run", "%d" % fig.brk, 5, "AB"[fig.striker])
    _cell(canvas, 1, "s.target", "%d" % target, 5)
    _cell(canvas, 2, "s.balls", "-" if balls is None else "%d" % balls, 5)
    _cell(canvas, 3, "s.needs", "%d" % max(0, target - score[0]), 5, "A")
    _cell(canvas, 4, "s.needs", "%d" % max(0, target - score[1]), 5, "B")
    return []


def draw_score(canvas, screen):
    """The score screen of a match in play (or just after a frame) on a 400x300 canvas."""
    match = screen.match
    fig = model.figures(match)
    canvas.fill(0)
    _columns(canvas, match, fig)
    family = match.family
    if family == "snooker":
        extra = _snooker(canvas, screen, match, fig)
    elif family == "pool":
        extra = _pool(canvas, screen, match, fig)
    else:
        extra = _straight(canvas, screen, match, fig)
    if match.finished():
        extra = [t("e.match_over")]
    late = model.late_words(screen)
    if late is not None and not match.finished():
        extra.append(late)
    # Each part below only where its rows are: on a band of the panel the others would
    # be clipped whole (draw.rows_on).
    if draw.rows_on(canvas, _PROMPT_Y, _PROMPT_Y + 2 * _PROMPT_H + 1):
        _prompts(canvas, match, fig, extra)
    if draw.rows_on(canvas, _ENTRY_Y, _ENTRY_Y + 27):
        _entry(canvas, screen)
    if draw.rows_on(canvas, _FOOT_Y - 2, _FOOT_Y + 12):
        _footer(canvas, screen, match)
