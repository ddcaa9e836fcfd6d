"""Every player's name as it is written (issue 18 item 1): the glyphs beyond ASCII, the
replacement glyph, the ellipsis, the same bytes on CPython, the MicroPython unix port
and the 32-bit build, and the generated module is what host_tools/gen/glyphgen.py makes of
the font (when the font is installed: `make deps` installs Debian's xfonts-base)."""

import os
import sys

import pytest

from host_tools.gen import glyphgen
from support import mpy

from scoreboard.ui import draw, glyphs
from support import screens as S

SCRIPT = mpy.REPO / "tests" / "micropython" / "i18n_text.py"
MP32 = mpy.REPO / "build" / "mp32" / "micropython"
FONT = glyphgen.DEFAULT


def _blocks():
    """The characters the issue names: Latin-1, Latin Extended-A, the Cyrillic of
    Bulgarian, Russian, Ukrainian and Serbian, and modern Greek."""
    codes = list(range(0xA0, 0x180)) + list(range(0x400, 0x460))
    codes += [c for c in range(0x384, 0x3CF) if c not in (0x38B, 0x38D, 0x3A2)]
    return [chr(c) for c in codes]


def _canvas(w=64, h=8):
    return S.canvas(w, h)


def _pixels(ch):
    """The 8x8 pixels `draw.text` leaves for one character at scale 1, as 8 column bytes."""
    _, c = _canvas(8, 8)
    draw.text(c, ch, 0, 0)
    return bytes(sum(c.pixel(x, y) << y for y in range(8)) for x in range(8))


@pytest.mark.skipif(not os.path.exists(FONT), reason="xfonts-base is not installed")
def test_the_glyph_module_is_generated_from_the_font():
    codes, data = glyphgen.build(FONT)
    path = mpy.REPO / glyphgen.OUTPUT
    assert path.read_text(encoding="utf-8") == glyphgen.module_text(codes, data)


def test_every_character_of_the_blocks_has_a_glyph_of_its_own():
    missing = [ch for ch in _blocks() if not draw.drawable(ch)]
    assert not missing
    assert not draw.drawable("\u4e2d") and not draw.drawable("\U0001f3b1")


@pytest.mark.skipif(not os.path.exists(FONT), reason="xfonts-base is not installed")
def test_a_name_is_drawn_with_its_own_letters():
    """Ł, ś, И, П, Γ, ώ drawn as the font's glyphs: not as the ASCII letter without its
    accent, not as '?', and each one different from the others."""
    font = glyphgen.read_pcf(FONT)
    seen = set()
    for ch in "\u0141\u015b\u0418\u041f\u0393\u03ce\u00e7\u011f\u0165":
        got = _pixels(ch)
        assert got == glyphgen.columns(font[ord(ch)]), ch
        assert got not in (_pixels("?"), _pixels("L"), _pixels("s")), ch
        seen.add(got)
    assert len(seen) == 9


@pytest.mark.skipif(not os.path.exists(FONT), reason="xfonts-base is not installed")
def test_a_character_no_table_has_is_one_visible_replacement_glyph():
    font = glyphgen.read_pcf(FONT)
    replacement = glyphgen.columns(font[0xFFFD])
    assert any(replacement)
    for ch in ("\u4e2d", "\U0001f3b1", "\u0301", "\x07"):
        assert _pixels(ch) == replacement
    # one glyph each: the text after it is where it would be after any character
    _, c = _canvas(64, 8)
    assert draw.text(c, "a\u4e2db", 0, 0) == 24
    assert draw.text_width("a\u4e2db") == 24


def test_a_long_name_is_cut_with_an_ellipsis_at_a_character():
    name = "\u0141ukasz Wi\u015bniewski"
    cut = draw.fit(name, 10)
    assert cut == "\u0141ukasz Wi\u2026"
    assert len(cut) == 10 and cut.encode("utf-8").decode("utf-8") == cut
    assert draw.fit(name, len(name)) == name
    cyr = "Александър Иванов"
    assert draw.fit(cyr, 7) == cyr[:6] + "\u2026"
    # drawn: the ellipsis glyph in the last cell of the field, nothing past it
    _, c = _canvas(80, 8)
    draw.text_at(c, name, 0, 0, 80, draw.LEFT)
    _, one = _canvas(8, 8)
    draw.text(one, "\u2026", 0, 0)
    last = bytes(sum(c.pixel(72 + x, y) << y for y in range(8)) for x in range(8))
    assert last == _pixels("\u2026") and any(last)


def _runs():
    rc, out = mpy.run_tool([sys.executable, SCRIPT])
    assert rc == 0, out
    return out


def test_the_same_bytes_on_cpython_micropython_and_the_32_bit_build(micropython_bin):
    cp = _runs()
    assert cp.count("\n") == 7 * 7 + 7
    assert "False" not in cp  # bands put together are the whole canvas, each ellipsis whole
    rc, mp = mpy.run_micropython(SCRIPT)
    assert rc == 0, mp
    assert mp == mpy.normalise(cp)
    rc, mp32 = mpy.run_tool([mpy.tool(MP32), SCRIPT])
    assert rc == 0, mp32
    assert mpy.normalise(mp32) == mpy.normalise(cp)


def test_ascii_text_is_drawn_exactly_as_before():
    """English screens stay the same: printable ASCII still goes through canvas.text,
    and the glyph loop gives the same pixels for it."""
    for s in ("Ronnie O'Sullivan", "BEST OF 7", "~!@#$%^&*()_+{}|:<>?"):
        a_buf, a = _canvas(200, 8)
        a.text(s, 0, 0, 1)
        b_buf, b = _canvas(200, 8)
        draw.text(b, s + "\u00e9", 0, 0)  # a character beyond ASCII: the glyph loop
        b.fill_rect(8 * len(s), 0, 8, 8, 0)
        assert a_buf == b_buf, s
    assert glyphs.COUNT == len(glyphs.CODES) // 2 == len(glyphs.GLYPHS) // 8
