"""Generate the screens' typefaces: firmware/scoreboard/ui/font12.py, font16.py, font24.py.

    python -m host_tools.gen.glyphgen [--fonts DIR]

The e-ink and OLED screens draw all their text (the big digits are segments, draw.py)
in three faces made from the bold Terminus Font (Copyright (c) 2010-2014 Dimitar Toshkov
Zhekov, with Reserved Font Name "Terminus Font"; SIL Open Font License 1.1: the modules
are a Modified Version under that licence, its text in firmware/scoreboard/ui/OFL.txt,
and do not carry the reserved name), as Debian's `xfonts-terminus` installs it
(`/usr/share/fonts/X11/misc/ter-uNNb_unicode.pcf.gz`, package version 4.48-3.1), in
three sizes (docs/design.md, "Names as they are written"):

- 6x12 (`font12`): the OLED's rows (128x64: five 12-pixel rows, 21 characters a line)
  and the e-ink panel's small print (cell labels, the footer, the frame table);
- 8x16 (`font16`): the e-ink panel's body text (prompts, the entry, hints, labels of
  the figures: 49 characters across 400 pixels);
- 12x24 (`font24`): what is read across the room on the e-ink panel (names, titles,
  the values of the cells: 14 characters in a player's 172-pixel column).

Why Terminus: one well-kept bitmap family with real accented capitals, Greek and the
whole Cyrillic block at every one of those sizes: a capital keeps its height under its
accent (the face may take one row off at 16), where the misc-fixed 5x8 glyphs before
them sat at lowercase height beside 8x8 ASCII capitals.

Each module holds every character of printable ASCII, Latin-1 (U+00A0..U+00FF), Latin
Extended-A, modern Greek (U+0384..U+03CE), Cyrillic U+0400..U+045F, the quotes, dashes
and ellipsis of typeset text, and U+FFFD, the one replacement glyph for a character no
table has: `CODES` (the code points, big-endian 16-bit, ascending; ASCII first, so a
printable ASCII code c is glyph c - 32, the rest is bisected), `GLYPHS` (HEIGHT rows a
glyph, STRIDE bytes a row, little-endian, bit k = column k from the left: a row is
drawn as runs of set bits by shifting right), `WIDTH`, `HEIGHT`, `STRIDE`, `COUNT`,
`REPLACEMENT`: bytes constants and const()s, in flash when frozen, nothing built at
import. The generated files are committed; nothing reads a font at run time.
tests/lang/test_i18n_glyphs.py regenerates them and compares when the font is installed.
"""

import argparse
import gzip
import os
import struct
import sys

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FONTS = "/usr/share/fonts/X11/misc"
PACKAGE = "Debian xfonts-terminus 4.48-3.1"
# (module name, PCF file): the sizes the screens use.
FACES = (("font12", "ter-u12b_unicode.pcf.gz"), ("font16", "ter-u16b_unicode.pcf.gz"),
         ("font24", "ter-u24b_unicode.pcf.gz"))

# What is shipped: (first, last) code point ranges, both ends included.
RANGES = (
    (0x0020, 0x007E),  # printable ASCII: first, so ASCII is indexed without a search
    (0x00A0, 0x017F),  # Latin-1 Supplement, Latin Extended-A
    (0x0384, 0x038A), (0x038C, 0x038C), (0x038E, 0x03A1), (0x03A3, 0x03CE),  # Greek
    (0x0400, 0x045F),  # Cyrillic
    (0x2013, 0x2014), (0x2018, 0x201A), (0x201C, 0x201E), (0x2026, 0x2026),
    (0xFFFD, 0xFFFD),  # the replacement glyph
)

_METRICS, _BITMAPS, _ENCODINGS, _ACCEL, _BDF_ACCEL = 4, 8, 32, 2, 256


def output(module):
    return os.path.join("firmware", "scoreboard", "ui", module + ".py")


def source(fonts, pcf):
    return os.path.join(fonts, pcf)


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


def rows_bytes(rows):
    """A glyph (rows of 0/1) as its row bytes: STRIDE bytes a row, little-endian, bit k
    the k-th column from the left."""
    width = len(rows[0])
    stride = (width + 7) // 8
    out = bytearray()
    for bits in rows:
        v = 0
        for x, bit in enumerate(bits):
            if bit:
                v |= 1 << x
        out += v.to_bytes(stride, "little")
    return bytes(out)


def build(path):
    """(width, height, codes, glyph bytes of each) of every wanted character."""
    font = read_pcf(path)
    codes = wanted()
    data = []
    for code in codes:
        if code not in font:
            raise ValueError("U+%04X is not in %s" % (code, path))
        data.append(rows_bytes(font[code]))
    rows = font[0x41]
    return len(rows[0]), len(rows), codes, data


def module_text(module, pcf, width, height, codes, data):
    """A face's module: its metrics and GLYPHS, in the order of codes.py's CODES."""
    stride = (width + 7) // 8
    size = len(data[0])
    lines = [
        "# ruff: noqa: RUF003  (each glyph's comment shows its character)",
        '"""The screens\' %dx%d face (scoreboard.ui.draw): printable ASCII, Latin-1, Latin' % (
            width, height),
        "Extended-A, Greek, Cyrillic, typeset quotes, dashes and the ellipsis, and U+FFFD for",
        "any other character.",
        "",
        "GENERATED by host_tools/gen/glyphgen.py from %s, the bold face of" % pcf,
        "Terminus Font as %s installs it: Copyright (c) 2010-2014" % PACKAGE,
        'Dimitar Toshkov Zhekov, with Reserved Font Name "Terminus Font"; licensed under the',
        "SIL Open Font License, Version 1.1 (its text: OFL.txt beside this module). This",
        "module is a Modified Version under that licence, not named with the Reserved Font",
        "Name, and not under the project's MIT licence.",
        "Do not edit: run `python -m host_tools.gen.glyphgen` again. GLYPHS: %d glyphs in the" % (
            len(codes)),
        "order of codes.py's CODES (the same for every face), %d bytes each (%d rows of %d" % (
            size, height, stride),
        "byte%s, little-endian, bit k = column k from the left). %d bytes in all." % (
            "" if stride == 1 else "s", size * len(codes)),
        '"""',
        "",
        "from micropython import const",
        "",
        "WIDTH = const(%d)" % width,
        "HEIGHT = const(%d)" % height,
        "STRIDE = const(%d)" % stride,
        "GLYPHS = (",
    ]
    for code, g in zip(codes, data):
        shown = chr(code) if code > 0x20 and code not in (0xA0, 0xAD) else "U+%04X" % code
        for i in range(0, len(g), 20):  # 20 bytes a line: within the line length
            part = "".join("\\x%02x" % b for b in g[i:i + 20])
            lines.append('    b"%s"' % part + ("  # %s" % shown if i == 0 else ""))
    lines.append(")")
    return "\n".join(lines) + "\n"


CODES_MODULE = "codes"


def codes_text(codes):
    """codes.py: the code points every face draws, which the screens bisect."""
    lines = [
        '"""The characters the screens\' faces draw (scoreboard.ui.draw bisects them): the',
        "same for every face (font12.py, font16.py, font24.py hold their glyphs in this order).",
        "",
        "GENERATED by host_tools/gen/glyphgen.py. Do not edit: run `python -m",
        "host_tools.gen.glyphgen` again. CODES: %d code points, big-endian 16-bit, ascending," % (
            len(codes)),
        "printable ASCII first; REPLACEMENT: the index of U+FFFD, drawn for any other.",
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
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fonts", default=FONTS, help="the folder of the Terminus PCF files")
    parser.add_argument("--output", default=_REPO,
                        help="the repository to write the modules into (default: this one)")
    args = parser.parse_args(argv)
    path = os.path.join(args.output, output(CODES_MODULE))
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(codes_text(wanted()))
    for module, pcf in FACES:
        try:
            width, height, codes, data = build(source(args.fonts, pcf))
        except (OSError, ValueError) as e:
            print("glyphgen: %s" % e, file=sys.stderr)
            return 1
        path = os.path.join(args.output, output(module))
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(module_text(module, pcf, width, height, codes, data))
        print("wrote %s: %d glyphs %dx%d, %d bytes" % (
            output(module), len(codes), width, height, len(data[0]) * len(codes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
