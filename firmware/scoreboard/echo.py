"""The journal on the USB console: every line the journal writes also goes out on the
app's standard output as it is written, for `scoreboard live` on the host (and readable
by a person at the REPL).

One frame a line, plain text:

    SB> STEM N TEXT *CRC32      line N (1 is `sbn 1`) of matches/STEM.sbn, byte for byte
                                as the journal holds it (its own ` *crc32`, DESIGN.md)
    SB> STEM N                  matches/STEM.sbn holds N lines (said after a reset's
                                recovery, so a reader knows where the box stands)

ended by `\\r\\n` (a terminal shows one frame a line). The reader checks each line's
CRC-32 and follows N: a line it lacks (a gap in N, a frame it could not read) it takes
from the journal, as `scoreboard sync` reads it. A frame is written only after the
journal's flush, so the console never shows a line the flash does not hold.

A box with nothing listening waits for nothing: before each frame the stream is polled
(POLLOUT, no timeout) and a frame that cannot go now is dropped and counted
(`dropped`); the host heals the gap from the journal. On the Pico (the rp2 port's
mp_usbd_cdc_tx_strn) a port that no host has opened (DTR low) takes every write into
TinyUSB's overwriting FIFO, so a write never waits; a host that opened the port and
stopped reading makes a write wait for room, up to MICROPY_HW_USB_CDC_TX_TIMEOUT (500
ms). So when a frame took longer than SLOW_MS the echo stands down for BACKOFF_MS:
such a host costs the box one slow write, not one a stroke. On the unix port (the
virtual device) standard output is the pty's bridge, which always reads.

The frame is put together in one preallocated buffer (a longer line is written in
pieces): one write per frame, no string formatting.
"""

import sys

from micropython import const

try:
    import select
except ImportError:  # a port without it: writes are not polled
    select = None

import time

from scoreboard.core.ticks import MASK, ticks_diff

_ticks = getattr(time, "ticks_ms", None)


def ticks_ms():
    if _ticks is not None:
        return _ticks() & MASK
    return int(getattr(time, "monotonic")() * 1000) & MASK  # CPython


PREFIX = b"SB> "
_BUF = const(160)  # a stroke's frame is about 60 bytes; a header line may be longer
SLOW_MS = const(50)  # a frame that took this long found a host that does not read
BACKOFF_MS = const(30000)  # then no frame for this long


class Echo:
    """Frames journal lines onto `out` (a binary stream; default the console's)."""

    def __init__(self, out=None):
        self._console = out is None  # the app's own console, not a test's stream
        if out is None:
            out = getattr(sys.stdout, "buffer", sys.stdout)
        self.out = out
        self._write = getattr(out, "write")  # takes the buffer's memoryview (no copy)
        self.buf = bytearray(_BUF)
        self.view = memoryview(self.buf)
        self.sent = 0  # frames written
        self.dropped = 0  # frames not written (the stream had no room, or was resting)
        self._stem = None
        self._stem_b = b""
        self._quiet_from = 0
        self._resting = False
        self._poll = None
        if select is not None and hasattr(select, "poll"):
            try:
                p = select.poll()
                p.register(out, select.POLLOUT)
                p.poll(0)  # MicroPython refuses a stream it cannot poll only here
                self._poll = p
            except (OSError, TypeError, ValueError, AttributeError):
                self._poll = None  # not a pollable stream: written as it comes

    def console_input(self):
        """The console's input, for the desk's requests (scoreboard/channel.py): the
        stream behind the echo's own console, on MicroPython; None for an echo to a
        stream of a test's, and on CPython (a terminal that is someone else's)."""
        if not self._console or sys.implementation.name != "micropython":
            return None
        return getattr(sys.stdin, "buffer", sys.stdin)

    def lines(self, stem, first, data):
        """Frame the journal lines in `data` (bytes, each ending in `\\n`), the first of
        them being line `first` of matches/STEM.sbn."""
        n = first
        i = 0
        end = len(data)
        while i < end:
            j = data.find(b"\n", i)
            if j < 0:
                j = end
            self._frame(stem, n, data, i, j)
            n += 1
            i = j + 1

    def state(self, stem, count):
        """`SB> STEM N`: the journal STEM holds `count` lines (after a recovery)."""
        self._frame(stem, count, b"", 0, 0)

    def _ready(self):
        if self._resting:
            if ticks_diff(ticks_ms(), self._quiet_from) < BACKOFF_MS:
                return False
            self._resting = False
        if self._poll is None:
            return True
        try:
            return bool(self._poll.poll(0))
        except OSError:
            return False

    def _frame(self, stem, n, data, i, j):
        if not self._ready():
            self.dropped += 1
            return
        if stem is not self._stem:
            self._stem = stem
            self._stem_b = stem.encode()
        buf = self.buf
        buf[0:4] = PREFIX
        k = 4 + len(self._stem_b)
        buf[4:k] = self._stem_b
        buf[k] = 0x20
        k = _digits(buf, k + 1, n)
        t0 = ticks_ms()
        try:
            if j > i:
                buf[k] = 0x20
                k += 1
                if k + (j - i) + 2 <= _BUF:
                    buf[k:k + j - i] = data[i:j]
                    k += j - i
                else:  # a long header line: the head, then the rest, in pieces
                    self._write(self.view[:k])
                    self._write(data[i:j])
                    k = 0
            buf[k] = 0x0D
            buf[k + 1] = 0x0A
            self._write(self.view[:k + 2])
            if hasattr(self.out, "flush"):
                self.out.flush()
        except OSError:  # a console that refuses: the journal is what matters
            self.dropped += 1
            return
        self.sent += 1
        if ticks_diff(ticks_ms(), t0) >= SLOW_MS:
            self._resting = True
            self._quiet_from = ticks_ms()


def _digits(buf, k, n):
    """Write the decimal digits of n >= 0 into buf at k; the index after them."""
    if n == 0:
        buf[k] = 0x30
        return k + 1
    m = n
    width = 0
    while m:
        width += 1
        m //= 10
    end = k + width
    while n:
        end -= 1
        buf[end] = 0x30 + n % 10
        n //= 10
    return k + width
