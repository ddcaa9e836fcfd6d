"""The LED chain's power policy: how bright the 32x16 panel may be for the picture it shows,
so that the whole box stays inside a USB 2.0 port's 500 mA (hardware/README.md, "Power
budget").

A lit LED of a MAX7219 chain draws SEG_MA for 1/8 of the scan (each chip drives one row
at a time) times the intensity duty (2n+1)/32 (MAX7219 datasheet, Table 7), and each
chip CHIP_MA on top. `lit_limits()` gives, for each intensity 0..15, the most LEDs that
may be lit within LED_BUDGET_MA; `LedPower` counts the LEDs a picture lights and takes
the highest level at or below the one asked for at which they stay inside it, dimming
before a brighter picture goes out. The wiring (which pins, which SPI) is the board
file's (boards/pico.py); this is the policy, the same for every board with the chain.
"""

from micropython import const

from drivers import max7219 as _max7219

# Power budget: a USB 2.0 port gives 500 mA.
USB_MA = const(500)
MARGIN_MA = const(50)  # 10 % for the USB cable's drop and the LED tolerance
OTHERS_MA = const(38)  # Pico ~25 mA, e-ink refreshing ~8 mA, buzzer ~5 mA
LED_BUDGET_MA = USB_MA - MARGIN_MA - OTHERS_MA  # 412 mA for the LED chain
SEG_MA = 40.0  # peak segment current: FC-16 modules use RSET = 10 kOhm (datasheet Table 11)
CHIP_MA = 8.0  # one MAX7219's own supply current
MODULES = const(8)


def lit_limits(budget_ma=LED_BUDGET_MA, seg_ma=SEG_MA, chip_ma=CHIP_MA, modules=MODULES):
    """For each intensity 0..15, the most LEDs that may be lit within the budget."""
    out = []
    for level in range(16):
        per_led = seg_ma / 8 * _max7219.duty(level)
        n = int((budget_ma - modules * chip_ma) / per_led)
        out.append(n if n > 0 else 0)
    return tuple(out)


# The bits set in each byte value (how many LEDs a picture byte lights): a constant, in
# flash when frozen.
_BIT_COUNTS = (
    b"\x00\x01\x01\x02\x01\x02\x02\x03\x01\x02\x02\x03\x02\x03\x03\x04"
    b"\x01\x02\x02\x03\x02\x03\x03\x04\x02\x03\x03\x04\x03\x04\x04\x05"
    b"\x01\x02\x02\x03\x02\x03\x03\x04\x02\x03\x03\x04\x03\x04\x04\x05"
    b"\x02\x03\x03\x04\x03\x04\x04\x05\x03\x04\x04\x05\x04\x05\x05\x06"
    b"\x01\x02\x02\x03\x02\x03\x03\x04\x02\x03\x03\x04\x03\x04\x04\x05"
    b"\x02\x03\x03\x04\x03\x04\x04\x05\x03\x04\x04\x05\x04\x05\x05\x06"
    b"\x02\x03\x03\x04\x03\x04\x04\x05\x03\x04\x04\x05\x04\x05\x05\x06"
    b"\x03\x04\x04\x05\x04\x05\x05\x06\x04\x05\x05\x06\x05\x06\x06\x07"
    b"\x01\x02\x02\x03\x02\x03\x03\x04\x02\x03\x03\x04\x03\x04\x04\x05"
    b"\x02\x03\x03\x04\x03\x04\x04\x05\x03\x04\x04\x05\x04\x05\x05\x06"
    b"\x02\x03\x03\x04\x03\x04\x04\x05\x03\x04\x04\x05\x04\x05\x05\x06"
    b"\x03\x04\x04\x05\x04\x05\x05\x06\x04\x05\x05\x06\x05\x06\x06\x07"
    b"\x02\x03\x03\x04\x03\x04\x04\x05\x03\x04\x04\x05\x04\x05\x05\x06"
    b"\x03\x04\x04\x05\x04\x05\x05\x06\x04\x05\x05\x06\x05\x06\x06\x07"
    b"\x03\x04\x04\x05\x04\x05\x05\x06\x04\x05\x05\x06\x05\x06\x06\x07"
    b"\x04\x05\x05\x06\x05\x06\x06\x07\x05\x06\x06\x07\x06\x07\x07\x08"
)


class LedPower:
    """The brightness policy for the picture in `buf` (the LED canvas's bytes, 1 = lit).
    `requested`: the level asked for (0..15; 4 until the app asks: steady for pictures
    up to 247 LEDs)."""

    def __init__(self, buf, limits=None):
        self.buf = buf
        self.limits = lit_limits() if limits is None else limits
        self.requested = 4

    def ask(self, n):
        """Ask for brightness n (0..15)."""
        self.requested = 0 if n < 0 else 15 if n > 15 else n

    def lit(self):
        """How many LEDs the picture lights (allocation free)."""
        bits = _BIT_COUNTS
        buf = self.buf
        n = 0
        i = 0
        end = len(buf)
        while i < end:
            n += bits[buf[i]]
            i += 1
        return n

    def cap(self, lit):
        """The highest level at or below the requested one for `lit` LEDs; -1 = none."""
        level = self.requested
        limits = self.limits
        while level >= 0 and limits[level] < lit:
            level -= 1
        return level

    def show(self, chain):
        """Send the picture to `chain` (a drivers.max7219.Max7219) at the capped level,
        dimming first when the level goes down, so no picture ever overshoots.
        Allocation free."""
        level = self.cap(self.lit())
        level = max(level, 0)  # -1 cannot happen with the reference budget (see tests)
        if level < chain.level:
            chain.intensity(level)
            chain.show(self.buf)
        else:
            chain.show(self.buf)
            chain.intensity(level)
