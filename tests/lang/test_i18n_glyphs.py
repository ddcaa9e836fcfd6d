"""Every player's name as it is written (issues 18 and 26 item 1): the screens' three
Terminus faces hold every character of printable ASCII, Latin-1, Latin Extended-A, modern
Greek and Cyrillic U+0400..U+045F, none of them empty, the capitals with diacritics at
full capital height; the replacement glyph, the ellipsis; the same bytes on CPython, the
MicroPython unix port and the 32-bit build; and the generated modules are what
host_tools/gen/glyphgen.py makes of the fonts (when they are installed: `make deps`
installs Debian's xfonts-terminus)."""

import os
import sys

import pytest

from host_tools.gen import glyphgen
from support import mpy

from scoreboard.ui import codes as chars, draw
from support.screens import canvas

SCRIPT = mpy.REPO / "tests" / "micropython" / "i18n_text.py"
MP32 = mpy.REPO / "build" / "mp32" / "micropython"
FACES = ((draw.SMALL, "font12", "ter-u12b_unicode.pcf.gz"),
         (draw.BODY, "font16", "ter-u16b_unicode.pcf.gz"),
         (draw.LARGE, "font24", "ter-u24b_unicode.pcf.gz"))
INSTALLED = all(os.path.exists(glyphgen.source(glyphgen.FONTS, pcf)) for _, _, pcf in FACES)
BLANK = (0x20, 0xA0)  # the spaces: the only glyphs meant to be empty


def _blocks():
    """The characters the issues name: printable ASCII, Latin-1, Latin Extended-A, the
    Cyrillic of Bulgarian, Russian, Ukrainian and Serbian, and modern Greek."""
    codes = list(range(0x20, 0x7F)) + list(range(0xA0, 0x180)) + list(range(0x400, 0x460))
    codes += [c for c in range(0x384, 0x3CF) if c not in (0x38B, 0x38D, 0x3A2)]
    return [chr(c) for c in codes]


def _pixels(ch, font):
    """The rows `draw.text` leaves for one character in face `font`, as lists of 0/1."""
    w, h = draw.text_width("x", font), draw.height(font)
    _, c = canvas(w, h)
    draw.text(c, ch, 0, 0, font)
    return [[c.pixel(x, y) for x in range(w)] for y in range(h)]


def _inked_rows(rows):
    return [y for y, r in enumerate(rows) if any(r)]


def test_the_faces_are_the_sizes_the_panels_use():
    assert [(draw.text_width("x", f), draw.height(f)) for f, _, _ in FACES] == [
        (6, 12), (8, 16), (12, 24)]


@pytest.mark.skipif(not INSTALLED, reason="xfonts-terminus is not installed")
@pytest.mark.parametrize("font, module, pcf", FACES)
def test_the_face_modules_are_generated_from_the_font(font, module, pcf):
    width, height, codes, data = glyphgen.build(glyphgen.source(glyphgen.FONTS, pcf))
    path = mpy.REPO / glyphgen.output(module)
    assert path.read_text(encoding="utf-8") == glyphgen.module_text(module, pcf, width, height,
                                                                    codes, data)
    m = draw.face(font)
    assert chars.COUNT == len(chars.CODES) // 2 == len(m.GLYPHS) // (m.HEIGHT * m.STRIDE) == len(
        codes)
    assert (mpy.REPO / glyphgen.output(glyphgen.CODES_MODULE)).read_text(
        encoding="utf-8") == glyphgen.codes_text(codes)


@pytest.mark.parametrize("font", [f for f, _, _ in FACES])
def test_every_character_of_the_blocks_has_a_glyph_of_its_own_and_none_is_empty(font):
    missing = [ch for ch in _blocks() if not draw.drawable(ch)]
    assert not missing
    assert not draw.drawable("\u4e2d") and not draw.drawable("\U0001f3b1")
    replacement = _pixels("\ufffd", font)
    empty = [ch for ch in _blocks() if ord(ch) not in BLANK and not _inked_rows(_pixels(ch, font))]
    assert not empty, "empty glyphs: %s" % "".join(empty)
    same = [ch for ch in _blocks() if _pixels(ch, font) == replacement]
    assert not same, "drawn as the replacement glyph: %s" % "".join(same)
    assert not _inked_rows(_pixels(" ", font))


def _letter_rows(rows):
    """The rows of a glyph's letter: the inked run that ends lowest, without the accent
    above it (the rows after the last empty row among the inked ones)."""
    inked = _inked_rows(rows)
    run = [inked[-1]]
    for y in reversed(inked[:-1]):
        if y != run[0] - 1:
            break
        run.insert(0, y)
    return run


@pytest.mark.parametrize("font", [f for f, _, _ in FACES])
def test_capitals_with_diacritics_stand_at_full_capital_height(font):
    """Ł, Ż, Ś, Ó, Ѝ, Й, Ш, Γ, Ώ, Ć: the letter stands on the baseline and is as tall as E
    (the face may take one row off under an accent), far above the lowercase x-height,
    the accent above it; ѝ and Ѝ are letters of their own (issue 26: at 2x the old 5x8
    glyphs made Łukasz read as tukasz, and ѝ was empty)."""
    cap = _letter_rows(_pixels("E", font))
    x_height = len(_letter_rows(_pixels("x", font)))
    for ch in "\u0141\u017b\u015a\u00d3\u040d\u0419\u0428\u0393\u038f\u0106\u0110\u0416":
        letter = _letter_rows(_pixels(ch, font))
        assert letter[-1] == cap[-1], ch  # on the baseline
        assert len(letter) >= len(cap) - 1 > x_height, (ch, len(letter), len(cap))
    for ch in "\u017b\u015a\u00d3\u040d\u0419":  # the accent is above the cap height
        assert _inked_rows(_pixels(ch, font))[0] < cap[0], ch
    assert _pixels("\u045d", font) != _pixels("\u0438", font)  # ѝ is not и
    assert _pixels("\u040d", font) != _pixels("\u0418", font)  # Ѝ is not И


@pytest.mark.skipif(not INSTALLED, reason="xfonts-terminus is not installed")
@pytest.mark.parametrize("font, module, pcf", FACES)
def test_a_name_is_drawn_with_its_own_letters(font, module, pcf):
    """Ł, ś, И, П, Γ, ώ... drawn as the font's glyphs: not as the ASCII letter without
    its accent, not as '?', and each one different from the others."""
    source = glyphgen.read_pcf(glyphgen.source(glyphgen.FONTS, pcf))
    seen = []
    for ch in "\u0141\u015b\u0418\u041f\u0393\u03ce\u00e7\u011f\u0165\u045d":
        got = _pixels(ch, font)
        assert got == source[ord(ch)], ch
        assert got not in (_pixels("?", font), _pixels("L", font), _pixels("s", font)), ch
        assert got not in seen, ch
        seen.append(got)


@pytest.mark.parametrize("font", [f for f, _, _ in FACES])
def test_a_character_no_table_has_is_one_visible_replacement_glyph(font):
    replacement = _pixels("\ufffd", font)
    assert _inked_rows(replacement)
    for ch in ("\u4e2d", "\U0001f3b1", "\u0301", "\x07"):
        assert _pixels(ch, font) == replacement
    # one glyph each: the text after it is where it would be after any character
    _, c = canvas(64, 24)
    adv = draw.text_width("x", font)
    assert draw.text(c, "a\u4e2db", 0, 0, font) == 3 * adv
    assert draw.text_width("a\u4e2db", font) == 3 * adv


def test_a_long_name_is_cut_with_an_ellipsis_at_a_character():
    name = "\u0141ukasz Wi\u015bniewski"
    cut = draw.fit(name, 10)
    assert cut == "\u0141ukasz Wi\u2026"
    assert len(cut) == 10 and cut.encode("utf-8").decode("utf-8") == cut
    assert draw.fit(name, len(name)) == name
    cyr = "Александър Иванов"
    assert draw.fit(cyr, 7) == cyr[:6] + "\u2026"
    # drawn: the ellipsis glyph in the last cell of the field, nothing past it
    _, c = canvas(96, 16)
    draw.text_at(c, name, 0, 0, 80, draw.LEFT, draw.BODY)
    last = [[c.pixel(72 + x, y) for x in range(8)] for y in range(16)]
    assert last == _pixels("\u2026", draw.BODY) and _inked_rows(last)
    assert not any(c.pixel(x, y) for x in range(80, 96) for y in range(16))


def _runs():
    rc, out = mpy.run_tool([sys.executable, SCRIPT])
    assert rc == 0, out
    return out


def test_the_same_bytes_on_cpython_micropython_and_the_32_bit_build(micropython_bin):
    cp = _runs()
    assert cp.count("\n") == 7 * 5 + 7
    assert "False" not in cp  # bands put together are the whole canvas, each ellipsis whole
    rc, mp = mpy.run_micropython(SCRIPT)
    assert rc == 0, mp
    assert mp == mpy.normalise(cp)
    rc, mp32 = mpy.run_tool([mpy.tool(MP32), SCRIPT])
    assert rc == 0, mp32
    assert mpy.normalise(mp32) == mpy.normalise(cp)


def test_text_is_drawn_only_on_the_rows_of_the_band():
    """A band of 30 rows holds only its rows of a text that crosses it: the bands put
    together are the text drawn whole (the e-ink panel is drawn in bands)."""
    from drivers.ssd1683 import Band

    whole = Band(200, 60, 60)
    draw.text(whole, "\u0141\u017b\u0419\u03a9g", 3, 20, draw.LARGE)
    parts = b""
    band = Band(200, 60, 30)
    for top in (0, 30):
        band.top = top
        band.fill(0)
        draw.text(band, "\u0141\u017b\u0419\u03a9g", 3, 20, draw.LARGE)
        parts += bytes(band.buf)
    assert parts == bytes(whole.buf) and any(whole.buf)


LOCKED = """
import sys
sys.path.insert(0, sys.argv[1] + "/tests/micropython")
import _paths
_paths.setup(sys.argv[1] + "/tests/micropython/x.py")
import micropython
from drivers.ssd1683 import Band
from scoreboard.ui import draw
band = Band(400, 60, 30)
band.top = 30
for font in (draw.SMALL, draw.BODY, draw.LARGE):
    for s in ("Ronnie O'Sullivan",
              "\\u0141ukasz \\u017b\\u00f3\\u0142\\u0107 \\u045d \\u0393\\u03b9\\u03ce\\u4e2d"):
        draw.text(band, s, 0, 20, font)  # the face imported first
        micropython.heap_lock()
        try:
            draw.text(band, s, 3, 20, font, 1)
            print(font, "ok")
        except MemoryError:
            print(font, "allocates")
        micropython.heap_unlock()
"""


def test_text_is_drawn_without_allocating_and_the_faces_are_bytes(tmp_path, micropython_bin):
    """Under micropython.heap_lock(): a text in each face, ASCII or not, on a band it
    crosses. The faces' tables are bytes (in flash when frozen), not lists."""
    script = tmp_path / "locked.py"
    script.write_text(LOCKED, encoding="utf-8")
    rc, out = mpy.run_micropython(script, mpy.REPO)
    assert rc == 0, out
    assert out.split() == ["0", "ok", "0", "ok", "1", "ok", "1", "ok", "2", "ok", "2", "ok"]
    for font, _, _ in FACES:
        m = draw.face(font)
        assert type(chars.CODES) is bytes and type(m.GLYPHS) is bytes
