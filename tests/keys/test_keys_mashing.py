"""Key mashing: random presses, short and long, on every game's keypad.

Whatever the keys, the grammar only returns Results (never raises); a refusal changes
neither the entry nor the match; every line it gives is valid notation (it parses), and
the match either takes it or refuses it with a ValueError, as the app expects; the lines
taken replay to the same match. A sample per game, and longer runs marked slow.
"""

import random

import pytest
from scoreboard.core import notation

from support import sbn
from support.keys import EIGHTBALL, NINEBALL, SNOOKER, STRAIGHT, TENBALL, Desk, header

GAMES = {
    "snooker": SNOOKER + ["clock shot=30 warn=0 ext=1x30 beeps=5"],
    "snooker6": header("snooker reds=6", "best-of 3"),
    "eightball": EIGHTBALL,
    "nineball": NINEBALL + ["clock shot=35 warn=10 ext=1x25 first=60"],
    "tenball": TENBALL,
    "straight": STRAIGHT,
}


def mash(game, seed, presses):
    rng = random.Random(seed)
    d = Desk(GAMES[game])
    g = d.grammar
    names = list(g.names)
    weights = [3 if n in ("ok", "red", "black", "ball", "pot") else 1 for n in names]
    taken = 0
    for _ in range(presses):
        name = rng.choices(names, weights)[0]
        long = rng.random() < 0.15
        entry = g.entry()
        menu = g.menu()
        before = sbn.to_dict(d.match) if rng.random() < 0.1 else None
        r = g.press(name, long)
        if before is not None:
            assert sbn.to_dict(d.match) == before  # the grammar never changes the match
        if r.refusal is not None:
            assert r.line is None and isinstance(r.refusal, str) and r.refusal
            assert g.entry() == entry and g.menu() == menu
            continue
        if r.line is None:
            continue
        event = notation.parse_event(d.match.family, r.line)  # valid notation
        try:
            d.match.apply(event)
        except ValueError:
            continue
        d.lines.append(r.line)
        taken += 1
        if d.match.finished() and rng.random() < 0.5:
            d = Desk(GAMES[game])  # a new match
            g = d.grammar
    return d, taken


@pytest.mark.parametrize("game", sorted(GAMES))
def test_mashing_a_sample(game):
    d, taken = mash(game, seed=7, presses=400)
    assert taken > 20
    assert sbn.to_dict(d.replayed()) == sbn.to_dict(d.match)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_mashing_long(game, seed):
    d, _ = mash(game, seed=seed, presses=1500)
    assert sbn.to_dict(d.replayed()) == sbn.to_dict(d.match)
