"""Issue 38 item 5: the final placings of each format, for the prizes: 1st, 2nd, then the
places shared by the players out in the same round (3-4, 5-8 ... in a single elimination;
3, 4, 5-6, 7-8, 9-12 ... in a double; the groups' places after the knockout's), shown
as soon as every match that decides them is decided and never changed after."""

import random

import pytest

from host_tools.tournament import advance, placings, players, store

CONDITIONS = {s: {"match": "race-to 2"} for s in ("winners", "losers", "final", "group")}


def made(fmt, n, groups=None, adv=None, seed=1):
    entries = players.entries("name\n" + "\n".join("P%03d" % i for i in range(n)) + "\n")
    return store.make("Cup", fmt, entries, "eightball", CONDITIONS, seed, groups, adv)


def play(t, rng, seen=None):
    """Every ready match by turns at random, a random winner; `seen` {player: places}
    checked at every result: a place once shown never changes."""
    while t.champion is None:
        ready = [s.id for s in t.specs if t.states[s.id].status == "ready"]
        mid = rng.choice(ready)
        st = t.states[mid]
        winner = rng.choice([st.a, st.b])
        if rng.random() < 0.1:
            advance.enter(t, mid, winner, None, "walkover")
        else:
            loser_racks = rng.randint(0, 1)
            advance.enter(t, mid, winner, (2, loser_racks) if winner == st.a else
                          (loser_racks, 2))
        if seen is not None:
            for first, last, pid in placings.placings(t):
                assert seen.setdefault(pid, (first, last)) == (first, last), pid
    return t


def shape(t):
    return [placings.text(first, last) for first, last, _ in placings.placings(t)]


@pytest.mark.parametrize("fmt, n, g, k, want", [
    ("single", 16, None, None, ["1", "2"] + ["3-4"] * 2 + ["5-8"] * 4 + ["9-16"] * 8),
    ("double", 16, None, None, ["1", "2", "3", "4"] + ["5-6"] * 2 + ["7-8"] * 2 +
     ["9-12"] * 4 + ["13-16"] * 4),
    ("groups", 16, 4, 2, ["1", "2"] + ["3-4"] * 2 + ["5-8"] * 4 + ["9-12"] * 4 +
     ["13-16"] * 4),
    ("single", 12, None, None, ["1", "2"] + ["3-4"] * 2 + ["5-8"] * 4 + ["9-12"] * 4),
    ("groups", 10, 3, 2, ["1", "2"] + ["3-4"] * 2 + ["5-6"] * 2 + ["7-9"] * 3 + ["10"]),
])
def test_the_placings_of_each_format(fmt, n, g, k, want):
    t = play(made(fmt, n, g, k), random.Random(n))
    assert shape(t) == want
    assert placings.placings(t)[0][2] == t.champion


@pytest.mark.parametrize("fmt", ["single", "double", "groups"])
@pytest.mark.parametrize("n", [3, 5, 8, 11, 16, 23, 32])
def test_every_player_is_placed_once_in_places_that_add_up(fmt, n):
    rng = random.Random(n * 7 + len(fmt))
    g = max(1, n // 4) if fmt == "groups" else None
    k = 2 if fmt == "groups" and n // max(1, n // 4) >= 2 else 1 if fmt == "groups" else None
    t = made(fmt, n, g, k, seed=n)
    seen = {}
    play(t, rng, seen)
    rows = placings.placings(t)
    assert sorted(pid for _, _, pid in rows) == sorted(p.id for p in t.players)
    by_range = {}
    for first, last, pid in rows:
        by_range.setdefault((first, last), []).append(pid)
    place = 1
    for (first, last), them in sorted(by_range.items()):
        assert (first, last - first + 1) == (place, len(them)), (first, last, them)
        place = last + 1
    assert place == n + 1
    # out at the round's loss: one loss in a single elimination's knockout, two in a double
    losses = {}
    for s in t.specs:
        st = t.states[s.id]
        if st.status in ("done", "walkover") and not s.stage.startswith("group"):
            loser = st.b if st.winner == st.a else st.a
            losses[loser] = losses.get(loser, 0) + 1
    for first, _, pid in rows:
        if first == 1:
            assert losses.get(pid, 0) <= (1 if fmt == "double" else 0)
        elif fmt == "double":
            assert losses[pid] == 2
        elif fmt == "single":
            assert losses[pid] == 1


def test_nothing_is_placed_before_its_round_is_decided():
    t = made("single", 8)
    assert placings.placings(t) == []
    rng = random.Random(3)
    first_round = [s.id for s in t.specs if s.round == 1]
    for mid in first_round[:3]:
        st = t.states[mid]
        advance.enter(t, mid, st.a, (2, 0))
    assert placings.placings(t) == []  # a first-round match still to play
    st = t.states[first_round[3]]
    advance.enter(t, first_round[3], st.b, (0, 2))
    assert shape(t) == ["5-8"] * 4
    play(t, rng)
    assert shape(t) == ["1", "2", "3-4", "3-4"] + ["5-8"] * 4
