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
  inverted: 0x48 for a full update (RED bypassed), 0x88 for a partial one, 0x08 (RED
  read as it is) for a partial one that drives every pixel (below). No byte is ever
  inverted in software;
- 0x22 Display Update Control 2 then 0x20 Master Activation: 0xF7 = full update with
  the OTP waveform (clock and analog on, load temperature and LUT, display mode 1,
  analog and clock off); 0xFF = the same with display mode 2 (partial, differential);
- 0x10 Deep Sleep 0x01: mode 1, RAM kept, ~1 uA; only a hardware reset wakes it.

BUSY is high while the controller works. Every wait is `await`ed: the pin is polled
every `poll_ms` with `asyncio.sleep_ms`, so the rest of the app (key scan, LED clock)
keeps running during the 2-4 s of a full refresh; a wait longer than `timeout_ms`
raises `EinkTimeout`, with what to check.

The picture is drawn in bands (GxEPD2's paged mode): the driver holds one band of
`rows` panel rows (`Band`, 400 x 30 / 8 = 1,500 bytes instead of a 15,000-byte canvas),
and a refresh calls `paint(band)` once per band it sends, where `paint` draws the whole
picture with framebuf's methods in panel coordinates; what falls outside the band is
clipped, as framebuf clips at its edges, so the bands put together are the picture
drawn whole, byte for byte. Each band goes to the RAM through a window of its rows
(0x44/0x45 and the counters 0x4E/0x4F, then 0x24 or 0x26: the address counter steps
along X then Y inside the window), sent as a memoryview of the band buffer.

- Full refresh: each band painted once and written to BW (0x24) and RED (0x26), then
  mode 1.
- Partial refresh of a window (default: all the panel; X rounded out to whole bytes):
  each band of the window painted and written to BW, mode 2, then each band painted
  again and written to RED, so the next differential update compares against what the
  panel shows (GxEPD2's second phase). A whole band whose CRC-32 is that of what the
  panel already shows there is not sent at all, and a refresh that would send nothing
  updates nothing. If a band comes out different the second time (a key changed the
  picture while BUSY was high: the app's loop runs on), its RED RAM is left as it was
  and no longer holds what the panel shows; the next partial refresh then drives every
  pixel: each band written to both RAMs and RED read as it is (0x21 0x08), so old and
  new differ everywhere. Still the partial waveform (no flash), and both RAMs are then
  in step again with no second phase.

`await asyncio.sleep_ms(0)` between bands lets the loop's other tasks run while the
picture is drawn. The first refresh after power-up or a wake is always a full one (a
partial request then becomes full): only that puts both RAMs in step with the panel.
Refreshes never overlap: a second one waits for the first to end. `draw_bands()` puts a
picture together band by band in a whole-panel buffer, as the panel's RAM holds it
(the host and simulator boards' panels).
"""

import binascii

import framebuf
from micropython import const


def _sleep_ms(ms):
    """asyncio.sleep_ms on MicroPython; asyncio.sleep (seconds) on CPython (tests).
    Imported here, not at the top: a board that only draws bands (the host board) does
    not pay for asyncio."""
    import asyncio

    sleep = getattr(asyncio, "sleep_ms", None)
    if sleep is not None:
        return sleep(ms)
    return asyncio.sleep(ms / 1000)


WIDTH = const(400)
HEIGHT = const(300)
BAND_ROWS = const(30)  # panel rows per band: 1,500 bytes, ten bands

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
_OPT_DRIVE_ALL = const(0x08)  # RED as it is (= BW's bytes), BW inverse: all pixels differ
_SEQ_FULL = const(0xF7)
_SEQ_PARTIAL = const(0xFF)
_BORDER_FULL = const(0x05)  # follow the LUT
_BORDER_PARTIAL = const(0x80)  # VCOM

_FULL_TIMEOUT_MS = const(6000)  # a full update takes 2-4 s, colder is slower
_PARTIAL_TIMEOUT_MS = const(3000)  # a partial one about 0.4-0.8 s
_RESET_TIMEOUT_MS = const(1000)


class EinkTimeout(Exception):
    """The panel's BUSY pin stayed high past the timeout."""


class Band:
    """A canvas over panel rows `top`..`top + rows - 1` of a `width` x `height` panel:
    fill, fill_rect, hline, vline, rect, text and pixel (what the screens use) as
    framebuf has them, in panel coordinates, on a MONO_HLSB FrameBuffer `rows` high
    (`buf`, 1 = black). It states its size (`width`, `height`, `top`, `rows`: the
    screens read them, boards/board.py's canvas contract); `rows` == `height` makes a
    canvas of the whole picture (the OLED's, the tests'). `pixel()` reads None outside
    the panel and 0 on the panel's rows outside the band. `module` is framebuf (tests
    pass a stand-in)."""

    def __init__(self, width, height, rows=BAND_ROWS, module=framebuf):
        self.width = width
        self.height = height
        self.rows = rows if rows < height else height
        self.stride = (width + 7) // 8
        self.buf = bytearray(self.stride * self.rows)
        self.fb = module.FrameBuffer(self.buf, width, self.rows, module.MONO_HLSB)
        self.top = 0

    def fill(self, c):
        self.fb.fill(c)

    def fill_rect(self, x, y, w, h, c):
        self.fb.fill_rect(x, y - self.top, w, h, c)

    def hline(self, x, y, w, c):
        self.fb.hline(x, y - self.top, w, c)

    def vline(self, x, y, h, c):
        self.fb.vline(x, y - self.top, h, c)

    def rect(self, x, y, w, h, c, f=False):
        self.fb.rect(x, y - self.top, w, h, c, f)

    def text(self, s, x, y, c=1):
        self.fb.text(s, x, y - self.top, c)

    def pixel(self, x, y, c=None):
        if x < 0 or y < 0 or x >= self.width or y >= self.height:
            return None
        y -= self.top
        if y < 0 or y >= self.rows:
            return None if c is not None else 0
        if c is None:
            return self.fb.pixel(x, y)
        self.fb.pixel(x, y, c)
        return None

    def shown(self):
        """The panel rows this band holds (the last band may be cut by the panel)."""
        n = self.height - self.top
        return n if n < self.rows else self.rows


def draw_bands(paint, band, picture=None):
    """Paint the whole panel band by band; copy each band into `picture` (a whole-panel
    MONO_HLSB buffer, the panel's RAM on a board that stands in for one) unless None."""
    mv = memoryview(band.buf)
    stride = band.stride
    top = 0
    while top < band.height:
        band.top = top
        paint(band)
        n = band.shown()
        if picture is not None:
            picture[top * stride:(top + n) * stride] = mv[:n * stride]
        top += n


class SSD1683:
    """The panel. `spi`: ready SPI (mode 0, <= 20 MHz write); `cs`, `dc`, `rst`: output
    pins; `busy`: input pin (high = busy); `band`: the Band to draw in (default: one of
    BAND_ROWS rows). Call `await init()` before the first show (a show does it too)."""

    def __init__(self, spi, cs, dc, rst, busy, width=WIDTH, height=HEIGHT, poll_ms=10,
                 band=None):
        self.spi = spi
        self.cs = cs
        self.dc = dc
        self.rst = rst
        self.busy = busy
        self.width = width
        self.height = height
        self.stride = width // 8
        self.poll_ms = poll_ms
        self.band = band if band is not None else Band(width, height)
        self._mv = memoryview(self.band.buf)
        n = (height + self.band.rows - 1) // self.band.rows
        # Per band: the CRC-32 of what the panel shows there (both RAMs hold it), None
        # when unknown; and of what the first phase of a partial refresh sent, or None.
        self._shown = [None] * n  # type: list
        self._sent = [None] * n  # type: list
        self._cmd = bytearray(1)
        self._arg = bytearray(4)
        self._args = memoryview(self._arg)
        self.asleep = True  # until init(): the state after power-up is unknown
        self.synced = False  # both RAMs hold what the panel shows (after a full refresh)
        self.drive_all = False  # a RED RAM band is out of step: drive every pixel next
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
    async def init(self):
        """Reset and configure the controller (also the way out of deep sleep, which
        only a hardware reset leaves): RES# low 10 ms, then 10 ms before the first
        command."""
        self.rst.value(0)
        await _sleep_ms(10)
        self.rst.value(1)
        await _sleep_ms(10)
        await self.wait(_RESET_TIMEOUT_MS)
        self.command(_SW_RESET)
        await self.wait(_RESET_TIMEOUT_MS)
        h = self.height - 1
        self._command_args(_DRIVER_OUTPUT, h & 0xFF, h >> 8, 0x00)
        self._command_args(_BORDER, _BORDER_FULL)
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

    def _write_ram(self, cmd, x, y, w, h):
        """Send panel rows y..y+h-1, columns x..x+w-1 (whole bytes) of the band, which
        holds them, to RAM `cmd` (0x24 or 0x26) through a window of just that area; with
        `cmd` 0 send nothing. Returns the CRC-32 of those bytes."""
        band = self.band
        stride = band.stride
        start = (y - band.top) * stride
        mv = self._mv
        if cmd:
            self.window(x, y, w, h)
        if x == 0 and w == self.width:
            data = mv[start:start + h * stride]
            if cmd:
                self.command(cmd, data)
            return binascii.crc32(data)
        start += x >> 3
        nbytes = w >> 3
        end = start + h * stride
        if cmd:
            self._cmd[0] = cmd
            self.cs.value(0)
            self.dc.value(0)
            self.spi.write(self._cmd)
            self.dc.value(1)
        crc = 0
        while start < end:
            data = mv[start:start + nbytes]
            if cmd:
                self.spi.write(data)
            crc = binascii.crc32(data, crc)
            start += stride
        if cmd:
            self.cs.value(1)
        return crc

    def _paint(self, paint, k):
        """Paint band k; returns the panel rows it holds."""
        band = self.band
        band.top = k * band.rows
        paint(band)
        return band.shown()

    def _activate(self, border, option, sequence):
        self._command_args(_BORDER, border)
        self._command_args(_UPDATE_CTRL1, option, 0x00)
        self._command_args(_UPDATE_CTRL2, sequence)
        self.command(_MASTER_ACTIVATE)

    # -- refreshes -----------------------------------------------------------------
    async def _claim(self):
        """Wait for a refresh under way to end, then own the panel."""
        while self.updating:
            await _sleep_ms(self.poll_ms if self.poll_ms > 0 else 1)
        self.updating = True

    async def show_full(self, paint):
        """Full refresh: every band to both RAMs, waveform mode 1 (flashes)."""
        await self._claim()
        try:
            await self._full(paint)
        finally:
            self.updating = False

    async def _both(self, paint):
        """Every band painted once and written to BW and RED: the RAMs in step."""
        w = self.width
        shown = self._shown
        k = 0
        while k < len(shown):
            rows = self._paint(paint, k)
            top = self.band.top
            self._write_ram(_WRITE_BW, 0, top, w, rows)
            shown[k] = self._write_ram(_WRITE_RED, 0, top, w, rows)
            k += 1
            await _sleep_ms(0)
        self.drive_all = False

    async def _full(self, paint):
        if self.asleep:
            await self.init()
        await self._both(paint)
        self._activate(_BORDER_FULL, _OPT_FULL, _SEQ_FULL)
        await self.wait(_FULL_TIMEOUT_MS)
        self.synced = True
        self.refreshes += 1

    async def show_partial(self, paint, x=0, y=0, w=None, h=None):
        """Partial refresh of a window of the panel (default: all of it), no flash."""
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
                await self._full(paint)
            elif self.drive_all:
                await self._both(paint)
                self._activate(_BORDER_PARTIAL, _OPT_DRIVE_ALL, _SEQ_PARTIAL)
                await self.wait(_PARTIAL_TIMEOUT_MS)
                self.refreshes += 1
            else:
                await self._partial(paint, x, y, w, h)
        finally:
            self.updating = False

    async def _partial(self, paint, x, y, w, h):
        rows = self.band.rows
        first = y // rows
        last = (y + h - 1) // rows
        shown = self._shown
        sent = self._sent
        any_sent = False
        k = first
        while k <= last:  # phase 1: what changed, to BW
            n = self._paint(paint, k)
            top = self.band.top
            y0 = y if y > top else top
            y1 = y + h if y + h < top + n else top + n
            crc = self._write_ram(0, x, y0, w, y1 - y0)
            whole = x == 0 and w == self.width and y0 == top and y1 == top + n
            if whole and crc == shown[k]:
                sent[k] = None  # the panel shows this band already
            else:
                self._write_ram(_WRITE_BW, x, y0, w, y1 - y0)
                sent[k] = crc
                any_sent = True
            k += 1
            await _sleep_ms(0)
        if not any_sent:
            return
        self._activate(_BORDER_PARTIAL, _OPT_PARTIAL, _SEQ_PARTIAL)
        await self.wait(_PARTIAL_TIMEOUT_MS)
        self.refreshes += 1
        k = first
        while k <= last:  # phase 2: the same bands again, to RED
            if sent[k] is not None:
                n = self._paint(paint, k)
                top = self.band.top
                y0 = y if y > top else top
                y1 = y + h if y + h < top + n else top + n
                crc = self._write_ram(0, x, y0, w, y1 - y0)
                if crc == sent[k]:
                    self._write_ram(_WRITE_RED, x, y0, w, y1 - y0)
                    whole = x == 0 and w == self.width and y0 == top and y1 == top + n
                    shown[k] = crc if whole else None
                else:  # the picture changed since phase 1: RED is out of step here
                    shown[k] = None
                    self.drive_all = True
                await _sleep_ms(0)
            k += 1

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

    async def sleep(self):
        """Deep sleep mode 1 (RAM kept); the next refresh (or init) wakes it with a
        reset."""
        if self.asleep:
            return
        self._command_args(_DEEP_SLEEP, 0x01)
        self.asleep = True


def spi_bytes(w=WIDTH, h=HEIGHT, y=0, rows=BAND_ROWS):
    """Bytes one refresh of a w x h window at row y sends (w a multiple of 8) when every
    band in it changed: per band, a window and a RAM write twice (BW, then RED), plus the
    update commands (border, 0x21, 0x22, 0x20). The same for a full and a partial
    refresh of the same area; a full one is the whole panel.
    """
    bands = (y + h - 1) // rows - y // rows + 1
    window = 3 + 5 + 2 + 3  # 0x44, 0x45, 0x4E, 0x4F with their parameters
    ram = (w // 8) * h
    return 2 * (bands * (window + 1) + ram) + 2 + 3 + 2 + 1
