"""Driver for a chain of MAX7219 8x8 LED modules shown as one 32x16 picture.

The datasheet is Maxim's "MAX7219/MAX7221 Serially Interfaced, 8-Digit LED Display
Drivers" (19-4452). What this driver relies on, by section:

- Serial-Addressing Modes / Table 1: each chip takes 16-bit words, MSB first (D15-D12
  ignored, D11-D8 the register address, D7-D0 the data), latched on LOAD's rising edge;
  words shift through DOUT into the next chip, so one LOAD pulse after N words writes
  one word into each of N chained chips, the *last* word sent landing in the first chip
  (the one wired to the microcontroller). CLK up to 10 MHz.
- Table 2 Register Address Map: No-Op 0x00, Digit 0-7 at 0x01-0x08, Decode Mode 0x09,
  Intensity 0x0A, Scan Limit 0x0B, Shutdown 0x0C, Display Test 0x0F.
- Table 3 Shutdown: 0 = shutdown (the power-up state, display blank), 1 = normal.
- Table 4 Decode Mode: 0x00 = no decode (each data bit drives one LED).
- Table 7 Intensity: 0x0-0xF, duty (2n+1)/32 of the peak segment current.
- Table 8 Scan Limit: 7 = scan digits 0-7 (all eight rows of a matrix).
- Table 10 Display Test: 0 = normal operation (1 lights every LED).
- Power-up: "display blanked", registers undefined but shutdown on: the init sequence
  sets every control register before leaving shutdown.

The picture: a MONO_HLSB buffer of 32x16 pixels (64 bytes, bit 7 of each byte is the
leftmost pixel, 1 = LED lit), which the board wraps in a framebuf for the screens. The
eight modules form two rows of four tiles; tile t = ty * 4 + tx (tx 0..3 from the left,
ty 0..1 from the top). `order` lists the tile each chip shows, in chain order (chip 0 is
the one wired to the Pico). `rotation` (0, 90, 180, 270 degrees clockwise, one for all
modules or one per chip) says how each module is mounted; rotation 0 is the common
"FC-16" module, where digit register r drives the module's row r and D7 its left column.

`show(buf)` writes the whole picture in eight SPI transactions, one per digit register:
each sends one 16-bit word for every chip (2 x 8 = 16 bytes), then pulses LOAD. 128
bytes a frame. It allocates nothing: the words are built in a preallocated bytearray,
and rotated modules use a preallocated bit-reverse table and integer arithmetic only.
"""

from micropython import const

_NOOP = const(0x00)
_DIGIT0 = const(0x01)
_DECODE = const(0x09)
_INTENSITY = const(0x0A)
_SCAN_LIMIT = const(0x0B)
_SHUTDOWN = const(0x0C)
_TEST = const(0x0F)

TILES_X = const(4)
TILES_Y = const(2)
WIDTH = const(32)  # TILES_X * 8
HEIGHT = const(16)  # TILES_Y * 8
_STRIDE = const(4)  # bytes per picture row

# Chain order of the reference build (hardware/README.md): two 4-module FC-16 boards,
# the top one first. On an FC-16 board the input is on the right, so its first chip
# shows the rightmost tile.
ORDER_FC16 = (3, 2, 1, 0, 7, 6, 5, 4)


# Each byte value with its bits in reverse order (bit 0 <-> bit 7): a constant, in flash
# when frozen, for the rotations that mirror a tile's rows.
_REVERSE = (
    b"\x00\x80\x40\xc0\x20\xa0\x60\xe0\x10\x90\x50\xd0\x30\xb0\x70\xf0"
    b"\x08\x88\x48\xc8\x28\xa8\x68\xe8\x18\x98\x58\xd8\x38\xb8\x78\xf8"
    b"\x04\x84\x44\xc4\x24\xa4\x64\xe4\x14\x94\x54\xd4\x34\xb4\x74\xf4"
    b"\x0c\x8c\x4c\xcc\x2c\xac\x6c\xec\x1c\x9c\x5c\xdc\x3c\xbc\x7c\xfc"
    b"\x02\x82\x42\xc2\x22\xa2\x62\xe2\x12\x92\x52\xd2\x32\xb2\x72\xf2"
    b"\x0a\x8a\x4a\xca\x2a\xaa\x6a\xea\x1a\x9a\x5a\xda\x3a\xba\x7a\xfa"
    b"\x06\x86\x46\xc6\x26\xa6\x66\xe6\x16\x96\x56\xd6\x36\xb6\x76\xf6"
    b"\x0e\x8e\x4e\xce\x2e\xae\x6e\xee\x1e\x9e\x5e\xde\x3e\xbe\x7e\xfe"
    b"\x01\x81\x41\xc1\x21\xa1\x61\xe1\x11\x91\x51\xd1\x31\xb1\x71\xf1"
    b"\x09\x89\x49\xc9\x29\xa9\x69\xe9\x19\x99\x59\xd9\x39\xb9\x79\xf9"
    b"\x05\x85\x45\xc5\x25\xa5\x65\xe5\x15\x95\x55\xd5\x35\xb5\x75\xf5"
    b"\x0d\x8d\x4d\xcd\x2d\xad\x6d\xed\x1d\x9d\x5d\xdd\x3d\xbd\x7d\xfd"
    b"\x03\x83\x43\xc3\x23\xa3\x63\xe3\x13\x93\x53\xd3\x33\xb3\x73\xf3"
    b"\x0b\x8b\x4b\xcb\x2b\xab\x6b\xeb\x1b\x9b\x5b\xdb\x3b\xbb\x7b\xfb"
    b"\x07\x87\x47\xc7\x27\xa7\x67\xe7\x17\x97\x57\xd7\x37\xb7\x77\xf7"
    b"\x0f\x8f\x4f\xcf\x2f\xaf\x6f\xef\x1f\x9f\x5f\xdf\x3f\xbf\x7f\xff"
)


class Max7219:
    """A MAX7219 chain as one picture. `spi`: ready SPI (mode 0, <= 10 MHz);
    `cs`: the LOAD pin, an output idling high."""

    def __init__(self, spi, cs, order=ORDER_FC16, rotation=0, intensity=1):
        self.spi = spi
        self.cs = cs
        self.n = len(order)
        if self.n < 1 or self.n > TILES_X * TILES_Y:
            raise ValueError("1 to 8 modules")
        for t in order:
            if t < 0 or t >= TILES_X * TILES_Y:
                raise ValueError("tile %d outside the 4x2 grid" % t)
        if len(set(order)) != self.n:
            raise ValueError("a tile appears twice in the module order")
        if isinstance(rotation, int):
            rotation = (rotation,) * self.n
        if len(rotation) != self.n:
            raise ValueError("one rotation per module")
        for r in rotation:
            if r not in (0, 90, 180, 270):
                raise ValueError("rotation must be 0, 90, 180 or 270")
        self.order = bytes(order)
        self.rot = bytes(r // 90 for r in rotation)
        # Byte offset in the picture of each chip's top-left corner.
        self.base = bytes((t // TILES_X) * 8 * _STRIDE + t % TILES_X for t in order)
        self.words = bytearray(2 * self.n)
        self.rev = _REVERSE
        self.level = -1
        self.on = False
        cs.value(1)
        self.init(intensity)

    # -- register writes -----------------------------------------------------------
    def _send(self):
        self.cs.value(0)
        self.spi.write(self.words)
        self.cs.value(1)

    def command(self, reg, data):
        """Write `data` to register `reg` of every chip (one LOAD pulse)."""
        w = self.words
        i = 0
        while i < self.n:
            w[2 * i] = reg
            w[2 * i + 1] = data
            i += 1
        self._send()

    def init(self, intensity=1):
        """The power-up sequence: test off, no decode, 8 digits, blank, then on."""
        self.command(_SHUTDOWN, 0)
        self.command(_TEST, 0)
        self.command(_DECODE, 0)
        self.command(_SCAN_LIMIT, 7)
        self.level = -1
        self.intensity(intensity)
        self.clear()
        self.shutdown(False)

    def intensity(self, level):
        """Brightness 0..15 (duty (2n+1)/32, datasheet Table 7); clamped."""
        level = 0 if level < 0 else 15 if level > 15 else level
        if level != self.level:
            self.command(_INTENSITY, level)
            self.level = level

    def shutdown(self, off=True):
        """Shutdown (True: LEDs dark, 150 uA, registers kept) or normal operation."""
        self.command(_SHUTDOWN, 0 if off else 1)
        self.on = not off

    def test(self, on=True):
        """Display test: every LED lit at full duty (for assembly; mind the current)."""
        self.command(_TEST, 1 if on else 0)

    def clear(self):
        """All eight digit registers of every chip to 0."""
        for d in range(8):
            self.command(_DIGIT0 + d, 0)

    # -- the picture ---------------------------------------------------------------
    def _byte(self, buf, chip, r):
        """The data byte for digit register r of chip `chip`, from the 32x16 picture."""
        base = self.base[chip]
        rot = self.rot[chip]
        if rot == 0:
            return buf[base + r * _STRIDE]
        if rot == 2:
            return self.rev[buf[base + (7 - r) * _STRIDE]]
        # 90 / 270: digit r is a column of the tile; gather one bit from each row.
        out = 0
        k = 0
        if rot == 1:  # native (row r, col k) shows at tile (x = 7 - r, y = k)
            mask = 1 << r
            while k < 8:
                if buf[base + k * _STRIDE] & mask:
                    out |= 0x80 >> k
                k += 1
        else:  # 270: native (r, k) shows at tile (x = r, y = 7 - k)
            mask = 0x80 >> r
            while k < 8:
                if buf[base + (7 - k) * _STRIDE] & mask:
                    out |= 0x80 >> k
                k += 1
        return out

    def show(self, buf):
        """Write the 32x16 MONO_HLSB picture `buf` (64 bytes): one transaction per
        digit register across the chain, the last chip's word first. Allocation free."""
        w = self.words
        n = self.n
        for r in range(8):
            chip = 0
            while chip < n:
                i = 2 * (n - 1 - chip)
                w[i] = _DIGIT0 + r
                w[i + 1] = self._byte(buf, chip, r)
                chip += 1
            self._send()


def duty(level):
    """The fraction of the peak segment current that intensity `level` gives."""
    return (2 * level + 1) / 32


def chain_current_ma(level, lit, seg_ma=40.0, idle_ma=8.0, modules=8):
    """Average supply current (mA) of the chain with `lit` LEDs on at `level`.

    Each chip scans its eight rows in turn, so a lit LED conducts 1/8 of the time at the
    peak segment current (`seg_ma`, 40 mA with the datasheet's RSET, Table 11), times the
    intensity duty; `idle_ma` is one chip's own supply current.
    """
    return lit / 8 * seg_ma * duty(level) + modules * idle_ma


def max_level(budget_ma, lit=WIDTH * HEIGHT, seg_ma=40.0, idle_ma=8.0, modules=8):
    """The highest intensity whose worst case (`lit` LEDs on) stays within `budget_ma`;
    -1 if even level 0 does not."""
    level = 15
    while level >= 0 and chain_current_ma(level, lit, seg_ma, idle_ma, modules) > budget_ma:
        level -= 1
    return level
