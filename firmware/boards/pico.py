"""The reference board: a Raspberry Pi Pico wired to the e-ink, LED, keypad and buzzer.

Nothing touches the hardware at import time: `build()` makes the pins, buses and
drivers, and returns the board object the app uses (the contract's board interface).
hardware/README.md has the same wiring as tables (tests/boards/test_hardware_docs.py checks
that they match `PINS` below) with the parts, the power budget and the assembly.

Wiring (GP = the Pico's GPIO number, pin = its physical pin; every GND pin is common):

    part      signal      GP   pin   notes
    e-ink     DIN         11   15    SPI1 MOSI, 8 MHz
    e-ink     CLK         10   14    SPI1 SCK
    e-ink     CS           9   12
    e-ink     DC           8   11
    e-ink     RST         12   16
    e-ink     BUSY        13   17    input, high = busy
    spi1      MISO        28   34    claimed by SPI1, leave unconnected
    led       DIN          3    5    SPI0 MOSI, via the 74AHCT125 to 5 V
    led       CLK          2    4    SPI0 SCK, via the 74AHCT125
    led       CS           5    7    LOAD, via the 74AHCT125
    spi0      MISO         4    6    claimed by SPI0, leave unconnected
    keypad    ROW1        16   21    open drain, top row
    keypad    ROW2        17   22    open drain
    keypad    ROW3        18   24    open drain
    keypad    ROW4        19   25    open drain, bottom row
    keypad    COL1        20   26    input, pull-up, left column
    keypad    COL2        21   27    input, pull-up
    keypad    COL3        22   29    input, pull-up
    keypad    COL4        26   31    input, pull-up, right column
    buzzer    +           15   20    PWM 7B, piezo to GND via 100 ohm

Power: the e-ink module from 3V3(OUT) (pin 36); the LED chain and the 74AHCT125 from
VBUS (pin 40, the USB 5 V). The LED brightness is capped by the power budget: that
policy is boards/ledpower.py (`LED_BUDGET_MA`, `LedPower`), not this wiring.

The board follows the contract of boards/board.py; its e-ink panel waits for its BUSY
line, so the box runs the app with App.run() (`eink_show_now` refuses).
"""

from micropython import const

from boards import board as _board
from boards import ledpower as _ledpower
from drivers import buzzer as _buzzer
from drivers import keypad as _keypad
from drivers import pio_keypad as _pio_keypad
from drivers import max7219 as _max7219
from drivers import ssd1683 as _ssd1683

NAME = "pico"

# (part, signal, GPIO, physical pin): the wiring table above, as data.
PINS = (
    ("e-ink", "DIN", 11, 15),
    ("e-ink", "CLK", 10, 14),
    ("e-ink", "CS", 9, 12),
    ("e-ink", "DC", 8, 11),
    ("e-ink", "RST", 12, 16),
    ("e-ink", "BUSY", 13, 17),
    ("spi1", "MISO", 28, 34),
    ("led", "DIN", 3, 5),
    ("led", "CLK", 2, 4),
    ("led", "CS", 5, 7),
    ("spi0", "MISO", 4, 6),
    ("keypad", "ROW1", 16, 21),
    ("keypad", "ROW2", 17, 22),
    ("keypad", "ROW3", 18, 24),
    ("keypad", "ROW4", 19, 25),
    ("keypad", "COL1", 20, 26),
    ("keypad", "COL2", 21, 27),
    ("keypad", "COL3", 22, 29),
    ("keypad", "COL4", 26, 31),
    ("buzzer", "+", 15, 20),
)

EINK_SPI = const(1)
EINK_BAUD = const(8_000_000)  # exactly: the rp2 port clocks SPI from 48 MHz (48 / 6)
LED_SPI = const(0)
LED_BAUD = const(5_000_000)  # 4.8 MHz (48 / 10); the MAX7219 takes up to 10 MHz


def pin_of(part, signal, pins=PINS):
    """The GPIO number wired to `signal` of `part` (from PINS)."""
    for p, s, gp, _pin in pins:
        if p == part and s == signal:
            return gp
    raise KeyError(part + " " + signal)


class Board(_board.Board):
    """What the app sees (boards/board.py's contract). Built by build()."""

    def __init__(self, machine, time, framebuf, pins=PINS, name=NAME, rp2=None):
        from scoreboard.echo import Echo

        self.name = name
        self.flash = ""
        self.echo = Echo()  # every journal line on the USB console (scoreboard live)
        self.pins = pins
        self._machine = machine
        self._time = time
        Pin = machine.Pin
        # the keypad first: from here on a press is queued for the app's first pass
        self.make_keypad(machine, rp2)
        self.make_display(machine, framebuf)
        # LED chain on SPI0
        spi0 = machine.SPI(
            LED_SPI, baudrate=LED_BAUD, polarity=0, phase=0,
            sck=Pin(self.gp("led", "CLK")), mosi=Pin(self.gp("led", "DIN")),
            miso=Pin(self.gp("spi0", "MISO")),
        )
        self.led_spi = spi0
        self.led_buf = bytearray(_max7219.WIDTH * _max7219.HEIGHT // 8)
        self.led = framebuf.FrameBuffer(
            self.led_buf, _max7219.WIDTH, _max7219.HEIGHT, framebuf.MONO_HLSB
        )
        self.power = _ledpower.LedPower(self.led_buf)  # the brightness the budget allows
        self.chain = _max7219.Max7219(
            spi0, Pin(self.gp("led", "CS"), Pin.OUT, value=1),
            order=_max7219.ORDER_FC16, rotation=0, intensity=0,
        )
        # buzzer
        self.buzzer = _buzzer.Buzzer(machine.PWM(Pin(self.gp("buzzer", "+"))))

    def gp(self, part, signal):
        """The GPIO of `signal` of `part` on this board."""
        return pin_of(part, signal, self.pins)

    def make_keypad(self, machine, rp2):
        """The 4x4 matrix: scanned by a PIO state machine when the port has one
        (drivers/pio_keypad.py: it scans on while the CPU waits for the flash), else by
        the CPU in each pass (drivers/keypad.py: fake pins in the tests)."""
        Pin = machine.Pin
        rows = [self.gp("keypad", "ROW%d" % i) for i in (1, 2, 3, 4)]
        cols = [self.gp("keypad", "COL%d" % i) for i in (1, 2, 3, 4)]
        if rp2 is not None:
            self.keypad = _pio_keypad.PioKeypad(rp2, Pin, rows, cols, mem32=machine.mem32)
            self.feed_keys = self.keypad.feed
        else:
            self.keypad = _keypad.Keypad([Pin(gp, Pin.OPEN_DRAIN, value=1) for gp in rows],
                                         [Pin(gp, Pin.IN, Pin.PULL_UP) for gp in cols])

    def make_display(self, machine, framebuf):
        """The e-ink panel on SPI1, drawn in bands of ssd1683.BAND_ROWS rows (a variant
        overrides this)."""
        Pin = machine.Pin
        spi1 = machine.SPI(
            EINK_SPI, baudrate=EINK_BAUD, polarity=0, phase=0,
            sck=Pin(self.gp("e-ink", "CLK")), mosi=Pin(self.gp("e-ink", "DIN")),
            miso=Pin(self.gp("spi1", "MISO")),
        )
        self.eink_spi = spi1
        w, h = _ssd1683.WIDTH, _ssd1683.HEIGHT
        self.panel = _ssd1683.SSD1683(
            spi1,
            cs=Pin(self.gp("e-ink", "CS"), Pin.OUT, value=1),
            dc=Pin(self.gp("e-ink", "DC"), Pin.OUT, value=1),
            rst=Pin(self.gp("e-ink", "RST"), Pin.OUT, value=1),
            busy=Pin(self.gp("e-ink", "BUSY"), Pin.IN),
            band=_ssd1683.Band(w, h, _ssd1683.BAND_ROWS, framebuf),
        )
        self.eink_size = (w, h)

    # -- e-ink ---------------------------------------------------------------------
    async def eink_show(self, full, paint, x=0, y=0, w=None, h=None):
        """Draw the picture with `paint(canvas)` and refresh the panel: in full, or
        partially (the window x, y, w, h). The panel's driver calls `paint` once per band
        it sends (see drivers/ssd1683.py)."""
        if full:
            await self.panel.show_full(paint)
        else:
            await self.panel.show_partial(paint, x, y, w, h)

    async def eink_sleep(self):
        """Put the panel in deep sleep (the next eink_show wakes it)."""
        await self.panel.sleep()

    def eink_show_now(self, full, paint):
        """The e-ink waits for its BUSY line: only App.run() drives this panel."""
        raise RuntimeError("the pico board's e-ink waits for its BUSY line: run the app "
                           "with App.run()")

    # -- LED -----------------------------------------------------------------------
    def led_level(self, n):
        """Ask for brightness n (0..15). Each picture gets the highest level up to n at
        which its lit LEDs stay inside the power budget (boards/ledpower.py)."""
        self.power.ask(n)

    def led_show(self):
        """Push board.led to the chain at the capped level. Allocation free."""
        self.power.show(self.chain)

    # -- keys, buzzer ----------------------------------------------------------------
    def keys(self):
        """Raw key bitmap: bit row*4+col set = key down (row 0 top, col 0 left)."""
        return self.keypad.scan()

    def tone(self, freq_hz, volume_pct):
        """Start a tone (freq 0 = silence). Allocation free."""
        self.buzzer.tone(freq_hz, volume_pct)

    def quiet(self):
        self.buzzer.quiet()

    # -- system ----------------------------------------------------------------------
    def unique_id(self):
        return self._machine.unique_id()

    def ticks_ms(self):
        return self._time.ticks_ms()


def build(machine=None, time=None, framebuf=None):
    """Make the hardware and return the board. The arguments are for tests (fakes,
    whose keypad the CPU scans); on the device call build() and the real modules are
    imported here, `rp2` (the PIO) with them."""
    rp2 = None
    if machine is None:
        import machine
        import rp2
    if time is None:
        import time
    if framebuf is None:
        import framebuf
    return Board(machine, time, framebuf, rp2=rp2)
