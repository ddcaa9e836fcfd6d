"""The shot clock against docs/rules.md (seed 004 1.11) and docs/notation.md (`clock` keys).

Times are fed in by hand; the ticks count starts just before the 2**30 wrap wherever it
matters, so every test that runs a shot also crosses the wrap.
"""

import random

import host_tools  # noqa: F401
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from host_tools.measure.clock_drift import simulate_hour
from scoreboard.core import clock, ticks
from scoreboard.core.clock import EV_BEEP, EV_NONE, EV_TIME, EV_WARN, Settings, ShotClock

NEAR_WRAP = ticks.PERIOD - 2000


def at(ms):
    """The ticks count `ms` after a start 2 s before the wrap."""
    return ticks.wrap(NEAR_WRAP + ms)


def run(sc, start_ms, end_ms, step=1):
    """Tick every `step` ms from start_ms to end_ms: {ms: event} for each event."""
    events = {}
    t = start_ms
    while t <= end_ms:
        ev = sc.tick(at(t))
        if ev != EV_NONE:
            events[t] = ev
        t += step
    return events


# --- ticks ------------------------------------------------------------------------
def test_ticks_constants():
    assert ticks.PERIOD == 2**30
    assert ticks.MASK == 2**30 - 1
    assert ticks.HALF == 2**29


@given(st.integers(0, 2**30 - 1), st.integers(-(2**29), 2**29 - 1))
@example(2**30 - 1, 2**29 - 1)
@example(0, -(2**29))
def test_ticks_add_diff_reference(t, delta):
    u = ticks.ticks_add(t, delta)
    assert u == (t + delta) % 2**30
    assert ticks.ticks_diff(u, t) == delta


@given(st.integers(0, 2**30 - 1), st.integers(0, 2**30 - 1))
def test_ticks_diff_range(a, b):
    d = ticks.ticks_diff(a, b)
    assert -(2**29) <= d < 2**29
    assert (b + d) % 2**30 == a


def test_ticks_add_out_of_range():
    with pytest.raises(OverflowError):
        ticks.ticks_add(0, 2**29)
    with pytest.raises(OverflowError):
        ticks.ticks_add(0, -(2**29) - 1)
    assert ticks.ticks_add(0, -(2**29)) == 2**29


def test_wrap_masks_the_unix_ports_62_bit_ticks():
    raw = 2**62 - 5
    assert ticks.wrap(raw) == 2**30 - 5
    assert ticks.ticks_diff(ticks.wrap(raw + 10), ticks.wrap(raw)) == 10


class Small(int):
    """An int that fails as soon as a value leaves a 32-bit port's small-int range."""

    def __new__(cls, v):
        v = int(v)
        assert -(2**30) <= v < 2**30, "leaves the small-int range: %d" % v
        return int.__new__(cls, v)


for _name in ("add", "sub", "mul", "floordiv", "mod", "and", "or", "xor", "lshift",
              "rshift"):
    def _op(name):
        f = getattr(int, "__%s__" % name)
        r = getattr(int, "__r%s__" % name)
        return (lambda a, b: Small(f(a, b))), (lambda a, b: Small(r(a, b)))

    _f, _r = _op(_name)
    setattr(Small, "__%s__" % _name, _f)
    setattr(Small, "__r%s__" % _name, _r)
Small.__neg__ = lambda a: Small(-int(a))


@given(st.integers(0, 2**30 - 1), st.integers(-(2**29), 2**29 - 1))
@example(2**30 - 1, 2**29 - 1)
@example(2**30 - 1, 1)
@example(0, -(2**29))
@example(2**29, -(2**29))
def test_ticks_stays_in_pico_small_ints(t, delta):
    # On a Pico an int outside [-2**30, 2**30) is a heap object: the hot path would
    # allocate. Small() asserts on every intermediate value.
    u = ticks.ticks_add(Small(t), Small(delta))
    assert ticks.ticks_diff(Small(u), Small(t)) == delta
    assert ticks.ticks_diff(Small(t), Small(u)) in (-delta, -(2**29))


def test_clock_tick_stays_in_pico_small_ints():
    sc = ShotClock(clock.profile("pro"))
    now = Small(ticks.PERIOD - 2000)
    sc.start(now, 0)
    events = []
    for _ in range(40000):
        now = Small(ticks.ticks_add(now, Small(1)))
        ev = sc.tick(now)
        if ev:
            events.append(ev)
    assert events == [EV_BEEP] * 5 + [EV_TIME]


# --- settings and profiles ---------------------------------------------------------
def test_profiles():
    seed = clock.profile("seed")
    assert (seed.shot, seed.warn, seed.ext_count, seed.first, seed.beeps) == (45, 10, 0, 0, 0)
    wpa = clock.profile("wpa")
    assert (wpa.shot, wpa.warn, wpa.ext_count, wpa.ext_secs, wpa.first) == (35, 10, 1, 25, 60)
    pro = clock.profile("pro")
    assert (pro.shot, pro.beeps, pro.ext_count, pro.ext_secs) == (30, 5, 1, 30)
    assert clock.profile("off") is None
    for name in clock.PROFILES:
        s = clock.profile(name)
        if s is not None:
            s.validate()
    with pytest.raises(ValueError, match="unknown clock profile"):
        clock.profile("snooker")


def test_profiles_are_fresh_and_adjustable():
    a = clock.profile("wpa")
    a.shot = 40
    assert clock.profile("wpa").shot == 35
    sc = ShotClock(a)
    a.shot = 1  # the clock keeps its own copy
    assert sc.limit_ms == 40000


def test_parse_notation_keys():
    s = clock.parse_settings({"shot": "45", "warn": "10", "ext": "1x25", "first": "60",
                              "wait": "go"})
    assert s == Settings(shot=45, warn=10, ext_count=1, ext_secs=25, first=60, wait_go=True)
    assert clock.parse_settings({"shot": "30", "beeps": "5", "ext": "1x30"}).beeps == 5


def test_parse_defaults_follow_the_seed():
    s = clock.parse_settings({"shot": "45"})
    assert s == Settings(shot=45, warn=10)
    assert clock.parse_settings({"shot": "8"}).warn == 0  # no warning at or over the limit
    assert clock.parse_settings({"shot": "45", "first": "5"}).warn == 0


def test_parse_with_base_changes_only_given_keys():
    base = clock.profile("wpa")
    s = clock.parse_settings({"shot": "40"}, base)
    assert (s.shot, s.warn, s.ext_count, s.ext_secs, s.first) == (40, 10, 1, 25, 60)
    assert base.shot == 35


@pytest.mark.parametrize("keys, message", [
    ({}, "shot=S is required"),
    ({"shot": "0"}, "shot=0: must be 1 to 600"),
    ({"shot": "601"}, "shot=601: must be 1 to 600"),
    ({"shot": "-5"}, "shot=-5: a whole number"),
    ({"shot": "4.5"}, "shot=4.5: a whole number"),
    ({"shot": ""}, "shot=: a whole number"),
    ({"shot": " 45"}, "a whole number"),
    ({"shot": "45", "warn": "45"}, "warn=45: must be less than the shortest limit"),
    ({"shot": "45", "warn": "50"}, "warn=50"),
    ({"shot": "45", "ext": "125"}, "ext=125: NxS is needed"),
    ({"shot": "45", "ext": "1x"}, "ext=1x: a whole number"),
    ({"shot": "45", "ext": "1x25x3"}, "NxS is needed"),
    ({"shot": "45", "ext": "1x0"}, "an extension is 1 to 600"),
    ({"shot": "45", "ext": "10x5"}, "at most 9 extensions"),
    ({"shot": "45", "first": "700"}, "first=700"),
    ({"shot": "45", "warn": "10", "first": "5"}, "warn=10: must be less than the shortest"),
    ({"shot": "45", "beeps": "45"}, "beeps=45"),
    ({"shot": "45", "wait": "hit"}, "only wait=go"),
    ({"shot": "45", "limit": "3"}, "unknown clock key 'limit'"),
])
def test_parse_errors(keys, message):
    with pytest.raises(ValueError, match=message):
        clock.parse_settings(keys)


def test_ext_zero_means_none():
    s = clock.parse_settings({"shot": "45", "ext": "0x0"})
    assert s.ext_count == 0


def test_format_round_trips():
    for name in ("seed", "wpa", "pro"):
        s = clock.profile(name)
        text = clock.format_settings(s)
        keys = dict(item.split("=") for item in text.split())
        assert clock.parse_settings(keys) == s
    s = Settings(shot=20, warn=5, wait_go=True)
    assert clock.format_settings(s) == "shot=20 warn=5 wait=go"
    assert clock.format_settings(None) == ""


def test_configure_validates():
    with pytest.raises(ValueError):
        ShotClock(Settings(shot=45, warn=45))


# --- warning, beeps, TIME ----------------------------------------------------------
def test_seed_profile_warning_at_exactly_ten_seconds_left_and_time_once():
    sc = ShotClock(clock.profile("seed"))
    assert sc.enabled
    sc.start(at(0), 0)
    assert sc.running and not sc.expired
    events = run(sc, 1, 50000)
    assert events == {35000: EV_WARN, 45000: EV_TIME}
    assert sc.expired
    assert sc.remaining_ms(at(46000)) == -1000
    assert sc.seconds_left(at(46000)) == 0


def test_warning_the_millisecond_before_is_nothing():
    sc = ShotClock(clock.profile("seed"))
    sc.start(at(0), 1)
    assert sc.tick(at(34999)) == EV_NONE
    assert sc.seconds_left(at(34999)) == 11
    assert sc.tick(at(35000)) == EV_WARN
    assert sc.seconds_left(at(35000)) == 10
    assert sc.tick(at(35000)) == EV_NONE
    assert sc.tick(at(44999)) == EV_NONE
    assert sc.seconds_left(at(44999)) == 1
    assert sc.tick(at(45000)) == EV_TIME
    assert sc.tick(at(45000)) == EV_NONE
    assert sc.tick(at(90000)) == EV_NONE


def test_pro_profile_beeps_each_of_the_last_five_seconds():
    sc = ShotClock(clock.profile("pro"))
    sc.start(at(0), 0)
    events = run(sc, 1, 31000)
    assert events == {25000: EV_BEEP, 26000: EV_BEEP, 27000: EV_BEEP, 28000: EV_BEEP,
                      29000: EV_BEEP, 30000: EV_TIME}
    for t, secs in ((25000, 5), (26000, 4), (29000, 1), (29999, 1), (30000, 0)):
        assert sc.seconds_left(at(t)) == secs  # the display shows the beeping second


def test_warning_and_beeps_together():
    sc = ShotClock(Settings(shot=20, warn=10, beeps=3))
    sc.start(at(0), 0)
    assert run(sc, 1, 21000) == {10000: EV_WARN, 17000: EV_BEEP, 18000: EV_BEEP,
                                 19000: EV_BEEP, 20000: EV_TIME}


def test_warning_wins_over_a_beep_due_at_the_same_moment():
    sc = ShotClock(Settings(shot=20, warn=3, beeps=3))
    sc.start(at(0), 0)
    assert run(sc, 1, 21000) == {17000: EV_WARN, 18000: EV_BEEP, 19000: EV_BEEP,
                                 20000: EV_TIME}


def test_late_tick_folds_events_and_never_loses_time():
    sc = ShotClock(Settings(shot=20, warn=10, beeps=5))
    sc.start(at(0), 0)
    assert sc.tick(at(5000)) == EV_NONE
    assert sc.tick(at(25000)) == EV_TIME  # warning and beeps all overdue: TIME wins
    assert sc.tick(at(25001)) == EV_NONE
    sc.start(at(30000), 1)
    assert sc.tick(at(30000 + 16500)) == EV_WARN  # warning and the 5 s and 4 s beeps
    assert sc.tick(at(30000 + 16600)) == EV_NONE  # the 4 s beep is not sounded late
    assert sc.tick(at(30000 + 17000)) == EV_BEEP
    assert sc.tick(at(30000 + 19999)) == EV_BEEP  # 1 s beep, 999 ms late, still in its second
    assert sc.tick(at(30000 + 20000)) == EV_TIME


@pytest.mark.parametrize("seed", range(20))
def test_jittery_loop_across_the_wrap_each_event_once_and_on_time(seed):
    rng = random.Random(seed)
    settings = Settings(shot=30, warn=10, beeps=5)
    sc = ShotClock(settings)
    start = rng.randint(0, 1999)  # the wrap falls inside the shot
    sc.start(at(start), 0)
    t = start
    seen = []
    while t < start + 32000:
        t += rng.randint(1, 37)
        ev = sc.tick(at(t))
        if ev:
            seen.append((ev, t - start))
    kinds = [ev for ev, _ in seen]
    assert kinds == [EV_WARN, EV_BEEP, EV_BEEP, EV_BEEP, EV_BEEP, EV_BEEP, EV_TIME]
    dues = [20000, 25000, 26000, 27000, 28000, 29000, 30000]
    for (_, late), due in zip(seen, dues):
        assert due <= late < due + 37  # on the first pass at or after the moment


# --- starting, stopping, statistics ------------------------------------------------
def test_stop_returns_each_shots_duration():
    sc = ShotClock(clock.profile("seed"))
    sc.start(at(0), 0)
    assert sc.stop(at(12345)) == 12345
    assert not sc.running
    assert sc.remaining_ms(at(20000)) == 45000 - 12345  # frozen at the strike
    sc.start(at(20000), 1)
    assert sc.stop(at(20000 + 3000)) == 3000
    sc.start(at(30000), 0)
    assert sc.stop(at(30000 + 20000)) == 20000
    assert sc.stop(at(60000)) == -1  # nothing running


def test_a_shot_over_time_counts_its_whole_duration_and_is_not_a_foul():
    sc = ShotClock(clock.profile("seed"))
    sc.start(at(0), 1)
    assert run(sc, 500, 47000, step=500) == {35000: EV_WARN, 45000: EV_TIME}
    assert sc.running  # TIME only: the referee confirms `foul time`, the player may strike
    assert sc.stop(at(47000)) == 47000


def test_off_clock_does_nothing():
    sc = ShotClock()
    assert not sc.enabled
    assert sc.start(at(0), 0) is False
    assert sc.tick(at(100000)) == EV_NONE
    assert not sc.running
    assert sc.stop(at(1)) == -1
    assert sc.extend(at(1)) is False
    assert sc.remaining_ms(at(5)) == 0


def test_clock_on_mid_match_and_off():
    sc = ShotClock()
    sc.configure(clock.parse_settings({"shot": "45"}))  # `clock on shot=45`
    assert sc.enabled and sc.limit_ms == 45000
    assert sc.remaining_ms(at(0)) == 45000  # shown before the first shot
    sc.start(at(0), 0)
    sc.off()  # `clock off`
    assert not sc.enabled and not sc.running
    assert sc.tick(at(50000)) == EV_NONE


def test_start_replaces_a_running_shot_without_counting_it():
    sc = ShotClock(clock.profile("seed"))
    sc.start(at(0), 0)
    sc.start(at(5000), 1)
    assert sc.side == 1
    assert sc.remaining_ms(at(5000)) == 45000
    assert sc.stop(at(6000)) == 1000  # the replacing shot, from its own start


def test_first_shot_limit():
    sc = ShotClock(clock.profile("wpa"))
    sc.new_frame()
    sc.start(at(0), 1, first=True)
    assert sc.first and sc.limit_ms == 60000
    assert run(sc, 1, 61000) == {50000: EV_WARN, 60000: EV_TIME}
    sc.start(at(70000), 0)  # any later shot has the normal limit
    assert not sc.first and sc.limit_ms == 35000


def test_first_without_a_first_limit_is_a_normal_shot():
    sc = ShotClock(Settings(shot=30, warn=10, ext_count=1, ext_secs=20))
    sc.start(at(0), 0, first=True)
    assert not sc.first and sc.limit_ms == 30000
    assert sc.extend(at(100)) is True


# --- extensions --------------------------------------------------------------------
def test_extension_adds_exactly_ext_seconds_once_per_side_per_frame():
    sc = ShotClock(clock.profile("wpa"))
    sc.start(at(0), 0)
    assert sc.extensions_left(0) == 1 and sc.extensions_left(1) == 1
    assert sc.remaining_ms(at(30000)) == 5000
    assert sc.extend(at(30000)) is True
    assert sc.remaining_ms(at(30000)) == 30000
    assert sc.extensions_left(0) == 0 and sc.extensions_left(1) == 1
    assert sc.limit_ms == 60000
    assert sc.extend(at(30001)) is False  # none left
    assert sc.remaining_ms(at(30001)) == 29999
    assert run(sc, 30001, 61000) == {50000: EV_WARN, 60000: EV_TIME}
    assert sc.stop(at(61000)) == 61000
    sc.start(at(70000), 0)
    assert sc.extend(at(71000)) is False  # side 0 has used its extension this frame
    sc.start(at(80000), 1)
    assert sc.extend(at(81000)) is True  # side 1 has its own
    sc.new_frame()
    assert sc.extensions_left(0) == 1 and sc.extensions_left(1) == 1
    assert not sc.running


def test_extension_rearms_the_warning_and_countdown():
    sc = ShotClock(Settings(shot=30, warn=10, ext_count=1, ext_secs=30, beeps=3))
    sc.start(at(0), 0)
    assert run(sc, 1, 28000) == {20000: EV_WARN, 27000: EV_BEEP, 28000: EV_BEEP}
    assert sc.extend(at(28500)) is True  # 1.5 s + 30 s left
    assert run(sc, 28501, 61000) == {50000: EV_WARN, 57000: EV_BEEP, 58000: EV_BEEP,
                                     59000: EV_BEEP, 60000: EV_TIME}


def test_extension_refused_on_a_first_shot_after_expiry_and_when_idle():
    sc = ShotClock(clock.profile("wpa"))
    sc.start(at(0), 0, first=True)
    assert sc.extend(at(1000)) is False
    assert sc.extensions_left(0) == 1
    assert sc.limit_ms == 60000
    sc.start(at(70000), 1)
    assert sc.extend(at(70000 + 35000)) is False  # already out of time, tick or not
    assert sc.tick(at(70000 + 35000)) == EV_TIME
    assert sc.extend(at(70000 + 35001)) is False
    assert sc.extensions_left(1) == 1
    sc.stop(at(110000))
    assert sc.extend(at(110001)) is False


def test_multiple_extensions():
    sc = ShotClock(clock.parse_settings({"shot": "30", "ext": "2x15"}))
    sc.start(at(0), 1)
    assert sc.extend(at(1)) and sc.extend(at(2))
    assert not sc.extend(at(3))
    assert sc.remaining_ms(at(0)) == 60000


# --- suspended play ----------------------------------------------------------------
def test_pause_and_resume_keep_the_remaining_time_exactly():
    sc = ShotClock(clock.profile("seed"))
    sc.start(at(0), 0)
    assert sc.pause(at(12345)) is True
    assert sc.suspended and not sc.running and sc.active
    assert sc.pause(at(12346)) is False
    assert sc.remaining_ms(at(500000)) == 45000 - 12345
    assert sc.tick(at(500000)) == EV_NONE
    assert sc.resume(at(600000)) is True
    assert sc.resume(at(600001)) is False
    assert sc.remaining_ms(at(600000)) == 45000 - 12345
    events = run(sc, 600001, 700000, step=7)
    deadline = 600000 + 45000 - 12345
    assert sorted(events.items())[-1][1] == EV_TIME
    t_time = max(events)
    assert deadline <= t_time < deadline + 7
    assert sc.stop(at(deadline)) == 45000  # the suspension is not counted


def test_pause_inside_the_warning_window_then_extend():
    sc = ShotClock(clock.profile("wpa"))
    sc.start(at(0), 0)
    assert sc.tick(at(25000)) == EV_WARN
    sc.pause(at(30000))
    assert sc.extend(at(40000)) is True  # while suspended
    assert sc.remaining_ms(at(99999)) == 30000
    sc.resume(at(100000))
    assert run(sc, 100001, 131000) == {120000: EV_WARN, 130000: EV_TIME}


def test_start_while_suspended_waits_for_resume():
    sc = ShotClock(clock.profile("seed"))
    sc.pause(at(0))
    sc.start(at(1000), 0)
    assert sc.remaining_ms(at(50000)) == 45000
    assert sc.tick(at(50000)) == EV_NONE
    sc.resume(at(60000))
    assert sc.remaining_ms(at(61000)) == 44000


# --- zero drift --------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2])
def test_an_hour_of_shots_has_zero_drift_unlike_a_naive_counter(seed):
    ticks_error, naive_error = simulate_hour(seed)
    print("seed %d: ticks clock %d ms, naive clock %d ms" % (seed, ticks_error, naive_error))
    assert ticks_error == 0
    assert naive_error > 10000


def test_one_table_of_clock_profiles_and_the_orders_the_box_offers_them_in():
    from scoreboard.core import clocksettings as cs
    from scoreboard.keys.menus import CLOCK_MENU_PROFILES
    from scoreboard.startmenu import CLOCKS

    assert sorted(cs.SETUP_ORDER) == sorted(cs.PROFILES) and CLOCKS is cs.SETUP_ORDER
    assert sorted(cs.MENU_ORDER + ("off",)) == sorted(cs.PROFILES)
    assert CLOCK_MENU_PROFILES is cs.MENU_ORDER
    for name in cs.PROFILES:
        cs.profile(name)  # each has its settings
