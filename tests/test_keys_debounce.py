"""The key debouncer (firmware/scoreboard/keys/debounce.py), from the contract:
PRESS at release of a short press, LONG once when held past long_ms, REPEAT every
repeat_ms after it while held; bouncing contacts give one event; times wrap at 2**30.
The allocation-free scan runs under MicroPython's heap lock in test_keys_micropython.py.
"""

import pytest
from scoreboard.core import ticks
from scoreboard.keys import debounce
from scoreboard.keys.debounce import LONG, PRESS, REPEAT, Debouncer

SCAN = 10  # ms between scans, as the app's key task


class Keypad:
    """A fake keypad scanned every SCAN ms; `start` is the first scan's tick count."""

    def __init__(self, start=0, **kw):
        self.d = Debouncer(**kw)
        self.t = start
        self.raw = 0
        self.events = []  # (ms since start, kind, key)
        self.t0 = start

    def scan(self, raw=None, ms=SCAN):
        if raw is not None:
            self.raw = raw
        self.t = ticks.ticks_add(self.t, ms)
        self.d.update(self.raw, self.t)
        ev = self.d.get()
        while ev >= 0:
            self.events.append((ticks.ticks_diff(self.t, self.t0), ev >> 8, ev & 0xFF))
            ev = self.d.get()

    def hold(self, raw, ms):
        """Hold `raw` for `ms` (scanning every SCAN)."""
        for _ in range(ms // SCAN):
            self.scan(raw)

    def bounce(self, key, down, pattern=(1, 0, 1, 0, 1)):
        """Contacts chattering at 1 ms per sample, ending at the level `down`."""
        bit = 1 << key
        for level in pattern:
            self.scan(self.raw | bit if level == down else self.raw & ~bit, ms=1)

    def kinds(self):
        return [(k, key) for _, k, key in self.events]


def test_kinds_are_the_contract_numbers():
    assert (debounce.PRESS, debounce.LONG, debounce.REPEAT) == (1, 2, 3)
    d = Debouncer()
    assert d.get() == -1
    assert (d.count, d.debounce_ms, d.long_ms, d.repeat_ms) == (16, 20, 700, 200)


def test_short_press_reported_at_release():
    k = Keypad()
    k.hold(1 << 5, 100)
    assert k.events == []  # nothing while held
    k.hold(0, 50)
    assert k.kinds() == [(PRESS, 5)]


def test_press_shorter_than_debounce_is_ignored():
    k = Keypad()
    k.scan(1 << 3, ms=10)
    k.scan(0, ms=5)  # a 5 ms glitch
    k.hold(0, 100)
    assert k.events == []


def test_bouncing_contacts_give_one_press():
    k = Keypad()
    k.bounce(7, down=True)
    k.hold(1 << 7, 80)
    k.bounce(7, down=False)
    k.hold(0, 80)
    assert k.kinds() == [(PRESS, 7)]


def test_bounce_restarts_the_wait():
    # Raw pressed for 15 ms, 2 ms open, then pressed: accepted 20 ms after the last edge.
    d = Debouncer()
    d.update(1, 0)
    d.update(1, 15)
    d.update(0, 16)
    d.update(1, 18)
    d.update(1, 37)
    assert d.stable == 0
    d.update(1, 38)
    assert d.stable == 1
    d.update(0, 100)
    d.update(0, 125)
    assert d.get() == PRESS << 8 | 0


def test_long_then_repeats_and_no_press_at_release():
    k = Keypad()
    k.hold(1 << 15, 1500)
    times = [(t, kind) for t, kind, _ in k.events]
    assert times[0][1] == LONG
    # first seen at the 10 ms scan, accepted 20 ms later (debounce), long 700 ms after
    # that, then repeats every 200 ms
    assert times[0][0] == 730
    assert [t for t, kind in times[1:]] == [930, 1130, 1330]
    assert all(kind == REPEAT for _, kind in times[1:])
    k.hold(0, 100)
    assert len(k.events) == 4  # no PRESS after a long press


def test_repeat_not_before_long():
    k = Keypad(long_ms=300, repeat_ms=100)
    k.hold(1, 310)
    assert k.kinds() == []  # accepted at 30, so long at 330
    k.hold(1, 20)
    assert k.kinds() == [(LONG, 0)]


def test_two_keys_at_once_are_independent():
    k = Keypad()
    k.hold(1 << 0, 30)
    k.hold(1 << 0 | 1 << 9, 100)
    k.hold(1 << 9, 100)  # key 0 released first
    k.hold(0, 50)
    assert k.kinds() == [(PRESS, 0), (PRESS, 9)]


def test_long_press_across_the_ticks_wrap():
    k = Keypad(start=ticks.PERIOD - 300)
    k.hold(1 << 4, 1200)
    assert k.t < 1000  # the count wrapped during the hold
    assert [(t, kind) for t, kind, _ in k.events[:2]] == [(730, LONG), (930, REPEAT)]
    k.hold(0, 50)
    assert all(kind != PRESS for _, kind, _ in k.events)


def test_short_press_across_the_ticks_wrap():
    k = Keypad(start=ticks.MASK - 15)
    k.bounce(2, down=True)
    k.hold(1 << 2, 60)
    k.bounce(2, down=False)
    k.hold(0, 60)
    assert k.kinds() == [(PRESS, 2)]


def test_stalled_loop_skips_missed_repeats():
    d = Debouncer()
    d.update(1, 0)
    d.update(1, 20)
    d.update(1, 720)
    assert d.get() == LONG << 8
    d.update(1, 2000)  # the loop stalled for over a second
    assert d.get() == REPEAT << 8
    assert d.get() == -1
    d.update(1, 2100)
    assert d.get() == -1  # the next repeat stays on the 200 ms grid (2120)
    d.update(1, 2120)
    assert d.get() == REPEAT << 8


def test_ring_full_drops_the_newest():
    d = Debouncer(size=2)
    t = 0
    for key in (0, 1, 2):
        d.update(1 << key, t)
        d.update(1 << key, t + 20)
        d.update(0, t + 50)
        d.update(0, t + 70)
        t += 100
    assert d.dropped == 1
    assert d.pending() == 2
    assert [d.get(), d.get(), d.get()] == [PRESS << 8 | 0, PRESS << 8 | 1, -1]


def test_ring_wraps_around():
    d = Debouncer(size=3)
    t = 0
    seen = []
    for i in range(10):
        key = i % 16
        d.update(1 << key, t)
        d.update(1 << key, t + 20)
        d.update(0, t + 50)
        d.update(0, t + 70)
        t += 100
        seen.append(d.get())
    assert seen == [PRESS << 8 | (i % 16) for i in range(10)]


def test_clear_forgets_events_and_the_key_held():
    d = Debouncer()
    d.update(1, 0)
    d.update(1 | 2, 20)
    d.update(2, 50)
    d.update(2, 70)  # key 0 pressed and released: a PRESS waits
    d.clear()
    assert d.get() == -1
    d.update(2, 2000)  # key 1 still held: no LONG or REPEAT after the clear
    d.update(0, 2100)
    d.update(0, 2130)
    assert d.get() == -1


def test_bits_beyond_count_are_ignored():
    d = Debouncer(count=4)
    d.update(0xFFF0, 0)
    d.update(0xFFF0, 50)
    assert d.stable == 0


@pytest.mark.parametrize("kw", [{"count": 0}, {"count": 31}, {"long_ms": 0},
                                {"repeat_ms": 0}, {"size": 0}, {"debounce_ms": -1}])
def test_bad_settings_are_refused(kw):
    with pytest.raises(ValueError):
        Debouncer(**kw)


# -- times: each event keeps when it happened (the app stamps the journal with it) -------

def test_each_event_keeps_its_time():
    d = Debouncer()
    d.update(1 << 3, 0)
    d.update(1 << 3, 20)
    d.update(0, 100)
    d.update(0, 120)  # the release accepted (debounced) at 120
    assert (d.get(), d.at) == (PRESS << 8 | 3, 120)
    d.update(1 << 5, 200)
    d.update(1 << 5, 220)  # held from 220
    d.update(1 << 5, 1000)  # the loop looked late: the LONG was due at 920
    assert (d.get(), d.at) == (LONG << 8 | 5, 920)


def take_all(d, changes):
    """Hand `changes` [(bitmap, at)] to `d.take` in one go, as a PIO board does with what
    queued while the CPU was stalled; the events as (kind, key, at)."""
    for state, at in changes:
        d.take(state, at)
    out = []
    ev = d.get()
    while ev >= 0:
        out.append((ev >> 8, ev & 0xFF, d.at))
        ev = d.get()
    return out


def test_changes_handed_over_late_keep_their_own_times():
    """Three taps that queued during a 400 ms stall: three PRESSes at their releases,
    not at the time they were handed over."""
    d = Debouncer()
    changes = [(1 << 1, 1000), (0, 1030), (1 << 2, 1125), (0, 1155), (1 << 1, 1250), (0, 1280)]
    assert take_all(d, changes) == [(PRESS, 1, 1030), (PRESS, 2, 1155), (PRESS, 1, 1280)]


def test_a_long_press_inside_a_stall_is_long_at_its_time():
    """Held 800 ms and released before the CPU looked: a LONG (at press + long_ms), no
    PRESS at its release; a short one after it is a PRESS."""
    d = Debouncer()
    changes = [(1 << 7, 100), (0, 900), (1 << 7, 1000), (0, 1040)]
    assert take_all(d, changes) == [(LONG, 7, 800), (PRESS, 7, 1040)]


def test_take_across_the_ticks_wrap():
    d = Debouncer()
    start = ticks.MASK - 10
    changes = [(1 << 0, start), (0, ticks.ticks_add(start, 40))]
    assert take_all(d, changes) == [(PRESS, 0, ticks.ticks_add(start, 40))]
