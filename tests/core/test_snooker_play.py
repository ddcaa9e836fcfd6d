"""Snooker rules, the strokes: balls, order, fouls, `again`, free ball, miss and replace.
One or more tests per rule of docs/rules.md (Snooker) and per snooker word of docs/notation.md.
Every expected figure is worked out by hand from those two pages (the arithmetic is in
the comments), never copied from the engine's output; the shared positions (P27, S3560,
...) are in tests/support/snooker_sbn.py.

Interpretations where the contract leaves something open are marked `INTERPRETATION`.
"""

import pytest
from support.sbn import HEADER, play, play_error
from support.snooker_sbn import VALUES, COLOURS, reds, rb, last_line, cur, P27, YTOP, S3560


# --------------------------------------------------------------------------- balls


def test_start_of_frame():
    st = play()
    c = cur(st)
    assert st["game"] == "snooker"
    assert st["status"] == "playing" and st["winner"] is None
    assert st["frames_won"] == {"A": 0, "B": 0}
    assert st["frames"] == [
        {"number": 1, "breaker": "A", "score": {"A": 0, "B": 0}, "winner": None,
         "how": None, "breaks": {"A": [], "B": []}}
    ]
    assert c == {
        "striker": "A", "score": {"A": 0, "B": 0}, "break": 0, "ball_on": "red",
        "reds": 15, "remaining": 147, "snookers_required": 0, "free_ball": False,
        "respotted_black": False, "fouls_in_a_row": {"A": 0, "B": 0},
        "misses_in_a_row": {"A": 0, "B": 0}, "prompts": [],
    }


def test_red_scores_one():
    c = cur(play("pot red"))
    # 7 + 8*14 + 27 = 146
    assert (c["score"], c["break"], c["ball_on"], c["reds"], c["remaining"]) == (
        {"A": 1, "B": 0}, 1, "colour", 14, 146)


@pytest.mark.parametrize("colour", COLOURS)
def test_colour_values_after_red(colour):
    c = cur(play("pot red", "pot " + colour))
    v = VALUES[colour]
    assert c["score"] == {"A": 1 + v, "B": 0}
    assert c["break"] == 1 + v
    # the colour is re-spotted, reds unchanged, ball on back to red: 8*14 + 27 = 139
    assert (c["ball_on"], c["reds"], c["remaining"], c["striker"]) == ("red", 14, 139, "A")


def test_several_reds_in_one_stroke():
    c = cur(play("pot red red red"))
    # 3 points, 12 reds, colour on: 7 + 96 + 27 = 130
    assert (c["score"]["A"], c["break"], c["reds"], c["ball_on"], c["remaining"]) == (
        3, 3, 12, "colour", 130)


def test_more_reds_than_on_the_table_refused():
    header = HEADER.replace("reds=15", "reds=6") + "frame A\n"
    assert play_error(reds(7), header=header) == 7


def test_colours_stage_values_in_order():
    st = play(*P27)
    c = cur(st)
    assert (c["striker"], c["score"], c["ball_on"], c["reds"], c["remaining"]) == (
        "B", {"A": 27, "B": 0}, "yellow", 0, 27)
    expected_b = 0
    expected_remaining = 27
    events = list(P27)
    for colour, following in zip(COLOURS, COLOURS[1:] + [None]):
        if colour == "black":
            break
        events.append("pot " + colour)
        expected_b += VALUES[colour]
        expected_remaining -= VALUES[colour]
        c = cur(play(*events))
        assert c["score"] == {"A": 27, "B": expected_b}
        assert c["ball_on"] == following  # each colour stays down
        assert c["remaining"] == expected_remaining  # 25, 22, 18, 13, 7
        assert c["break"] == expected_b
    assert expected_remaining == 7


# --------------------------------------------------------------------------- order


def test_visit_starts_on_red():
    c = cur(play("pot red", "end"))
    # B comes in on a red, not on the colour A was on
    assert (c["striker"], c["ball_on"], c["break"], c["reds"], c["remaining"]) == (
        "B", "red", 0, 14, 139)
    assert c["score"] == {"A": 1, "B": 0}


def test_colour_when_red_on_refused():
    assert play_error("pot black") == 7
    assert play_error("pot red", "pot black", "pot pink") == 9
    assert play_error("pot yellow") == 7


def test_red_when_colour_on_refused():
    assert play_error("pot red", "pot red") == 8


def test_colours_stage_after_last_red_and_colour_potted():
    c = cur(play(reds(15)))
    # 15 reds in one stroke: colour on, 7 + 0 + 27 = 34
    assert (c["score"]["A"], c["reds"], c["ball_on"], c["remaining"]) == (15, 0, "colour", 34)
    c = cur(play(reds(15), "pot black"))
    # the black after the last red is re-spotted, then yellow is on: 27 remain
    assert (c["score"]["A"], c["striker"], c["ball_on"], c["remaining"]) == (22, "A", "yellow", 27)


def test_colours_stage_after_last_red_and_colour_missed():
    c = cur(play(reds(15), "end"))
    assert (c["striker"], c["ball_on"], c["remaining"], c["reds"]) == ("B", "yellow", 27, 0)


def test_yellow_as_colour_after_last_red_is_respotted():
    c = cur(play(reds(15), "pot yellow"))
    assert (c["score"]["A"], c["ball_on"], c["remaining"]) == (17, "yellow", 27)
    c = cur(play(reds(15), "pot yellow", "pot yellow"))
    assert (c["score"]["A"], c["ball_on"], c["remaining"]) == (19, "green", 25)


def test_colours_out_of_order_refused():
    assert play_error(*P27, "pot green") == last_line(P27) + 1
    assert play_error(*P27, "pot black") == last_line(P27) + 1
    # a colour stays down once potted in the colours stage
    assert play_error(*P27, "pot yellow", "pot yellow") == last_line(P27) + 2
    # no reds left
    assert play_error(*P27, "pot red") == last_line(P27) + 1


# --------------------------------------------------------------------------- fouls


@pytest.mark.parametrize("value", [4, 5, 6, 7])
def test_foul_value_goes_to_other_side(value):
    c = cur(play("foul %d" % value))
    assert c["score"] == {"A": 0, "B": value}
    assert (c["striker"], c["break"], c["ball_on"], c["reds"]) == ("B", 0, "red", 15)


@pytest.mark.parametrize("value", [0, 3, 8, 12])
def test_foul_value_out_of_range_refused(value):
    assert play_error("foul %d" % value) == 7


def test_foul_below_known_ball_on_refused():
    # blue on in the colours stage: at least 5
    assert play_error(*S3560, "foul 4") == last_line(S3560) + 1
    c = cur(play(*S3560, "foul 5"))
    assert c["score"] == {"A": 40, "B": 60}
    assert (c["striker"], c["ball_on"]) == ("A", "blue")
    # black on: at least 7
    assert play_error(*P27, *YTOP, "foul 6") == last_line(P27 + YTOP) + 1
    # pink on: at least 6
    events = P27 + YTOP[:4]
    assert play_error(*events, "foul 5") == last_line(events) + 1


def test_foul_4_allowed_when_any_colour_is_on():
    c = cur(play("pot red", "foul 4"))
    assert c["score"] == {"A": 1, "B": 4}
    # B comes to the table on a red (reds remain)
    assert (c["striker"], c["ball_on"], c["reds"], c["remaining"]) == ("B", "red", 14, 139)


def test_foul_below_dropped_colour_refused():
    assert play_error("pot red", "foul 4 pink") == 8
    assert play_error("pot red", "foul 5 black") == 8
    c = cur(play("pot red", "foul 6 pink"))
    # pink re-spotted: 8*14 + 27 = 139
    assert (c["score"], c["reds"], c["remaining"], c["ball_on"]) == (
        {"A": 1, "B": 6}, 14, 139, "red")


def test_balls_potted_in_foul_score_nothing_and_reds_stay_off():
    c = cur(play("foul 4 red red"))
    # reds 13, 8*13 + 27 = 131
    assert c["score"] == {"A": 0, "B": 4}
    assert (c["reds"], c["remaining"], c["striker"], c["ball_on"]) == (13, 131, "B", "red")


def test_last_red_down_in_foul_next_on_yellow():
    c = cur(play(reds(14), "pot black", "foul 4 red"))
    # A 14 + 7 = 21; the last red goes down in the foul
    assert c["score"] == {"A": 21, "B": 4}
    assert (c["striker"], c["reds"], c["ball_on"], c["remaining"]) == ("B", 0, "yellow", 27)


def test_foul_on_colour_after_last_red_next_on_yellow():
    c = cur(play(reds(15), "foul 4"))
    assert c["score"] == {"A": 15, "B": 4}
    assert (c["striker"], c["reds"], c["ball_on"], c["remaining"]) == ("B", 0, "yellow", 27)


def test_foul_ends_the_break():
    st = play(*rb(2), "foul 4")
    assert st["frames"][0]["breaks"] == {"A": [16], "B": []}
    assert cur(st)["break"] == 0


def test_fouls_in_a_row():
    # INTERPRETATION (lead): +1 per foul by a side; back to 0 when that side ends a
    # visit with `end`, pots a ball, or the frame ends.
    c = cur(play("foul 4", "again", "foul 4", "again"))
    assert c["fouls_in_a_row"] == {"A": 2, "B": 0}
    assert c["score"] == {"A": 0, "B": 8}
    assert cur(play("foul 4", "again", "foul 4", "again", "end"))["fouls_in_a_row"] == {
        "A": 0, "B": 0}
    assert cur(play("foul 4", "again", "pot red"))["fouls_in_a_row"] == {"A": 0, "B": 0}
    c = cur(play("foul 4", "foul 4"))
    assert c["fouls_in_a_row"] == {"A": 1, "B": 1}
    assert c["score"] == {"A": 4, "B": 4}
    c = cur(play("foul 4", "foul 4", "end"))
    assert c["fouls_in_a_row"] == {"A": 0, "B": 1}


# --------------------------------------------------------------------------- again


def test_again_offender_plays_again_penalty_stays():
    c = cur(play("pot red", "pot black", "foul 4", "again"))
    assert c["score"] == {"A": 8, "B": 4}
    assert (c["striker"], c["break"], c["ball_on"], c["reds"]) == ("A", 0, "red", 14)
    assert c["fouls_in_a_row"] == {"A": 1, "B": 0}
    assert c["free_ball"] is False


def test_again_not_right_after_foul_refused():
    assert play_error("again") == 7
    assert play_error("pot red", "again") == 8
    assert play_error("foul 4", "end", "again") == 9
    assert play_error("foul 4", "again", "again") == 9


# --------------------------------------------------------------------------- free ball


def test_free_ball_with_reds_on_scores_one_then_colour():
    c = cur(play("foul 4", "free"))
    # free ball adds one red's worth: 8*15 + 27 + 8 = 155
    assert (c["striker"], c["free_ball"], c["ball_on"], c["reds"], c["remaining"]) == (
        "B", True, "red", 15, 155)
    c = cur(play("foul 4", "free", "pot free"))
    # scores 1, striker on a colour, the free ball re-spotted: 7 + 120 + 27 = 154
    assert c["score"] == {"A": 0, "B": 5}
    assert (c["break"], c["ball_on"], c["free_ball"], c["reds"], c["remaining"]) == (
        1, "colour", False, 15, 154)
    c = cur(play("foul 4", "free", "pot free", "pot black"))
    assert c["score"] == {"A": 0, "B": 12}
    assert (c["break"], c["ball_on"], c["reds"], c["remaining"]) == (8, "red", 15, 147)


def test_pot_free_red_red_scores_three():
    c = cur(play("foul 4", "free", "pot free red red"))
    # 1 + 1 + 1; reds 13; 7 + 104 + 27 = 138
    assert c["score"] == {"A": 0, "B": 7}
    assert (c["break"], c["reds"], c["ball_on"], c["remaining"], c["free_ball"]) == (
        3, 13, "colour", 138, False)


def test_free_ball_in_colours_stage_scores_ball_on_value():
    c = cur(play(*S3560, "foul 5", "free"))
    # blue on: 18 + 5 = 23; A 40 B 60: deficit 20 <= 23
    assert (c["striker"], c["free_ball"], c["ball_on"], c["remaining"]) == ("A", True, "blue", 23)
    assert c["score"] == {"A": 40, "B": 60}
    assert c["snookers_required"] == 0
    c = cur(play(*S3560, "foul 5", "free", "pot free"))
    # scores 5 (the blue's value), blue still on
    assert c["score"] == {"A": 45, "B": 60}
    assert (c["ball_on"], c["remaining"], c["free_ball"], c["break"]) == ("blue", 18, False, 5)


def test_pot_free_and_ball_on_in_colours_stage_only_ball_on_scores():
    base = P27 + ["foul 4", "free"]  # B fouls on yellow: A 31, A on yellow with a free ball
    c = cur(play(*base))
    assert (c["striker"], c["ball_on"], c["remaining"]) == ("A", "yellow", 29)
    assert c["free_ball"] is True
    c = cur(play(*base, "pot free yellow"))
    # only the yellow scores (2), it stays down: green on, 25 remain
    assert c["score"] == {"A": 33, "B": 0}
    assert (c["ball_on"], c["remaining"], c["free_ball"], c["break"]) == ("green", 25, False, 2)
    c = cur(play(*base, "pot free"))
    # the free ball alone scores the yellow's value; yellow still on
    assert c["score"] == {"A": 33, "B": 0}
    assert (c["ball_on"], c["remaining"], c["free_ball"]) == ("yellow", 27, False)


def test_free_ball_after_last_red_lost_in_foul():
    c = cur(play(reds(14), "pot black", "foul 4 red", "free"))
    # B on yellow with a free ball: 27 + 2
    assert (c["striker"], c["ball_on"], c["remaining"]) == ("B", "yellow", 29)
    assert c["free_ball"] is True


def test_again_after_free_and_free_after_again_refused():
    assert play_error("foul 4", "free", "again") == 9
    assert play_error("foul 4", "again", "free") == 9


def test_free_not_after_foul_refused():
    assert play_error("free") == 7
    assert play_error("pot red", "free") == 8
    assert play_error("foul 4", "free", "free") == 9


def test_pot_free_without_free_ball_refused():
    assert play_error("foul 4", "pot free") == 8
    assert play_error("pot free") == 7


def test_free_ball_lasts_one_stroke():
    c = cur(play("foul 4", "free", "end"))
    assert (c["striker"], c["free_ball"], c["ball_on"], c["remaining"]) == ("A", False, "red", 147)
    c = cur(play("foul 4", "free", "pot red"))
    # the ball on potted instead: 1 point, free ball gone; 7 + 112 + 27 = 146
    assert c["score"] == {"A": 0, "B": 5}
    assert (c["free_ball"], c["ball_on"], c["reds"], c["remaining"]) == (False, "colour", 14, 146)
    assert play_error("foul 4", "free", "end", "pot free") == 10


# --------------------------------------------------------------------------- miss, replace


def test_replace_restores_reds_and_ball_on():
    base = ["end", "pot red", "pot black", "foul 4 red red miss"]
    c = cur(play(*base))
    assert c["score"] == {"A": 4, "B": 8}
    assert (c["striker"], c["reds"]) == ("A", 12)
    st = play(*base, "replace")
    c = cur(st)
    # reds back to 14, B plays again from a new visit on a red, penalty stands
    assert c["score"] == {"A": 4, "B": 8}
    assert (c["striker"], c["reds"], c["ball_on"], c["break"], c["remaining"]) == (
        "B", 14, "red", 0, 139)
    assert c["misses_in_a_row"] == {"A": 0, "B": 1}
    assert c["fouls_in_a_row"] == {"A": 0, "B": 1}
    assert c["free_ball"] is False


def test_replace_restores_colour_on():
    c = cur(play("end", "pot red", "foul 4 miss", "replace"))
    # B was on a colour when the miss was played: colour on again, new visit
    assert c["score"] == {"A": 4, "B": 1}
    assert (c["striker"], c["ball_on"], c["reds"], c["break"], c["remaining"]) == (
        "B", "colour", 14, 0, 146)


def test_replace_restores_free_ball():
    c = cur(play("foul 4", "free", "foul 4 miss", "replace"))
    assert c["score"] == {"A": 4, "B": 4}
    assert (c["striker"], c["free_ball"], c["ball_on"], c["reds"], c["remaining"]) == (
        "B", True, "red", 15, 155)
    assert c["misses_in_a_row"] == {"A": 0, "B": 1}


def test_replace_without_miss_refused():
    assert play_error("foul 4", "replace") == 8
    assert play_error("pot red", "replace") == 8
    assert play_error("replace") == 7
    assert play_error("foul 4 miss", "again", "replace") == 9


def test_misses_in_a_row_and_warning():
    c = cur(play("foul 4 miss", "replace"))
    assert c["misses_in_a_row"] == {"A": 1, "B": 0}
    assert c["prompts"] == []
    c = cur(play("foul 4 miss", "replace", "foul 4 miss", "replace"))
    assert c["misses_in_a_row"] == {"A": 2, "B": 0}
    assert c["fouls_in_a_row"] == {"A": 2, "B": 0}
    assert c["score"] == {"A": 0, "B": 8}
    assert (c["striker"], c["ball_on"], c["reds"]) == ("A", "red", 15)
    assert c["prompts"] == ["warn-miss"]


def test_playing_on_resets_miss_count():
    c = cur(play("foul 4 miss", "replace", "foul 4 miss", "pot red"))
    assert c["misses_in_a_row"] == {"A": 0, "B": 0}
    assert c["score"] == {"A": 0, "B": 9}
    c = cur(play("foul 4 miss", "replace", "foul 4 miss", "end"))
    assert c["misses_in_a_row"] == {"A": 0, "B": 0}
    assert "warn-miss" not in c["prompts"]


def test_award_after_third_miss_ends_frame():
    st = play("foul 4 miss", "replace", "foul 4 miss", "replace", "foul 4 miss", "award B miss3")
    assert st["current"] is None
    assert st["frames_won"] == {"A": 0, "B": 1}
    f = st["frames"][0]
    assert (f["winner"], f["how"], f["score"]) == ("B", "awarded", {"A": 0, "B": 12})


def test_award_reasons():
    for why in ("miss3", "conduct", "time", "other"):
        st = play("award A " + why)
        assert (st["frames"][0]["winner"], st["frames"][0]["how"]) == ("A", "awarded")
    assert play_error("award A because") == 7
    assert play_error("award C other") == 7


def test_misses_setting_accepted():
    header = HEADER + "rules misses=3\nframe A\n"
    assert play(header=header)["current"]["ball_on"] == "red"


