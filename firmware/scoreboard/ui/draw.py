"""Drawing primitives shared by every screen, only through framebuf methods.

- Text: MicroPython's 8x8 font for ASCII, and beyond it the generated glyphs of
  `glyphs.py` (Latin-1, Latin Extended-A, Greek, Cyrillic, quotes, dashes, the
  ellipsis), found by bisecting their code points; any other character is drawn as one
  replacement glyph (U+FFFD), never dropped. Printable ASCII at scale 1 goes through
  `canvas.text` (the C code on the device); everything else (scaled: `sx` wide, `sy` tall
  per font pixel, e.g. 2x2, 3x3 or a tall 1x2; or a text with a character beyond ASCII)
  is drawn from the same glyph data, one `fill_rect` per vertical run of a glyph column,
  so both ways give the same pixels. Widths count characters (code points), and a text
  longer than its field is cut at a character with an ellipsis (`fit`). Every canvas
  states which rows of the picture it holds (`top`, `rows`: all of them on a whole
  canvas, 30 on a band of the e-ink panel, drivers/ssd1683.py's Band, drawn once per
  band): scaled text that falls wholly outside them is skipped, the same pixels without
  its glyph loops; `rows_on` lets a screen skip a whole part the same way.
- Big digits: seven segments of `fill_rect`s, any size, with bevelled outer corners:
  crisp on the 32x16 LED panel and readable across a room on the e-ink panel. They are
  drawn from integers by arithmetic alone: no string, no allocation (the LED's clock
  path runs under `micropython.heap_lock()`).
"""

from micropython import const

from . import glyphs
from .font8 import FIRST, FONT

# Segments: a (top) 1, b (top right) 2, c (bottom right) 4, d (bottom) 8, e (bottom
# left) 16, f (top left) 32, g (middle) 64. Index 10 is the minus sign.
_SEGS = b"\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f\x40"
MINUS = const(10)
LEFT = const(0)
RIGHT = const(1)
CENTRE = const(2)


# -- text ---------------------------------------------------------------------------------
ELLIPSIS = "\u2026"  # what ends a text cut to its field


def find(code):
    """The index of the glyph of code point `code` in glyphs.py, or -1 (bisection over
    CODES: no table in the heap)."""
    codes = glyphs.CODES
    lo = 0
    hi = glyphs.COUNT
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
    draw the replacement glyph): THE test of a name the box can show (host setup too)."""
    code = ord(ch)
    return 32 <= code < 127 or find(code) >= 0


def _ascii(s):
    """Whether every character of `s` is printable ASCII (what `canvas.text` draws)."""
    for c in s:
        o = ord(c)
        if o < 32 or o > 126:
            return False
    return True


def text_width(s, sx=1, adv=8):
    """Width in pixels of `s` drawn with `text` at horizontal scale `sx`."""
    return len(s) * adv * sx


def rows_on(canvas, y0, y1):
    """Whether any of the panel rows y0..y1-1 is on `canvas`: always on a whole canvas,
    on a band only its own rows. A screen asks this before it works out the texts of a
    part that falls wholly in other bands (framebuf would clip all of it): the same
    pixels, without the strings made for them in every band."""
    top = canvas.top
    return y0 < top + canvas.rows and y1 > top


def text(canvas, s, x, y, sx=1, sy=0, col=1, adv=8):
    """Draw `s` with its top left at (x, y); `sy` 0 means the same as `sx`; `adv` is the
    advance per character in font columns (8, or 7 for tight lines). Returns the x just
    after the text."""
    if sy == 0:
        sy = sx
    if sx == 1 and sy == 1 and adv == 8 and _ascii(s):
        canvas.text(s, x, y, col)
        return x + 8 * len(s)
    if y >= canvas.top + canvas.rows or y + 8 * sy <= canvas.top:
        return x + adv * sx * len(s)  # another band's rows (framebuf would clip it all)
    for ch in s:
        code = ord(ch)
        if 32 <= code < 127:
            data = FONT
            base = (code - FIRST) * 8
        else:
            i = find(code)
            data = glyphs.GLYPHS
            base = (glyphs.REPLACEMENT if i < 0 else i) * 8
        cx = x
        for j in range(8):
            bits = data[base + j]
            row = 0
            while bits:
                if bits & 1:
                    start = row
                    while bits & 1:
                        bits >>= 1
                        row += 1
                    canvas.fill_rect(cx, y + start * sy, sx, (row - start) * sy, col)
                else:
                    bits >>= 1
                    row += 1
            cx += sx
        x += adv * sx
    return x


def fit(s, chars):
    """`s` cut to at most `chars` characters, an ellipsis last when cut (str slicing: at
    a character, never inside one's UTF-8 bytes)."""
    if len(s) <= chars:
        return s
    if chars < 1:
        return ""
    return s[:chars - 1] + ELLIPSIS


def text_at(canvas, s, x, y, width, align, sx=1, sy=0, col=1, adv=8):
    """`s` aligned LEFT, RIGHT or CENTRE in the `width` pixels from x; cut to fit."""
    chars = width // (adv * sx)
    s = fit(s, chars)
    w = text_width(s, sx, adv)
    if align == RIGHT:
        x += width - w
    elif align == CENTRE:
        x += (width - w) // 2
    return text(canvas, s, x, y, sx, sy, col, adv)


def best(canvas, s, x, y, width, col=1, align=LEFT):
    """`s` in 2x2 text (7 columns a character) if it fits in `width`, else in tall 1x2
    text (cut to fit): 16 pixels high either way."""
    if len(s) * 14 <= width:
        return text_at(canvas, s, x, y, width, align, 2, 2, col, 7)
    return text_at(canvas, s, x, y, width, align, 1, 2, col)


def inverse_bar(canvas, x, y, w, h, s, col=1, pad=4):
    """A filled bar with `s` (16 pixels high) in the background colour: what must stand
    out."""
    canvas.fill_rect(x, y, w, h, col)
    best(canvas, s, x + pad, y + (h - 16) // 2, w - 2 * pad, 1 - col)


def wrap(s, chars):
    """`s` as lines of at most `chars` characters, broken at spaces where possible."""
    out = []
    for part in s.split("\n"):
        while len(part) > chars:
            cut = part.rfind(" ", 0, chars + 1)
            if cut <= 0:
                cut = chars
            out.append(part[:cut])
            part = part[cut:].lstrip(" ")
        out.append(part)
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
