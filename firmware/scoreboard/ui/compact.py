"""Compact screens for small canvases: the 128x64 OLED variant (and anything under
400x300). Same `model.Screen`, same framebuf-only drawing, smaller layout:

    score:  y  0  both names (the striker's inverted)
            y 11  both scores (racks in pool, points in straight pool) in big digits
            y 39  frames won / break (snooker), fouls (pool), run / fouls (straight)
            y 47  ball on, reds, remaining, snookers (snooker); balls left (pool);
                  the target (straight)
            y 56  the refusal, else the first prompt (inverted), else the entry (the
                  entry in progress, what `ok` does, the decision pending: on two
                  rows, over the figures, when it is longer than one)
    others: a title bar and rows of 8x8 text, the cursor's row inverted; a question
            waiting for `ok` over the last rows of a menu; at a frame's or the
            match's end, what `ok` does on the last row (the frames in the title).
"""

from micropython import const

from . import draw as gfx
from . import model
from scoreboard.lang import t, upper_word
from .draw import CENTRE, LEFT, RIGHT

_BIG_Y = const(11)
_BIG_W = const(14)
_BIG_H = const(26)
_BIG_T = const(4)
_ROW_H = const(9)
_ADV = const(7)  # 8x8 glyphs 7 apart: 18 characters a line on 128 pixels


def draw(canvas, screen, w, h):
    """Draw `screen` on a small canvas of w x h pixels."""
    canvas.fill(0)
    kind = screen.kind
    match = screen.match
    if kind == "score" and match is not None:
        _score(canvas, screen, match, w, h)
    elif kind == "start":
        items = [summary for _, summary in screen.queue] or [t("c.no_queue"),
                                                             t("c.set_up")]
        # A window of the queue: the cursor within it (it holds the rows that fit).
        cursor = screen.menu_cursor - screen.queue_first if screen.queue else -1
        _list(canvas, screen.title or t("e.scoreboard"), items, cursor, w, h)
    elif kind == "setup":
        items = ["%s: %s" % (label, value) for label, value in screen.setup]
        _list(canvas, t("e.new_match"), items, screen.menu_cursor, w, h)
    elif kind == "menu":
        _list(canvas, screen.menu_title or t("e.menu"), screen.menu_items, screen.menu_cursor,
              w, h)
        if screen.entry and not model.banner(screen):
            _question(canvas, screen.entry, w, h)
    elif kind in ("frame_end", "match_end") and match is not None and match.frame is not None:
        _end(canvas, screen, match, w, h)
    elif kind in ("frame_end", "match_end") and match is not None:
        _score(canvas, screen, match, w, h)
    else:
        text = screen.error or screen.message or (
            t("e.an_error") if kind == "error" else t("e.unknown") % kind)
        _list(canvas, t("e.error"), gfx.wrap(text, w // _ADV), -1, w, h)
        return
    if kind != "score" and model.banner(screen):
        _bottom(canvas, model.banner(screen), True, w, h)


def _title(canvas, text, w):
    canvas.fill_rect(0, 0, w, _ROW_H, 1)
    gfx.text_at(canvas, text, 1, 1, w - 2, LEFT, 1, 1, 0, _ADV)


def _list(canvas, title, items, cursor, w, h):
    _title(canvas, title, w)
    fits = (h - _ROW_H - 1) // _ROW_H
    first = cursor - fits + 1 if cursor >= fits else 0
    y = _ROW_H + 1
    i = first
    while i < len(items) and i < first + fits:
        on = i == cursor
        if on:
            canvas.fill_rect(0, y - 1, w, _ROW_H, 1)
        gfx.text_at(canvas, items[i], 1, y, w - 2, LEFT, 1, 1, 0 if on else 1, _ADV)
        y += _ROW_H
        i += 1


def _question(canvas, text, w, h, rows=0, inverted=True):
    """`text` wrapped onto the last rows (at most `rows`, 0: all it needs), inverted: a
    question must be read whole."""
    lines = gfx.wrap(text, w // _ADV)
    if rows:
        lines = lines[:rows]
    y = h - _ROW_H * len(lines)
    canvas.fill_rect(0, y - 1, w, h - y + 1, 1 if inverted else 0)
    for line in lines:
        gfx.text_at(canvas, line, 1, y, w - 2, LEFT, 1, 1, 0 if inverted else 1, _ADV)
        y += _ROW_H


def _bottom(canvas, text, inverted, w, h):
    y = h - _ROW_H
    canvas.fill_rect(0, y, w, _ROW_H, 1 if inverted else 0)
    gfx.text_at(canvas, text, 1, y + 1, w - 2, LEFT, 1, 1, 0 if inverted else 1, _ADV)


def _names(canvas, match, striker, w):
    half = w // 2
    for side in (0, 1):
        x = side * half
        on = striker == side
        if on:
            canvas.fill_rect(x, 0, half - 1, _ROW_H, 1)
        label = model.short_name(match, side, (half - 3) // _ADV)
        gfx.text_at(canvas, label, x + 1, 1, half - 3, LEFT if side == 0 else RIGHT, 1, 1,
                    0 if on else 1, _ADV)


def _big(canvas, values, w):
    half = w // 2
    for side in (0, 1):
        gfx.number(canvas, values[side], side * half, _BIG_Y, _BIG_W, _BIG_H, _BIG_T, 3,
                   CENTRE, 1, half)


def _score(canvas, screen, match, w, h):
    fig = model.figures(match)
    striker = None if fig is None else fig.striker
    _names(canvas, match, striker, w)
    half = w // 2
    family = match.family
    won = match.frames_won()
    r = model.last_record(match)
    if family == "pool":
        _big(canvas, won, w)
    else:
        score = fig.score if fig is not None else (r[2] if r is not None else (0, 0))
        _big(canvas, score, w)
    canvas.vline(half - 1, _BIG_Y, _BIG_H, 1)
    y = _BIG_Y + _BIG_H + 2
    for side in (0, 1):
        x = side * half + 1
        if family == "snooker":
            gfx.text(canvas, t("c.frames") % won[side], x, y, 1, 1, 1, _ADV)
        elif fig is not None:
            gfx.text(canvas, t("c.fouls") % fig.fouls[side], x, y, 1, 1, 1, _ADV)
        if fig is not None and striker == side and family != "pool":
            word = "c.break" if family == "snooker" else "c.run"
            gfx.text(canvas, t(word) % fig.brk, x + 30, y, 1, 1, 1, _ADV)
    y += _ROW_H
    line = None
    if fig is not None and family == "snooker":
        k = fig.snookers_required
        on = upper_word(fig.ball_on)[:6] if fig.ball_on else "-"
        line = t("c.figures") % (on, fig.reds, fig.remaining, "-" if k is None else "%d" % k)
    elif fig is not None and family == "pool":
        line = " ".join("%d" % n for n in model.balls_left(match) or ())
    elif fig is not None:
        line = t("c.to") % match.header.target
    if line is not None:
        gfx.text_at(canvas, line, 0, y, w, CENTRE, 1, 1, 1, _ADV)
    if model.banner(screen):
        _bottom(canvas, model.banner(screen), True, w, h)
    elif fig is not None and fig.prompts:
        _bottom(canvas, model.prompt_words(fig.prompts[0], fig, match), True, w, h)
    elif screen.entry:  # two rows for a long one (a decision pending), over the figures
        _question(canvas, "> " + screen.entry, w, h, 2, False)
    elif fig is None:
        over = t("e.match_over") if match.finished() else t(
            "s.rack_over" if family == "pool" else "s.frame_over")
        _bottom(canvas, over if match.frame is not None else t("c.to_start"), True, w, h)


def _end(canvas, screen, match, w, h):
    half = w // 2
    if screen.kind == "match_end":
        result = match.result()
        values = result[2] if result is not None and result[2] is not None else \
            match.frames_won()
        _title(canvas, t("e.match_over"), w)
        winner = match.outcome()[1]
        line = model.winner_words(match, winner)
        if winner is not None:
            line = t("m.wins") % line
    else:
        r = model.last_record(match)
        values = r[2] if r[2] is not None else match.frames_won()
        kind = "e.rack_over" if match.family == "pool" else "e.frame_over"
        won = match.frames_won()
        title = t(kind) % r[0]
        if match.family == "snooker":
            title += " %d-%d" % (won[0], won[1])
        _title(canvas, title, w)
        line = model.frame_result(match, r[3], r[4])
    for side in (0, 1):
        gfx.number(canvas, values[side], side * half, _BIG_Y + 2, _BIG_W, _BIG_H, _BIG_T, 3,
                   CENTRE, 1, half)
    canvas.fill_rect(half - 4, _BIG_Y + 2 + _BIG_H // 2 - 1, 8, 3, 1)
    gfx.text_at(canvas, line, 0, _BIG_Y + _BIG_H + 6, w, CENTRE, 1, 1, 1, _ADV)
    # What `ok` does now: the entry (the next breaker), else the hint's first part (its
    # parts are two spaces apart).
    what = screen.entry or (screen.hint.split("  ")[0] if screen.hint else None)
    if what:
        gfx.text_at(canvas, what, 0, h - 8, w, CENTRE, 1, 1, 1, _ADV)
