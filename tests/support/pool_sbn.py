"""Helpers for the pool, straight-pool and timing tests: build a header for any game, replay
events after it and read back the WHOLE JSON report (docs/notation.md's keys plus `result` and
`timing`), or the line number of the error.

The expected figures in the tests are worked out by hand from docs/rules.md and docs/notation.md;
these helpers only feed text to the engine and hand back what it says. They reuse
tests/sbn.py (which is not changed).
"""

import json

from support.sbn import error_line, notation_error, report


class Game:
    """A header for one game; `frame` line and events are added by the methods.

    Line numbers: the header has `len(self.header_lines)` lines; then the `frame` line
    (unless `frame=None`), then the events, one per line. `line(k)` is the physical line
    of the k-th event (1-based).
    """

    def __init__(self, game, match, breaks=None, clock=None, pre=(), frame="frame A"):
        lines = ["sbn 1", "game " + game, "match " + match]
        if breaks is not None:
            lines.append("breaks " + breaks)
        lines += ['side A "Ann"', 'side B "Bob"']
        if clock is not None:
            lines.append("clock " + clock)
        lines += list(pre)
        if frame is not None:
            lines.append(frame)
        self.header_lines = lines

    def text(self, *events):
        return "".join(line + "\n" for line in self.header_lines + list(events))

    def state(self, *events):
        """The full report as a dict (all keys, `result` and `timing` included)."""
        return json.loads(report(self.text(*events)))

    def json(self, *events):
        return report(self.text(*events))

    def error(self, *events):
        """The line number of the NotationError raised by the events."""
        return error_line(self.text(*events))

    def exc(self, *events):
        return notation_error(self.text(*events))

    def line(self, k):
        """Physical line number of the k-th event (1-based)."""
        return len(self.header_lines) + k

    def last(self, events):
        """Physical line number of the last of `events`."""
        return self.line(len(events))


def nine(**kw):
    return Game("nineball", "race-to 3", **kw)


def ten(**kw):
    return Game("tenball", "race-to 3", **kw)


def eight(**kw):
    return Game("eightball", "race-to 3", **kw)


def straight(points=25, **kw):
    return Game("straight", "points %d" % points, **kw)


def cur(st):
    assert st["current"] is not None, st
    return st["current"]


def pool_current(striker, fouls=(0, 0), prompts=()):
    """The `current` object of a pool rack (8/9/10-ball): everything snooker-only null."""
    return {"striker": striker, "score": None, "break": None, "ball_on": None, "reds": None,
            "remaining": None, "snookers_required": None, "free_ball": None,
            "respotted_black": None, "fouls_in_a_row": {"A": fouls[0], "B": fouls[1]},
            "misses_in_a_row": None, "prompts": list(prompts)}


def straight_current(striker, score, run, fouls=(0, 0), prompts=()):
    """The `current` object of a straight-pool game: points, current run, fouls."""
    return {"striker": striker, "score": {"A": score[0], "B": score[1]}, "break": run,
            "ball_on": None, "reds": None, "remaining": None, "snookers_required": None,
            "free_ball": None, "respotted_black": None,
            "fouls_in_a_row": {"A": fouls[0], "B": fouls[1]}, "misses_in_a_row": None,
            "prompts": list(prompts)}


def rack(number, breaker, winner=None, how=None):
    """A pool rack record (`score` and `breaks` null: no points or breaks in pool)."""
    return {"number": number, "breaker": breaker, "score": None, "winner": winner,
            "how": how, "breaks": None}
