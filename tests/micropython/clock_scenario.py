"""One deterministic shot-clock scenario, printed line by line.

Runs unchanged under CPython and MicroPython; the test compares the two outputs (CPython
is the oracle). The jitter comes from a small LCG, not `random`, so both interpreters see
the same loop steps; the ticks count starts 2 s before the 2**30 wrap.
"""

import _paths

_paths.setup(__file__)

from scoreboard.core import clock, ticks  # noqa: E402
from scoreboard.core import timekeeper as timers  # noqa: E402

NAMES = ("none", "beep", "warn", "TIME")


class Loop:
    def __init__(self, seed):
        self.x = seed
        self.t = 0  # ms since the scenario started
        self.start = ticks.PERIOD - 2000

    def now(self):
        return ticks.wrap(self.start + self.t)

    def step(self):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        self.t += 1 + (self.x >> 16) % 37
        return self.now()


def run_until(sc, loop, end_t, label):
    while loop.t < end_t:
        now = loop.step()
        ev = sc.tick(now)
        if ev:
            print(label, NAMES[ev], "t=" + str(loop.t), "left=" + str(sc.remaining_ms(now)),
                  "secs=" + str(sc.seconds_left(now)))


def settings_part():
    for name in clock.PROFILES:
        print("profile", name, clock.format_settings(clock.profile(name)))
    for keys in ({"shot": "45", "warn": "10", "ext": "1x25", "first": "60", "wait": "go"},
                 {"shot": "30"}, {"shot": "8"}, {"shot": "0"}, {"shot": "45", "warn": "45"},
                 {"shot": "45", "ext": "2"}, {"shot": "45", "ext": "1xa"},
                 {"shot": "45", "wait": "now"}, {"shot": "45", "colour": "red"}, {}):
        try:
            print("parse ok", clock.format_settings(clock.parse_settings(keys)))
        except ValueError as e:
            print("parse error", str(e))


def shots_part():
    loop = Loop(2024)
    sc = clock.ShotClock(clock.profile("wpa"))
    sc.start(loop.now(), 1, True)
    print("first shot limit", sc.limit_ms, "extend", sc.extend(loop.now()))
    run_until(sc, loop, 61000, "wpa first")
    print("stop", sc.stop(loop.now()) > 60000)
    base = loop.t
    sc.start(loop.now(), 0)
    run_until(sc, loop, base + 28000, "wpa")
    print("extend", sc.extend(loop.now()), "again", sc.extend(loop.now()),
          "left", sc.extensions_left(0), sc.extensions_left(1))
    run_until(sc, loop, base + 40000, "wpa ext")
    sc.pause(loop.now())
    held = sc.remaining_ms(loop.now())
    loop.t += 300000
    sc.resume(loop.now())
    print("held", held == sc.remaining_ms(loop.now()))
    run_until(sc, loop, base + 300000 + 65000, "wpa ext")
    used = sc.stop(loop.now())
    print("used", used)
    sc.new_frame()
    print("new frame", sc.extensions_left(0), sc.extensions_left(1), sc.running)

    sc.configure(clock.profile("pro"))
    for i in range(3):
        base = loop.t
        sc.start(loop.now(), i & 1)
        run_until(sc, loop, base + 31000, "pro " + str(i))
        print("pro stop", sc.stop(loop.now()) >= 30000)
    sc.off()
    print("off", sc.enabled, sc.start(loop.now(), 0))


def timers_part():
    loop = Loop(7)
    late = timers.LateStart()
    late.call(loop.now())
    watch = timers.Stopwatch()
    watch.start(loop.now())
    suspended = False
    while not late.due(loop.now()):
        loop.step()
        if loop.t > 100000 and not suspended:  # a minute of suspended play
            suspended = True
            late.pause(loop.now())
            watch.pause(loop.now())
            loop.t += 60000
            late.resume(loop.now())
            watch.resume(loop.now())
    print("late due at", loop.t, "watch", watch.elapsed_ms(loop.now()))


settings_part()
shots_part()
timers_part()
print("done")
