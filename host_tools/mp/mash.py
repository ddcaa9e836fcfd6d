"""Key mashing: random presses into the real app on the host board, with resets at random
moments; after every press the journal must replay to the state the screens show.

    micropython host_tools/mp/mash.py --flash DIR --seed S --presses N [--reset-every R]

DIR must hold a `queue/` of prepared matches (the caller writes them). Keys are chosen
uniformly from the legend in play, one in ten held long, with random gaps (now and then
a long wait, so the shot clock runs out). About one press in R (default 400) is followed
by a power cut: the app is dropped without stopping and a new one boots on the same
flash. Checks, after every press:
- the app is running and not on the error screen;
- a replay of the journal's lines (a second Match, fed with every line the journal has
  gained) gives the same replay JSON as the Match the screens draw;
- after a reset, the recovered match gives that JSON too;
- the rules' invariants: scores are whole numbers, snooker scores never negative,
  `remaining` never below 0, reds between 0 and the header's.
Prints `mash presses P lines L resets R matches M refused F` and exits 0, or prints the
first failure (`FAIL press N: why`) and exits 1. Same numbers on every interpreter: the
random numbers come from a small xorshift, not the port's `random`.
"""

import sys

from device import GAP_MS, HOLD_MS, LONG_MS, Runner

from scoreboard.core.notation import Reader
from replay_json import to_json

MASK = 0x3FFFFFFF


class Rand:
    """xorshift on 30 bits: small ints on every port, the same sequence everywhere."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 1) & MASK or 1

    def below(self, n):
        x = self.x
        x ^= (x << 13) & MASK
        x ^= x >> 17
        x ^= (x << 5) & MASK
        self.x = x
        return x % n


class Shadow:
    """The journal replayed line by line, as the host would read it."""

    def __init__(self, path):
        self.path = path
        self.pos = 0
        self.reader = Reader(True)
        self.match = None
        self.lines = 0

    def catch_up(self):
        with open(self.path, "rb") as f:
            f.seek(self.pos)
            data = f.read()
        end = data.rfind(b"\n") + 1
        self.pos += end
        for raw in data[:end].decode().split("\n")[:-1]:
            self.lines += 1
            event = self.reader.feed(raw)
            if event is None:
                continue
            if self.match is None:
                from scoreboard.core.match import Match

                self.match = Match(self.reader.header)
            self.match.apply(event)


def invariants(match):
    v = match.current()
    if v is None:
        return None
    view = match.view()
    if match.family == "snooker":
        if view.score[0] < 0 or view.score[1] < 0:
            return "a negative snooker score"
        if view.remaining < 0:
            return "remaining below 0"
        if not 0 <= view.reds <= match.header.reds:
            return "reds out of range"
    return None


def main():
    argv = sys.argv
    flash = argv[argv.index("--flash") + 1]
    seed = int(argv[argv.index("--seed") + 1])
    presses = int(argv[argv.index("--presses") + 1])
    every = int(argv[argv.index("--reset-every") + 1]) if "--reset-every" in argv else 400
    rnd = Rand(seed)
    runner = Runner(flash)
    runner.wait(100)
    shadow = None
    resets = matches = refused = lines = 0
    for n in range(1, presses + 1):
        app = runner.app
        names = app.names
        name = names[rnd.below(len(names))]
        runner.press(name, LONG_MS if rnd.below(10) == 0 else HOLD_MS,
                         5000 if rnd.below(300) == 0 else GAP_MS + rnd.below(200))
        if app.screen.message:
            refused += 1
        if app.stopped or app.screen.kind == "error":
            print("FAIL press %d (%s): %s" % (n, name, app.screen.error or "stopped"))
            return 1
        stem = app.journal.stem
        if stem is not None:
            path = app.journal.files.match_path(stem + ".sbn")
            if shadow is None or shadow.path != path:
                if shadow is not None:
                    lines += shadow.lines
                shadow = Shadow(path)
                matches += 1
            shadow.catch_up()
            live = to_json(app.match)
            if to_json(shadow.match) != live:
                print("FAIL press %d (%s): the journal replays to another state" % (n, name))
                return 1
            why = invariants(app.match)
            if why:
                print("FAIL press %d (%s): %s" % (n, name, why))
                return 1
            if rnd.below(every) == 0:
                runner.power_cut()
                resets += 1
                if runner.app.match is None or to_json(runner.app.match) != live:
                    print("FAIL press %d: the reset did not come back to the same state" % n)
                    return 1
    if shadow is not None:
        lines += shadow.lines
    print("mash presses %d lines %d resets %d matches %d refused %d"
          % (presses, lines, resets, matches, refused))
    return 0


sys.exit(main())
