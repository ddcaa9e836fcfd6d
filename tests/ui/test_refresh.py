"""The e-ink refresh policy (scoreboard/ui/refresh.py) on its own: no app, no board."""

from scoreboard.core.ticks import MASK
from scoreboard.ui.refresh import FULL_EVERY, LATEST_MS, QUIET_MS, Refresh


def _taken(r, now):
    full = r.due(now)
    if full is not None:
        r.taken(full)
    return full


def test_nothing_is_due_without_a_change():
    r = Refresh()
    assert r.due(0) is None and r.due(10**6) is None


def test_the_first_picture_goes_up_at_once_in_full():
    r = Refresh()
    r.changed(100, True)
    assert _taken(r, 100) is True
    assert r.due(100) is None


def test_fast_changes_are_coalesced_until_quiet():
    r = Refresh()
    r.changed(0, True)
    _taken(r, 0)
    r.changed(1000)
    assert r.due(1000 + QUIET_MS - 1) is None
    r.changed(1300)  # another key: the quiet time starts again
    assert r.due(1000 + QUIET_MS) is None
    assert _taken(r, 1300 + QUIET_MS) is False


def test_a_change_waits_no_longer_than_latest():
    r = Refresh()
    r.changed(0, True)
    _taken(r, 0)
    t = 5000
    while t < 5000 + LATEST_MS:  # a key every 300 ms: never quiet
        r.changed(t)
        assert r.due(t) is None
        t += 300
    assert _taken(r, 5000 + LATEST_MS) is False


def test_full_when_asked_and_every_tenth():
    r = Refresh()
    r.changed(0, True)
    _taken(r, 0)
    got = []
    for n in range(FULL_EVERY):
        t = 1000 * (n + 1)
        r.changed(t)
        got.append(_taken(r, t + QUIET_MS))
    assert got == [False] * (FULL_EVERY - 1) + [True]
    r.changed(50000)
    r.changed(50100, True)  # a frame's end among the partial changes
    assert _taken(r, 50100 + QUIET_MS) is True


def test_ticks_that_wrap():
    r = Refresh()
    r.changed(0, True)
    _taken(r, 0)
    r.changed(MASK - 100)
    assert r.due((MASK - 100 + QUIET_MS - 1) & MASK) is None
    assert r.due((MASK - 100 + QUIET_MS) & MASK) is False
