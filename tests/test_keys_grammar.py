"""The key grammar (firmware/scoreboard/keys/grammar.py) press by press: entries, press
counts from issue 7 point 1, refusals with reasons, menus, frame starts, the shot clock.
"""

import pytest
from scoreboard.core import notation
from scoreboard.keys.grammar import Grammar, Result

from support import sbn
from support.keys import NINEBALL, SNOOKER, STRAIGHT, Desk, header

A = ["frame A"]
CLOCK = ["clock shot=35 warn=10 ext=1x25"]
# The colours stage, blue on (A 0, B 0 is enough: only the order matters here).
BLUE_ON = ["frame A", "foul 4 red red red red red red red red red red red red red red red",
           "end", "pot yellow", "pot green", "pot brown"]


def test_result_fields():
    d = Desk(SNOOKER, A)
    r = d.press("red")
    assert isinstance(r, Result)
    assert (r.line, r.refusal, r.menu) == ("pot red", None, None)
    r = d.press("foul")
    assert (r.line, r.refusal, r.entry) == (None, None, "FOUL 4 - ball? ok")


@pytest.mark.parametrize("ball,value", [(None, 4), ("yellow", 4), ("brown", 4),
                                        ("blue", 5), ("pink", 6), ("black", 7)])
def test_a_foul_in_at_most_three_presses(ball, value):
    d = Desk(SNOOKER, A)
    keys = "foul " + (ball + " " if ball else "") + "ok"
    assert len(keys.split()) <= 3
    assert d.play(keys) == ["foul %d" % value]
    assert sbn.to_dict(d.match)["current"]["score"]["B"] == value


def test_the_entry_in_progress_as_in_the_issue():
    d = Desk(SNOOKER, A + ["pot red"])
    d.press("foul")
    r = d.press("pink")
    assert r.entry == "FOUL 6 - balls down? ok"
    r = d.press("pink")
    assert r.entry == "FOUL 6 PINK - balls down? ok"
    assert d.play("ok") == ["foul 6 pink"]


def test_foul_value_follows_the_ball_on_in_the_colours_stage():
    d = Desk(SNOOKER, BLUE_ON)
    assert d.grammar.press("foul").entry == "FOUL 5 - ball? ok"
    r = d.grammar.press("yellow")
    assert r.refusal == "yellow is not on the table"
    assert r.entry == "FOUL 5 - ball? ok"  # a refusal changes nothing
    assert d.play("black ok") == ["foul 7"]


def test_foul_key_raises_the_value_and_wraps_to_the_least():
    d = Desk(SNOOKER, A)
    texts = [d.grammar.press("foul").entry for _ in range(5)]
    assert texts == ["FOUL 4 - ball? ok", "FOUL 5 - ball? ok", "FOUL 6 - ball? ok",
                     "FOUL 7 - ball? ok", "FOUL 4 - ball? ok"]


def test_foul_refuses_more_reds_than_the_table_has():
    d = Desk(header("snooker reds=6"), A + ["pot red red red red red", "pot black"])
    d.grammar.press("foul")
    assert d.grammar.press("red").refusal is None
    r = d.grammar.press("red")
    assert r.refusal == "only 1 red(s) on the table"
    assert r.entry == "FOUL 4 RED - balls down? ok"


def test_miss_first_or_last():
    assert Desk(SNOOKER, A).play("miss ok") == ["foul 4 miss"]
    assert Desk(SNOOKER, A).play("miss pink ok") == ["foul 6 miss"]
    assert Desk(SNOOKER, A).play("foul pink miss") == ["foul 6 miss"]


def test_time_foul_long_or_after_time():
    assert Desk(SNOOKER, A).play("foul! ok") == ["foul 4 time"]
    assert Desk(SNOOKER, A).play("foul foul foul! miss") == ["foul 5 miss time"]
    d = Desk(SNOOKER + CLOCK, ["@0 frame A", "@1000 go"])
    d.match.clock.tick(40000)  # the app ticks the clock: 35 s are up
    assert d.match.clock.expired
    assert d.play("foul ok") == ["foul 4 time"]
    assert Desk(NINEBALL, A).play("foul!") == ["foul time"]


def test_after_a_foul_each_choice_is_one_press():
    for word in ("again", "free", "replace"):
        d = Desk(SNOOKER, A + ["foul 4 miss"])
        assert d.play(word) == [word]
    d = Desk(SNOOKER, A + ["foul 4"])
    assert d.play("red") == ["pot red"]  # play on: the next stroke


def test_undo_cancels_the_entry_first_then_undoes():
    d = Desk(SNOOKER, A + ["pot red"])
    d.play("foul pink")
    r = d.press("undo")
    assert r.line is None and r.entry is None
    assert d.play("undo") == ["undo"]
    assert sbn.to_dict(d.match)["current"]["score"]["A"] == 0


def test_free_ball_colours_and_the_ball_on():
    # colours stage, blue on, free ball: pink is the free ball, blue is the ball on
    d = Desk(SNOOKER, BLUE_ON + ["foul 5", "free"])
    assert d.grammar.press("pink").line == "pot free"
    assert d.grammar.press("blue").line == "pot blue"
    r = d.grammar.press("free")
    assert r.entry == "POT FREE - with it? ok"
    assert d.play("blue ok") == ["pot free blue"]


def test_keys_the_rules_refuse_come_back_from_the_match():
    d = Desk(SNOOKER, A)
    d.play("black", strict=False)
    assert d.refusals == [("black", "ball on is red, not black")]
    d.refusals.clear()
    d.play("again", strict=False)
    assert d.refusals == [("again", "'again' only right after a foul")]
    assert d.lines == A


def test_grammar_refusals_have_reasons_and_change_nothing():
    d = Desk(SNOOKER, A)
    before = notation.write(d.match.header, [])
    r = d.grammar.press("rackA")
    assert r.refusal == "no key 'rackA' in snooker"
    g = d.grammar
    g.press("foul")
    r = g.press("again")
    assert r.refusal and r.line is None and r.entry == "FOUL 4 - ball? ok"
    assert notation.write(d.match.header, []) == before


def test_the_grammar_never_changes_the_match():
    d = Desk(SNOOKER, A + ["pot red"])
    before = sbn.to_dict(d.match)
    g = Grammar(d.match)
    for key in ("black", "foul", "pink", "ok", "menu", "menu", "ok", "undo", "undo",
                "red", "end", "again", "free", "replace", "undo", "ok"):
        g.press(key)
        g.press(key, long=True)
    assert sbn.to_dict(d.match) == before


def test_frame_one_breaker_switch_and_the_next_frame():
    d = Desk(SNOOKER)
    assert d.grammar.entry() == "FRAME 1 - A breaks? ok (end switches)"
    d.press("end")
    assert d.grammar.entry() == "FRAME 1 - B breaks? ok (end switches)"
    assert d.grammar.press("red").refusal == "no frame yet: ok starts frame 1"
    assert d.play("ok") == ["frame B"]
    d.choose("concede frame")
    assert d.grammar.entry() == "FRAME 2 - A breaks? ok"
    assert d.grammar.press("red").refusal == "frame 1 is over: ok starts the next"
    assert d.play("undo") == ["undo"]  # the concession taken back
    d.choose("concede frame")
    assert d.play("ok") == ["frame"]
    assert sbn.to_dict(d.match)["current"]["striker"] == "A"


@pytest.mark.parametrize("policy,breaker", [("alternate", "B"), ("winner", "B"),
                                             ("loser", "A")])
def test_the_next_breaker_is_the_match_s_one_rule(policy, breaker):
    """The break policy (RULES.md) is the match's: the grammar announces the side that
    `frame` will then give, because it asks the match, which applies it."""
    d = Desk(header("nineball", "race-to 3", "breaks " + policy), A)
    d.play("rackB")  # A broke rack 1, B won it
    assert d.match.next_breaker() == "AB".index(breaker)
    assert d.grammar.entry() == "FRAME 2 - %s breaks? ok" % breaker
    assert d.play("ok") == ["frame"]
    assert d.match.breaker == "AB".index(breaker)
    assert Desk(NINEBALL).match.next_breaker() is None  # frame 1: the referee's choice


def test_the_clock_menu_offers_the_profiles_of_clocksettings(monkeypatch):
    """The shot-clock profiles are clocksettings' alone: the menu offers what it says."""
    from scoreboard.core import clocksettings
    from scoreboard.keys import menus

    def offered():
        tree = menus.clock_menu(Desk(SNOOKER, A).match)
        return [(label, data) for label, _, data in tree[1]]

    assert offered() == [("wpa 35s", "clock on shot=35 warn=10 ext=1x25 first=60"),
                         ("pro 30s", "clock on shot=30 warn=0 ext=1x30 beeps=5"),
                         ("seed 45s", "clock on shot=45 warn=10")]
    profile = clocksettings.profile
    monkeypatch.setattr(clocksettings, "profile", lambda name: clocksettings.Settings(
        shot=40, warn=5) if name == "seed" else profile(name))
    assert offered()[2] == ("seed 40s", "clock on shot=40 warn=5")


@pytest.mark.parametrize("game,balls", [("eightball", 15), ("nineball", 9),
                                        ("tenball", 10)])
def test_pool_ball_numbers_are_the_rules_table(game, balls, monkeypatch):
    """Balls per game are the pool rules' table alone: the number entry takes 1 to it."""
    from scoreboard.core.rules import pool

    d = Desk(header(game, "race-to 3"), A)
    d.press("pot")
    assert d.grammar.press(str(balls)).refusal is None
    assert d.grammar.press(str(balls + 1)).refusal == "a number from 1 to %d" % balls
    monkeypatch.setitem(pool.BALLS, game, balls - 1)
    d = Desk(header(game, "race-to 3"), A)
    d.press("pot")
    assert d.grammar.press(str(balls)).refusal == "a number from 1 to %d" % (balls - 1)


def test_pool_side_key_before_the_first_rack():
    d = Desk(NINEBALL)
    d.play("side")
    assert d.grammar.entry() == "FRAME 1 - B breaks? ok (side switches)"
    assert d.play("ok") == ["frame B"]
    assert d.grammar.press("side").refusal is not None


def test_match_over_takes_only_undo():
    d = Desk(header("snooker reds=6", "best-of 1"), A)
    d.choose("concede frame")
    g = d.grammar
    assert g.press("ok").refusal == "the match is over"
    assert g.press("menu").refusal == "the match is over"
    assert g.entry() is None
    assert d.play("undo") == ["undo"]


def test_menu_moves_chooses_and_goes_back():
    d = Desk(SNOOKER, A)
    g = d.grammar
    r = d.press("menu")
    assert r.menu == (g.menu_title, g.menu_items, 0)
    assert g.menu_title == "MENU" and g.menu_items[0] == "claim"
    n = len(g.menu_items)
    d.press("menu!")
    assert g.menu_cursor == n - 1  # long: up, wrapping
    d.press("menu")
    assert g.menu_cursor == 0
    assert g.press("red").refusal == "menu moves, ok chooses, undo goes back"
    d.choose("award")
    assert g.menu_title == "AWARD THE FRAME TO"
    d.press("undo")
    assert g.menu_title == "MENU"
    d.press("undo")
    assert g.menu_title is None and g.menu_items == [] and g.menu() is None
    assert d.lines == A


def test_suspended_play_offers_resume_first():
    d = Desk(SNOOKER, A + ["suspend"])
    d.press("menu")
    assert d.grammar.menu_items[0] == "resume"
    assert d.play("ok") == ["resume"]


def test_shot_clock_go_hit_extend():
    d = Desk(SNOOKER + CLOCK, A)
    assert d.play("ok") == ["go"]  # one press
    assert d.play("ok!") == ["extend"]  # one (long) press
    assert d.play("ok") == ["hit"]
    assert d.play("end") == ["end"]  # the outcome: the clock runs for B
    assert d.play("ok") == ["hit"]
    assert Desk(SNOOKER, A).grammar.press("ok").refusal == "nothing to confirm"
    d = Desk(NINEBALL + CLOCK, A)
    assert d.play("go extend hit") == ["go", "extend", "hit"]


def test_pool_pot_toggles_and_cancels():
    d = Desk(NINEBALL, A)
    d.play("pot rackA pot rackA")  # 1, 3, then 1 again: taken back
    assert d.grammar.entry() == "POT 3 - balls? ok"
    r = d.grammar.press("12")
    assert r.refusal == "a number from 1 to 9"
    assert d.play("ok") == ["pot 3"]
    d.play("pot ok")
    assert d.grammar.entry() is None and d.lines[-1] == "pot 3"


def test_straight_score_number_keys():
    d = Desk(STRAIGHT, A)
    assert d.grammar.press("score").entry == "SCORE - number? 1-15"
    assert d.grammar.press("16").refusal == "a number from 1 to 15"
    assert d.play("concede") == ["score 13"]  # `concede` carries 13
    assert d.play("score ok") == []  # cancelled
    assert sbn.to_dict(d.match)["current"]["score"]["A"] == 13


def test_concede_asks_for_ok():
    d = Desk(NINEBALL, A)
    assert d.grammar.press("concede").entry == "CONCEDE THE MATCH? ok"
    assert d.grammar.press("foul").refusal == "ok confirms, undo cancels"
    assert d.play("undo") == []
    assert d.play("concede ok") == ["concede"]


def test_cancel_drops_the_entry_and_the_menu():
    d = Desk(SNOOKER, A)
    d.play("foul pink")
    d.grammar.cancel()
    assert d.grammar.entry() is None
    d.play("menu")
    d.grammar.cancel()
    assert d.grammar.menu() is None and d.lines == A
