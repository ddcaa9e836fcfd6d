"""Names and texts beyond ASCII drawn at every size the screens use, on both interpreters.

    micropython tests/micropython/i18n_text.py

Prints one line per case: its name, then the canvas's bytes in hex. tests/lang/test_i18n_glyphs.py
runs it under CPython (host_tools/compat/framebuf.py), the MicroPython unix port and the
32-bit build, and the lines must be identical; the CPython run is also read pixel by pixel.
"""

import _paths

_paths.setup(__file__)


from drivers.ssd1683 import Band  # noqa: E402

from scoreboard.ui import draw  # noqa: E402

TEXTS = ("Łukasz Wiśniewski", "Иван Петров", "Γιώργος", "Müller Çağlar Šťastný",
         "O\u2019Sullivan \u201eAnn\u201d \u2013 \u2026",
         "中文 \U0001f3b1 a\u0301", "Ronnie O'Sullivan")
# (name, face): the three Terminus faces the screens draw
SIZES = (("small", draw.SMALL), ("body", draw.BODY), ("large", draw.LARGE))


def hexed(buf):
    return "".join("%02x" % b for b in buf)


def canvas(w, h):
    """A canvas of the whole picture (a Band of every row: it states its size)."""
    band = Band(w, h, h)
    return band.buf, band


def main():
    for t, s in enumerate(TEXTS):
        for name, font in SIZES:
            buf, c = canvas(400, draw.height(font))
            draw.text(c, s, 0, 0, font, 1)
            print("text%d-%s" % (t, name), hexed(buf))
        # inverted, cut to a field with an ellipsis, in the OLED's tight 128 pixels
        buf, c = canvas(128, 12)
        c.fill(1)
        draw.text_at(c, s, 1, 0, 126 - 6 * 8, draw.LEFT, draw.SMALL, 0)
        print("text%d-cut" % t, hexed(buf))
        # the e-ink drawn in bands of 30 rows: the same bytes as a whole canvas
        whole_buf, whole = canvas(400, 60)
        draw.best(whole, s, 3, 22, 300)
        parts = []
        band = Band(400, 60, 30)
        for top in (0, 30):
            band.top = top
            band.fill(0)
            draw.best(band, s, 3, 22, 300)
            parts.append(hexed(band.buf))
        print("text%d-bands" % t, hexed(whole_buf) == "".join(parts))
    for s in TEXTS:
        print("fit", len(draw.fit(s, 10)), draw.fit(s, 10).encode("utf-8").decode("utf-8")
              == draw.fit(s, 10))


main()
