"""A key script played on the box, printing what its panel says after every line: the
referee's view of issue 17 (tests/test_referee_screens.py).

Runs unchanged under CPython, the MicroPython unix port and the 32-bit build with the
firmware frozen in; the test compares the three outputs. The box is the real app on the
host board (host_tools/mp/device.py's Runner, the one behind `scoreboard device`):

    micropython tests/micropython/referee_keys.py --flash DIR < SCRIPT

SCRIPT is a key script as `scoreboard device --keys` reads one: a key name a line
(`NAME long` for a long press), `@MS` to let that many milliseconds pass first, `#`
comments. A short press takes HOLD_MS + GAP_MS of virtual time, a long one LONG_MS +
GAP_MS. After the start and after every line it prints

    LINE|kind|entry|hint|banner|menu title|footer's clock|e-ink refreshes|late start

(the screen the app fills, `None` for what is not there; the footer's clock as the
score screen writes it; the e-ink refreshes so far, partial+full; a called match's late
start as the score screen's prompt says it). A key that is not
on the legend prints `? why`.
"""

import sys

import _paths

_paths.setup(__file__)

from device import HOLD_MS, LONG_MS, Runner  # noqa: E402
from mp_args import option  # noqa: E402

from scoreboard.ui import model  # noqa: E402


def said(runner):
    app = runner.app
    s = app.screen
    clock = model.clock_words(app.match) if app.match is not None else None
    refreshes = runner.board.refreshes
    return "%s|%s|%s|%s|%s|%s|%d|%s" % (s.kind, s.entry, s.hint, model.banner(s),
                                        s.menu_title if s.kind == "menu" else None, clock,
                                        refreshes[0] + refreshes[1], model.late_words(s))


def play(runner, line):
    words = line.split()
    if words[0].startswith("@"):
        runner.wait(int(words[0][1:]))
        words = words[1:]
    if words:
        runner.press(words[0], LONG_MS if len(words) > 1 else HOLD_MS)


def main():
    runner = Runner(option("--flash", "flash"))
    runner.wait(3000)
    print("start|" + said(runner))
    while True:
        raw = sys.stdin.readline()
        if not raw:
            break
        line = raw.split("#")[0].strip()
        if not line:
            continue
        try:
            play(runner, line)
        except ValueError as e:
            print("? %s" % e)
            continue
        print(line + "|" + said(runner))
    runner.app.stop()
    print("stopped")


main()
