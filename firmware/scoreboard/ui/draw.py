"""Drawing primitives shared by every screen, only through framebuf methods.

- Text: Terminus Bold in three sizes (docs/design.md, "Typefaces"): SMALL 6x12 (the
  OLED, the e-ink panel's small print), BODY 8x16 (the e-ink panel's body text) and
  LARGE 12x24 (names and values read across the room), each a generated module
  (font12.py, font16.py, font24.py: bytes constants, in flash when frozen) imported on
  first use (main.py loads them first: see there), their characters in the one order
  of codes.py, which `find` bisects. Every face has printable ASCII,
  Latin-1, Latin Extended-A, Greek, Cyrillic, quotes, dashes and the ellipsis; any other
  character is drawn as one replacement glyph (U+FFFD), never dropped. A glyph is
  drawn row by row, one `hline` per run of set pixels: no allocation, and only the
  rows on the canvas (every canvas states which rows of the picture it holds: `top`,
  `rows`; all of them on a whole canvas, 30 on a band of the e-ink panel,
  drivers/ssd1683.py's Band, drawn once per band), so a text in another band costs
  nothing. (Why not framebuf.blit from one preallocated glyph buffer: measured on the
  unix port it is only a little faster on a whole canvas, 9.0 against 10.9 us a 12x24
  glyph, but the glyph's bytes must be copied in first, all of them in every band the
  glyph touches, and a band has no blit.) Widths count characters (code points), every
  face monospaced,
  and a text longer than its field is cut at a character with an ellipsis (`fit`).
  `rows_on` lets a screen skip a whole part that is on no row of the canvas.
- Big digits: seven segments of `fill_rect`s, any size, with bevelled outer corners:
  crisp on the 32x16 LED panel and readable across a room on the e-ink panel. They are
  drawn from integers by arithmetic alone: no string, no allocation (the LED's clock
  path runs under `micropython.heap_lock()`).
"""

from micropython import const

from scoreboard.lang import ELLIPSIS, fit  # noqa: F401  (the cut of a text: lang's, one for all)

from . import codes as chars

# Segments: a (top) 1, b (top right) 2, c (bottom right) 4, d (bottom) 8, e (bottom
# left) 16, f (top left) 32, g (middle) 64. Index 10 is the minus sign.
_SEGS = b"\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f\x40"
MINUS = const(10)
LEFT = const(0)
RIGHT = const(1)
CENTRE = const(2)


# -- text ---------------------------------------------------------------------------------
SMALL = const(0)  # Terminus 6x12
BODY = const(1)  # Terminus 8x16
LARGE = const(2)  # Terminus 12x24
_ADV = b"\x06\x08\x0c"  # each face's advance (its cell width), by face
_HIGH = b"\x0c\x10\x18"  # each face's height
_FACES = [None, None, None]  # type: list  # the modules, imported on first use


def face(font):
    """The module of face `font` (SMALL, BODY or LARGE)."""
    m = _FACES[font]
    if m is None:
        if font == SMALL:
            from . import font12 as m
        elif font == BODY:
            from . import font16 as m
        else:
            from . import font24 as m
        _FACES[font] = m
    return m


def preload():
    """Import the three faces now (main.py, before the app: see there)."""
    for font in (SMALL, BODY, LARGE):
        face(font)


def height(font):
    """The height in pixels of a line in face `font`."""
    return _HIGH[font]


def find(code):
    """The index of the glyph of code point `code` in every face, or -1: printable
    ASCII is glyph code - 32, the rest is a bisection over codes.py's CODES (no table
    in the heap)."""
    if 32 <= code < 127:
        return code - 32
    codes = chars.CODES
    lo = 95
    hi = chars.COUNT
    while lo < hi:
        mid = (lo + hi) >> 1
        c = codes[2 * mid] << 8 | codes[2 * mid + 1]
        if c == code:
            return mid
        if c < code:
            lo = mid + 1
        else:
            hi = mid
    return -1


def drawable(ch):
    """Whether the screens have a glyph of their own for the character `ch` (else they
    draw the replacement glyph): THE test of a name the box can show (host setup too).
    Every face has the same characters (codes.py)."""
    return find(ord(ch)) >= 0


def text_width(s, font=SMALL):
    """Width in pixels of `s` drawn with `text` in face `font`."""
    return len(s) * _ADV[font]


def rows_on(canvas, y0, y1):
    """Whether any of the panel rows y0..y1-1 is on `canvas`: always on a whole canvas,
    on a band only its own rows. A screen asks this before it works out the texts of a
    part that falls wholly in other bands (framebuf would clip all of it): the same
    pixels, without the strings made for them in every band."""
    top = canvas.top
    return y0 < top + canvas.rows and y1 > top


def text(canvas, s, x, y, font=SMALL, col=1):
    """Draw `s` in face `font` with its top left at (x, y) in colour `col` (the
    background is left as it is). Returns the x just after the text."""
    m = face(font)
    w = m.WIDTH
    h = m.HEIGHT
    end = x + w * len(s)
    # Only the glyph rows on the canvas's rows (a band holds 30 of the panel's).
    r0 = max(canvas.top - y, 0)
    r1 = min(canvas.top + canvas.rows - y, h)
    if r1 <= r0:
        return end
    data = m.GLYPHS
    two = m.STRIDE == 2
    size = h * m.STRIDE
    for ch in s:
        i = find(ord(ch))
        if i < 0:
            i = chars.REPLACEMENT
        base = i * size
        r = r0
        while r < r1:
            if two:
                bits = data[base + 2 * r] | data[base + 2 * r + 1] << 8
            else:
                bits = data[base + r]
            c = 0
            while bits:  # runs of set bits, the leftmost column in bit 0
                if bits & 1:
                    start = c
                    while bits & 1:
                        bits >>= 1
                        c += 1
                    canvas.hline(x + start, y + r, c - start, col)
                else:
                    bits >>= 1
                    c += 1
            r += 1
        x += w
    return end


def text_at(canvas, s, x, y, width, align, font=SMALL, col=1):
    """`s` aligned LEFT, RIGHT or CENTRE in the `width` pixels from x; cut to fit."""
    s = fit(s, width // _ADV[font])
    w = text_width(s, font)
    if align == RIGHT:
        x += width - w
    elif align == CENTRE:
        x += (width - w) // 2
    return text(canvas, s, x, y, font, col)


def fits(s, width, font):
    """Whether `s` in face `font` fits in `width` pixels uncut."""
    return len(s) * _ADV[font] <= width


def face_for(s, width, font=LARGE):
    """The largest face, `font` at most, in which `s` fits `width` uncut (SMALL if
    none): what `best` draws it in. Several texts that should look alike (two names,
    a list's rows) take the smallest of theirs."""
    while font > SMALL and not fits(s, width, font):
        font -= 1
    return font


def best(canvas, s, x, y, width, col=1, align=LEFT, font=LARGE):
    """`s` in face `font` if it fits in `width`, else in the largest smaller face it
    fits in (the smallest cuts it), centred in the height of `font` at y."""
    f = face_for(s, width, font)
    return text_at(canvas, s, x, y + (_HIGH[font] - _HIGH[f]) // 2, width, align, f, col)


def inverse_bar(canvas, x, y, w, h, s, col=1, pad=4, font=BODY):
    """A filled bar with `s` in the background colour: what must stand out."""
    canvas.fill_rect(x, y, w, h, col)
    best(canvas, s, x + pad, y + (h - _HIGH[font]) // 2, w - 2 * pad, 1 - col, LEFT, font)


def para(canvas, s, x, y, width, rows=2, col=1, font=BODY):
    """`s` in a box `rows` small lines high at (x, y): on one line in face `font` (centred
    in the box) if it fits, else in the small face, wrapped at spaces onto at most `rows`
    lines (a refusal keeps its reason). Returns the lines drawn."""
    high = rows * _HIGH[SMALL]
    if fits(s, width, font):
        text(canvas, s, x, y + (high - _HIGH[font]) // 2, font, col)
        return 1
    lines = wrap(s, width // _ADV[SMALL], rows)
    if len(lines) == 1:
        text_at(canvas, s, x, y + (high - _HIGH[SMALL]) // 2, width, LEFT, SMALL, col)
        return 1
    i = 0
    while i < len(lines):
        text_at(canvas, lines[i], x, y + i * _HIGH[SMALL], width, LEFT, SMALL, col)
        i += 1
    return i


def wrap(s, chars, rows=0):
    """`s` as lines of at most `chars` characters, broken at spaces where possible; with
    `rows`, at most that many, the rest joined to the last (which `fit` then cuts with
    an ellipsis: nothing is dropped unseen)."""
    out = []
    for part in s.split("\n"):
        while len(part) > chars:
            cut = part.rfind(" ", 0, chars + 1)
            if cut <= 0:
                cut = chars
            out.append(part[:cut])
            part = part[cut:].lstrip(" ")
        out.append(part)
    if rows and len(out) > rows:
        out[rows - 1] = " ".join(out[rows - 1:])
        del out[rows:]
    return out


# -- seven-segment digits -----------------------------------------------------------------
def digit(canvas, d, x, y, w, h, t, col=1):
    """Digit `d` (0..9, or MINUS) in a w x h box at (x, y), strokes `t` thick."""
    if d == 1:  # a centred stem with a flag reads better than a bar at the right
        sx = x + (w - t) // 2 + t // 2
        canvas.fill_rect(sx, y, t, h, col)
        canvas.fill_rect(sx - t, y, t, t, col)
        return
    segs = _SEGS[d]
    mid = (h - t) // 2
    up = mid + t
    down = h - mid
    r = t // 2  # the bevel of the outer corners
    if segs & 1:
        canvas.fill_rect(x, y, w, t, col)
    if segs & 64:
        canvas.fill_rect(x, y + mid, w, t, col)
    if segs & 8:
        canvas.fill_rect(x, y + h - t, w, t, col)
    if segs & 32:
        canvas.fill_rect(x, y, t, up, col)
    if segs & 2:
        canvas.fill_rect(x + w - t, y, t, up, col)
    if segs & 16:
        canvas.fill_rect(x, y + mid, t, down, col)
    if segs & 4:
        canvas.fill_rect(x + w - t, y + mid, t, down, col)
    if r < 1 or d == MINUS:
        return
    bg = 1 - col
    i = 0
    while i < r:  # bevel: clear a small triangle at each outer corner
        n = r - i
        canvas.hline(x, y + i, n, bg)
        canvas.hline(x + w - n, y + i, n, bg)
        canvas.hline(x, y + h - 1 - i, n, bg)
        canvas.hline(x + w - n, y + h - 1 - i, n, bg)
        i += 1


def count_digits(n):
    """Characters of the integer n: its digits, plus one for a minus sign."""
    c = 1
    if n < 0:
        c = 2
        n = -n
    while n >= 10:
        n //= 10
        c += 1
    return c


def number(canvas, n, x, y, w, h, t, gap, align=LEFT, col=1, box=0):
    """The integer n in seven-segment digits w x h, `gap` apart. With align RIGHT or
    CENTRE, `box` is the width to align in (from x). Returns the width drawn."""
    c = count_digits(n)
    width = c * w + (c - 1) * gap
    if align == RIGHT:
        x += box - width
    elif align == CENTRE:
        x += (box - width) // 2
    neg = n < 0
    if neg:
        n = -n
    px = x + width - w  # the last digit first
    i = 0
    while i < c:
        if neg and i == c - 1:
            digit(canvas, MINUS, px, y, w, h, t, col)
        else:
            digit(canvas, n % 10, px, y, w, h, t, col)
            n //= 10
        px -= w + gap
        i += 1
    return width


def triangle(canvas, x, y, h, right=True, col=1):
    """A solid arrow head `h` pixels tall (odd) and h // 2 + 1 wide at (x, y), pointing
    right (or left)."""
    half = h // 2
    j = 0
    while j < h:
        n = (j if j <= half else h - 1 - j) + 1
        canvas.hline(x if right else x + half + 1 - n, y + j, n, col)
        j += 1
