"""Legal random matches in the notation, for benchmarks and property tests.

The rules engine is the judge: the generator proposes likely lines for the state at
hand (weighted like real play) and keeps the first one that the engine accepts. A
refused line changes nothing, so every kept line is legal where it stands.
`choose(options, weights)` is injected, so hypothesis can drive the choices too.
"""

import random

import host_tools  # noqa: F401  (puts the firmware on the path)
from scoreboard.core.match import Match
from scoreboard.core.notation import COLOURS, Reader

HEADERS = {
    "snooker": 'sbn 1\ngame snooker reds=%d\nmatch best-of %d\nside A "Ann"\nside B "Bob"',
    "snooker-points": 'sbn 1\ngame snooker reds=%d\nmatch frames %d by points\n'
                      'side A "Ann"\nside B "Bob"',
    "nineball": 'sbn 1\ngame nineball\nmatch race-to %d\nbreaks winner\n'
                'side A "Ann"\nside B "Bob"',
    "eightball": 'sbn 1\ngame eightball\nmatch race-to %d\nside A "Ann"\nside B "Bob"',
    "tenball": 'sbn 1\ngame tenball\nmatch race-to %d\nbreaks loser\n'
               'side A "Ann"\nside B "Bob"',
    "straight": 'sbn 1\ngame straight\nmatch points %d\nside A "Ann"\nside B "Bob"',
}


def header(kind, target, reds=15):
    text = HEADERS[kind]
    return (text % (reds, target) if kind.startswith("snooker") else text % target).split("\n")


def _snooker_options(f, undo):
    on = f.ball_on()
    opts = []
    if on == "red":
        opts += [("pot red", 30), ("pot red red", 2)]
        if f.free:
            opts += [("pot free", 10), ("pot free red", 2)]
    elif on == "colour":
        opts += [("pot %s" % c, 4 + 4 * (c == "black")) for c in COLOURS]
    elif on is not None:
        opts += [("pot %s" % on, 25)]
        if f.free:
            opts += [("pot free", 5), ("pot free %s" % on, 2)]
    opts += [("end", 20), ("foul 4", 5), ("foul 7", 1), ("foul 4 red", 1),
             ("foul 5 miss", 2), ("foul 4 miss", 2)]
    if f.last == "foul":
        opts += [("again", 3), ("free", 2), ("replace", 4)]
    if f.awaiting_respot:
        opts = [("respot A", 1), ("respot B", 1)]
    opts += [("claim", 3), ("concede", 0.2), ("penalty %s 4" % "BA"[f.striker], 0.2),
             ("award A other", 0.05), ("restart", 0.05)]
    return opts + undo


def _pool_options(f, undo):
    left = f.balls_left()
    opts = [("end", 20), ("foul", 6), ("warn A", 5), ("warn B", 5), ("push", 3),
            ("pass", 3), ("rack %s" % "AB"[f.striker], 3), ("rack A run", 0.3),
            ("concede", 0.01)]
    if left:
        opts += [("pot %d" % left[0], 20), ("pot %d" % left[-1], 2)]
    return opts + undo


def _straight_options(f, undo):
    return [("score 1", 30), ("score 2", 6), ("score 14", 1), ("end", 15), ("foul", 6),
            ("foul break", 2), ("again", 2), ("warn A", 4), ("warn B", 4),
            ("rerack", 0.2), ("penalty A 1", 0.1)] + undo


def options(match):
    """(line, weight) pairs worth trying now."""
    f = match.current()
    if f is None:
        return [("frame", 1)]
    undo = [("undo", 1)]
    if match.family == "snooker":
        return _snooker_options(f, undo)
    if match.family == "pool":
        return _pool_options(f, undo)
    return _straight_options(f, undo)


def pick(opts, x):
    """The index of the (line, weight) option at x in [0, 1) of the total weight."""
    x *= sum(w for _, w in opts)
    for i, (_, w) in enumerate(opts):
        x -= w
        if x < 0:
            return i
    return len(opts) - 1


def _random_choose(rng):
    def choose(opts):
        return pick(opts, rng.random())
    return choose


def generate(head, max_events=100000, seed=0, choose=None, on_event=None, boost=None,
             frames=0):
    """Lines of a legal match: the header, then events until the match ends, `frames`
    frames have been played (0: no limit) or max_events. `on_event(match, line)` is called
    after each accepted event. `boost` multiplies the weight of lines by their first word
    (e.g. {"end": 20} for a long safety battle)."""
    if choose is None:
        choose = _random_choose(random.Random(seed))
    reader = Reader()
    lines = list(head)
    for line in lines:
        reader.feed(line)
    match = None
    for _ in range(max_events):
        if match is not None and (match.finished() or (frames and match.number >= frames
                                  and match.current() is None)):
            break
        opts = options(match) if match is not None else [("frame", 1)]
        if boost:
            opts = [(line, w * boost.get(line.split()[0], 1)) for line, w in opts]
        while opts:
            line, _ = opts.pop(choose(opts))
            reader.line = len(lines)
            event = reader.feed(line)
            if match is None:
                match = Match(reader.header)
            try:
                match.apply(event)
            except ValueError:
                continue
            lines.append(line)
            if on_event is not None:
                on_event(match, line)
            break
    return lines


def main(argv=None):
    import argparse
    p = argparse.ArgumentParser(description="Write a legal random match in the notation.")
    p.add_argument("kind", choices=sorted(HEADERS))
    p.add_argument("target", type=int)
    p.add_argument("--reds", type=int, default=15)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    for line in generate(header(a.kind, a.target, a.reds), seed=a.seed):
        print(line)


if __name__ == "__main__":
    main()
