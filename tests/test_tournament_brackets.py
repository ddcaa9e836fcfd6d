"""Property tests of the tournament's bracket rules (issue 27, items 1 and 5), for 3 to
128 players played out with random results: out after two losses in a double
elimination, no player in two ready matches at once, each group pair exactly once, the
byes only to the top seeds, seeds 1 and 2 apart until the final, the same seed the same
draw, and a champion who never lost more than the format allows.

The expected figures come from the rules, not from the code: the losses are counted
here from the results entered, the byes from the field's size and the seeds given.
"""

import random

import host_tools  # noqa: F401  (puts firmware/ on sys.path)
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from host_tools.tournament import TournamentError, advance, store, view
from host_tools.tournament.players import Entry
from support import tiers

# About a minute for the file (a quarter of the examples in `make check`).
SETTINGS = settings(max_examples=tiers.examples(40), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
RACE = 3
CONDITIONS = {k: {"match": "race-to %d" % RACE} for k in ("group", "winners", "losers",
                                                          "final")}


def field_of(n, seeded, rng):
    """n entries, `seeded` of them with the seeds 1..seeded in a random order of rows."""
    seeds = list(range(1, seeded + 1)) + [None] * (n - seeded)
    rng.shuffle(seeds)
    return [Entry("P%03d" % (i + 1), s, None) for i, s in enumerate(seeds)]


def groups_for(n, rng):
    """G and K for n players: groups of 3 to 16."""
    g = rng.randint(-(-n // 16), max(-(-n // 16), min(26, n // 3)))
    smallest = n // g
    k = rng.randint(1 if g > 1 else 2, min(smallest, 4))
    return g, k


@st.composite
def tournaments(draw, formats=("single", "double", "groups"), most=128):
    fmt = draw(st.sampled_from(formats))
    n = draw(st.integers(3, most))
    rng = random.Random(draw(st.integers(0, 2 ** 32)))
    seeded = draw(st.integers(0, n))
    g, k = groups_for(n, rng) if fmt == "groups" else (None, None)
    t = store.make("T", fmt, field_of(n, seeded, rng), "eightball", CONDITIONS,
                   draw(st.integers(0, 10 ** 9)), g, k)
    return t, rng


def ready(t):
    return [s for s in t.specs if t.states[s.id].status == "ready"]


def loser(t, mid):
    st_ = t.states[mid]
    return st_.b if st_.winner == st_.a else st_.a


def play_random(t, rng, each=None):
    """Random results (a walkover now and then) until the champion; `each(t)` after each."""
    while t.champion is None:
        now = ready(t)
        assert now, "no match to play and no champion"
        spec = rng.choice(now)
        s = t.states[spec.id]
        winner = rng.choice((s.a, s.b))
        if rng.random() < 0.05:
            advance.enter(t, spec.id, winner, None, rng.choice(("walkover", "retired",
                                                                 "abandoned")))
        else:
            other = rng.randrange(RACE)
            advance.enter(t, spec.id, winner, (RACE, other) if winner == s.a
                          else (other, RACE))
        if each:
            each(t)


def losses(t):
    out = {p.id: 0 for p in t.players}
    for mid in t.results:
        out[loser(t, mid)] += 1
    return out


def test_a_field_of_3_to_128_is_drawn_in_every_format():
    for n in (3, 4, 5, 7, 8, 9, 17, 31, 64, 100, 127, 128):
        for fmt in ("single", "double"):
            t = store.make("T", fmt, field_of(n, 0, random.Random(n)), "eightball",
                           CONDITIONS, 1)
            played = sum(1 for s in t.specs if t.states[s.id].status != "bye")
            assert played >= n - 1


@SETTINGS
@given(tournaments())
def test_no_player_is_in_two_ready_matches_at_once(case):
    t, rng = case

    def check(t):
        seen = []
        for s in ready(t):
            seen += [t.states[s.id].a, t.states[s.id].b]
        assert len(seen) == len(set(seen)), seen

    check(t)
    play_random(t, rng, check)


@SETTINGS
@given(tournaments(formats=("double",)))
def test_double_elimination_puts_a_player_out_after_two_losses(case):
    t, rng = case
    out = set()

    def check(t):
        count = losses(t)
        for s in t.specs:
            st_ = t.states[s.id]
            if s.id not in t.results and st_.status != "bye":
                assert st_.a not in out and st_.b not in out, (s.id, out)
        out.update(p for p, c in count.items() if c >= 2)
        assert max(count.values()) <= 2

    play_random(t, rng, check)
    count = losses(t)
    assert count[t.champion] <= 1
    assert all(c == 2 for p, c in count.items() if p != t.champion), count
    assert len(t.results) in (2 * len(t.players) - 2, 2 * len(t.players) - 1)


@SETTINGS
@given(tournaments(formats=("single",)))
def test_single_elimination_one_loss_and_out(case):
    t, rng = case
    play_random(t, rng)
    count = losses(t)
    assert count[t.champion] == 0
    assert all(c == 1 for p, c in count.items() if p != t.champion)
    assert len(t.results) == len(t.players) - 1


@SETTINGS
@given(tournaments(formats=("groups",)))
def test_each_group_pair_plays_exactly_once_and_the_top_k_go_on(case):
    t, rng = case
    groups = {}
    for s in t.specs:
        if s.stage.startswith("group "):
            groups.setdefault(s.stage, []).append(s)
    assert len(groups) == t.groups
    members = {g: {t.states[s.id].a for s in specs} | {t.states[s.id].b for s in specs}
               for g, specs in groups.items()}
    sizes = sorted(len(m) for m in members.values())
    assert sizes[-1] - sizes[0] <= 1 and sum(sizes) == len(t.players)
    for g, specs in groups.items():
        pairs = [frozenset((t.states[s.id].a, t.states[s.id].b)) for s in specs]
        m = len(members[g])
        assert len(pairs) == len(set(pairs)) == m * (m - 1) // 2, g
    # the knockout's byes go to the best placed: the group winners first (A1, B1 ...)
    q = t.groups * t.advance
    size = 1 << (q - 1).bit_length()
    firsts = [s for s in t.specs if not s.stage.startswith("group ") and s.round == 1]
    bye_to = sorted(s.a_from or s.b_from for s in firsts if None in (s.a_from, s.b_from))
    order = ["g:%s:%d" % (chr(65 + g), place) for place in range(1, t.advance + 1)
             for g in range(t.groups)]
    assert sorted(bye_to) == sorted(order[:size - q])
    if t.groups <= size // 2:  # room for it: no two group winners meet in round 1
        for s in firsts:
            assert not ((s.a_from or "").endswith(":1") and (s.b_from or "").endswith(":1"))
    play_random(t, rng)
    knockout = [s for s in t.specs if not s.stage.startswith("group ")]
    entrants = {p for s in knockout for p in (t.states[s.id].a, t.states[s.id].b)} - {None}
    assert len(entrants) == t.groups * t.advance
    # the champion lost no knockout match
    assert all(loser(t, s.id) != t.champion for s in knockout if s.id in t.results)


def first_round(t):
    return [s for s in t.specs if s.round == 1 and s.stage in ("winners", "final")
            and not s.stage.startswith("group")]


@SETTINGS
@given(tournaments(formats=("single", "double")))
def test_byes_go_only_to_the_top_seeds(case):
    t, _ = case
    n = len(t.players)
    size = 1 << (n - 1).bit_length()
    byes = [t.states[s.id].winner for s in first_round(t) if t.states[s.id].status == "bye"]
    assert len(byes) == size - n
    seeded = sorted((p for p in t.players if p.seed is not None), key=lambda p: p.seed)
    have = set(byes)
    # the seeds in order take the byes: no seed without one while a lower seed or an
    # unseeded player has one
    top = [p.id for p in seeded[:len(byes)]]
    assert set(top) <= have
    if len(seeded) < len(byes):
        assert {p.id for p in seeded} <= have


@SETTINGS
@given(tournaments(formats=("single", "double")))
def test_seeds_1_and_2_meet_only_in_the_final(case):
    t, rng = case
    ones = {p.id for p in t.players if p.seed in (1, 2)}
    if len(ones) < 2:
        return
    play_random(t, rng)
    last_w = [s for s in t.specs if s.stage == "winners"]
    for s in t.specs:
        st_ = t.states[s.id]
        if {st_.a, st_.b} == ones:
            if t.format == "single":
                assert s.id == "F1", s.id
            else:  # never before the winners' final; the losers' side and the final may
                assert s.stage != "winners" or s.round == last_w[-1].round, s.id


@SETTINGS
@given(st.integers(3, 128), st.integers(0, 10 ** 9), st.sampled_from(("single", "double",
                                                                       "groups")))
def test_the_same_seed_gives_the_same_draw(n, seed, fmt):
    rng = random.Random(n)
    entries = field_of(n, n // 4, rng)
    g, k = groups_for(n, rng) if fmt == "groups" else (None, None)
    one = store.make("T", fmt, entries, "eightball", CONDITIONS, seed, g, k)
    two = store.make("T", fmt, list(entries), "eightball", CONDITIONS, seed, g, k)
    assert view.as_dict(one) == view.as_dict(two)
    assert [p.rank for p in one.players] == [p.rank for p in two.players]


def test_another_seed_gives_another_draw():
    entries = field_of(32, 0, random.Random(1))
    draws = {tuple(p.rank for p in store.make("T", "single", entries, "eightball",
                                              CONDITIONS, seed).players)
             for seed in range(5)}
    assert len(draws) == 5


def try_correction(t, rng):
    """Correct a random played match to its other winner, half the time: "made" or
    "refused" (checked against the bracket the corrected results make), or None."""
    done = [mid for mid in t.results if t.results[mid].how == "played"]
    if not done or rng.random() < 0.5:
        return None
    mid = rng.choice(done)
    s = t.states[mid]
    other = loser(t, mid)
    before = view.as_dict(t)
    score = (RACE, 0) if other == s.a else (0, RACE)
    # who would play where with the corrected results, derived afresh
    saved = t.results
    t.results = dict(saved, **{mid: advance.Result(other, score)})
    advance.resolve(t)
    after = {x: (t.states[x].a, t.states[x].b) for x in t.states}
    t.results = saved
    advance.resolve(t)
    feeds = [x for x in after if after[x] != (t.states[x].a, t.states[x].b)]
    started = [x for x in feeds if x in t.results]
    try:
        advance.enter(t, mid, other, score, correct=True)
    except TournamentError as e:
        assert started, e
        assert "cannot be corrected" in str(e)
        assert any(" %s (" % x in str(e) for x in started), (e, started)
        assert view.as_dict(t) == before  # refused: nothing changed
        return "refused"
    assert not started
    assert t.states[mid].winner == other and t.results[mid].score == score
    return "made"


@SETTINGS
@given(tournaments(most=40))
def test_a_correction_reroutes_until_the_next_match_is_played(case):
    t, rng = case
    play_random(t, rng, lambda t: try_correction(t, rng))


def test_corrections_are_both_made_and_refused():
    seen = set()
    for seed in range(20):
        rng = random.Random(seed)
        t = store.make("T", "double", field_of(16, 4, rng), "eightball", CONDITIONS, seed)
        play_random(t, rng, lambda t: seen.add(try_correction(t, rng)))
    assert {"made", "refused"} <= seen


def test_a_result_twice_is_refused_and_a_wrong_winner_too():
    t = store.make("T", "single", field_of(4, 4, random.Random(2)), "eightball",
                   CONDITIONS, 1)
    spec = ready(t)[0]
    s = t.states[spec.id]
    with pytest.raises(TournamentError, match="not P"):
        advance.enter(t, spec.id, "P999", (RACE, 1))
    with pytest.raises(TournamentError, match="race-to 3"):
        advance.enter(t, spec.id, s.a, (2, 1))
    with pytest.raises(TournamentError, match="race-to 3"):
        advance.enter(t, spec.id, s.a, (1, RACE))
    advance.enter(t, spec.id, s.a, (RACE, 1))
    with pytest.raises(TournamentError, match="result already"):
        advance.enter(t, spec.id, s.a, (RACE, 1))
    with pytest.raises(TournamentError, match="no score"):
        advance.enter(t, ready(t)[0].id, t.states[ready(t)[0].id].a, (RACE, 0), "walkover")


def test_every_match_id_fits_a_boxs_header():
    from scoreboard.core.words import check_id

    # the longest names, as written: ASCII, and Cyrillic whose id is longer than its name
    for name in ("C" * store.NAME_MAX, "Щ" * store.NAME_MAX):
        for fmt, n, g, k in (("double", 256, None, None), ("single", 256, None, None),
                             ("groups", 256, 8, 4), ("groups", 64, 2, 2)):
            t = store.make(name, fmt, field_of(n, 0, random.Random(n)), "eightball",
                           CONDITIONS, 1, g, k)
            ids = [store.box_match(name, s.id) for s in t.specs]
            assert len(set(ids)) == len(ids)
            for mid in ids:
                assert check_id(mid) == mid
    with pytest.raises(TournamentError, match="at most 64"):
        store.make("C" * 65, "single", field_of(4, 0, random.Random(1)), "eightball",
                   CONDITIONS, 1)


def test_a_correction_unassigns_the_match_whose_players_it_changes():
    t = store.make("T", "single", field_of(4, 4, random.Random(3)), "eightball",
                   CONDITIONS, 1)
    w1, w2 = (s.id for s in t.specs[:2])
    for mid in (w1, w2):
        advance.enter(t, mid, t.states[mid].a, (RACE, 0))
    assert t.states["F1"].status == "ready"
    t.active["F1"], t.tables["F1"] = "assigned", 3  # what `assign` will do
    advance.resolve(t)
    assert t.states["F1"].status == "assigned"
    advance.enter(t, w1, t.states[w1].b, (0, RACE), correct=True)
    assert t.states["F1"].status == "ready" and "F1" not in t.tables
    assert t.states["F1"].a == t.states[w1].b
    t.active["F1"] = "playing"
    advance.resolve(t)
    with pytest.raises(TournamentError, match="which has started"):
        advance.enter(t, w1, t.states[w1].a, (RACE, 0), correct=True)
