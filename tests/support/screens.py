"""Helpers for the screen tests: canvases, reading pixels back, and reading the
seven-segment digits and text of a framebuffer the way a person would, so that tests
check what a screen says, not only its bytes.

The digit reader looks at the middle of each of the seven segments of a digit box (the
geometry of ui/draw.py's `digit`: strokes `t` thick, the middle bar at (h - t) // 2) and
the centred stem of a `1`; it knows nothing else about the drawing code.
"""

from drivers.ssd1683 import Band
from scoreboard.ui import draw

SEGMENTS = {0x3F: 0, 0x06: 1, 0x5B: 2, 0x4F: 3, 0x66: 4, 0x6D: 5, 0x7D: 6, 0x07: 7, 0x7F: 8,
            0x6F: 9, 0x40: "-", 0x00: None}


def canvas(w, h):
    """(buffer, canvas) for a w x h MONO_HLSB canvas of the whole picture: a Band of
    every row, which states its size as the boards' canvases do."""
    band = Band(w, h, h)
    return band.buf, band


def pixel(buf, w, x, y):
    stride = (w + 7) // 8
    return (buf[y * stride + (x >> 3)] >> (7 - (x & 7))) & 1


def region(buf, w, x, y, rw, rh):
    """The pixels of a rectangle as a tuple of row tuples."""
    return tuple(tuple(pixel(buf, w, x + i, y + j) for i in range(rw)) for j in range(rh))


def ink(buf, w, x, y, rw, rh):
    """How many pixels are set in the rectangle."""
    return sum(sum(row) for row in region(buf, w, x, y, rw, rh))


def read_digit(buf, w, x, y, dw, dh, t):
    """The digit (0-9, '-', or None for blank) drawn in the box, read from the pixels."""
    mid = (dh - t) // 2
    probes = (
        (x + dw // 2, y + t // 2),  # a
        (x + dw - 1 - t // 2, y + mid // 2 + t // 2),  # b
        (x + dw - 1 - t // 2, y + mid + (dh - mid) // 2),  # c
        (x + dw // 2, y + dh - 1 - t // 2),  # d
        (x + t // 2, y + mid + (dh - mid) // 2),  # e
        (x + t // 2, y + mid // 2 + t // 2),  # f
        (x + dw // 2, y + mid + t // 2),  # g
    )
    segs = 0
    for i, (px, py) in enumerate(probes):
        if pixel(buf, w, px, py):
            segs |= 1 << i
    stem = min(x + (dw - t) // 2 + t // 2 + t // 2, x + dw - 1)
    q1, q3 = y + dh // 4, y + 3 * dh // 4
    right = x + dw - 1
    if not segs & 0x30 and pixel(buf, w, stem, q1) and pixel(buf, w, stem, q3) \
            and not pixel(buf, w, right, q1) and not pixel(buf, w, right, q3):
        return 1  # a centred stem, nothing on the left or right edge: a `1`
    return SEGMENTS.get(segs, "?")


def read_number(buf, w, x, y, dw, dh, t, gap, count):
    """The `count` digit boxes from x, gap apart, as a string ('' for blank boxes)."""
    out = ""
    for i in range(count):
        d = read_digit(buf, w, x + i * (dw + gap), y, dw, dh, t)
        if d == "?":
            return "?"
        if d is not None:
            out += str(d)
    return out


def number_at(buf, w, box_x, box_w, y, dw, dh, t, gap, align):
    """Read a number drawn by `draw.number` aligned in (box_x, box_w): the digits are
    read from the segments for 4 down to 1 characters, and a reading counts only if drawing
    it again gives exactly the pixels of the digits' span and of `gap` blank pixels either
    side (so a part of one digit is never taken for another). None when nothing reads."""
    for count in (4, 3, 2, 1):
        width = count * dw + (count - 1) * gap
        if align == draw.CENTRE:
            x = box_x + (box_w - width) // 2
        elif align == draw.RIGHT:
            x = box_x + box_w - width
        else:
            x = box_x
        if x < box_x:
            continue
        boxes = [read_digit(buf, w, x + i * (dw + gap), y, dw, dh, t) for i in range(count)]
        if not all(b is not None and b != "?" for b in boxes):
            continue
        reading = "".join(str(b) for b in boxes)
        try:
            value = int(reading)
        except ValueError:
            continue
        # The digits' span, and `gap` blank pixels either side (within the box).
        x0 = max(box_x, x - gap)
        x1 = min(box_x + box_w, x + width + gap)
        again, fb = canvas(box_w, dh)
        draw.number(fb, value, 0, 0, dw, dh, t, gap, align, 1, box_w)
        if region(again, box_w, x0 - box_x, 0, x1 - x0, dh) == region(buf, w, x0, y, x1 - x0,
                                                                          dh):
            return reading
    return None


def text_image(s, x, y, w, h, font=draw.SMALL, col=1):
    """The pixels that `draw.text` would give `s` alone on a blank w x h canvas."""
    buf, fb = canvas(w, h)
    if col == 0:
        fb.fill(1)
    draw.text(fb, s, x, y, font, col)
    return buf


class OnlyFramebuf:
    """A canvas that offers framebuf's methods and the size it states (boards/board.py:
    `width`, `height`, `top`, `rows`) and nothing else (no buffer), forwarding them to a
    real one: a screen that reaches past that contract fails."""

    METHODS = ("fill", "fill_rect", "pixel", "hline", "vline", "rect", "text", "line",
               "blit", "scroll", "ellipse", "poly")

    def __init__(self, fb):
        self._fb = fb
        self.calls = {}
        self.width = fb.width
        self.height = fb.height
        self.top = fb.top
        self.rows = fb.rows

    def __getattr__(self, name):
        if name not in self.METHODS:
            raise AttributeError("a framebuf has no attribute %r" % name)
        target = getattr(self._fb, name)

        def call(*args):
            self.calls[name] = self.calls.get(name, 0) + 1
            return target(*args)

        return call


def find_text(buf, w, x, y, rw, rh, s, font=draw.SMALL, col=1):
    """Where (x, y) in the rectangle the text `s` appears exactly as `draw.text` draws it
    in face `font` (set pixels and the gaps between them; `col` 0 for white on black),
    or None."""
    tw = draw.text_width(s, font)
    th = draw.height(font)
    ref = region(text_image(s, 0, 0, tw, th, font, col), tw, 0, 0, tw, th)
    area = region(buf, w, x, y, rw, rh)
    for j in range(rh - th + 1):
        for i in range(rw - tw + 1):
            if all(area[j + k][i:i + tw] == ref[k] for k in range(th)):
                return x + i, y + j
    return None


def error_pictures(code, key):
    """(e-ink, LED) bytes of the error screen saying the text `key` of language `code`,
    with scoreboard/outofmemory.py's LED word, drawn on a fresh host board (the language
    in use is `code` afterwards)."""
    from boards.host import HostBoard
    from scoreboard import lang, outofmemory
    from scoreboard.ui import eink
    from scoreboard.ui.model import Screen

    lang.use(code)
    board = HostBoard("unused")  # draws only: no file is opened
    screen = Screen("error")
    screen.error = lang.t(key)
    board.eink_show_now(True, lambda canvas: eink.draw(canvas, screen))
    outofmemory.led(board)
    return bytes(board.eink_buf), bytes(board.led_buf)
