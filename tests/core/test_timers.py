"""Match stopwatch and the late-start timer (docs/rules.md: late start 1.7, suspended play
1.12), driven by hand across the 2**30 ticks wrap."""

import random

import host_tools  # noqa: F401
import pytest

from scoreboard.core import ticks
from scoreboard.core.timekeeper import LateStart, Stopwatch

NEAR_WRAP = ticks.PERIOD - 2000
MIN = 60 * 1000


def at(ms):
    return ticks.wrap(NEAR_WRAP + ms)


def test_stopwatch_counts_across_the_wrap():
    sw = Stopwatch()
    assert not sw.started and sw.elapsed_ms(at(0)) == 0
    sw.start(at(0))
    assert sw.running
    assert sw.elapsed_ms(at(1999)) == 1999
    assert sw.elapsed_ms(at(2001)) == 2001  # past the wrap
    assert sw.elapsed_ms(at(3 * 3600 * 1000)) == 3 * 3600 * 1000


def test_stopwatch_pause_is_not_counted():
    sw = Stopwatch()
    sw.start(at(0))
    assert sw.pause(at(10000)) is True
    assert sw.pause(at(10001)) is False
    assert sw.elapsed_ms(at(999999)) == 10000
    assert sw.resume(at(1000000)) is True
    assert sw.resume(at(1000001)) is False
    assert sw.elapsed_ms(at(1005000)) == 15000
    sw.start(at(2000000))  # restart from zero
    assert sw.elapsed_ms(at(2000100)) == 100
    sw.reset()
    assert not sw.started and sw.elapsed_ms(at(3000000)) == 0
    assert sw.resume(at(3000000)) is False  # never started


def test_stopwatch_many_pauses_sum_exactly():
    rng = random.Random(5)
    sw = Stopwatch()
    t = 0
    sw.start(at(t))
    expected = 0
    for _ in range(2000):  # about 7 hours of play with 2000 suspensions
        run = rng.randint(1, 20000)
        t += run
        expected += run
        sw.pause(at(t))
        t += rng.randint(0, 5000)
        sw.resume(at(t))
    assert sw.elapsed_ms(at(t)) == expected


def test_stopwatch_stretch_limit_is_half_the_period():
    # Documented limit: one running stretch must stay under 2**29 ms (about 6.2 days).
    sw = Stopwatch()
    sw.start(at(0))
    assert sw.elapsed_ms(at(ticks.HALF - 1)) == ticks.HALF - 1
    assert ticks.HALF // (24 * 3600 * 1000) == 6


def test_late_start_fifteen_minutes_by_default():
    assert LateStart().limit_ms == 900 * 1000  # 15 minutes unless told
    ls = LateStart()
    assert not ls.active and not ls.due(at(0))
    assert ls.remaining_ms(at(0)) == 15 * MIN
    ls.call(at(0))
    assert ls.active
    assert not ls.due(at(15 * MIN - 1))
    assert ls.remaining_ms(at(15 * MIN - 1)) == 1
    assert ls.due(at(15 * MIN))
    assert ls.remaining_ms(at(20 * MIN)) == 0


def test_late_start_is_paused_while_suspended():
    ls = LateStart(limit_s=600)
    ls.call(at(0))
    ls.pause(at(5 * MIN))
    assert not ls.due(at(60 * MIN))
    assert ls.remaining_ms(at(60 * MIN)) == 5 * MIN
    ls.resume(at(60 * MIN))
    assert not ls.due(at(65 * MIN - 1))
    assert ls.due(at(65 * MIN))


def test_late_start_cancel_and_call_again():
    ls = LateStart()
    ls.call(at(0))
    ls.cancel()
    assert not ls.active and not ls.due(at(60 * MIN))
    ls.call(at(60 * MIN))
    assert not ls.due(at(74 * MIN))
    assert ls.due(at(75 * MIN))


@pytest.mark.parametrize("step", [1, 17, 37])
def test_late_start_fires_on_the_first_pass_at_or_after_the_limit(step):
    ls = LateStart(limit_s=5)
    ls.call(at(0))
    t = 0
    while not ls.due(at(t)):
        t += step
    assert 5000 <= t < 5000 + step
