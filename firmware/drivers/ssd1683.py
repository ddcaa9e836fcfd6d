"""Driver for a 4.2 inch 400x300 black/white e-paper panel with an SSD1683 controller.

Panels: Waveshare 4.2inch e-Paper Module (V2), Good Display GDEY042T81, WeAct 4.2".
Datasheet: Solomon Systech "SSD1683 Active Matrix EPD 400x300 Display Driver with
Controller" (rev 1.x). What the driver uses, by section of its command table (section 6)
and operation flow (section 9, "Typical Operating Sequence"):

- hardware reset (section 9, power on): RES# low 10 ms, then 10 ms before the first
  command; 0x12 SW reset, BUSY high until it is done;
- 0x01 Driver Output Control: MUX = 300 gates -> 0x2B 0x01 0x00;
- 0x3C Border Waveform: 0x05 (follow LUT) for full, 0x80 (VCOM) for partial updates;
- 0x18 Temperature Sensor: 0x80 = the internal sensor;
- 0x11 Data Entry Mode: 0x03 = X then Y increment, address counter moves along X;
- 0x44 / 0x45 RAM X (in bytes) / Y (in gates) window, 0x4E / 0x4F the address counters;
- 0x24 write BW RAM (the new picture), 0x26 write RED RAM (on a black/white panel the
  "old" picture that the partial waveform compares against);
- 0x21 Display Update Control 1: A[7:4] the RED RAM option, A[3:0] the BW RAM option,
  0000 normal, 0100 bypass as 0, 1000 inverse. The controller's RAM has 1 = white; our
  canvas has 1 = black, so the BW RAM (and the RED RAM for partial updates) is read
  inverted: 0x48 for a full update (RED bypassed), 0x88 for a partial one. No byte is
  ever inverted in software;
- 0x22 Display Update Control 2 then 0x20 Master Activation: 0xF7 = full update with
  the OTP waveform (clock and analog on, load temperature and LUT, display mode 1,
  analog and clock off); 0xFF = the same with display mode 2 (partial, differential);
- 0x10 Deep Sleep 0x01: mode 1, RAM kept, ~1 uA; only a hardware reset wakes it.

BUSY is high while the controller works. Every wait is `await`ed: the pin is polled
every `poll_ms` with `asyncio.sleep_ms`, so the rest of the app (key scan, LED clock)
keeps running during the 2-4 s of a full refresh; a wait longer than `timeout_ms`
raises `EinkTimeout`, with what to check.

Partial refresh of a window: the window's rows of the canvas go to 0x24, the panel
updates with mode 2, then the same bytes go to 0x26 so the next partial update compares
against what the panel now shows (the way GxEPD2 keeps the two RAMs in step). X is
rounded out to whole bytes (8 pixels). The canvas is the caller's MONO_HLSB bytearray
(400 x 300 / 8 = 15,000 bytes); the driver never copies it, and sends each window row as
a memoryview slice. The first refresh after power-up or a wake is always a full one
(a partial request then becomes full): only that puts both RAMs in step with the panel.
Refreshes never overlap: a second one waits for the first to end.
"""

import asyncio

from micropython import const

_SLEEP_MS = getattr(asyncio, "sleep_ms", None)


def _sleep_ms(ms):
    """asyncio.sleep_ms on MicroPython; asyncio.sleep (seconds) on CPython (tests)."""
    if _SLEEP_MS is not None:
        return _SLEEP_MS(ms)
    return asyncio.sleep(ms / 1000)


WIDTH = const(400)
HEIGHT = const(300)

_DRIVER_OUTPUT = const(0x01)
_DEEP_SLEEP = const(0x10)
_DATA_ENTRY = const(0x11)
_SW_RESET = const(0x12)
_TEMP_SENSOR = const(0x18)
_MASTER_ACTIVATE = const(0x20)
_UPDATE_CTRL1 = const(0x21)
_UPDATE_CTRL2 = const(0x22)
_WRITE_BW = const(0x24)
_WRITE_RED = const(0x26)
_BORDER = const(0x3C)
_RAM_X = const(0x44)
_RAM_Y = const(0x45)
_RAM_X_COUNT = const(0x4E)
_RAM_Y_COUNT = const(0x4F)

_OPT_FULL = const(0x48)  # RED bypassed as 0, BW inverse (canvas 1 = black)
_OPT_PARTIAL = const(0x88)  # RED inverse, BW inverse
_SEQ_FULL = const(0xF7)
_SEQ_PARTIAL = const(0xFF)

FULL_TIMEOUT_MS = const(6000)  # a full update takes 2-4 s, colder is slower
PARTIAL_TIMEOUT_MS = const(3000)  # a partial one about 0.4-0.8 s
RESET_TIMEOUT_MS = const(1000)


class EinkTimeout(Exception):
    """The panel's BUSY pin stayed high past the timeout."""


class SSD1683:
    """The panel. `spi`: ready SPI (mode 0, <= 20 MHz write); `cs`, `dc`, `rst`: output
    pins; `busy`: input pin (high = busy). Call `await init()` before the first show."""

    def __init__(self, spi, cs, dc, rst, busy, width=WIDTH, height=HEIGHT, poll_ms=10):
        self.spi = spi
        self.cs = cs
        self.dc = dc
        self.rst = rst
        self.busy = busy
        self.width = width
        self.height = height
        self.stride = width // 8
        self.poll_ms = poll_ms
        self._cmd = bytearray(1)
        self._arg = bytearray(4)
        self._args = memoryview(self._arg)
        self.asleep = True  # until init(): the state after power-up is unknown
        self.synced = False  # both RAMs hold what the panel shows (after a full refresh)
        self.updating = False  # a refresh is under way (one at a time)
        self.refreshes = 0  # full and partial updates done (for tests and reports)
        self.waited_ms = 0  # the last wait on BUSY, in poll steps x poll_ms
        cs.value(1)
        dc.value(1)
        rst.value(1)

    # -- the bus -------------------------------------------------------------------
    def command(self, cmd, data=None):
        """Send one command byte (D/C low), then its data bytes (D/C high), CS low
        throughout."""
        self._cmd[0] = cmd
        self.cs.value(0)
        self.dc.value(0)
        self.spi.write(self._cmd)
        self.dc.value(1)
        if data is not None:
            self.spi.write(data)
        self.cs.value(1)

    def _command_args(self, cmd, a, b=-1, c=-1, d=-1):
        """A command with one to four parameter bytes, from a preallocated buffer."""
        args = self._arg
        args[0] = a
        n = 1
        if b >= 0:
            args[1] = b
            n = 2
            if c >= 0:
                args[2] = c
                n = 3
                if d >= 0:
                    args[3] = d
                    n = 4
        self.command(cmd, self._args[:n])

    async def wait(self, timeout_ms):
        """Await BUSY low, polling every poll_ms; EinkTimeout after timeout_ms."""
        waited = 0
        while self.busy.value():
            if waited >= timeout_ms:
                self.waited_ms = waited
                raise EinkTimeout(
                    "e-ink BUSY still high after %d ms: check the BUSY, RST and power "
                    "wires, and that the panel is an SSD1683 one" % waited
                )
            await _sleep_ms(self.poll_ms)
            waited += self.poll_ms if self.poll_ms > 0 else 1
        self.waited_ms = waited

    # -- set-up --------------------------------------------------------------------
    async def reset(self):
        """Hardware reset: RES# low 10 ms, then 10 ms before the first command."""
        self.rst.value(0)
        await _sleep_ms(10)
        self.rst.value(1)
        await _sleep_ms(10)

    async def init(self):
        """Reset and configure the controller (also the way out of deep sleep)."""
        await self.reset()
        await self.wait(RESET_TIMEOUT_MS)
        self.command(_SW_RESET)
        await self.wait(RESET_TIMEOUT_MS)
        h = self.height - 1
        self._command_args(_DRIVER_OUTPUT, h & 0xFF, h >> 8, 0x00)
        self._command_args(_BORDER, 0x05)
        self._command_args(_TEMP_SENSOR, 0x80)
        self._command_args(_DATA_ENTRY, 0x03)
        self.window(0, 0, self.width, self.height)
        self.asleep = False
        self.synced = False

    def window(self, x, y, w, h):
        """Set the RAM window to x..x+w-1, y..y+h-1 (x and w multiples of 8) and put
        the address counters at its top-left corner."""
        x0 = x >> 3
        x1 = (x + w - 1) >> 3
        y1 = y + h - 1
        self._command_args(_RAM_X, x0, x1)
        self._command_args(_RAM_Y, y & 0xFF, y >> 8, y1 & 0xFF, y1 >> 8)
        self._command_args(_RAM_X_COUNT, x0)
        self._command_args(_RAM_Y_COUNT, y & 0xFF, y >> 8)

    def _write_ram(self, cmd, buf, x, y, w, h):
        """Send the window's rows of the canvas `buf` to RAM `cmd` (0x24 or 0x26)."""
        self.window(x, y, w, h)
        stride = self.stride
        if x == 0 and w == self.width:
            mv = memoryview(buf)
            self.command(cmd, mv[y * stride:(y + h) * stride])
            return
        x0 = x >> 3
        nbytes = w >> 3
        mv = memoryview(buf)
        self._cmd[0] = cmd
        self.cs.value(0)
        self.dc.value(0)
        self.spi.write(self._cmd)
        self.dc.value(1)
        row = y
        end = y + h
        while row < end:
            start = row * stride + x0
            self.spi.write(mv[start:start + nbytes])
            row += 1
        self.cs.value(1)

    # -- refreshes -----------------------------------------------------------------
    async def _claim(self):
        """Wait for a refresh under way to end, then own the panel."""
        while self.updating:
            await _sleep_ms(self.poll_ms if self.poll_ms > 0 else 1)
        self.updating = True

    async def show_full(self, buf):
        """Full refresh from the whole canvas: both RAMs, waveform mode 1 (flashes)."""
        await self._claim()
        try:
            await self._full(buf)
        finally:
            self.updating = False

    async def _full(self, buf):
        if self.asleep:
            await self.init()
        self._write_ram(_WRITE_BW, buf, 0, 0, self.width, self.height)
        self._write_ram(_WRITE_RED, buf, 0, 0, self.width, self.height)
        self._command_args(_BORDER, 0x05)
        self._command_args(_UPDATE_CTRL1, _OPT_FULL, 0x00)
        self._command_args(_UPDATE_CTRL2, _SEQ_FULL)
        self.command(_MASTER_ACTIVATE)
        await self.wait(FULL_TIMEOUT_MS)
        self.synced = True
        self.refreshes += 1

    async def show_partial(self, buf, x=0, y=0, w=None, h=None):
        """Partial refresh of a window of the canvas (default: all of it), no flash."""
        if w is None:
            w = self.width - x
        if h is None:
            h = self.height - y
        x, y, w, h = self.clip(x, y, w, h)
        if w <= 0 or h <= 0:
            return
        await self._claim()
        try:
            if self.asleep or not self.synced:
                # after power-up or a wake the RED RAM is not what the panel shows:
                # a differential update needs a full one first
                await self._full(buf)
                return
            self._write_ram(_WRITE_BW, buf, x, y, w, h)
            self._command_args(_BORDER, 0x80)
            self._command_args(_UPDATE_CTRL1, _OPT_PARTIAL, 0x00)
            self._command_args(_UPDATE_CTRL2, _SEQ_PARTIAL)
            self.command(_MASTER_ACTIVATE)
            await self.wait(PARTIAL_TIMEOUT_MS)
            self._write_ram(_WRITE_RED, buf, x, y, w, h)
            self.refreshes += 1
        finally:
            self.updating = False

    def clip(self, x, y, w, h):
        """The window clipped to the panel, with x and w rounded out to whole bytes."""
        if x < 0:
            w += x
            x = 0
        if y < 0:
            h += y
            y = 0
        if x + w > self.width:
            w = self.width - x
        if y + h > self.height:
            h = self.height - y
        x1 = (x + w + 7) & ~7
        x &= ~7
        return x, y, x1 - x, h

    async def show(self, buf, full=True):
        """Full (True) or whole-screen partial (False) refresh."""
        if full:
            await self.show_full(buf)
        else:
            await self.show_partial(buf)

    async def sleep(self):
        """Deep sleep mode 1 (RAM kept); the next show (or init) wakes it with a reset."""
        if self.asleep:
            return
        self._command_args(_DEEP_SLEEP, 0x01)
        self.asleep = True

    async def wake(self):
        """Leave deep sleep: hardware reset and init (the RAM must be written again)."""
        await self.init()


def spi_bytes(w=WIDTH, h=HEIGHT):
    """Bytes one refresh of a w x h window sends (w a multiple of 8): the window and
    RAM write twice (BW, then RED), plus the update commands (border, 0x21, 0x22, 0x20).

    The same for a full and a partial refresh of the same area; a full one is the
    whole panel.
    """
    window = 3 + 5 + 2 + 3  # 0x44, 0x45, 0x4E, 0x4F with their parameters
    ram = (w // 8) * h
    return 2 * (window + 1 + ram) + 2 + 3 + 2 + 1
