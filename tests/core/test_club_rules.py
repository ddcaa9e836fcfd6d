# ruff: noqa: RUF001  (Cyrillic letters look like Latin ones: they are the language)
"""The options clubs vary, as header words (issue 27 item 3; seed 004 1.6): the `rules`
keys `threefoul=0|1` (the three-foul rule) and `pushout=0|1` (the push out after the
break), from docs/notation.md's header table and docs/rules.md: which games take them,
what each value does to the rules, the key grammar's refusals on the panel, and the
start screen's words for the conditions that differ from the official rules.

Every expected figure is worked out by hand from those two pages: a foul in pool is ball
in hand for the other side and counts one in a row for the offender; in straight pool it
costs 1. With the three-foul rule off nothing else happens on a third foul.
"""

import pytest
from support.keys import EIGHTBALL, NINEBALL, STRAIGHT, TENBALL, Desk, header
from support.pool_sbn import Game, cur, pool_current, rack, straight_current

from scoreboard import lang
from scoreboard.core.notation import NotationError
from scoreboard.core.replay import replay

# A breaks, fouls; B ends; A fouls; B ends: A at the table on two fouls.
TWO_A = ["foul", "end", "foul", "end"]
# Straight pool: A breaks (`end`), B fouls (-1), A ends, B fouls (-2), A ends.
TWO_B = ["end", "foul", "end", "foul", "end"]


def nine(*rules):
    return Game("nineball", "race-to 3", pre=["rules " + " ".join(rules)] if rules else ())


def game(name, *rules, match="race-to 3"):
    return Game(name, match, pre=["rules " + " ".join(rules)] if rules else ())


def refused(text):
    """The reason (without `line N: `) a header is refused with."""
    try:
        replay(text.splitlines(True))
    except NotationError as e:
        return str(e).split(": ", 1)[1]
    raise AssertionError("not refused: %r" % text)


def head(game_line, match_line, rules):
    return ("sbn 1\ngame %s\nmatch %s\nside A \"Ann\"\nside B \"Bob\"\nrules %s\n"
            % (game_line, match_line, rules))


# -- the header ---------------------------------------------------------------------------
@pytest.mark.parametrize("g, m", [("nineball", "race-to 3"), ("tenball", "race-to 3"),
                                  ("eightball", "race-to 3"), ("straight", "points 25")])
@pytest.mark.parametrize("value", ["0", "1"])
def test_threefoul_is_a_setting_of_every_pool_game(g, m, value):
    match = replay(head(g, m, "threefoul=" + value).splitlines(True))
    assert match.header.rules == ("threefoul=" + value,)
    assert match.header.lines()[-1] == "rules threefoul=" + value  # written as given


@pytest.mark.parametrize("g", ["nineball", "tenball"])
def test_pushout_is_a_setting_of_nine_and_ten_ball(g):
    match = replay(head(g, "race-to 3", "pushout=0 threefoul=0 late=10").splitlines(True))
    assert match.header.rules == ("pushout=0", "threefoul=0", "late=10")


@pytest.mark.parametrize("text, why", [
    (head("snooker reds=15", "best-of 3", "threefoul=0"), "'threefoul' is a pool setting"),
    (head("eightball", "race-to 3", "pushout=1"),
     "'pushout' is a nine-ball and ten-ball setting"),
    (head("straight", "points 25", "pushout=0"),
     "'pushout' is a nine-ball and ten-ball setting"),
    (head("snooker reds=6", "best-of 3", "pushout=0"),
     "'pushout' is a nine-ball and ten-ball setting"),
    (head("nineball", "race-to 3", "threefoul=2"),
     "rules threefoul must be 0 (off) or 1 (on), not '2'"),
    (head("nineball", "race-to 3", "pushout=01"),
     "rules pushout must be 0 (off) or 1 (on), not '01'"),
    (head("nineball", "race-to 3", "pushout=on"),
     "rules pushout must be 0 (off) or 1 (on), not 'on'"),
    (head("nineball", "race-to 3", "threefoul=0 threefoul=1"),
     "rules key 'threefoul' given twice"),
    # the keys that were there before are what they were: 1 to 99, misses snooker's
    (head("nineball", "race-to 3", "late=0"), "number 0 out of range 1..99"),
    (head("nineball", "race-to 3", "misses=3"), "'misses' is a snooker setting"),
    (head("nineball", "race-to 3", "three=0"),
     "rules key must be one of misses late threefoul pushout, not 'three'"),
])
def test_a_bad_value_or_a_key_of_another_game_is_refused_with_its_reason(text, why):
    assert refused(text + "frame A\n") == why


def test_the_rules_line_may_come_before_the_game():
    """Checked once the game is known (as `misses` is)."""
    text = ('sbn 1\nrules pushout=0\ngame eightball\nmatch race-to 3\nside A "Ann"\n'
            'side B "Bob"\nframe A\n')
    assert refused(text) == "'pushout' is a nine-ball and ten-ball setting"


# -- the three-foul rule -----------------------------------------------------------------
@pytest.mark.parametrize("g", ["nineball", "tenball"])
def test_threefoul_off_no_warning_and_a_third_foul_is_an_ordinary_foul(g):
    m = game(g, "threefoul=0")
    st = m.state(*TWO_A)
    assert cur(st) == pool_current("A", fouls=(2, 0))  # no `warn-fouls` prompt
    st = m.state(*TWO_A, "foul")  # the third: ball in hand for B, the rack goes on
    assert st["frames"] == [rack(1, "A")]
    assert cur(st) == pool_current("B", fouls=(3, 0))
    st = m.state(*TWO_A, "foul", "end", "foul")  # and a fourth
    assert st["frames"] == [rack(1, "A")]
    assert cur(st) == pool_current("B", fouls=(4, 0))
    st = m.state(*TWO_A, "foul", "end", "pot 1")  # a pot still resets the count
    assert cur(st)["fouls_in_a_row"] == {"A": 0, "B": 0}


@pytest.mark.parametrize("g", ["nineball", "tenball", "straight"])
def test_threefoul_off_refuses_warn_with_its_reason(g):
    m = game(g, "threefoul=0", match="points 25" if g == "straight" else "race-to 3")
    two = TWO_B if g == "straight" else TWO_A
    side = "B" if g == "straight" else "A"
    e = m.exc(*two, "warn " + side)
    assert str(e) == "line %d: the three-foul rule is off in this match" % m.last(two + [""])


@pytest.mark.parametrize("g", ["nineball", "tenball"])
def test_threefoul_on_and_pushout_on_are_the_defaults(g):
    events = TWO_A + ["warn A", "foul", "frame", "end", "push", "pass", "foul"]
    assert game(g, "threefoul=1", "pushout=1").json(*events) == game(g).json(*events)
    st = game(g).state(*events[:6])
    assert st["frames"] == [rack(1, "A", "B", "fouls")]


def test_eightball_threefoul_on_is_the_nine_ball_rule():
    """A club may play eight-ball with the three-foul rule: the warning on two, the
    third warned foul loses the rack, an unwarned third counts as the second."""
    m = game("eightball", "threefoul=1")
    assert cur(m.state(*TWO_A)) == pool_current("A", fouls=(2, 0), prompts=["warn-fouls"])
    st = m.state(*TWO_A, "foul")
    assert cur(st) == pool_current("B", fouls=(2, 0))  # unwarned: counted as the second
    st = m.state(*TWO_A, "warn A", "foul")
    assert st["frames"] == [rack(1, "A", "B", "fouls")]
    assert st["frames_won"] == {"A": 0, "B": 1}
    # and still no push out in eight-ball
    assert str(m.exc("end", "push")) == "line %d: no push out in eight-ball" % m.line(2)


def test_eightball_threefoul_off_is_the_default():
    events = TWO_A + ["foul", "end", "foul"]
    assert game("eightball", "threefoul=0").json(*events) == game("eightball").json(*events)
    st = game("eightball").state(*events)
    assert st["frames"] == [rack(1, "A")] and cur(st)["fouls_in_a_row"] == {"A": 4, "B": 0}
    m = game("eightball", "threefoul=0")
    assert str(m.exc(*TWO_A, "warn A")) == (
        "line %d: eight-ball has no three-foul rule" % m.line(5))


def test_straight_pool_threefoul_off_a_third_foul_costs_one():
    """docs/rules.md: with the three-foul rule on B's third warned foul costs 15 more
    (-18); off, it is one more point, the count goes on, A comes to the table and no
    re-rack is made (the balls stay 15: `score 14` is still the most)."""
    m = game("straight", "threefoul=0", match="points 25")
    st = m.state(*TWO_B)
    assert cur(st) == straight_current("B", (0, -2), 0, fouls=(0, 2))  # no prompt
    st = m.state(*TWO_B, "foul")
    assert cur(st) == straight_current("A", (0, -3), 0, fouls=(0, 3))
    assert st["frames"][0]["score"] == {"A": 0, "B": -3}
    st = m.state(*TWO_B, "foul", "score 14")
    assert cur(st) == straight_current("A", (14, -3), 14, fouls=(0, 3))
    on = game("straight", "threefoul=1", match="points 25")
    assert on.json(*TWO_B, "warn B", "foul") == game(
        "straight", match="points 25").json(*TWO_B, "warn B", "foul")
    assert cur(on.state(*TWO_B, "warn B", "foul"))["score"] == {"A": 0, "B": -18}


# -- the push out ---------------------------------------------------------------------------
@pytest.mark.parametrize("g", ["nineball", "tenball"])
def test_pushout_off_refuses_push_with_its_reason(g):
    m = game(g, "pushout=0")
    assert str(m.exc("end", "push")) == (
        "line %d: the push out is off in this match" % m.line(2))
    # the three-foul rule is untouched by it
    assert cur(m.state(*TWO_A)) == pool_current("A", fouls=(2, 0), prompts=["warn-fouls"])


# -- the key grammar: the panel's refusals --------------------------------------------------
def test_the_warn_key_is_refused_on_the_panel_where_the_rule_is_off():
    d = Desk(NINEBALL + ["rules threefoul=0"])
    d.play("ok foul end foul end")
    assert d.view().prompts == []
    r = d.press("warn")
    assert (r.line, r.refusal) == (None, "the three-foul rule is off in this match")
    d.play("foul", strict=False)  # the third foul: ball in hand for B, no rack lost
    assert d.lines[-1] == "foul" and d.match.frame.ended is False
    assert d.view().striker == 1
    # in eight-ball the key says what eight-ball's rules say, and a club's `threefoul=1`
    # gives the warning
    d = Desk(EIGHTBALL)
    d.play("ok foul end foul end")
    assert d.press("warn").refusal == "eight-ball has no three-foul rule"
    d = Desk(EIGHTBALL + ["rules threefoul=1"])
    d.play("ok foul end foul end")
    assert d.play("warn") == ["warn A"]
    d.play("foul")
    assert d.match.frame.how == "fouls" and d.match.frame.winner == 1


def test_the_push_key_is_refused_on_the_panel_where_the_push_out_is_off():
    d = Desk(TENBALL + ["rules pushout=0"])
    d.play("ok end")
    r = d.press("push")
    assert (r.line, r.refusal) == (None, "the push out is off in this match")
    d = Desk(TENBALL)
    d.play("ok end")
    assert d.play("push") == ["push"]


def test_straight_pools_warn_key_under_threefoul_off():
    d = Desk(STRAIGHT + ["rules threefoul=0"])
    d.play("ok end foul end foul end")
    assert d.press("warn").refusal == "the three-foul rule is off in this match"


@pytest.mark.parametrize("code, three, push", [
    ("pl", "zasada trzech fauli wyłączona w tym meczu", "push out wyłączony w tym meczu"),
    ("bg", "правилото за три фаула е изключено в този мач", "пуш аутът е изключен в този мач")])
def test_the_refusals_are_in_the_language_in_use(code, three, push):
    lang.use(code)
    try:
        d = Desk(header("nineball", "race-to 3", "rules pushout=0 threefoul=0"))
        d.play("ok end")
        assert d.press("push").refusal == push
        d.refusals.clear()
        d.play("foul end foul end")  # B on two fouls at the table
        assert d.press("warn").refusal == three
        # and a line of a journal the core refuses says the same (the app's path)
        for text, said in (("the three-foul rule is off in this match", three),
                           ("the push out is off in this match", push)):
            assert lang.refusal(text, "pool") == said
    finally:
        lang.use("en")


# -- the box: the app on the host board, from the queued header to the panel --------------
def test_the_box_shows_the_conditions_and_refuses_warn_and_push_on_the_panel(tmp_path):
    from host_tools.mp.device import Runner
    from scoreboard.sounds import PATTERNS
    from support import device

    device.queue(tmp_path, "club", ["sbn 1", "game nineball", "match race-to 3", *NAMES_AB,
                                    "rules late=10 pushout=0 threefoul=0"])
    r = Runner(str(tmp_path))
    r.wait(100)
    assert r.app.screen.kind == "start"
    assert r.app.screen.queue[0][1].split("\n")[1] == (
        "late 10 min, no three-foul rule, no push out")
    for key in ("ok", "end", "push"):  # A breaks; B would push out
        r.press(key, 80)
    assert r.app.screen.message == "the push out is off in this match"
    assert [t[1] for t in r.board.played() if t[1]][-1] == PATTERNS["refuse"][0]
    for key in ("foul", "end", "foul", "end", "warn"):  # B on two fouls: no warning
        r.press(key, 80)
    assert r.app.screen.message == "the three-foul rule is off in this match"
    r.press("foul", 80)  # the third: ball in hand for A, the rack goes on
    events = device.events(device.journal_files(tmp_path)[-1])
    assert events == ["frame A", "end", "foul", "end", "foul", "end", "foul"]
    assert r.app.screen.kind == "score" and r.app.match.view().striker == 0
    assert list(r.app.match.view().fouls) == [0, 3]


NAMES_AB = ('side A "Ann"', 'side B "Bob"')
