"""Framebuffer bytes -> PNG files that people can look at (standard library only).

The panels' canvases are MONO_HLSB framebuffers (rows of bytes, the leftmost pixel in
the most significant bit, each row padded to whole bytes):

- the e-ink (or OLED) panel, 1 = black ink: drawn black on white, one PNG pixel per
  panel pixel (`eink_png`), optionally scaled up;
- the 32x16 LED panel, 1 = lit: drawn as round red dots on black, as the MAX7219
  matrices look (`led_png`), `dot` PNG pixels a LED.

`decode(png)` reads back the pixel rows of a PNG written here (tests use it to check
that a committed PNG shows exactly the expected framebuffer).

    python -m host_tools.png eink|led WIDTH HEIGHT IN.bin OUT.png
"""

import struct
import sys
import zlib

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_LIT = (255, 40, 24)
_GLOW = (110, 10, 6)
_UNLIT = (38, 10, 10)
_BACK = (0, 0, 0)


def _chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def encode(width, height, rows, colour=False):
    """A PNG from `rows` (bytes per row, no filter byte): 8-bit grey, or RGB."""
    kind = 2 if colour else 0
    header = struct.pack(">IIBBBBB", width, height, 8, kind, 0, 0, 0)
    raw = b"".join(b"\x00" + r for r in rows)
    return (_SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, 9))
            + _chunk(b"IEND", b""))


def bits(buf, width, height):
    """The framebuffer as rows of 0/1 ints."""
    stride = (width + 7) // 8
    out = []
    for y in range(height):
        row = buf[y * stride:(y + 1) * stride]
        out.append([(row[x >> 3] >> (7 - (x & 7))) & 1 for x in range(width)])
    return out


def eink_png(buf, width, height, scale=1):
    """Black ink (1) on white paper (0)."""
    rows = []
    for line in bits(buf, width, height):
        row = bytes(0 if v else 255 for v in line for _ in range(scale))
        rows.extend([row] * scale)
    return encode(width * scale, height * scale, rows)


def _dot(dot):
    """The pattern of one LED, `dot` x `dot`: 2 = core, 1 = rim, 0 = background."""
    c = (dot - 1) / 2.0
    r = dot * 0.42
    pattern = []
    for y in range(dot):
        line = []
        for x in range(dot):
            d = ((x - c) ** 2 + (y - c) ** 2) ** 0.5
            line.append(2 if d <= r - 0.8 else (1 if d <= r else 0))
        pattern.append(line)
    return pattern


def led_png(buf, width=32, height=16, dot=12):
    """Lit LEDs (1) as red dots, unlit ones dim, on black."""
    pattern = _dot(dot)
    lit = {2: bytes(_LIT), 1: bytes(_GLOW), 0: bytes(_BACK)}
    unlit = {2: bytes(_UNLIT), 1: bytes(_UNLIT), 0: bytes(_BACK)}
    rows = []
    for line in bits(buf, width, height):
        for py in range(dot):
            parts = []
            for v in line:
                colours = lit if v else unlit
                parts.extend(colours[p] for p in pattern[py])
            rows.append(b"".join(parts))
    return encode(width * dot, height * dot, rows, colour=True)


def decode(data):
    """(width, height, colour, rows) of a PNG written by `encode` (filter 0 rows)."""
    if data[:8] != _SIGNATURE:
        raise ValueError("not a PNG")
    pos = 8
    idat = b""
    width = height = kind = None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        tag = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if tag == b"IHDR":
            width, height, _, kind = struct.unpack(">IIBB", body[:10])
        elif tag == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    bpp = 3 if kind == 2 else 1
    step = 1 + width * bpp
    rows = []
    for y in range(height):
        line = raw[y * step:(y + 1) * step]
        if line[0] != 0:
            raise ValueError("unexpected PNG filter")
        rows.append(line[1:])
    return width, height, kind == 2, rows


def eink_bits_of_png(data, scale=1):
    """The 0/1 rows of an e-ink PNG written at `scale` (black = 1), one per panel pixel."""
    _, _, _, rows = decode(data)
    return [[1 if v < 128 else 0 for v in row[::scale]] for row in rows[::scale]]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 5 or argv[0] not in ("eink", "led"):
        print(__doc__.strip().split("\n")[-1].strip(), file=sys.stderr)
        return 2
    kind, width, height, src, dst = argv[0], int(argv[1]), int(argv[2]), argv[3], argv[4]
    with open(src, "rb") as f:
        buf = f.read()
    data = eink_png(buf, width, height) if kind == "eink" else led_png(buf, width, height)
    with open(dst, "wb") as f:
        f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
