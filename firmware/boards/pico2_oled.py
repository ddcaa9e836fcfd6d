"""A variant board: a Raspberry Pi Pico 2 with a 128x64 SSD1306 OLED instead of the e-ink.

How a variant is added without touching the app: a new file in boards/ with its own
wiring table and `build()`, reusing what it shares with the reference board
(boards/pico.py: LED chain, keypad, buzzer, power budget) and replacing only the part
that differs, here the display (`make_display` and `eink_show`). The app's paint still
draws the e-ink screens, here on one 128x64 MONO_HLSB canvas (`eink`, a Band of all of
the panel's rows: 1 KB needs no bands) with `eink_size == (128, 64)`, and the screens
pick their small layout from that size. main.py picks this file when the flash holds
`board.txt` with `pico2_oled` in it (see the lead's main.py).

An OLED has no slow refresh: `eink_show(full, paint)` paints the canvas, converts it to
the controller's page layout (framebuf blit, in C) and sends it over I2C in about 25 ms
at 400 kHz (1,024 data bytes), full or not. Canvas 1 ("black ink") lights the pixel:
the OLED shows light text on black, which reads better than a lit background and draws
less current.

Wiring (as the reference board, minus the e-ink and SPI1; the OLED takes two of the
e-ink's pins):

    part      signal      GP   pin   notes
    oled      SDA         10   14    I2C1 SDA, 400 kHz (module pull-ups to 3V3)
    oled      SCL         11   15    I2C1 SCL
    led       DIN          3    5    SPI0 MOSI, via the 74AHCT125 to 5 V
    led       CLK          2    4    SPI0 SCK, via the 74AHCT125
    led       CS           5    7    LOAD, via the 74AHCT125
    spi0      MISO         4    6    claimed by SPI0, leave unconnected
    keypad    ROW1-ROW4   16-19      as on the reference board
    keypad    COL1-COL4   20-22, 26  as on the reference board
    buzzer    +           15   20    PWM, piezo to GND via 100 ohm

The OLED module's VCC goes to 3V3(OUT) (pin 36). The Pico 2 (RP2350) has the Pico's
pinout, so the rest of the wiring is the same.
"""

from micropython import const

from boards import board as _board
from boards import pico as _pico
from drivers import ssd1306 as _ssd1306
from drivers.ssd1683 import Band

NAME = "pico2_oled"

PINS = (
    ("oled", "SDA", 10, 14),
    ("oled", "SCL", 11, 15),
) + tuple(p for p in _pico.PINS if p[0] not in ("e-ink", "spi1"))

OLED_I2C = const(1)
OLED_FREQ = const(400_000)
OLED_W = const(128)
OLED_H = const(64)


class Board(_pico.Board):
    """The reference board with the OLED as its `eink` canvas."""

    def eink_show_now(self, full, paint):
        """An OLED waits for nothing: the contract's eink_show_now (eink_show run to its
        end), not the reference board's refusal."""
        _board.Board.eink_show_now(self, full, paint)

    def make_display(self, machine, framebuf):
        Pin = machine.Pin
        i2c = machine.I2C(
            OLED_I2C, scl=Pin(self.gp("oled", "SCL")), sda=Pin(self.gp("oled", "SDA")),
            freq=OLED_FREQ,
        )
        self.oled_i2c = i2c
        self.panel = _ssd1306.SSD1306_I2C(i2c, OLED_W, OLED_H)
        self.eink_size = (OLED_W, OLED_H)
        # A Band of every row: the canvas states its size as the e-ink's bands do.
        self.eink = Band(OLED_W, OLED_H, OLED_H, framebuf)
        self.eink_buf = self.eink.buf
        self.oled_buf = bytearray(OLED_W * OLED_H // 8)
        self.oled = framebuf.FrameBuffer(self.oled_buf, OLED_W, OLED_H, framebuf.MONO_VLSB)

    async def eink_show(self, full, paint, x=0, y=0, w=None, h=None):
        """Paint the canvas, convert it (HLSB) to the OLED's pages (VLSB) and send all
        of it, full or not (the window is ignored)."""
        paint(self.eink)
        self.oled.blit(self.eink.fb, 0, 0)
        if not self.panel.on:
            self.panel.poweron()
        self.panel.show(self.oled_buf)

    async def eink_sleep(self):
        """Display off (RAM kept); the next eink_show turns it back on."""
        self.panel.poweroff()


def build(machine=None, time=None, framebuf=None):
    """Make the hardware and return the board (arguments: fakes for tests; on the
    device the keypad is the PIO's, as on the reference board)."""
    rp2 = None
    if machine is None:
        import machine
        import rp2
    if time is None:
        import time
    if framebuf is None:
        import framebuf
    return Board(machine, time, framebuf, PINS, NAME, rp2=rp2)
