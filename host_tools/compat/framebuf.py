"""CPython stand-in for MicroPython's `framebuf`: what the screens use, byte for byte.

The screens (firmware/scoreboard/ui/) draw only through framebuf methods on a canvas
passed in. On the device (and under the MicroPython unix port) that canvas is the real
`framebuf.FrameBuffer`; on CPython it is this class, which must leave exactly the same
bytes in the buffer. It implements only the MONO_HLSB format (every canvas of this
project: the e-ink and OLED panels, 1 = ink; the LED panel, 1 = lit) and only these
methods, each following micropython/extmod/modframebuf.c (v1.28):

    FrameBuffer(buffer, width, height, format[, stride])
    fill(c)  fill_rect(x, y, w, h, c)  pixel(x, y[, c])  hline(x, y, w, c)
    vline(x, y, h, c)  rect(x, y, w, h, c[, f])  text(s, x, y[, c])

Clipping is the C code's: rectangles are clipped to the buffer, pixels outside it are
ignored, `text` clips per pixel. Arguments must be ints (a float raises TypeError, as
`mp_obj_get_int` does), so a screen that would fail on the device fails here too.
`text` draws the UTF-8 bytes of the string with MicroPython's 8x8 font (codes outside
32..127 draw glyph 127), taken from the firmware's generated `scoreboard/ui/font8.py`, up
to the first NUL, where the C code's text ends (it walks a C string).
Tests compare the bytes with a run under real MicroPython (tests/ui/test_screens.py).
"""

from scoreboard.ui.font8 import FIRST, FONT, LAST

MONO_VLSB = 0
MONO_HLSB = 3
MONO_HMSB = 4
_FORMATS = {MONO_HLSB}


def _int(value):
    if isinstance(value, float):
        raise TypeError("can't convert float to int")
    return int(value)


class FrameBuffer:
    """A MONO_HLSB frame buffer over a writable buffer (bytearray or memoryview)."""

    def __init__(self, buffer, width, height, format, stride=None):
        width = _int(width)
        height = _int(height)
        stride = width if stride is None else _int(stride)
        if width < 1 or height < 1 or width > 0xFFFF or height > 0xFFFF or stride > 0xFFFF \
                or stride < width:
            raise ValueError
        if format not in _FORMATS:
            raise ValueError("invalid format (the stand-in has MONO_HLSB only)")
        stride = (stride + 7) & ~7
        width_required = (width + 7) & ~7
        view = memoryview(buffer)
        if view.readonly:
            raise TypeError("object with buffer protocol required")
        if ((height - 1) * stride + width_required) // 8 > view.nbytes:
            raise ValueError
        self._buf = view.cast("B") if view.format != "B" else view
        self.width = width
        self.height = height
        self.format = format
        self._advance = stride >> 3

    # -- the C code's fill_rect, done a row of bytes at a time ------------------------------
    def _fill(self, x, y, w, h, col):
        buf = self._buf
        adv = self._advance
        x1 = x + w
        b0 = x >> 3
        b1 = (x1 - 1) >> 3
        ones = b"\xff" if col else b"\x00"
        head = (0xFF >> (x & 7)) & 0xFF
        tail = (0xFF << (7 - ((x1 - 1) & 7))) & 0xFF
        if b0 == b1:
            head &= tail
        for row in range(y, y + h):
            base = row * adv
            i = base + b0
            if b0 == b1:
                buf[i] = (buf[i] | head) if col else (buf[i] & ~head & 0xFF)
                continue
            buf[i] = (buf[i] | head) if col else (buf[i] & ~head & 0xFF)
            j = base + b1
            buf[j] = (buf[j] | tail) if col else (buf[j] & ~tail & 0xFF)
            if b1 - b0 > 1:
                buf[i + 1:j] = ones * (b1 - b0 - 1)

    def _fill_rect(self, x, y, w, h, col):
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self.height or x >= self.width:
            return
        xend = min(self.width, x + w)
        yend = min(self.height, y + h)
        x = max(x, 0)
        y = max(y, 0)
        self._fill(x, y, xend - x, yend - y, col)

    def _set(self, x, y, col):
        i = (x + y * (self._advance << 3)) >> 3
        bit = 1 << (7 - (x & 7))
        self._buf[i] = (self._buf[i] | bit) if col else (self._buf[i] & ~bit & 0xFF)

    # -- the methods --------------------------------------------------------------------
    def fill(self, c):
        self._fill(0, 0, self.width, self.height, _int(c))

    def fill_rect(self, x, y, w, h, c):
        self._fill_rect(_int(x), _int(y), _int(w), _int(h), _int(c))

    def hline(self, x, y, w, c):
        self._fill_rect(_int(x), _int(y), _int(w), 1, _int(c))

    def vline(self, x, y, h, c):
        self._fill_rect(_int(x), _int(y), 1, _int(h), _int(c))

    def rect(self, x, y, w, h, c, f=False):
        x, y, w, h, c = _int(x), _int(y), _int(w), _int(h), _int(c)
        if f:
            self._fill_rect(x, y, w, h, c)
            return
        self._fill_rect(x, y, w, 1, c)
        self._fill_rect(x, y + h - 1, w, 1, c)
        self._fill_rect(x, y, 1, h, c)
        self._fill_rect(x + w - 1, y, 1, h, c)

    def pixel(self, x, y, c=None):
        x, y = _int(x), _int(y)
        if 0 <= x < self.width and 0 <= y < self.height:
            if c is None:
                i = (x + y * (self._advance << 3)) >> 3
                return (self._buf[i] >> (7 - (x & 7))) & 1
            self._set(x, y, _int(c))
        return None

    def text(self, s, x, y, c=1):
        if not isinstance(s, str):
            raise TypeError("can't convert to str implicitly")
        x0, y0, col = _int(x), _int(y), _int(c)
        width, height = self.width, self.height
        for code in s.encode("utf-8"):
            if code == 0:  # the C code walks a C string: a NUL ends the text
                break
            if code < FIRST or code > LAST:
                code = LAST
            base = (code - FIRST) * 8
            for j in range(8):
                if 0 <= x0 < width:
                    bits = FONT[base + j]
                    yy = y0
                    while bits:
                        if bits & 1 and 0 <= yy < height:
                            self._set(x0, yy, col)
                        bits >>= 1
                        yy += 1
                x0 += 1
