"""Driver for a 4x4 membrane keypad matrix: one row driven at a time, a raw key bitmap.

A membrane keypad (for example the common 16-key "4x4 matrix array" with an 8-way
ribbon) is 4 row lines and 4 column lines with a switch at each crossing, and no diodes.
The scan:

- every row pin is an open-drain output that idles released (high impedance), every
  column pin an input with its pull-up, so an idle column reads 1;
- for each row in turn: pull that row low, let the line settle a few microseconds, read
  the four columns (0 = the key at that crossing is down), release the row.

Only one row is ever driven, and open-drain rows never fight: two keys down in one
column join a low row to a released one, not to a row driven high. The result is the
raw bitmap the debouncer wants: bit i set = key i down, i = row * ncols + col, row 0 the
top row of the keypad and col 0 its left column (the board's pin order sets which
physical line is row 0). Without diodes, three keys down at three corners of a rectangle
make the fourth corner read as down too ("ghosting"); the key grammar never needs three
keys at once, and the debouncer sees the ghost as an ordinary key.

The scan allocates nothing (tests run it under `micropython.heap_lock()`): the pins are
kept in tuples, the bitmap is a small int, and the settle delay is `time.sleep_us`. On a
computer (tests with fake pins) there is no `sleep_us`; the delay is then skipped.

Use (the board builds the pins):

    rows = [Pin(n, Pin.OPEN_DRAIN, value=1) for n in (16, 17, 18, 19)]
    cols = [Pin(n, Pin.IN, Pin.PULL_UP) for n in (20, 21, 22, 26)]
    pad = Keypad(rows, cols)
    raw = pad.scan()        # e.g. 0b0000_0000_0000_0001: the top-left key is down
"""

from micropython import const

try:
    from time import sleep_us as _sleep_us
except ImportError:  # CPython with fake pins: lines settle at once
    _sleep_us = None

_SETTLE_US = const(5)  # ~50 kOhm pull-up into a few tens of pF: well under 5 us


class Keypad:
    """A row/column key matrix. `rows` are driven (0 = active), `cols` are read.

    `extra`: optional direct buttons (each an input with pull-up, pressed = 0), such as
    the big shot-clock push button; they follow the matrix in the bitmap, bit
    nrows * ncols + i for extra[i] (bit 16 for the first one on a 4x4 pad).
    """

    def __init__(self, rows, cols, extra=(), settle_us=_SETTLE_US):
        self.rows = tuple(rows)
        self.cols = tuple(cols)
        self.extra = tuple(extra)
        self.nrows = len(self.rows)
        self.ncols = len(self.cols)
        if self.nrows * self.ncols + len(self.extra) > 30:
            raise ValueError("at most 30 keys (the bitmap stays a small int)")
        self.settle_us = settle_us
        self.release_all()

    def release_all(self):
        """Release every row (high impedance with open-drain pins)."""
        for r in self.rows:
            r.value(1)

    def scan(self):
        """Scan every row once; return the raw bitmap (bit row*ncols+col = key down)."""
        bits = 0
        key = 0
        ncols = self.ncols
        cols = self.cols
        settle = self.settle_us
        for row in self.rows:
            row.value(0)
            if settle and _sleep_us is not None:
                _sleep_us(settle)
            c = 0
            while c < ncols:
                if not cols[c].value():
                    bits |= 1 << (key + c)
                c += 1
            row.value(1)
            key += ncols
        for button in self.extra:
            if not button.value():
                bits |= 1 << key
            key += 1
        return bits
