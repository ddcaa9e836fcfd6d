"""Key debouncer: a raw key bitmap in, press / long press / repeat events out.

Pure and allocation free, so the key scan task can run it under `heap_lock()`: the app
reads the keypad (`board.keys()`, bit i = key i = row*4 + col) every 10-20 ms and calls
`update(raw, now_ms)`; then it drains the events with `get()` until it returns -1.

    d = Debouncer()                 # count=16, debounce_ms=20, long_ms=700, repeat_ms=200
    d.update(board.keys(), now_ms)
    ev = d.get()
    while ev >= 0:
        kind, key = ev >> 8, ev & 0xFF    # PRESS, LONG or REPEAT; key 0..count-1
        at = d.at                         # when it happened (ticks_ms)
        ev = d.get()

Events, each an int `kind << 8 | key`:
- PRESS (1): a short press, reported when the key is released (so that a long press
  never also gives a short one);
- LONG (2): the key has been held past `long_ms` since its press was accepted; once,
  while it is still held, and no PRESS follows at its release;
- REPEAT (3): every `repeat_ms` after the LONG while the key is still held.

Each event keeps the time it happened (`at` after its `get()`): the scan's that made
it (a release's, for a PRESS), or for LONG and REPEAT the moment the hold passed their
limit. The app stamps the journal with it, so a press that waited in a queue keeps its
own time.

Debouncing: a key's new level is accepted once the raw bit has stayed at it for
`debounce_ms` (every bounce restarts the wait); shorter glitches are ignored. A source
that debounces by itself (the Pico's PIO scan, drivers/pio_keypad.py) hands its changes
to `take(state, at_ms)` instead, each with the time it was seen: accepted at once,
timed for long presses the same way. Keys are independent: several may be held at
once. Times are compared only with
`scoreboard.core.ticks.ticks_diff` (period 2**30), so a press held across the ticks
wrap behaves like any other. `now_ms` must be within the ticks period (`ticks.wrap`).

Events wait in a preallocated ring of `size` entries; when it is full, the newest event
is dropped and counted in `dropped` (the app drains it after every scan, so this only
happens when the app stalls).
"""

from micropython import const

from scoreboard.core.ticks import ticks_add, ticks_diff

PRESS = const(1)
LONG = const(2)
REPEAT = const(3)
NONE = const(-1)

_HELD = const(1)  # flags per key
_LONG_SENT = const(2)


class Debouncer:
    def __init__(self, count=16, debounce_ms=20, long_ms=700, repeat_ms=200, size=16):
        if not 0 < count <= 30:
            raise ValueError("1 to 30 keys")
        if debounce_ms < 0 or long_ms <= 0 or repeat_ms <= 0 or size <= 0:
            raise ValueError("times and size must be positive")
        self.count = count
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self.repeat_ms = repeat_ms
        self._all = (1 << count) - 1
        self.raw = 0  # the last raw bitmap seen
        self.stable = 0  # the debounced bitmap: bit i set while key i is held
        self._pending = 0  # keys whose raw level differs from the stable one
        # Per key: when its raw level last changed; when the press was accepted (then
        # the next repeat's deadline); flags.
        self._since = [0] * count
        self._at = [0] * count
        self._flags = bytearray(count)
        self._ring = bytearray(2 * size)
        self._times = [0] * size  # each queued event's time (ticks_ms: small ints)
        self._size = size
        self._head = 0  # next to read
        self._len = 0
        self.dropped = 0
        self.at = 0  # the time of the event `get()` returned last

    # -- events --------------------------------------------------------------------------
    def _put(self, kind, key, at):
        if self._len >= self._size:
            self.dropped += 1
            return
        i = self._head + self._len
        if i >= self._size:
            i -= self._size
        self._ring[2 * i] = kind
        self._ring[2 * i + 1] = key
        self._times[i] = at
        self._len += 1

    def get(self):
        """The next event as `kind << 8 | key`, or -1 when there is none; its time is
        then `at`."""
        if not self._len:
            return NONE
        i = self._head
        self.at = self._times[i]
        ev = self._ring[2 * i] << 8 | self._ring[2 * i + 1]
        i += 1
        if i >= self._size:
            i = 0
        self._head = i
        self._len -= 1
        return ev

    def pending(self):
        """How many events wait for `get()`."""
        return self._len

    def clear(self):
        """Forget queued events and what is held (keys held now must be released first)."""
        self._head = 0
        self._len = 0
        for k in range(self.count):
            if self.stable >> k & 1:
                self._flags[k] = _LONG_SENT  # no repeat, and no event at its release
            else:
                self._flags[k] = 0

    # -- the scan ------------------------------------------------------------------------
    def update(self, raw, now_ms):
        """Feed one scan: `raw` is the key bitmap read now, at `now_ms`."""
        raw &= self._all
        changed = raw ^ self.raw
        self.raw = raw
        if changed:
            for k in range(self.count):
                if changed >> k & 1:
                    self._since[k] = now_ms  # every edge (bounce) restarts the wait
        self._pending = (raw ^ self.stable)
        if self._pending:
            self._settle(now_ms)
        if self.stable:
            self._held(now_ms)

    def take(self, state, at_ms):
        """Feed a key bitmap that is debounced already (the Pico's PIO scan), as it was
        at `at_ms`: the held keys are timed up to then for LONG and REPEAT as by
        `update`, then each changed key's new level is accepted, a release giving its
        PRESS. Changes queued while the CPU was stalled come in one after another,
        each with its own time (times must not go back): a key held 700 ms inside the
        stall is a LONG, a tap a PRESS."""
        state &= self._all
        self.raw = state
        if self.stable:
            self._held(at_ms)
        changed = state ^ self.stable
        if changed:
            for k in range(self.count):
                if changed >> k & 1:
                    self._flip(k, at_ms)

    def _settle(self, now_ms):
        pending = self._pending
        for k in range(self.count):
            if not pending >> k & 1:
                continue
            if ticks_diff(now_ms, self._since[k]) >= self.debounce_ms:
                self._flip(k, now_ms)

    def _flip(self, k, now_ms):
        """Key k's new level is accepted: a press starts its timing, a release of a
        short press gives PRESS."""
        bit = 1 << k
        self.stable ^= bit
        self._pending &= ~bit
        if self.stable & bit:  # pressed
            self._at[k] = now_ms
            self._flags[k] = _HELD
        else:  # released
            if self._flags[k] == _HELD:
                self._put(PRESS, k, now_ms)
            self._flags[k] = 0

    def _held(self, now_ms):
        stable = self.stable
        for k in range(self.count):
            if not stable >> k & 1:
                continue
            flags = self._flags[k]
            if not flags & _HELD:
                continue
            at = self._at[k]
            if not flags & _LONG_SENT:
                if ticks_diff(now_ms, at) >= self.long_ms:
                    self._put(LONG, k, ticks_add(at, self.long_ms))
                    self._flags[k] = _HELD | _LONG_SENT
                    self._at[k] = ticks_add(at, self.long_ms + self.repeat_ms)
            elif ticks_diff(now_ms, at) >= 0:
                self._put(REPEAT, k, at)
                # The next deadline on the grid; a stalled loop skips the missed ones.
                at = ticks_add(at, self.repeat_ms)
                while ticks_diff(now_ms, at) >= 0:
                    at = ticks_add(at, self.repeat_ms)
                self._at[k] = at
