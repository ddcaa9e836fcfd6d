"""The host board: the Pico's stand-in on a computer, for tests and `scoreboard device`.

It follows the board contract (boards/board.py), as every board does. Here the e-ink
picture is painted in the Pico's bands and put together in `eink_buf`,
the panel's RAM as the computer holds it (None with `panel=False`: the benchmarks
measure the heap the box needs, and the panel's RAM is the controller's, not the
Pico's); the LED canvas is a framebuffer over a bytearray; the keys are what the runner
sets in `raw`, the flash is a folder of the computer, and the buzzer records what it
would play. Time is virtual (the runner sets `now`) unless `real_time` is set.
"""

import time

import framebuf
from micropython import const

from boards.board import Board
from drivers.ssd1683 import BAND_ROWS, Band, draw_bands
from scoreboard.core.ticks import MASK

_LED_W = const(32)
_LED_H = const(16)
_TONES_KEPT = const(32)  # the buzzer record is a ring: memory must not grow with a match
_FLASH_BYTES = const(1441792)  # a Pico's littlefs partition (1.375 MB) unless told


def dir_bytes(path):
    """The bytes of the files under folder `path` (the flash a host or simulator board
    has used), counted file by file."""
    import os

    total = 0
    # One entry at a time where the port can (ilistdir): a queue of thousands of files
    # is never a list in RAM.
    names = (e[0] for e in os.ilistdir(path)) if hasattr(os, "ilistdir") else os.listdir(path)
    for name in names:
        st = os.stat(path + "/" + name)
        total += dir_bytes(path + "/" + name) if st[0] & 0x4000 else st[6]
    return total


class HostBoard(Board):
    name = "host"

    def __init__(self, flash="flash", eink_size=(400, 300), real_time=False,
                 box_id=None, flash_bytes=_FLASH_BYTES, panel=True,
                 echo=None):
        # `echo`: the scoreboard.echo.Echo of the console, or None (the runners' stdout
        # is theirs)
        self.echo = echo
        w, h = eink_size
        self.eink_size = eink_size
        self.band = Band(w, h, BAND_ROWS, framebuf)
        self.eink_buf = bytearray(((w + 7) // 8) * h) if panel else None
        self.led_buf = bytearray(_LED_W * _LED_H // 8)
        self.led = framebuf.FrameBuffer(self.led_buf, _LED_W, _LED_H, framebuf.MONO_HLSB)
        self.flash = flash
        self.flash_bytes = flash_bytes
        self.raw = 0
        self.now = 0
        self.real_time = real_time
        self._box_id = box_id if box_id is not None else _unique_id(flash)
        self.level = 15
        # What the panels and the buzzer were asked to do, for tests and runners.
        self.refreshes = [0, 0]  # partial, full
        self.led_frames = 0
        self.tones = [(0, 0, 0)] * _TONES_KEPT  # ring of (ms, freq, volume)
        self.tone_count = 0
        self.freq = 0
        self.on_eink = None  # callbacks: the device runner prints the panels
        self.on_led = None

    # -- keys and time ---------------------------------------------------------------
    def keys(self):
        return self.raw

    def ticks_ms(self):
        if not self.real_time:
            return self.now
        ticks = getattr(time, "ticks_ms", None)
        if ticks is None:  # CPython
            return int(getattr(time, "monotonic")() * 1000) & MASK
        return ticks() & MASK

    # -- panels ----------------------------------------------------------------------
    async def eink_show(self, full, paint):
        """Paint the bands into `eink_buf`, count the refresh: nothing to wait for, so
        eink_show_now (the runners' step) reaches its end at once."""
        draw_bands(paint, self.band, self.eink_buf)
        self.refreshes[1 if full else 0] += 1
        if self.on_eink is not None:
            self.on_eink(full)

    def led_show(self):
        self.led_frames += 1
        if self.on_led is not None:
            self.on_led()

    def led_level(self, n):
        self.level = 0 if n < 0 else 15 if n > 15 else n

    # -- buzzer ----------------------------------------------------------------------
    def tone(self, freq, volume):
        if freq == self.freq:
            return
        self.freq = freq
        self.tones[self.tone_count % _TONES_KEPT] = (self.ticks_ms(), freq, volume)
        self.tone_count += 1

    def quiet(self):
        self.tone(0, 0)

    def played(self):
        """The recorded tones, oldest first (at most the last 32)."""
        n = self.tone_count
        first = n - _TONES_KEPT if n > _TONES_KEPT else 0
        return [self.tones[i % _TONES_KEPT] for i in range(first, n)]

    # -- flash and identity -------------------------------------------------------------
    def unique_id(self):
        return self._box_id

    def sync(self):
        """Nothing to do: what a flush gave the computer survives the process."""

    def free_bytes(self):
        return self.flash_bytes - dir_bytes(self.flash or ".")


def build(flash="", real_time=True, **kw):
    """The virtual device's board (main.py): the current folder as flash, real time,
    every journal line on its console (the pty) as on a Pico's USB."""
    from scoreboard.echo import Echo

    return HostBoard(flash, real_time=real_time, echo=Echo(), **kw)


UNIQUE_ID = "unique_id"  # on a host board's flash: its chip's id (8 hex digits)


def _unique_id(flash):
    """The flash's `unique_id` file (a Pico's flash chip serial, the box id's source),
    so that several virtual boxes are several boxes to the desk; else 3F2A0001."""
    import binascii

    try:
        with open(str(flash).rstrip("/") + "/" + UNIQUE_ID if flash else UNIQUE_ID) as f:
            return binascii.unhexlify(f.read().strip()[:8])
    except (OSError, ValueError):
        return b"\x3f\x2a\x00\x01"
