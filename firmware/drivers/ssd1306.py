"""Driver for a 128x64 monochrome OLED with an SSD1306 controller, over I2C or SPI.

Used by the OLED variant board (firmware/boards/pico2_oled.py) in place of the e-ink
panel. Datasheet: Solomon Systech "SSD1306 128 x 64 Dot Matrix OLED/PLED Segment/Common
Driver with Controller" (rev 1.1). What the driver uses, by section of its command table
(section 9) and the application example (section 8.9 / appendix "Software
Initialization"):

- 0xAE / 0xAF display off / on; 0xA4 follow RAM; 0xA6 normal (0xA7 inverse);
- 0x20 0x00 memory addressing: horizontal (section 10.1.3), so one data burst after
  0x21 (column range) and 0x22 (page range) fills the whole RAM;
- 0x40 start line 0, 0xA1 segment remap, 0xC8 COM scan from COM[N-1]: the usual
  orientation of the 0.96" and 1.3" modules (0xA0/0xC0 turn it 180 degrees);
- 0xA8 multiplex ratio 63, 0xD3 0x00 display offset, 0xDA 0x12 COM pins (64 rows);
- 0xD5 0x80 clock, 0xD9 0xF1 pre-charge, 0xDB 0x30 VCOMH, 0x81 contrast;
- 0x8D 0x14 the charge pump on (the modules run from 3.3 V without a VCC rail).

The RAM is MONO_VLSB (8 vertical pixels a byte, page by page). `show(buf)` sends such
a buffer (width * height / 8 bytes, 1 = pixel lit); the board converts its MONO_HLSB
canvas into it with framebuf's blit. I2C frames start with a control byte: 0x80 for a
command, 0x40 for display data (section 8.1.5). Every buffer is made in the
constructor; `show()` allocates nothing on the SPI side and reuses one list for I2C.
The bus objects come ready from the board, as in micropython-lib's ssd1306 driver.
"""

from micropython import const

_SET_CONTRAST = const(0x81)
_ENTIRE_ON = const(0xA4)
_NORM_INV = const(0xA6)
_DISP = const(0xAE)
_MEM_ADDR = const(0x20)
_COL_ADDR = const(0x21)
_PAGE_ADDR = const(0x22)
_START_LINE = const(0x40)
_SEG_REMAP = const(0xA0)
_MUX_RATIO = const(0xA8)
_COM_OUT_DIR = const(0xC0)
_DISP_OFFSET = const(0xD3)
_COM_PIN_CFG = const(0xDA)
_CLK_DIV = const(0xD5)
_PRECHARGE = const(0xD9)
_VCOM_DESEL = const(0xDB)
_CHARGE_PUMP = const(0x8D)

ADDRESS = const(0x3C)


class SSD1306:
    """The controller, independent of the bus; subclasses provide write_cmd/write_data."""

    def __init__(self, width=128, height=64, flip=False, contrast=0xCF):
        self.width = width
        self.height = height
        self.pages = height // 8
        self.flip = flip
        self.contrast_level = contrast
        self.on = False
        self.init_display()

    def init_display(self):
        """The power-on sequence (datasheet section 8.9 / appendix)."""
        remap = 0x00 if self.flip else 0x01
        com = 0x00 if self.flip else 0x08
        for cmd in (
            _DISP,  # off while configuring
            _MEM_ADDR, 0x00,  # horizontal addressing
            _START_LINE | 0x00,
            _SEG_REMAP | remap,
            _MUX_RATIO, self.height - 1,
            _COM_OUT_DIR | com,
            _DISP_OFFSET, 0x00,
            _COM_PIN_CFG, 0x02 if self.height == 32 else 0x12,
            _CLK_DIV, 0x80,
            _PRECHARGE, 0xF1,
            _VCOM_DESEL, 0x30,
            _SET_CONTRAST, self.contrast_level,
            _ENTIRE_ON,  # follow the RAM
            _NORM_INV,  # not inverted
            _CHARGE_PUMP, 0x14,
        ):
            self.write_cmd(cmd)
        self.clear()
        self.poweron()

    def poweroff(self):
        self.write_cmd(_DISP | 0x00)
        self.on = False

    def poweron(self):
        self.write_cmd(_DISP | 0x01)
        self.on = True

    def contrast(self, level):
        """Contrast 0..255 (the OLED's brightness)."""
        level = 0 if level < 0 else 255 if level > 255 else level
        self.write_cmd(_SET_CONTRAST)
        self.write_cmd(level)
        self.contrast_level = level

    def invert(self, on):
        self.write_cmd(_NORM_INV | (1 if on else 0))

    def _address_all(self):
        self.write_cmd(_COL_ADDR)
        self.write_cmd(0)
        self.write_cmd(self.width - 1)
        self.write_cmd(_PAGE_ADDR)
        self.write_cmd(0)
        self.write_cmd(self.pages - 1)

    def show(self, buf):
        """Send a MONO_VLSB buffer (width * height / 8 bytes) to the whole RAM."""
        self._address_all()
        self.write_data(buf)

    def clear(self):
        """Blank the RAM (a zeroed buffer sent once)."""
        self.show(bytearray(self.width * self.pages))

    def write_cmd(self, cmd):
        raise NotImplementedError

    def write_data(self, buf):
        raise NotImplementedError


class SSD1306_I2C(SSD1306):
    """On I2C (address 0x3C on most modules; 0x3D with the address jumper)."""

    def __init__(self, i2c, width=128, height=64, addr=ADDRESS, flip=False):
        self.i2c = i2c
        self.addr = addr
        self._cmd = bytearray(2)
        self._cmd[0] = 0x80  # Co = 1, D/C# = 0: one command byte follows
        self._data = [b"\x40", b""]  # Co = 0, D/C# = 1: display data to the end
        super().__init__(width, height, flip)

    def write_cmd(self, cmd):
        self._cmd[1] = cmd
        self.i2c.writeto(self.addr, self._cmd)

    def write_data(self, buf):
        self._data[1] = buf
        self.i2c.writevto(self.addr, self._data)
        self._data[1] = b""


class SSD1306_SPI(SSD1306):
    """On 4-wire SPI (D/C low = command, high = data; RES# reset at start)."""

    def __init__(self, spi, dc, res, cs, width=128, height=64, flip=False):
        self.spi = spi
        self.dc = dc
        self.res = res
        self.cs = cs
        self._cmd = bytearray(1)
        cs.value(1)
        dc.value(0)
        self.reset()
        super().__init__(width, height, flip)

    def reset(self):
        """RES# low for at least 3 us (section 8.9): pulse it, then release."""
        import time

        self.res.value(1)
        _sleep(time, 1)
        self.res.value(0)
        _sleep(time, 10)
        self.res.value(1)

    def write_cmd(self, cmd):
        self._cmd[0] = cmd
        self.cs.value(1)
        self.dc.value(0)
        self.cs.value(0)
        self.spi.write(self._cmd)
        self.cs.value(1)

    def write_data(self, buf):
        self.cs.value(1)
        self.dc.value(1)
        self.cs.value(0)
        self.spi.write(buf)
        self.cs.value(1)


def _sleep(time, ms):
    """time.sleep_ms on MicroPython, time.sleep on CPython (tests)."""
    f = getattr(time, "sleep_ms", None)
    if f is not None:
        f(ms)
    else:
        time.sleep(ms / 1000)


def hlsb_to_vlsb(src, dst, width, height):
    """Convert a MONO_HLSB picture into MONO_VLSB bytes (pure Python, for computers
    without framebuf; the boards use framebuf's blit, which does this in C)."""
    stride = width // 8
    pages = height // 8
    p = 0
    while p < pages:
        x = 0
        while x < width:
            b = 0
            bit = 0
            mask = 0x80 >> (x & 7)
            base = p * 8 * stride + (x >> 3)
            while bit < 8:
                if src[base + bit * stride] & mask:
                    b |= 1 << bit
                bit += 1
            dst[p * width + x] = b
            x += 1
        p += 1
    return dst
