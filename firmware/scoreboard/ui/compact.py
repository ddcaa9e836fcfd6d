"""Compact screens for small canvases: the 128x64 OLED variant (and anything under
400x300). Same `model.Screen`, same framebuf-only drawing, smaller layout:

All text is Terminus 6x12 (draw.SMALL): five rows of 12 pixels, 21 characters a line.

    score:  y  0  both names (the striker's inverted)
            y 12  both scores (racks in pool, points in straight pool) in big digits
            y 28  frames won / break (snooker), fouls (pool), run / fouls (straight)
            y 40  ball on, reds, remaining, snookers (snooker); balls left (pool);
                  the target (straight)
            y 52  the refusal, else the first prompt (inverted; before the first frame
                  of a called match the late start's minutes), else the entry (the
                  entry in progress, what `ok` does, the decision pending: on two
                  rows, over the figures row, never over the frames, when it is
                  longer than one)
    others: a title bar and rows of text, the cursor's row inverted; a question
            waiting for `ok` over the last rows of a menu; at a frame's or the
            match's end, what `ok` does (who breaks next) on the last rows (the
            frames in the title).
"""

from micropython import const

from . import draw as gfx
from . import model
from scoreboard.lang import t, upper_word
from .draw import CENTRE, LEFT, RIGHT, SMALL

_BIG_Y = const(12)
_BIG_W = const(10)
_BIG_H = const(16)
_BIG_T = const(3)
_END_H = const(24)  # the end screens' digits: no figures rows under them
_ROW_H = const(12)
_ADV = const(6)  # Terminus 6x12: 21 characters a line on 128 pixels


def draw(canvas, screen, w, h):
    """Draw `screen` on a small canvas of w x h pixels."""
    canvas.fill(0)
    kind = screen.kind
    match = screen.match
    if kind == "score" and match is not None:
        _score(canvas, screen, match, w, h)
    elif kind == "start":
        # A window of the queue: the cursor within it (it holds the rows that fit).
        cursor = screen.menu_cursor - screen.queue_first if screen.queue else -1
        items = _queue_items(screen.queue, cursor, w) or [t("c.no_queue"), t("c.set_up")]
        _list(canvas, screen.title or t("e.scoreboard"), items, cursor, w, h, 4)
    elif kind == "setup":
        items = ["%s: %s" % (label, value) for label, value in screen.setup]
        _list(canvas, t("e.new_match"), items, screen.menu_cursor, w, h)
    elif kind == "menu":
        _list(canvas, screen.menu_title or t("e.menu"), screen.menu_items, screen.menu_cursor,
              w, h)
        if screen.entry and not model.banner(screen):
            _question(canvas, screen.entry, w, h, 4)
    elif kind in ("frame_end", "match_end") and match is not None and match.frame is not None:
        _end(canvas, screen, match, w, h)
    elif kind in ("frame_end", "match_end") and match is not None:
        _score(canvas, screen, match, w, h)
    else:
        text = screen.error or screen.message or (
            t("e.an_error") if kind == "error" else t("e.unknown") % kind)
        _list(canvas, t("e.error"), [text], -1, w, h)
        return
    if kind != "score" and model.banner(screen):  # over the last rows, whole
        _question(canvas, _banner(screen, w), w, h, 4)


def _queue_items(queue, cursor, w):
    """The start screen's rows: each queued match's summary; the cursor's with its
    playing conditions (after the summary's line break) when its four rows hold them
    whole, else without them (the 128x64 panel has no room for more)."""
    items = []
    for i in range(len(queue)):
        summary = queue[i][1]
        line = summary.split("\n")[0]
        if i == cursor and line != summary and _fits(summary, w, 4):
            line = summary
        items.append(line)
    return items


def _fits(text, w, rows):
    return len(gfx.wrap(text, (w - 2) // _ADV)) <= rows


def _banner(screen, w):
    """The refusal (`NO: why`) or notice for four rows; a refusal too long for them
    without its `NO:` (the inverted box says it is one): its reason whole."""
    text = model.banner(screen)
    if screen.message and not _fits(text, w, 4):
        return screen.message
    return text


def _unnamed(text):
    """`text` without its parenthesised parts: `Award the frame to A (Name), why? ok`
    as `Award the frame to A, why? ok` (the names row says who A is)."""
    while True:
        i = text.find(" (")
        j = text.find(")", i + 2)
        if i < 0 or j < 0:
            return text
        text = text[:i] + text[j + 1:]


def _entry(entry, w, rows):
    """The entry for `rows` rows: `> ` and the entry, else the entry alone, else without
    the names in parentheses (the question and its `ok` kept whole)."""
    text = "> " + entry
    if not _fits(text, w, rows):
        text = entry
    if not _fits(text, w, rows):
        text = _unnamed(entry)
    return text


def _title(canvas, text, w, rows=2):
    """The title bar, on two rows if the title needs them: the height it took."""
    lines = gfx.wrap(text, (w - 2) // _ADV, rows)
    canvas.fill_rect(0, 0, w, _ROW_H * len(lines), 1)
    y = 0
    for line in lines:
        gfx.text_at(canvas, line, 1, y, w - 2, LEFT, SMALL, 0)
        y += _ROW_H
    return y


def _list(canvas, title, items, cursor, w, h, most=2):
    """The title, then the rows that fit under it (set on the bottom rows, where a
    question or a refusal goes over them whole); the cursor's row inverted, on up to
    `most` rows if its text needs them (the others are cut if need be: each is read
    whole when the cursor is on it)."""
    top = _title(canvas, title, w)
    fits = (h - top - 2) // _ROW_H
    chars = (w - 2) // _ADV
    if cursor < 0:  # a text, not a choice: each item wrapped
        lines = []
        for item in items:
            lines.extend(gfx.wrap(item, chars))
        items = lines
    most = min(most, fits)
    need = len(gfx.wrap(items[cursor], chars, most)) if 0 <= cursor < len(items) else 1
    room = fits - need + 1  # rows before the cursor's, its first included
    first = cursor - room + 1 if cursor >= room else 0
    y = h - fits * _ROW_H
    i = first
    while i < len(items) and y + _ROW_H <= h:
        on = i == cursor
        lines = gfx.wrap(items[i], chars, most) if on else (items[i],)
        if on:
            canvas.fill_rect(0, y, w, _ROW_H * len(lines), 1)
        for line in lines:
            gfx.text_at(canvas, line, 1, y, w - 2, LEFT, SMALL, 0 if on else 1)
            y += _ROW_H
        i += 1


def _question(canvas, text, w, h, rows=0, inverted=True):
    """`text` wrapped onto the last rows (at most `rows`, 0: all it needs), inverted: a
    question must be read whole."""
    lines = gfx.wrap(text, (w - 2) // _ADV, rows)
    y = h - _ROW_H * len(lines)
    canvas.fill_rect(0, y, w, h - y, 1 if inverted else 0)
    for line in lines:
        gfx.text_at(canvas, line, 1, y, w - 2, LEFT, SMALL, 0 if inverted else 1)
        y += _ROW_H


def _bottom(canvas, text, inverted, w, h):
    y = h - _ROW_H
    canvas.fill_rect(0, y, w, _ROW_H, 1 if inverted else 0)
    gfx.text_at(canvas, text, 1, y, w - 2, LEFT, SMALL, 0 if inverted else 1)


def _names(canvas, match, striker, w, won=None):
    """Both names, the striker's inverted; with `won`, frames won beside each (at the
    panel's edges) when the text below takes the frames row."""
    half = w // 2
    for side in (0, 1):
        x = side * half
        on = striker == side
        col = 0 if on else 1
        if on:
            canvas.fill_rect(x, 0, half - 1, _ROW_H, 1)
        room = half - 3
        if won is not None:
            frames = t("c.frames") % won[side]
            fw = gfx.text_width(frames)
            gfx.text(canvas, frames, x + 1 if side == 0 else x + half - 2 - fw, 0, SMALL, col)
            room -= fw + _ADV
            if side == 0:
                x += fw + _ADV
        label = model.short_name(match, side, room // _ADV)
        gfx.text_at(canvas, label, x + 1, 0, room, LEFT if side == 0 else RIGHT, SMALL, col)


def _big(canvas, values, w):
    half = w // 2
    for side in (0, 1):
        gfx.number(canvas, values[side], side * half, _BIG_Y, _BIG_W, _BIG_H, _BIG_T, 3,
                   CENTRE, 1, half)


def _below(screen, fig, match, w):
    """What goes on the bottom rows, on how many (0: the figures keep them; three or four
    take the frames row too, and frames won go up beside the names), inverted or not."""
    if model.banner(screen):  # a refusal whole, its reason and who is at the table too
        text = _banner(screen, w)
        return text, len(gfx.wrap(text, (w - 2) // _ADV, 4)), True
    if fig is not None and fig.prompts:
        text = model.prompt_words(fig.prompts[0], fig, match)
        return text, len(gfx.wrap(text, (w - 2) // _ADV, 2)), True
    late = model.late_words(screen)  # a called match's late start, over `ok`'s hint
    if late is not None and not match.finished():
        return late, len(gfx.wrap(late, (w - 2) // _ADV, 2)), True
    if screen.entry:  # two rows for a long one (a decision pending), over the figures
        text = _entry(screen.entry, w, 2)
        if not _fits(text, w, 2):
            text = _entry(screen.entry, w, 3)
        return text, len(gfx.wrap(text, (w - 2) // _ADV, 3)), False
    return None, 0, True


def _score(canvas, screen, match, w, h):
    fig = model.figures(match)
    striker = None if fig is None else fig.striker
    half = w // 2
    family = match.family
    won = match.frames_won()
    below, rows, inverted = _below(screen, fig, match, w)
    up = rows > 2 and family == "snooker"  # frames won beside the names
    _names(canvas, match, striker, w, won if up else None)
    r = model.last_record(match)
    if family == "pool":
        _big(canvas, won, w)
    else:
        score = fig.score if fig is not None else (r[2] if r is not None else (0, 0))
        _big(canvas, score, w)
    canvas.vline(half - 1, _BIG_Y, _BIG_H, 1)
    y = _BIG_Y + _BIG_H
    for side in (0, 1) if rows < 3 else ():  # the frames row, unless the text below has it
        x = side * half + 1
        if family == "snooker":  # up to F99 and B155: 8 characters of the 10 a half has
            gfx.text(canvas, t("c.frames") % won[side], x, y, SMALL)
        elif fig is not None:
            gfx.text(canvas, t("c.fouls") % fig.fouls[side], x, y, SMALL)
        if fig is not None and striker == side and family != "pool":
            word = "c.break" if family == "snooker" else "c.run"
            gfx.text_at(canvas, t(word) % fig.brk, x + 24, y, half - 27, RIGHT, SMALL)
    y += _ROW_H
    line = None
    if fig is not None and family == "snooker":
        k = fig.snookers_required
        on = upper_word(fig.ball_on) if fig.ball_on else "-"
        line = t("c.figures") % (on, fig.reds, fig.remaining, "-" if k is None else "%d" % k)
    elif fig is not None and family == "pool":
        line = " ".join("%d" % n for n in model.balls_left(match) or ())
    elif fig is not None:
        line = t("c.to") % match.header.target
    if line is not None and rows < 2:
        gfx.text_at(canvas, line, 0, y, w, CENTRE, SMALL)
    if below is not None:
        _question(canvas, below, w, h, rows, inverted)
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
        r = model.last_record(match)
        if match.family == "straight" and (result is None or result[2] is None) and \
                r is not None and r[2] is not None:
            values = r[2]  # one game: its points, not frames 0 - 0
        title = t("e.match_over")
        winner = match.outcome()[1]
        line = model.winner_words(match, winner, w // _ADV)
    else:
        r = model.last_record(match)
        values = r[2] if r[2] is not None else match.frames_won()
        kind = "e.rack_over" if match.family == "pool" else "e.frame_over"
        won = match.frames_won()
        title = t(kind) % r[0]
        if match.family == "snooker":
            title += " %d-%d" % (won[0], won[1])
        line = model.frame_result(match, r[3], r[4], w // _ADV)
    # The title (two rows if it needs them: frames won up to 99 in every language), what
    # `ok` does now at the bottom (the entry: the next breaker; else the hint's first
    # part, its parts two spaces apart) whole, on two rows if need be; the big digits
    # take the rows left, the result line under them if they can spare it.
    top = _title(canvas, title, w)
    what = screen.entry or (screen.hint.split("  ")[0] if screen.hint else None)
    lines = gfx.wrap(what, (w - 2) // _ADV, 2) if what else []
    bottom = h - _ROW_H * len(lines)
    big = bottom - top - 2 - _ROW_H
    if big < 14:  # no room for the result line: who won is in the title's frames
        line = None
        big = bottom - top - 2
    big = min(big, _END_H)
    for side in (0, 1):
        gfx.number(canvas, values[side], side * half, top + 1, 14 if big >= _END_H else 10,
                   big, 4 if big >= _END_H else 3, 3, CENTRE, 1, half)
    canvas.fill_rect(half - 4, top + 1 + big // 2 - 1, 8, 3, 1)
    if line is not None:
        gfx.text_at(canvas, line, 0, top + big + 2, w, CENTRE, SMALL)
    y = bottom
    for part in lines:
        gfx.text_at(canvas, part, 0, y, w, CENTRE, SMALL)
        y += _ROW_H
