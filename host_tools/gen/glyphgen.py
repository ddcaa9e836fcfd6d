"""Generate the screens' glyphs beyond ASCII: firmware/scoreboard/ui/glyphs.py.

    python -m host_tools.gen.glyphgen [--source PATH/5x8.pcf.gz]

The screens draw ASCII with MicroPython's 8x8 font (font8.py, from fontgen.py). Names
and the Polish and Bulgarian tables need more: every character of Latin-1, Latin
Extended-A, the Cyrillic block of Bulgarian, Russian, Ukrainian and Serbian
(U+0400..U+045F), modern Greek (U+0384..U+03CE), the quotes, dashes and ellipsis of
typeset text, and U+FFFD, the one replacement glyph for a character no table has.

They come from the X.Org "misc-fixed" 5x8 font (-Misc-Fixed-Medium-R-Normal--8-80-75-75-
C-50-ISO10646-1, Markus Kuhn's ucs-fonts; public domain, "Public domain font. Share and
enjoy."), as Debian's `xfonts-base` ships it (`/usr/share/fonts/X11/misc/5x8.pcf.gz`,
package version 1:1.0.5+nmu1). Why that font: it is the one well-kept bitmap font with
all of those blocks in 8 rows (the Linux console's 8x8 fonts hold 512 glyphs each and
stand box-drawing characters in for Greek and for Cyrillic Г П Ф; Terminus and Unifont
start at 12 and 16 rows). Each 5-column glyph is set one column in and emboldened by one
column (a pixel is inked where it or the one left of it is, unless that would join it to
the next stroke: Ш and ш keep their three stems apart), so it sits in columns 1-6
with two-pixel stems like petme128's letters beside it, and 7-column tight text keeps a
gap. Two characters the font lacks are drawn as their twins: U+0400 and U+0450 (Cyrillic
Ie with grave) as U+00C8 and U+00E8, the same letters in this font.

The module holds `CODES` (the code points, big-endian 16-bit, ascending: the screens
bisect it), `GLYPHS` (8 bytes a glyph, one column a byte, least significant bit at the
top, as font8.py) and `REPLACEMENT` (the index of U+FFFD): bytes constants, in flash
when frozen. The generated file is committed; nothing reads the font at run time.
tests/test_i18n_glyphs.py regenerates it and compares when the font is installed.
"""

import argparse
import gzip
import os
import struct
import sys

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT = "/usr/share/fonts/X11/misc/5x8.pcf.gz"
OUTPUT = os.path.join("firmware", "scoreboard", "ui", "glyphs.py")
PACKAGE = "Debian xfonts-base 1:1.0.5+nmu1"

# What is shipped: (first, last) code point ranges, both ends included.
RANGES = (
    (0x00A0, 0x017F),  # Latin-1 Supplement, Latin Extended-A
    (0x0384, 0x038A), (0x038C, 0x038C), (0x038E, 0x03A1), (0x03A3, 0x03CE),  # Greek
    (0x0400, 0x045F),  # Cyrillic
    (0x2013, 0x2014), (0x2018, 0x201A), (0x201C, 0x201E), (0x2026, 0x2026),
    (0xFFFD, 0xFFFD),  # the replacement glyph
)
TWINS = {0x0400: 0x00C8, 0x0450: 0x00E8}  # drawn as: the same letter in this font

_METRICS, _BITMAPS, _ENCODINGS, _ACCEL, _BDF_ACCEL = 4, 8, 32, 2, 256


def wanted():
    out = []
    for lo, hi in RANGES:
        out.extend(range(lo, hi + 1))
    return out


def read_pcf(path):
    """{code point: 8 rows of bits (lists of 0/1, the font's cell width)} from a PCF font
    (X11's portable compiled format, as the X.Org fonts are installed)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        d = f.read()
    if d[:4] != b"\x01fcp":
        raise ValueError("%s is not a PCF font" % path)
    (n,) = struct.unpack_from("<i", d, 4)
    toc = {}
    for i in range(n):
        kind, _fmt, _size, off = struct.unpack_from("<4i", d, 8 + 16 * i)
        toc[kind] = off

    def table(kind):
        off = toc[kind]
        (fmt,) = struct.unpack_from("<i", d, off)
        return fmt, (">" if fmt & 4 else "<"), off + 4

    fmt, e, p = table(_METRICS)
    metrics = []
    if fmt & 0x100:  # compressed: five bytes biased by 0x80
        (count,) = struct.unpack_from(e + "h", d, p)
        p += 2
        for _ in range(count):
            metrics.append(tuple(b - 0x80 for b in d[p:p + 5]))
            p += 5
    else:
        (count,) = struct.unpack_from(e + "i", d, p)
        p += 4
        for _ in range(count):
            metrics.append(struct.unpack_from(e + "5h", d, p))
            p += 12
    fmt, e, p = table(_BITMAPS)
    (count,) = struct.unpack_from(e + "i", d, p)
    p += 4
    offsets = struct.unpack_from(e + "%di" % count, d, p)
    p += 4 * count + 16
    pad = 1 << (fmt & 3)
    msb_first = bool(fmt & 8)
    base = p
    fmt, e, p = table(_BDF_ACCEL if _BDF_ACCEL in toc else _ACCEL)
    ascent, descent = struct.unpack_from(e + "2i", d, p + 8)
    fmt, e, p = table(_ENCODINGS)
    min2, max2, min1, max1, _ = struct.unpack_from(e + "5h", d, p)
    per = max2 - min2 + 1
    index = struct.unpack_from(e + "%dH" % (per * (max1 - min1 + 1)), d, p + 10)
    glyphs = {}
    for i, g in enumerate(index):
        if g == 0xFFFF:
            continue
        code = (min1 + i // per) * 256 + min2 + i % per
        lsb, rsb, width, asc, desc = metrics[g]
        stride = ((rsb - lsb + 7) // 8 + pad - 1) // pad * pad
        rows = [[0] * width for _ in range(ascent + descent)]
        o = base + offsets[g]
        for r in range(asc + desc):
            y = ascent - asc + r
            row = d[o + r * stride:o + (r + 1) * stride]
            for x in range(rsb - lsb):
                byte = row[x // 8]
                bit = (byte >> (7 - x % 8)) & 1 if msb_first else (byte >> (x % 8)) & 1
                if bit and 0 <= y < len(rows) and 0 <= lsb + x < width:
                    rows[y][lsb + x] = 1
        glyphs[code] = rows
    return glyphs


def columns(rows):
    """A glyph of the 5x8 font as 8 column bytes (LSB at the top): one column in, then
    emboldened by one column where that closes no gap."""
    cols = [0] * 8
    for y, bits in enumerate(rows[:8]):
        for x, bit in enumerate(bits[:6]):
            if bit:
                cols[x + 1] |= 1 << y
    # Ink spreads one column right, except where it would close a one-column gap to the
    # next stroke (the three stems of Ш, Ж, Ф, ш, м, ω stay apart).
    bold = [cols[0]]
    for x in range(1, 8):
        after = cols[x + 1] if x < 7 else 0
        bold.append(cols[x] | (cols[x - 1] & ~after & 0xFF))
    return bytes(bold)


def build(path):
    """(codes, glyph bytes) of every wanted character, in code point order."""
    font = read_pcf(path)
    codes = wanted()
    data = []
    for code in codes:
        src = TWINS.get(code, code)
        if src not in font:
            raise ValueError("U+%04X is not in %s" % (src, path))
        data.append(columns(font[src]))
    return codes, data


def module_text(codes, data):
    lines = [
        "# ruff: noqa: RUF003  (each glyph's comment shows its character, look-alikes too)",
        '"""The glyphs beyond ASCII that the screens draw: Latin-1, Latin Extended-A, Greek,',
        "Cyrillic, typeset quotes, dashes and the ellipsis, and U+FFFD for any other",
        "character (scoreboard.ui.draw looks them up).",
        "",
        "GENERATED by host_tools/gen/glyphgen.py from the X.Org misc-fixed 5x8 font",
        "(-Misc-Fixed-Medium-R-Normal--8-80-75-75-C-50-ISO10646-1; public domain: \"Public",
        "domain font. Share and enjoy.\"), as %s installs it." % PACKAGE,
        "Do not edit: run `python -m host_tools.gen.glyphgen` again. Each glyph is set one",
        "column in and emboldened by one column (no gap closed). CODES: %d code" % len(codes),
        "points, big-endian 16-bit, ascending; GLYPHS: 8 bytes each, one column a byte,",
        "least significant bit at the top (as font8.py); REPLACEMENT: the index of U+FFFD.",
        "%d bytes in all." % (
            2 * len(codes) + 8 * len(codes)),
        '"""',
        "",
        "from micropython import const",
        "",
        "COUNT = const(%d)" % len(codes),
        "REPLACEMENT = const(%d)" % codes.index(0xFFFD),
        "CODES = (",
    ]
    for i in range(0, len(codes), 8):
        part = codes[i:i + 8]
        lines.append('    b"%s"  # U+%04X..U+%04X' % (
            "".join("\\x%02x\\x%02x" % (c >> 8, c & 0xFF) for c in part), part[0], part[-1]))
    lines.append(")")
    lines.append("GLYPHS = (")
    for code, g in zip(codes, data):
        shown = chr(code) if code not in (0xA0, 0xAD) else "U+%04X" % code
        lines.append('    b"%s"  # %s' % ("".join("\\x%02x" % b for b in g), shown))
    lines.append(")")
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", default=DEFAULT, help="path of 5x8.pcf.gz")
    parser.add_argument("--output", default=os.path.join(_REPO, OUTPUT),
                        help="the module to write (default: %s)" % OUTPUT)
    args = parser.parse_args(argv)
    try:
        codes, data = build(args.source)
    except (OSError, ValueError) as e:
        print("glyphgen: %s" % e, file=sys.stderr)
        return 1
    with open(args.output, "w", encoding="utf-8", newline="\n") as f:
        f.write(module_text(codes, data))
    print("wrote %s: %d glyphs, %d bytes" % (os.path.relpath(args.output, _REPO), len(codes),
                                            10 * len(codes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
