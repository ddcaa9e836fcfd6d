"""The simulator board: the firmware in a web page, on MicroPython's WebAssembly port.

The browser simulator (`make sim`, host_tools/sim/) copies every firmware/ file into the
port's in-memory filesystem and runs the real app on this board. It follows the board
contract (boards/board.py) and stands in for the hardware:

- the e-ink picture is painted in bands, as on the Pico, each band copied into the
  *panel* buffer (the panel's RAM); the LED canvas is a framebuffer that `led_show`
  copies into its panel buffer. The page draws both panels pixel for pixel (MONO_HLSB,
  e-ink 1 = black ink, LED 1 = lit), so it shows what was pushed to the panels, not a
  half-drawn canvas. The page reads the panel buffers and a status block (refresh
  counters, LED level) straight from the WebAssembly memory at their addresses.
- keys() is the bitmap of the page's pressed buttons and keyboard keys (`Simulator.step`).
- tone()/quiet() go to the page's audio through the bridge module the page registers
  (`simjs`: tone(freq, volume), quiet()); any object with those methods will do.
- flash is a folder of the in-memory filesystem; the page mirrors it into the browser's
  storage after every pass and restores it before boot, so a reload is a power cut.
- OSError numbers there are Emscripten's (ENOENT is 44): errno(e) translates them.

`Simulator` is what the page drives: it builds the board and the app, boots it, runs one
pass per `step(keys)` on the page's timer, and resets the box (`reset()`) after the page
queued a match file, as a reset after `scoreboard setup` would.
"""

import time

import framebuf
from micropython import const

from boards.board import Board
from boards.host import dir_bytes
from drivers.ssd1683 import Band, draw_bands
from scoreboard.core.ticks import MASK

EINK_W = const(400)
EINK_H = const(300)
LED_W = const(32)
LED_H = const(16)
_FLASH_BYTES = const(1441792)  # a Pico's littlefs partition (1.375 MB)

# The status block the page reads after every pass (array of 32-bit ints).
ST_EINK = const(0)  # e-ink refreshes so far (the page redraws when it moves)
ST_EINK_FULL = const(1)  # of which full refreshes
ST_LED = const(2)  # LED frames pushed
ST_LEVEL = const(3)  # LED brightness 0..15
ST_PASSES = const(4)  # passes run
ST_STOPPED = const(5)  # 1 once the app stopped on its error screen
ST_KEYMAP = const(6)  # bumped when the legend (the game family) changes
ST_RESETS = const(7)  # boots of the box since the page loaded
ST_SIZE = const(8)

# Emscripten's errno numbers (WASI's) -> the standard ones of MicroPython's errno module.
_EMSCRIPTEN_ERRNO = {
    2: 13,  # EACCES
    6: 11,  # EAGAIN
    8: 9,  # EBADF
    10: 16,  # EBUSY
    20: 17,  # EEXIST
    28: 22,  # EINVAL
    29: 5,  # EIO
    31: 21,  # EISDIR
    33: 24,  # EMFILE
    37: 36,  # ENAMETOOLONG
    43: 19,  # ENODEV
    44: 2,  # ENOENT
    48: 12,  # ENOMEM
    51: 28,  # ENOSPC
    52: 38,  # ENOSYS
    54: 20,  # ENOTDIR
    55: 39,  # ENOTEMPTY
    63: 1,  # EPERM
    69: 30,  # EROFS
}


def _address(buf):
    """Where `buf`'s bytes sit in the WebAssembly memory (0 where uctypes is missing)."""
    try:
        import uctypes
    except ImportError:  # CPython: nothing reads memory addresses there
        return 0
    return uctypes.addressof(buf)


class SimBoard(Board):
    name = "sim"
    echo = None  # the page shows the journal itself: no console echo

    def __init__(self, bridge=None, flash="/flash", uid=b"\x51\x4d\x00\x01",
                 flash_bytes=_FLASH_BYTES, ticks=None):
        from array import array

        self.eink_size = (EINK_W, EINK_H)
        self.band = Band(EINK_W, EINK_H)
        self.eink_panel = bytearray(EINK_W // 8 * EINK_H)
        self.led_buf = bytearray(LED_W // 8 * LED_H)
        self.led = framebuf.FrameBuffer(self.led_buf, LED_W, LED_H, framebuf.MONO_HLSB)
        self.led_panel = bytearray(len(self.led_buf))
        self.status = array("i", [0] * ST_SIZE)
        self.status[ST_LEVEL] = 15
        self.bridge = bridge
        self.flash = flash
        self.flash_bytes = flash_bytes
        self.raw = 0
        self.freq = 0
        self._uid = uid
        if ticks is not None:  # a clock of the caller's (tests); else the port's
            self.ticks_ms = ticks

    # -- keys and time ---------------------------------------------------------------
    def keys(self):
        return self.raw

    def ticks_ms(self):
        ticks = getattr(time, "ticks_ms", None)
        if ticks is None:  # CPython (tests of this board)
            return int(time.monotonic() * 1000) & MASK
        return ticks() & MASK

    # -- panels ----------------------------------------------------------------------
    async def eink_show(self, full, paint):
        """Paint the bands into the panel buffer: nothing to wait for (eink_show_now, the
        page's step, reaches its end at once)."""
        draw_bands(paint, self.band, self.eink_panel)
        st = self.status
        st[ST_EINK] += 1
        if full:
            st[ST_EINK_FULL] += 1

    def led_show(self):
        self.led_panel[:] = self.led_buf
        self.status[ST_LED] += 1

    def led_level(self, n):
        self.status[ST_LEVEL] = 0 if n < 0 else 15 if n > 15 else n

    # -- buzzer ----------------------------------------------------------------------
    def tone(self, freq, volume):
        if freq == self.freq:
            return
        self.freq = freq
        if self.bridge is not None:
            if freq:
                self.bridge.tone(freq, volume)
            else:
                self.bridge.quiet()

    def quiet(self):
        self.tone(0, 0)

    # -- flash and identity ------------------------------------------------------------
    def unique_id(self):
        return self._uid

    def errno(self, e):
        n = Board.errno(self, e)
        return _EMSCRIPTEN_ERRNO.get(n, n)

    def sync(self):
        """Nothing to do here: the page saves every changed flash file after each pass."""

    def free_bytes(self):
        return self.flash_bytes - dir_bytes(self.flash)

    # -- for the page ------------------------------------------------------------------
    def addresses(self):
        """'eink,len,led,len,status' as memory addresses and sizes, for the page."""
        return "%d,%d,%d,%d,%d" % (_address(self.eink_panel), len(self.eink_panel),
                                   _address(self.led_panel), len(self.led_panel),
                                   _address(self.status))


def build(bridge=None, **kw):
    """The simulator's board; the bridge is the page's `simjs` module unless given."""
    if bridge is None:
        try:
            import simjs as bridge
        except ImportError:
            bridge = None
    return SimBoard(bridge, **kw)


class Simulator:
    """The box as the page drives it: boot, one pass per step, reset."""

    def __init__(self, uid_hex="514d0001", bridge=None, flash="/flash", ticks=None):
        import binascii

        self.board = build(bridge, flash=flash, uid=binascii.unhexlify(uid_hex), ticks=ticks)
        self.app = None
        self._family = None
        self.boot()

    def boot(self):
        from scoreboard.app import App

        self.app = App(self.board)
        self.app.boot(self.board.ticks_ms())
        self.board.status[ST_RESETS] += 1
        self._legend_check()

    def reset(self):
        """A soft reset: stop the app (journal closed), then a new one recovers."""
        try:
            self.app.stop()
        finally:
            self.boot()

    def step(self, keys):
        """One pass of the app with `keys` (bit i = key i pressed) held."""
        board = self.board
        board.raw = keys
        self.app.step(board.ticks_ms())
        st = board.status
        st[ST_PASSES] += 1
        if self.app.stopped:
            st[ST_STOPPED] = 1
        if self.app.family is not self._family:
            self._legend_check()

    def _legend_check(self):
        family = self.app.family
        if family != self._family:
            self._family = family
            self.board.status[ST_KEYMAP] += 1

    def legend(self):
        """'family:name,name,...' for the keypad: the current game's 16 key names."""
        return "%s:%s" % (self.app.family, ",".join(self.app.names))

    def numbers(self):
        """The number each key stands for in a number entry, comma separated."""
        from scoreboard.keys.keymaps import NUMBERS

        return ",".join([str(n) for n in NUMBERS])

    def current(self):
        """The current match's journal file, relative to the flash folder, or ''."""
        stem = self.app.journal.stem  # ID, or ID.N for a continuation; None: no match
        return "matches/%s.sbn" % stem if stem else ""
