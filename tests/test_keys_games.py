"""Whole frames played by keys alone (issue 7, points 1 and 6): the lines the grammar
produces, applied as the app applies them, must replay to the expected state.

Expected figures are worked out by hand from docs/rules.md and docs/notation.md.
"""

from support import sbn
from support.keys import EIGHTBALL, NINEBALL, SNOOKER, SNOOKER6, STRAIGHT, Desk, field


def replays_the_same(desk):
    """The live match and the replay of its lines agree on the whole report."""
    live = sbn.to_dict(desk.match)
    again = sbn.to_dict(desk.replayed())
    assert live == again
    return again


def test_147_one_press_per_pot():
    d = Desk(SNOOKER)
    d.play("ok")
    pots = "red black " * 15 + "yellow green brown blue pink black"
    lines = d.play(pots)
    assert len(lines) == len(pots.split()) == 36  # one press, one line, per pot
    assert lines[:2] == ["pot red", "pot black"]
    assert lines[-1] == "pot black"
    s = replays_the_same(d)
    f = s["frames"][0]
    assert f["score"] == {"A": 147, "B": 0}
    assert f["winner"] == "A" and f["how"] == "potted"
    assert f["breaks"]["A"] == [147]
    assert s["frames_won"] == {"A": 1, "B": 0}
    assert s["current"] is None
    # the frame is over: ok starts the next, which B breaks (alternate)
    assert d.grammar.entry() == "ok: B breaks next"
    assert d.play("ok") == ["frame"]
    s = replays_the_same(d)
    assert s["current"]["striker"] == "B" and s["frames"][1]["breaker"] == "B"


def test_foul_and_miss_replaced_twice():
    d = Desk(SNOOKER)
    d.play("ok end")  # A plays safe; B at the table on a red
    assert d.play("foul miss") == ["foul 4 miss"]  # two presses
    assert d.play("replace") == ["replace"]  # A's choice: one press
    assert d.play("foul blue miss") == ["foul 5 miss"]  # three presses: blue hit first
    assert d.play("replace") == ["replace"]
    s = replays_the_same(d)
    c = s["current"]
    assert c["striker"] == "B"
    assert c["score"] == {"A": 9, "B": 0}
    assert c["misses_in_a_row"] == {"A": 0, "B": 2}
    assert "warn-miss" in c["prompts"]
    assert c["ball_on"] == "red" and c["reds"] == 15
    # a third miss: the referee awards the frame through the menu
    d.play("foul miss replace")
    d.choose("award", 'A Ann', "three misses")
    assert d.grammar.entry() == "Award the frame to A (Ann), three misses? ok"
    d.play("ok")
    assert d.lines[-1] == "award A miss3"
    s = replays_the_same(d)
    assert s["frames"][0]["how"] == "awarded" and s["frames_won"]["A"] == 1


def test_foul_with_reds_down_and_the_value_from_the_ball_named():
    d = Desk(SNOOKER)
    d.play("ok")
    assert d.play("foul red red pink ok") == ["foul 6 red red"]
    s = replays_the_same(d)
    assert s["current"]["reds"] == 13 and s["current"]["score"]["B"] == 6
    # B plays on: pots a red and the colour; then fouls with the pink down
    d.play("red black foul pink pink ok")
    assert d.lines[-1] == "foul 6 pink"
    s = replays_the_same(d)
    assert s["current"]["score"] == {"A": 6, "B": 14}


def test_free_ball_after_a_foul():
    d = Desk(SNOOKER)
    d.play("ok foul ok")  # A fouls: 4 to B
    assert d.play("free") == ["free"]  # B is snookered: a free ball, one press
    assert field(d.view(), "free_ball", 7) is True
    # B pots the nominated green as the free ball (a red's worth), then the black
    assert d.play("green black") == ["pot free", "pot black"]
    s = replays_the_same(d)
    c = s["current"]
    assert c["score"] == {"A": 0, "B": 12}
    assert c["break"] == 8 and c["reds"] == 15 and c["ball_on"] == "red"
    assert c["free_ball"] is False


def test_free_ball_with_a_red_in_the_same_stroke():
    d = Desk(SNOOKER)
    d.play("ok foul ok free")
    assert d.play("free red ok") == ["pot free red"]
    s = replays_the_same(d)
    assert s["current"]["score"]["B"] == 6 and s["current"]["reds"] == 14


def test_respotted_black_by_keys():
    d = Desk(SNOOKER6)
    d.play("ok")
    d.play("red black red black red black end")  # A 24
    d.play("red black red black red pink end")  # B 23; the colours stage
    d.play("yellow end")  # A 26
    d.play("green brown end")  # B 30
    d.play("blue pink end")  # A 37
    d.play("black")  # B 37: level on the last black
    c = sbn.to_dict(d.match)["current"]
    assert c["respotted_black"] is True and c["striker"] is None
    assert "respot" in c["prompts"]
    assert d.grammar.entry() == "ok: choose"  # the prompt bar says who plays first
    d.play("ok")
    assert d.grammar.menu_items == ["A Ann", "B Bob"]
    d.play("ok")
    assert d.lines[-1] == "respot A"
    d.play("black")
    s = replays_the_same(d)
    f = s["frames"][0]
    assert f["score"] == {"A": 44, "B": 37} and f["winner"] == "A"


def test_several_reds_in_one_stroke_by_a_long_press():
    d = Desk(SNOOKER)
    d.play("ok")
    assert d.play("red! red ok") == ["pot red red red"]
    assert d.play("pink") == ["pot pink"]
    s = replays_the_same(d)
    assert s["current"]["score"]["A"] == 9 and s["current"]["reds"] == 12


def test_nineball_rack_lost_on_three_fouls():
    d = Desk(NINEBALL)
    d.play("ok")  # A breaks
    d.play("foul end")  # A fouls; B plays safe
    d.play("foul end")  # A's second foul; B again
    c = sbn.to_dict(d.match)["current"]
    assert c["fouls_in_a_row"]["A"] == 2 and "warn-fouls" in c["prompts"]
    assert d.play("warn") == ["warn A"]
    d.play("foul")
    s = replays_the_same(d)
    assert s["frames"][0]["winner"] == "B" and s["frames"][0]["how"] == "fouls"
    assert d.play("ok") == ["frame"]  # B breaks rack 2 (alternate)
    # rack 2: B pots the 1 and the 2, then the 9: the game ball wins the rack
    assert d.play("pot rackA rackB ok pot pass ok") == ["pot 1 2", "pot 7"]
    d.play("end foul")  # B plays safe; A fouls
    d.play("pot warn ok")  # the key carrying 8: wait, 8 is `warn`
    assert d.lines[-1] == "pot 8"
    d.play("pot go ok")  # 9 is on `go`
    s = replays_the_same(d)
    assert s["frames"][1]["winner"] == "B" and s["frames"][1]["how"] == "won"
    assert s["frames_won"] == {"A": 0, "B": 2}
    d.play("ok rackA")
    s = replays_the_same(d)
    assert s["frames_won"] == {"A": 1, "B": 2}


def test_nineball_push_pass_and_a_golden_break():
    d = Desk(NINEBALL)
    d.play("ok end push pass")
    assert d.lines[-3:] == ["end", "push", "pass"]
    d.play("rackB ok")
    d.press("rackB!")  # B broke rack 2: a golden break, from the long press's menu
    d.choose("golden break")
    assert d.lines[-1] == "rack B golden"
    s = replays_the_same(d)
    assert s["frames_won"] == {"A": 0, "B": 2}


def test_eightball_on_the_break_is_spotted_and_the_run_is_recorded():
    d = Desk(EIGHTBALL)
    d.play("ok pot warn ok")  # the 8 on the break: spotted, no win
    assert d.lines[-1] == "pot 8" and sbn.to_dict(d.match)["current"] is not None
    d.press("rackA!")
    d.choose("break and run")
    assert d.lines[-1] == "rack A run"
    assert replays_the_same(d)["frames_won"]["A"] == 1


def test_straight_pool_with_reracks_and_break_fouls():
    d = Desk(STRAIGHT)
    d.play("ok")  # A breaks
    assert d.play("break") == ["foul break"]  # -2, B to choose
    assert d.play("again") == ["again"]  # A breaks again
    d.play("break end")  # A -4; B takes the table... then ends (safe)
    c = sbn.to_dict(d.match)["current"]
    assert c["score"] == {"A": -4, "B": 0} and c["striker"] == "A"
    # A: 5 + 5 + 4 = 14 balls: one left, the board re-racks 14 by itself
    assert d.play("score 5 score again score end") == ["score 5", "score 5", "score 4"]
    d.play("rerack!")  # the referee re-racks all 15
    assert d.lines[-1] == "rerack 15"
    d.play("ball ball")  # A 12
    d.play("end")
    d.play("foul end foul end")  # B fouls twice (B -2)
    s = replays_the_same(d)
    c = s["current"]
    assert c["score"] == {"A": 12, "B": -2}
    assert c["fouls_in_a_row"] == {"A": 0, "B": 2}  # A's `end` does not reset B's
    assert "warn-fouls" in c["prompts"] and c["striker"] == "B"


def test_straight_pool_three_fouls_and_the_win():
    d = Desk(STRAIGHT)
    d.play("ok end")  # A safe; B at the table
    d.play("foul end foul end")  # B 2 fouls, A safe twice between
    assert d.play("warn") == ["warn B"]
    d.play("foul")  # the third: -1 -15, B breaks again with 15 racked
    c = sbn.to_dict(d.match)["current"]
    assert c["score"]["B"] == -18 and c["striker"] == "B"
    d.play("end")
    for _ in range(4):
        d.play("score 5")  # A 4 x 5 = 20: the target
    s = replays_the_same(d)
    assert s["status"] == "finished" and s["winner"] == "A"
    assert s["frames"][0]["score"] == {"A": 20, "B": -18}
