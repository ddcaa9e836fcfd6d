"""Presses (issue 26, item 9): a snooker foul with a ball down takes at most 3 presses,
a pool pot of one ball at most 2; the longer sequences of before still give the same
lines. hardware/keypad.md (Presses) says so, with the table of
host_tools/measure/presses.py.

The limits are the issue's; the lines expected are worked out from docs/notation.md
(a foul is worth at least the ball on and any colour that dropped).
"""

import pytest

from host_tools.measure import presses
from scoreboard.core.vocab import COLOURS
from support.keys import NINEBALL, SNOOKER, STRAIGHT, TENBALL, Desk

A = ["frame A"]
VALUE = {"yellow": 2, "green": 3, "brown": 4, "blue": 5, "pink": 6, "black": 7}


@pytest.mark.parametrize("colour", COLOURS)
def test_a_foul_with_a_colour_down_is_three_presses(colour):
    # a red on: the foul is worth the colour's value, at least 4
    d = Desk(SNOOKER, A)
    want = "foul %d %s" % (max(4, VALUE[colour]), colour)
    assert d.play("foul %s! ok" % colour) == [want]
    d = Desk(SNOOKER, A)
    assert d.play("foul %s! miss" % colour) == [want + " miss"]


def test_a_foul_with_reds_down_is_three_presses():
    d = Desk(SNOOKER, A)
    assert d.play("foul red ok") == ["foul 4 red"]
    d = Desk(SNOOKER, A)
    assert d.play("foul red! ok") == ["foul 4 red red"]  # held: two reds, as in a pot
    d = Desk(SNOOKER, A)
    assert d.play("foul pink red! ok") == ["foul 6 red red"]


def test_the_longer_foul_entries_still_give_the_same_lines():
    d = Desk(SNOOKER, A)
    assert d.play("foul pink pink ok") == ["foul 6 pink"]
    d = Desk(SNOOKER, A)
    assert d.play("foul black pink pink ok") == ["foul 7 pink"]
    d = Desk(SNOOKER, A)
    assert d.play("foul black pink! ok") == ["foul 7 pink"]  # black hit, pink down
    d = Desk(SNOOKER, A)
    assert d.play("foul pink pink! ok") == ["foul 6 pink"]  # named, then held: down


def test_a_colour_held_twice_is_down_already():
    d = Desk(SNOOKER, A)
    d.play("foul pink!")
    r = d.press("pink!")
    assert r.refusal == "pink is down already"
    assert d.play("ok", strict=False) == ["foul 6 pink"]


def test_a_colour_not_on_the_table_held_is_refused():
    # the colours stage, ball on blue: yellow, green, brown are down already
    six = ["frame A"] + ["pot red", "pot black"] * 15 + ["pot yellow", "pot green",
                                                          "pot brown"]
    d = Desk(SNOOKER, six)
    d.press("foul")
    assert d.press("green!").refusal == "green is not on the table"
    assert d.play("blue! ok", strict=False) == ["foul 5 blue"]


@pytest.mark.parametrize("head", [NINEBALL, TENBALL])
def test_a_pool_pot_of_one_ball_is_two_presses(head):
    d = Desk(head, A)
    assert d.play("pot rackA!") == ["pot 1"]
    d = Desk(head, A)
    assert d.play("pot rackA rackB!") == ["pot 1 2"]  # held: the last of several
    d = Desk(head, A)
    assert d.play("pot rackA rackA!") == ["pot 1"]  # taken back, held: in again, ends
    d = Desk(head, A)
    assert d.play("pot rackA ok") == ["pot 1"]  # the three presses of before
    d = Desk(head, A)
    assert d.play("pot rackA rackB ok") == ["pot 1 2"]


def test_the_nine_by_two_presses_wins_the_rack():
    d = Desk(NINEBALL, A)
    assert d.play("pot go!") == ["pot 9"]
    assert d.match.frame.ended and d.match.frame.winner == 0


def test_a_held_ok_still_cancels_and_straight_pool_is_unchanged():
    d = Desk(NINEBALL, A)
    assert d.play("pot rackA ok!") == []
    assert d.grammar.entry() is None
    d = Desk(STRAIGHT, A)
    assert d.play("score again") == ["score 5"]  # 2 presses: the number ends it
    assert d.play("ball! again") == ["score 5"]


def test_the_corpus_is_within_the_limits():
    """Every foul with a ball down and every pool pot of one ball in the scenarios and
    key scripts of tests/ can be entered within the limits (the measure's own search)."""
    got = presses.measure(presses.corpus(), only=set(presses.LIMITS))
    assert set(got) == set(presses.LIMITS)  # the corpus has both
    for kind, limit in presses.LIMITS.items():
        assert got[kind] and max(got[kind]) <= limit, (kind, got[kind])


@pytest.mark.slow
def test_keypad_md_holds_the_measured_presses(repo_root):
    """hardware/keypad.md's Presses table: its events and presses are what the measure
    gives for this tree (the events and the mean and most presses of each action)."""
    got = presses.measure(presses.corpus())
    text = (repo_root / "hardware" / "keypad.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Presses"):text.index("\n## Key scripts")]
    first = section[section.index("\n| action"):]
    first = first[:first.index("\n\n")]  # the corpus's table; the strokes' is below
    rows = [line.strip("|").split("|") for line in first.splitlines()
            if line.startswith("| ") and not line.startswith("| action")]
    assert len(rows) == 12
    for row in rows:
        name, events, after, _before = (c.strip() for c in row)
        found = [p for p in got[name] if p is not None]
        assert int(events) == len(got[name]), name
        assert after == "%.2f (%d)" % (sum(found) / len(found), max(found)), name


@pytest.mark.slow
def test_keypad_md_holds_the_presses_of_each_common_stroke(repo_root):
    """hardware/keypad.md's table of the common strokes (issue 33): each one's presses
    are what `presses --strokes` gives for this tree, and none is over 3 but the rare
    words the menu holds, asked before they are given (a frame conceded, a late start's
    forfeit)."""
    got = dict(presses.strokes())
    text = (repo_root / "hardware" / "keypad.md").read_text(encoding="utf-8")
    table = text[text.index("\n| stroke | presses |"):]
    table = table[:table.index("\n\n")]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in table.splitlines()
            if line.startswith("| ") and not line.startswith("| stroke")]
    assert [r[0] for r in rows] == [s[0] for s in presses.STROKES]
    for name, after, _before in rows:
        assert after == str(got[name]), name
    assert [n for n, p in got.items() if p > 3] == [  # the menu's words, with the question
        "concede a frame (snooker)", "forfeit for a late start, once called"]


# -- issue 33: every common snooker foul in at most 3 presses ------------------------------
SIX = ["frame A"] + ["pot red", "pot black"] * 15 + ["pot yellow"]  # green on, 6 colours
FOUL_POSITIONS = {
    "reds on": A,
    "a colour on": A + ["pot red"],
    "the colours, green on": SIX,
    "a free ball on": A + ["foul 4", "free"],
}


def _common_fouls(lines):
    """Every foul line the rules take at the position of `lines` with at most one kind
    of ball down: none, a colour, a red or two reds; any value 4 to 7 (the ball
    concerned, or `foul` pressed up to it); with or without a miss."""
    from scoreboard.core.notation import parse_event
    from scoreboard.core.replay import replay

    out = []
    for value in (4, 5, 6, 7):
        for down in [()] + [(c,) for c in COLOURS] + [("red",), ("red", "red")]:
            for miss in ((), ("miss",)):
                line = " ".join(("foul", str(value)) + down + miss)
                match = replay(SNOOKER + lines)
                try:
                    event = parse_event("snooker", line)
                    match.apply(event)
                except ValueError:
                    continue
                out.append((line, (event[1], tuple(event[2]))))
    return out


@pytest.mark.parametrize("where", sorted(FOUL_POSITIONS))
def test_every_common_snooker_foul_is_three_presses_at_most(where):
    """The grammar's own search (host_tools/measure/presses.py `reachable`): each foul
    the rules take here, entered in at most 3 presses; among them another ball down than
    the one concerned (`black!`, `pink!`, `ok`: `foul 7 pink`) and the ball concerned with
    reds (`pink!`, `red!`, `ok`: `foul 6 red red`), 4 presses before issue 33."""
    from scoreboard.core.replay import replay

    lines = FOUL_POSITIONS[where]
    fouls = _common_fouls(lines)
    assert len(fouls) >= 20, fouls
    got = presses.reachable(replay(SNOOKER + lines), 3)
    over = [line for line, event in fouls if event not in got]
    assert over == [], "over 3 presses at %s: %s" % (where, over)


def test_a_colour_held_in_play_is_a_foul_on_that_ball():
    d = Desk(SNOOKER, A)
    assert d.play("black! pink! ok") == ["foul 7 pink"]  # black hit, pink down
    d = Desk(SNOOKER, A)
    assert d.play("pink! red! ok") == ["foul 6 red red"]  # pink hit, two reds down
    d = Desk(SNOOKER, A)
    assert d.play("blue! miss") == ["foul 5 miss"]
    d = Desk(SNOOKER, A)
    r = d.press("pink!")
    assert r.line is None and r.entry == "FOUL 6 - balls down? ok"
    assert d.play("undo") == [] and d.grammar.entry() is None  # undo: nothing entered
    assert d.play("red pink") == ["pot red", "pot pink"]  # a short press still pots
    # the colours stage: a colour already potted cannot be the ball concerned
    d = Desk(SNOOKER, SIX)
    assert d.press("yellow!").refusal == "yellow is not on the table"
    assert d.grammar.entry() is None


@pytest.mark.parametrize("code, hold", [("en", "hold"), ("pl", "trzymaj"), ("bg", "задръж")])
def test_the_pool_pot_says_the_last_balls_key_may_be_held(code, hold):
    """The two-press pot on the panel, not only in hardware/keypad.md: the entry names
    the hold, in the legend's word for it (host_tools/gen/legends.py HOLD)."""
    from host_tools.gen import legends
    from scoreboard import lang

    lang.use(code)
    try:
        d = Desk(NINEBALL, A)
        entry = d.grammar.press("pot").entry
    finally:
        lang.use("en")
    assert legends.HOLD[code] == hold and hold in entry, entry
