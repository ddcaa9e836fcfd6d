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
    assert r.entry == "FOUL 6, PINK - balls down? ok"
    assert d.play("ok") == ["foul 6 pink"]


def test_foul_value_follows_the_ball_on_in_the_colours_stage():
    d = Desk(SNOOKER, BLUE_ON)
    assert d.grammar.press("foul").entry == "FOUL 5 - ball? ok"
    r = d.grammar.press("yellow")
    assert r.refusal == "yellow is not on the table"
    assert r.entry == "FOUL 5 - ball? ok"  # a refusal changes nothing
    assert d.play("black ok") == ["foul 7"]


def test_foul_key_raises_the_value_to_7_and_says_so_never_wrapping():
    """Issue 17 item 6: the entry shows the value it will store as it is pressed, and a
    press past 7 is refused with its reason (it used to go back to 4 silently)."""
    d = Desk(SNOOKER, A)
    texts = [d.grammar.press("foul").entry for _ in range(4)]
    assert texts == ["FOUL 4 - ball? ok", "FOUL 5 - ball? ok", "FOUL 6 - ball? ok",
                     "FOUL 7 (max) - ball? ok"]
    r = d.grammar.press("foul")
    assert r.refusal == "a foul is worth 7 at most: undo starts again"
    assert r.entry == "FOUL 7 (max) - ball? ok"
    assert d.play("ok") == ["foul 7"]
    # From the ball on's least (pink on: 6), the same: 7, then refused, never back to 6.
    d = Desk(SNOOKER, BLUE_ON + ["pot blue"])
    assert [d.grammar.press("foul").entry for _ in range(2)] == [
        "FOUL 6 - ball? ok", "FOUL 7 (max) - ball? ok"]
    assert d.grammar.press("foul").refusal is not None
    assert d.play("ok") == ["foul 7"]


def test_foul_refuses_more_reds_than_the_table_has():
    d = Desk(header("snooker reds=6"), A + ["pot red red red red red", "pot black"])
    d.grammar.press("foul")
    assert d.grammar.press("red").refusal is None
    r = d.grammar.press("red")
    assert r.refusal == "only 1 red(s) on the table"
    assert r.entry == "FOUL 4, RED - balls down? ok"


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
    assert r.entry == "POT: FREE BALL - and another? ok"
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
    assert d.grammar.entry() == "ok:A breaks off end:swap menu:more"
    d.press("end")
    assert d.grammar.entry() == "ok:B breaks off end:swap menu:more"
    assert d.grammar.press("red").refusal == "no frame yet: ok starts frame 1"
    assert d.play("ok") == ["frame B"]
    d.choose("concede frame", "B Bob")
    assert d.play("ok") == ["concede"]
    assert d.grammar.entry() == "ok: A breaks next"
    assert d.grammar.hint() == "ok:frame 2, A breaks  undo:take back  menu:more"
    assert d.grammar.press("red").refusal == "frame 1 is over: ok starts the next"
    assert d.play("undo") == ["undo"]  # the concession taken back
    d.choose("concede frame", "B Bob")
    assert d.play("ok ok") == ["concede", "frame"]
    assert sbn.to_dict(d.match)["current"]["striker"] == "A"


@pytest.mark.parametrize("policy,breaker", [("alternate", "B"), ("winner", "B"),
                                             ("loser", "A")])
def test_the_next_breaker_is_the_match_s_one_rule(policy, breaker):
    """The break policy (docs/rules.md) is the match's: the grammar announces the side that
    `frame` will then give, because it asks the match, which applies it."""
    d = Desk(header("nineball", "race-to 3", "breaks " + policy), A)
    d.play("rackB")  # A broke rack 1, B won it
    assert d.match.next_breaker() == "AB".index(breaker)
    assert d.grammar.entry() == "ok: %s breaks next" % breaker
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
    assert d.grammar.entry() == "ok:B breaks off side:swap menu:more"
    assert d.play("ok") == ["frame B"]
    assert d.grammar.press("side").refusal is not None


def test_match_over_takes_only_undo():
    d = Desk(header("snooker reds=6", "best-of 1"), A)
    d.choose("concede frame", "A Ann")
    d.play("ok")
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
    assert d.grammar.entry() == "POT 3 - balls? ok, or hold the last"
    r = d.grammar.press("12")
    assert r.refusal == "a number from 1 to 9"
    assert d.play("ok") == ["pot 3"]
    d.play("pot ok")
    assert d.grammar.entry() is None and d.lines[-1] == "pot 3"


def test_straight_score_number_keys():
    d = Desk(STRAIGHT, A)
    # 15 on the table: one stroke scores 14 at most (issue 33: the prompt said 1-15)
    assert d.grammar.press("score").entry == "SCORE - number? 1-14"
    assert d.grammar.press("16").refusal == "a number from 1 to 14"
    assert d.play("concede") == ["score 13"]  # `concede` carries 13
    assert d.play("score ok") == []  # cancelled
    assert sbn.to_dict(d.match)["current"]["score"]["A"] == 13


def test_concede_asks_who_then_once_naming_them():
    """Issue 17 item 3: `concede` asks who (the striker under the cursor), then the
    question naming them; `undo` says no and goes back to who; the side not at the
    table is refused with the rules' reason."""
    d = Desk(NINEBALL, A + ["end"])  # B at the table
    g = d.grammar
    r = g.press("concede")
    assert r.line is None and g.menu() == ("WHO CONCEDES THE MATCH?", ["A Ann", "B Bob"], 1)
    r = g.press("ok")
    assert r.entry == "B (Bob) concedes the match? ok" and r.line is None
    assert g.hint() == "ok: yes   undo: no"
    assert g.press("foul").refusal == "ok confirms, undo cancels"
    assert g.press("undo").entry is None and g.menu_title == "WHO CONCEDES THE MATCH?"
    g.press("menu")  # the cursor to A, who is not at the table
    r = g.press("ok")
    assert r.refusal == "only the striker concedes: B is at the table"
    assert r.line is None and g.menu_title == "WHO CONCEDES THE MATCH?"
    assert d.play("undo") == [] and g.menu() is None
    assert d.play("concede ok ok") == ["concede"]
    assert sbn.to_dict(d.match)["winner"] == "A"


@pytest.mark.parametrize("fam,head", [("snooker", SNOOKER), ("pool", NINEBALL),
                                      ("straight", STRAIGHT)])
def test_every_decision_that_ends_a_frame_or_the_match_asks_once(fam, head):
    """concede, award, restart, forfeit, abandon: the question names who, and nothing
    is given before `ok`."""
    unit = {"snooker": "frame", "pool": "rack", "straight": "game"}[fam]
    cases = [(("award", "B Bob", "conduct"), "Award the %s to B (Bob), conduct? ok" % unit),
             (("restart",), "Restart %s 1? ok" % unit),
             (("forfeit", "A Ann", "retired"), "A (Ann) forfeits, retired? ok"),
             (("abandon", "no winner"), "Abandon the match, no winner? ok"),
             (("abandon", "winner B Bob"), "Abandon, B (Bob) the winner? ok")]
    concede = "concede frame" if fam == "snooker" else "concede match"
    what = "frame" if fam == "snooker" else "match"
    cases.append(((concede, "A Ann"), "A (Ann) concedes the %s? ok" % what))
    for labels, question in cases:
        d = Desk(head, A)
        r = d.choose(*labels)
        assert (r.line, r.entry) == (None, question), labels
        assert d.lines == A
        r = d.press("ok")
        assert r.line is not None and d.lines[-1] == r.line, labels


def test_claim_asks_naming_the_striker():
    only_black = ["frame A"] + ["pot red", "pot black"] * 6 + [
        "pot yellow", "pot green", "pot brown", "pot blue", "pot pink"]
    d = Desk(header("snooker reds=6"), only_black)
    assert d.choose("claim").entry == "A (Ann) claims the frame? ok"
    assert d.play("ok") == ["claim"]


def test_a_long_name_is_cut_so_the_question_still_ends_in_ok():
    d = Desk(["sbn 1", "game snooker reds=15", "match best-of 3",
              'side A "Ronnie O\'Sullivan"', 'side B "Ann Lee" "Bo Chen"'], A)
    assert d.choose("forfeit", "B Ann Lee & Bo Chen", "disqualified").entry == \
        "B (Lee & Chen) forfeits, disqualified? ok"
    d.press("undo")
    d.press("undo")
    d.press("undo")
    assert d.choose("award", "A Ronnie O'Sullivan", "conduct").entry == \
        "Award the frame to A (O'Sullivan), conduct? ok"


def test_hints_follow_the_state():
    """Issue 17 item 1: what the keys do now, from the grammar, for each screen."""
    d = Desk(SNOOKER)
    assert d.grammar.hint() is None  # the score screen's entry line says it
    d.press("menu")
    assert d.grammar.hint() == "ok:choose  menu:next (held: previous)  undo:back"
    d.press("undo")
    d.play("ok end")
    assert d.grammar.hint() is None
    d.choose("concede frame", "B Bob")
    assert d.grammar.hint() == "ok: yes   undo: no"
    d.play("ok")
    assert d.grammar.hint() == "ok:frame 2, B breaks  undo:take back  menu:more"
    d = Desk(header("snooker reds=6", "best-of 1"), A)
    d.choose("concede frame", "A Ann")
    d.play("ok")
    assert d.grammar.hint() == "ok:start screen  undo:take back"


def test_pending_decisions_are_said():
    """Issue 17 item 4: after a foul the incoming side's choices, the free ball to
    nominate, after a push out whose choice it is, after a breaking foul likewise."""
    d = Desk(SNOOKER, A)
    assert d.grammar.entry() is None
    d.play("foul ok")
    assert d.grammar.entry() == "B: play, again or free?"
    d.play("free")
    assert d.grammar.entry() == "B nominates the free ball: its key pots it"
    d.play("green")
    assert d.grammar.entry() is None
    d = Desk(SNOOKER, A + ["end"])
    d.play("miss ok")
    assert d.grammar.entry() == "A: play, again, free, replace?"
    d.play("replace")
    assert d.grammar.entry() is None
    d = Desk(NINEBALL, A + ["end"])
    d.play("push")
    assert d.grammar.entry() == "A: play the push out, or pass?"
    d.play("pass")
    assert d.grammar.entry() is None
    d = Desk(STRAIGHT, A)
    d.play("break")
    assert d.grammar.entry() == "B: take the table, or again?"
    d.play("again")
    assert d.grammar.entry() is None


def test_after_time_the_panel_says_the_next_foul_is_a_time_foul():
    d = Desk(NINEBALL + CLOCK, ["@0 frame A", "@1000 go"])
    assert d.grammar.entry() == "ok: hit - the shot clock stops"
    d.match.clock.tick(40000)  # the app ticks the clock: 35 s are up
    assert d.grammar.entry() == "TIME: foul is A's time foul ok:hit"
    assert d.play("foul") == ["foul time"]


def test_the_entry_line_says_what_ok_does_with_a_shot_clock():
    """Issue 26 item 7: while a shot is on the clock `ok` is `hit` (it stops the clock),
    else `go`; the line says which before the press, and a decision pending keeps its
    words with the `ok` after them."""
    d = Desk(SNOOKER + CLOCK, ["@0 frame A"])
    g = d.grammar
    assert g.entry() == "ok: go - the shot clock starts"
    assert d.play("ok") == ["go"]
    assert g.entry() == "ok: hit - the shot clock stops"
    assert d.play("ok") == ["hit"]  # the referee who pressed ok "to start the clock"
    assert g.entry() == "ok: go - the shot clock starts"
    d.play("ok foul ok")  # go, then A fouls: B's decision, the shot still on the clock
    assert g.entry() == "B: play, again or free? ok:hit"
    d.play("ok")
    assert d.lines[-1] == "hit" and g.entry() == "B: play, again or free? ok:go"
    for family_head in (NINEBALL, STRAIGHT):
        d = Desk(family_head + CLOCK, ["@0 frame A"])
        assert d.grammar.entry() == "ok: go - the shot clock starts"
        assert d.play("ok") == ["go"]
        assert d.grammar.entry() == "ok: hit - the shot clock stops"
    # without a clock `ok` does nothing in play, and the line says only the decision
    d = Desk(SNOOKER, A)
    assert d.grammar.entry() is None
    d.play("foul ok")
    assert d.grammar.entry() == "B: play, again or free?"


def test_the_refusal_after_an_ok_that_stopped_the_clock_keeps_its_reason():
    """Issue 26: an `ok` meant to start the clock was a `hit`; a held `ok` (extend) then
    is refused with the one reason that applies, short enough for the panel's line."""
    d = Desk(NINEBALL + CLOCK, ["@0 frame A", "@1000 go", "@2000 hit"])
    d.play("ok!", strict=False)
    assert d.refusals == [("ok!", "no shot on the clock to extend: ok is go")]
    assert len("NO: " + d.refusals[0][1]) <= 48  # the e-ink's line in 1x2 text
    d = Desk(NINEBALL + ["clock shot=35 warn=10 ext=1x25 first=60"],
             ["@0 frame A", "@1000 end"])
    d.play("ok!", strict=False)  # B's shot, the first after the break (60 s)
    assert d.refusals == [("ok!", "no extension on the first shot after the break")]
    d = Desk(NINEBALL + CLOCK, ["@0 frame A", "@1000 end", "@11000 end"])
    assert d.play("ok!") == ["extend"]  # A's one extension of the rack
    d.play("ok ok ok!", strict=False)  # hit, go, and A's next shot: none left
    assert d.refusals == [("ok!", "no extension left")]


def test_a_rerack_after_the_board_re_racked_is_refused():
    """Issue 17 item 6: one ball left, the board racks 14 by itself; a `rerack` then is
    refused with its reason (the 15-ball re-rack still goes in)."""
    d = Desk(STRAIGHT, A + ["score 14"])
    assert d.match.frame.balls == 15
    r = d.grammar.press("rerack")
    assert r.refusal == "15 balls on the table: the board re-racked already"
    assert d.play("rerack!") == ["rerack 15"]
    # before one ball is left no rack is due: the rules core refuses it (issue 26)
    d = Desk(STRAIGHT, A + ["score 6"])
    assert d.play("rerack", strict=False) == []
    assert d.play("rerack!", strict=False) == []
    why = "9 balls on the table: the balls are racked when one is left"
    assert d.refusals == [("rerack", why), ("rerack!", why)]
    assert d.lines == A + ["score 6"]


def test_cancel_drops_the_entry_and_the_menu():
    d = Desk(SNOOKER, A)
    d.play("foul pink")
    d.grammar.cancel()
    assert d.grammar.entry() is None
    d.play("menu")
    d.grammar.cancel()
    assert d.grammar.menu() is None and d.lines == A


def test_a_claim_is_checked_before_its_question():
    """Issue 33 (the findings' section 7): a claim the rules refuse (reds still on the
    table) is refused when chosen, with the rules' reason; never asked, then refused
    after its `ok`. A valid one is asked as before."""
    d = Desk(SNOOKER, A)
    d.press("menu")
    assert d.grammar.menu_items[d.grammar.menu_cursor] == "claim"
    r = d.press("ok")
    assert r.refusal == "a claim needs only the black left"
    assert d.grammar.entry() is None and d.grammar.menu_title == "MENU"  # still the menu
    assert d.lines == A
    only_black = ["frame A"] + ["pot red", "pot black"] * 15 + [
        "pot yellow", "pot green", "pot brown", "pot blue", "pot pink"]
    d = Desk(SNOOKER, only_black)  # A 120 up, the black alone: valid
    d.choose("claim")
    assert d.grammar.entry() == "A (Ann) claims the frame? ok"
    assert d.play("ok") == ["claim"]
