"""Snooker rules, one or more tests per rule of docs/rules.md (Snooker) and per snooker word of
docs/notation.md. Every expected figure is worked out by hand from those two pages (the
arithmetic is in the comments), never copied from the engine's output.

Interpretations where the contract leaves something open are marked `INTERPRETATION`.
"""

import json
from collections import OrderedDict

import pytest
from support.sbn import (HEADER, START, error_line, lines_of, play, play_error, report, state,
                         with_crc)

VALUES = {"yellow": 2, "green": 3, "brown": 4, "blue": 5, "pink": 6, "black": 7}
COLOURS = ["yellow", "green", "brown", "blue", "pink", "black"]


def reds(n):
    return "pot " + " ".join(["red"] * n)


def rb(k):
    """k times red then black by the striker: 8k points, k reds fewer."""
    return ["pot red", "pot black"] * k


def last_line(events):
    """Line number of the last of `events` after START (first event is line 7)."""
    return 6 + len(events)


def cur(st):
    assert st["current"] is not None, st
    return st["current"]


# A 27, B 0, B at the table on yellow (colours stage), remaining 27.
# A breaks: `end` (nothing); B fouls 5 (A 5); A pots 7 reds (12), black (19), the last
# 8 reds (27), misses the colour after the last red (`end`: A's break 22 recorded).
P27 = ["end", "foul 5", reds(7), "pot black", reds(8), "end"]
# B then pots yellow to pink: 2+3+4+5+6 = 20; B at the table on black, A 27 B 20.
YTOP = ["pot yellow", "pot green", "pot brown", "pot blue", "pot pink"]

# 35 v 60 with blue on, B at the table (same lines as scenarios/snooker-snookers-required).
S3560 = (
    rb(3) + ["end"]            # A 24 (break 24), reds 12
    + rb(7) + ["end"]          # B 56 (break 56), reds 5
    + ["pot red", "end"]       # A 25, reds 4, colour not played -> B on red
    + ["end"]                  # B misses -> A on red
    + ["foul 4 red red red"]   # A fouls, 3 reds stay down: reds 1, B 60
    + ["end"]                  # B misses -> A on red
    + ["pot red", "end"]       # A 26, reds 0, misses the colour -> B on yellow
    + ["end"]                  # B misses yellow -> A on yellow
    + ["pot yellow", "pot green", "pot brown", "end"]  # A 35, B on blue
)


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


# --------------------------------------------------------------------------- end of frame


def test_frame_ends_when_last_black_potted():
    st = play(*P27, *YTOP, "end", "pot black")
    assert st["current"] is None
    assert st["frames_won"] == {"A": 1, "B": 0}
    assert st["frames"][0] == {
        "number": 1, "breaker": "A", "score": {"A": 34, "B": 20}, "winner": "A",
        "how": "potted", "breaks": {"A": [22], "B": [20]},
    }


def test_frame_ends_on_foul_with_only_black_left():
    st = play(*P27, *YTOP, "foul 7")
    assert st["current"] is None
    f = st["frames"][0]
    assert (f["score"], f["winner"], f["how"]) == ({"A": 34, "B": 20}, "A", "fouled")
    assert f["breaks"] == {"A": [22], "B": [20]}


def test_level_after_last_black_waits_for_respot():
    st = play(*P27, *YTOP, "pot black")
    c = cur(st)
    assert st["status"] == "playing"
    assert c["score"] == {"A": 27, "B": 27}
    assert "respot" in c["prompts"]
    assert (st["frames"][0]["winner"], st["frames"][0]["how"]) == (None, None)
    n = last_line(P27 + YTOP) + 2
    for word in ("pot black", "end", "foul 7", "claim"):
        assert play_error(*P27, *YTOP, "pot black", word) == n, word


def test_respot_then_score_settles():
    c = cur(play(*P27, *YTOP, "pot black", "respot A"))
    assert (c["striker"], c["respotted_black"], c["ball_on"], c["remaining"]) == (
        "A", True, "black", 7)
    assert c["score"] == {"A": 27, "B": 27}
    assert c["snookers_required"] == 0
    # A at the table, level with 7 left: the black wins it (lead 7 > 0 left)
    assert c["prompts"] == ["frame-ball"]
    st = play(*P27, *YTOP, "pot black", "respot A", "pot black")
    f = st["frames"][0]
    assert st["current"] is None
    assert (f["score"], f["winner"], f["how"]) == ({"A": 34, "B": 27}, "A", "potted")


def test_respot_then_foul_settles():
    st = play(*P27, *YTOP, "pot black", "respot A", "foul 7")
    f = st["frames"][0]
    assert (f["score"], f["winner"], f["how"]) == ({"A": 27, "B": 34}, "B", "fouled")
    assert st["frames_won"] == {"A": 0, "B": 1}


def test_level_by_foul_on_last_black_waits_for_respot():
    # A at the table 27 v 20 fouls on the black: 27 v 27
    st = play(*P27, *YTOP, "end", "foul 7")
    c = cur(st)
    assert c["score"] == {"A": 27, "B": 27}
    assert "respot" in c["prompts"]
    st = play(*P27, *YTOP, "end", "foul 7", "respot B", "pot black")
    f = st["frames"][0]
    assert (f["score"], f["winner"], f["how"]) == ({"A": 27, "B": 34}, "B", "potted")


def test_respot_when_not_level_refused():
    assert play_error("respot A") == 7
    assert play_error(*P27, *YTOP, "respot A") == last_line(P27 + YTOP) + 1


BY_POINTS = HEADER.replace("match best-of 7", "match frames 2 by points")
# frame 1 won by A 34-20 on a foul on the last black
F1_A34_B20 = ["frame"] + P27 + YTOP + ["foul 7"]
# frame 2, B breaks, the mirror of P27: B 27 A 0, A on yellow; A pots yellow to pink (20)
F2_MIRROR = ["frame", "end", "foul 5", reds(7), "pot black", reds(8), "end"] + YTOP


def test_by_points_frame_may_end_level():
    st = play("frame", *P27, *YTOP, "pot black", header=BY_POINTS)
    f = st["frames"][0]
    assert st["current"] is None
    assert (f["score"], f["winner"], f["how"]) == ({"A": 27, "B": 27}, None, "drawn")
    assert st["frames_won"] == {"A": 0, "B": 0}
    assert st["status"] == "playing"


def test_by_points_last_frame_level_aggregate_not_level_is_drawn():
    st = play(*F1_A34_B20, *F2_MIRROR, "pot black", header=BY_POINTS)
    # frame 2: 27-27, aggregate A 61 B 47
    assert st["status"] == "finished" and st["winner"] == "A"
    f = st["frames"][1]
    assert (f["breaker"], f["score"], f["winner"], f["how"]) == (
        "B", {"A": 27, "B": 27}, None, "drawn")
    assert st["frames_won"] == {"A": 1, "B": 0}
    assert st["current"] is None


def test_by_points_last_frame_level_aggregate_goes_to_respot():
    # frame 2: A fouls on the last black: B 34 A 20, aggregate 54-54
    st = play(*F1_A34_B20, *F2_MIRROR, "foul 7", header=BY_POINTS)
    c = cur(st)
    assert st["status"] == "playing"
    assert c["score"] == {"A": 20, "B": 34}
    assert "respot" in c["prompts"]
    st = play(*F1_A34_B20, *F2_MIRROR, "foul 7", "respot B", "pot black", header=BY_POINTS)
    assert st["status"] == "finished" and st["winner"] == "B"
    f = st["frames"][1]
    assert (f["score"], f["winner"], f["how"]) == ({"A": 20, "B": 41}, "B", "potted")


# --------------------------------------------------------------------------- claim, concede


def test_claim_with_only_black_left_and_lead_over_7():
    st = play(*P27, *YTOP[:4], "end", "pot pink", "claim")
    f = st["frames"][0]
    assert st["current"] is None
    assert (f["score"], f["winner"], f["how"]) == ({"A": 33, "B": 14}, "A", "claimed")
    assert f["breaks"] == {"A": [22], "B": [14]}


def test_claim_refused_with_lead_of_7():
    assert play_error(*P27, *YTOP, "end", "claim") == last_line(P27 + YTOP) + 2


def test_claim_refused_when_more_than_black_left():
    assert play_error(*P27, *YTOP[:4], "end", "claim") == last_line(P27 + YTOP[:4]) + 2
    assert play_error(*rb(12), "claim") == last_line(rb(12)) + 1


def test_claim_refused_when_striker_behind():
    assert play_error(*P27, *YTOP, "claim") == last_line(P27 + YTOP) + 1


def test_concede_by_striker():
    st = play("concede")
    f = st["frames"][0]
    assert (f["winner"], f["how"], f["score"]) == ("B", "conceded", {"A": 0, "B": 0})
    assert st["frames_won"] == {"A": 0, "B": 1}
    st = play(*rb(2), "end", "concede")
    f = st["frames"][0]
    assert (f["winner"], f["how"], f["score"]) == ("A", "conceded", {"A": 16, "B": 0})
    assert f["breaks"] == {"A": [16], "B": []}


# --------------------------------------------------------------------------- penalty, restart


def test_penalty_to_other_side_order_unchanged():
    c = cur(play("end", "penalty A 5"))
    assert c["score"] == {"A": 0, "B": 5}
    assert (c["striker"], c["ball_on"], c["reds"]) == ("B", "red", 15)
    c = cur(play("end", "penalty A 5", "pot red"))
    assert c["score"] == {"A": 0, "B": 6}
    assert c["striker"] == "B"


@pytest.mark.parametrize("value", [3, 8])
def test_penalty_value_out_of_range_refused(value):
    assert play_error("end", "penalty A %d" % value) == 8


def test_penalty_on_striker_refused():
    # INTERPRETATION: the notation says "A, not at the table"; penalising the striker is a foul.
    assert play_error("penalty A 5") == 7


def test_restart_keeps_voided_frame():
    st = play("pot red", "pot black", "end", "restart")
    assert st["frames_won"] == {"A": 0, "B": 0}
    assert st["frames"] == [
        {"number": 1, "breaker": "A", "score": {"A": 8, "B": 0}, "winner": None,
         "how": "restarted", "breaks": {"A": [], "B": []}},
        {"number": 1, "breaker": "A", "score": {"A": 0, "B": 0}, "winner": None,
         "how": None, "breaks": {"A": [], "B": []}},
    ]
    c = cur(st)
    assert (c["striker"], c["score"], c["reds"], c["remaining"], c["ball_on"], c["break"]) == (
        "A", {"A": 0, "B": 0}, 15, 147, "red", 0)


def test_restart_then_next_frame_numbering():
    st = play("end", "restart", "concede", "frame")
    assert [(f["number"], f["breaker"], f["how"]) for f in st["frames"]] == [
        (1, "A", "restarted"), (1, "A", "conceded"), (2, "B", None)]
    assert st["frames_won"] == {"A": 0, "B": 1}
    assert cur(st)["striker"] == "B"


# --------------------------------------------------------------------------- forfeit, abandon


def test_forfeit_before_first_frame():
    st = state(HEADER + "called\nforfeit A late\n")
    assert (st["status"], st["winner"], st["current"], st["frames"]) == ("finished", "B", None, [])


def test_forfeit_during_frame():
    st = play("pot red", "forfeit A late")
    assert (st["status"], st["winner"], st["current"]) == ("finished", "B", None)
    assert st["frames"][0]["how"] == "forfeited"
    st = play("pot red", "forfeit B conduct")
    assert (st["status"], st["winner"]) == ("finished", "A")


def test_forfeit_reason_checked():
    assert play_error("forfeit A bored") == 7


def test_abandon():
    # INTERPRETATION: an abandoned match is no longer `playing`, so its status is `finished`.
    st = play("pot red", "abandon")
    assert (st["status"], st["winner"], st["current"]) == ("finished", None, None)
    assert st["frames"][0]["how"] == "abandoned"
    st = play("pot red", "abandon B")
    assert (st["status"], st["winner"], st["current"]) == ("finished", "B", None)
    assert st["frames"][0]["how"] == "abandoned"
    st = state(HEADER + "abandon\n")
    assert (st["status"], st["winner"], st["frames"]) == ("finished", None, [])


def test_events_after_match_end_refused():
    assert error_line(HEADER + "forfeit A late\nframe\n") == 7
    assert play_error("abandon", "frame") == 8
    assert play_error("abandon", "pot red") == 8


# --------------------------------------------------------------------------- undo

UNDO_CASES = [
    ([], "pot red"),
    (["pot red"], "pot black"),
    ([], "pot red red"),
    ([], "foul 4 red red miss"),
    (["foul 4 miss"], "replace"),
    (["foul 4 miss"], "again"),
    (["foul 4"], "free"),
    (["foul 4", "free"], "pot free red"),
    (rb(2), "end"),  # records the break of 16
    (rb(2), "foul 4"),
    (["end"], "penalty A 5"),
    (["end"], "concede"),  # ends the frame
    (P27 + YTOP, "pot black"),  # level: waits for respot
    (P27 + YTOP, "foul 7"),  # ends the frame on a foul
    (P27 + YTOP + ["pot black"], "respot A"),
    (P27 + YTOP[:4] + ["end", "pot pink"], "claim"),
    (["pot red"], "restart"),
    (["pot red"], "award B conduct"),
]


@pytest.mark.parametrize("before,event", UNDO_CASES)
def test_undo_restores_exact_state(before, event):
    assert play(*before, event, "undo") == play(*before)


def test_undo_twice():
    assert play("pot red", "pot black", "pot red", "undo", "undo") == play("pot red")
    assert play("foul 4", "free", "pot free", "undo", "undo") == play("foul 4")


def test_undo_then_play_on():
    assert play("pot red", "undo", "pot red red") == play("pot red red")


def test_undo_reopens_ended_frame():
    st = play("end", "concede", "undo")
    assert st["current"] is not None
    assert st["frames_won"] == {"A": 0, "B": 0}
    assert (st["frames"][0]["winner"], st["frames"][0]["how"]) == (None, None)
    assert st == play("end")


def test_undo_reopens_finished_match():
    header = HEADER.replace("best-of 7", "best-of 3") + "frame A\n"
    st = play("end", "concede", "frame", "concede", header=header)
    assert (st["status"], st["winner"], st["current"]) == ("finished", "A", None)
    st = play("end", "concede", "frame", "concede", "undo", header=header)
    assert (st["status"], st["winner"]) == ("playing", None)
    assert st["frames_won"] == {"A": 1, "B": 0}
    assert cur(st)["striker"] == "B"


def test_undo_cannot_reach_before_frame_line():
    assert play_error("undo") == 7
    assert play_error("pot red", "undo", "undo") == 9
    # after the next frame starts, the previous frame's end cannot be undone
    assert play_error("end", "concede", "frame", "undo") == 10


# --------------------------------------------------------------------------- breaks


def test_breaks_recorded_per_side_in_order():
    events = rb(2)  # A 16 in progress
    st = play(*events)
    assert st["frames"][0]["breaks"] == {"A": [], "B": []}
    assert cur(st)["break"] == 16
    events += ["end"]
    assert play(*events)["frames"][0]["breaks"] == {"A": [16], "B": []}
    events += ["pot red", "pot black", "pot red", "end"]  # B 9: not listed
    st = play(*events)
    assert st["frames"][0]["breaks"] == {"A": [16], "B": []}
    assert cur(st)["score"] == {"A": 16, "B": 9}
    events += ["pot red", "pot pink", "pot red", "pot blue", "end"]  # A 13
    assert play(*events)["frames"][0]["breaks"] == {"A": [16, 13], "B": []}
    events += ["pot red", "pot pink", "pot red", "pot yellow", "end"]  # B exactly 10
    st = play(*events)
    assert st["frames"][0]["breaks"] == {"A": [16, 13], "B": [10]}
    # reds: 15 - 2 - 2 - 2 - 2 = 7
    assert cur(st)["reds"] == 7
    assert cur(st)["score"] == {"A": 29, "B": 19}


# --------------------------------------------------------------------------- match


def _four_conceded_frames():
    # frame 1 A breaks, A `end`, B concedes; frame 2 B breaks and concedes; and so on
    return ["end", "concede", "frame", "concede", "frame", "end", "concede", "frame", "concede"]


def test_best_of_7_ends_at_4_frames():
    events = _four_conceded_frames()
    st = play(*events[:-1])
    assert st["status"] == "playing" and st["frames_won"] == {"A": 3, "B": 0}
    st = play(*events)
    assert (st["status"], st["winner"], st["current"]) == ("finished", "A", None)
    assert st["frames_won"] == {"A": 4, "B": 0}
    assert [f["breaker"] for f in st["frames"]] == ["A", "B", "A", "B"]
    assert [f["number"] for f in st["frames"]] == [1, 2, 3, 4]
    assert all(f["how"] == "conceded" and f["winner"] == "A" for f in st["frames"])
    assert play_error(*events, "frame") == last_line(events) + 1


def test_fixed_frames_drawn_match():
    header = HEADER.replace("best-of 7", "frames 2") + "frame A\n"
    st = play("end", "concede", "frame", "end", "concede", header=header)
    assert (st["status"], st["winner"], st["current"]) == ("finished", None, None)
    assert st["frames_won"] == {"A": 1, "B": 1}


def test_fixed_frames_all_played():
    header = HEADER.replace("best-of 7", "frames 3") + "frame A\n"
    st = play("end", "concede", "frame", "concede", header=header)
    assert st["status"] == "playing" and st["frames_won"] == {"A": 2, "B": 0}
    st = play("end", "concede", "frame", "concede", "frame", "concede", header=header)
    assert (st["status"], st["winner"]) == ("finished", "A")
    assert st["frames_won"] == {"A": 2, "B": 1}


def test_break_off_alternates():
    st = play("concede", "frame")
    assert st["frames"][1]["breaker"] == "B" and cur(st)["striker"] == "B"
    st = play("concede", "frame B")
    assert st["frames"][1]["breaker"] == "B"
    assert play_error("concede", "frame A") == 8
    st = play("concede", "frame", "concede", "frame")
    assert [f["breaker"] for f in st["frames"]] == ["A", "B", "A"]


def test_first_frame_without_side_is_a():
    # INTERPRETATION (lead): a first `frame` without a side means A breaks.
    st = state(HEADER + "frame\n")
    assert st["frames"][0]["breaker"] == "A" and cur(st)["striker"] == "A"


def test_first_frame_b_then_alternates():
    st = state(HEADER + "frame B\nconcede\nframe\n")
    assert [f["breaker"] for f in st["frames"]] == ["B", "A"]
    assert st["frames"][0]["winner"] == "A"
    assert error_line(HEADER + "frame B\nconcede\nframe B\n") == 8


def test_frame_while_frame_in_progress_refused():
    assert play_error("pot red", "frame") == 8


def test_doubles_accepted():
    header = HEADER.replace('"Ann"', '"Ann" "Amy"').replace('"Bob"', '"Bob" "Ben"') + "frame\n"
    events = rb(2) + ["end", "pot red", "end"]
    assert play(*events, header=header) == play(*events)


@pytest.mark.parametrize("n,remaining", [(15, 147), (10, 107), (6, 75)])
def test_reds_variants(n, remaining):
    header = HEADER.replace("reds=15", "reds=%d" % n) + "frame\n"
    c = cur(play(header=header))
    assert (c["reds"], c["remaining"]) == (n, remaining)
    c = cur(play("pot red", header=header))
    # 7 + 8(n-1) + 27
    assert (c["reds"], c["remaining"]) == (n - 1, 8 * n + 26)


def test_reds_default_15():
    header = HEADER.replace("game snooker reds=15", "game snooker") + "frame\n"
    assert (cur(play(header=header))["reds"], cur(play(header=header))["remaining"]) == (15, 147)


def test_bad_headers_refused():
    assert error_line(HEADER.replace("reds=15", "reds=12") + "frame\n") == 2
    assert error_line(HEADER.replace("best-of 7", "best-of 4") + "frame\n") == 3
    assert error_line(HEADER.replace("best-of 7", "race-to 4") + "frame\n") == 3
    # `breaks winner` is refused in snooker ("alternate, the only choice in snooker").
    # Best named on its own line (6); the header may also be checked as a whole when the
    # first `frame` (7) ends it.
    assert error_line(HEADER + "breaks winner\nframe\n") in (6, 7)
    assert error_line(HEADER + 'side C "Cy"\nframe\n') == 6


def test_breaks_alternate_accepted():
    assert cur(state(HEADER + "breaks alternate\nframe\n"))["striker"] == "A"


# --------------------------------------------------------------------------- remaining


@pytest.mark.parametrize(
    "events,ball_on,remaining",
    [
        ([], "red", 147),                                   # 8*15 + 27
        (["pot red"], "colour", 146),                       # 7 + 8*14 + 27
        (rb(1), "red", 139),                                # 8*14 + 27
        (["foul 4 red red red red"], "red", 115),           # 8*11 + 27 (reds lost in a foul)
        (rb(14) + ["pot red"], "colour", 34),               # 7 + 0 + 27
        (rb(15), "yellow", 27),
        (rb(15) + COLOURS[:1], "green", 25),
        (rb(15) + COLOURS[:2], "brown", 22),
        (rb(15) + COLOURS[:3], "blue", 18),
        (rb(15) + COLOURS[:4], "pink", 13),
        (rb(15) + COLOURS[:5], "black", 7),
        (["foul 4", "free"], "red", 155),                   # + 8 for the free ball
        (rb(15) + ["pot yellow", "pot green", "pot brown", "foul 5", "free"], "blue", 23),
    ],
)
def test_points_remaining(events, ball_on, remaining):
    events = ["pot " + e if e in VALUES else e for e in events]
    c = cur(play(*events))
    assert (c["ball_on"], c["remaining"]) == (ball_on, remaining)


# --------------------------------------------------------------------------- snookers required


def test_snookers_required_35_v_60_blue_on():
    c = cur(play(*S3560))
    # D = 25, P = 18, f = 5: 5k >= 7 -> k = 2
    assert c["score"] == {"A": 35, "B": 60}
    assert (c["ball_on"], c["remaining"], c["snookers_required"]) == ("blue", 18, 2)
    assert c["prompts"] == ["snookers"]


@pytest.mark.parametrize(
    "events,score,remaining,required",
    [
        # red on, f = 4: D 96, P 8*3+27 = 51, 45 -> 12
        (rb(12) + ["end"], (96, 0), 51, 12),
        # colour on, f = 4: D 97, P 7+16+27 = 50, 47 -> 12
        (rb(12) + ["pot red"], (97, 0), 50, 12),
        # yellow on, f = max(4, 2) = 4: D 120, P 27, 93 -> 24
        (rb(15) + ["end"], (120, 0), 27, 24),
        # pink on, f = 6: D 134, P 13, 121 -> 21
        (rb(15) + ["pot yellow", "pot green", "pot brown", "pot blue", "end"], (134, 0), 13, 21),
        # free ball with reds on: A 100 (B fouled), P 51 + 8 = 59, 41 -> 11
        (rb(12) + ["end", "foul 4", "free"], (100, 0), 59, 11),
        # free ball on yellow: A 124, P 27 + 2 = 29, 95 -> 24
        (rb(15) + ["end", "foul 4", "free"], (124, 0), 29, 24),
        # D <= P: 0
        ([], (0, 0), 147, 0),
        (P27, (27, 0), 27, 0),  # D = P
        (P27 + YTOP, (27, 20), 7, 0),  # black only, D = 7
    ],
)
def test_snookers_required(events, score, remaining, required):
    c = cur(play(*events))
    assert (c["score"]["A"], c["score"]["B"]) == score
    assert c["remaining"] == remaining
    assert c["snookers_required"] == required


def test_snookers_required_null_with_only_black_left():
    c = cur(play(*rb(15), *["pot " + x for x in COLOURS[:5]], "end"))
    assert c["score"] == {"A": 140, "B": 0}
    assert (c["ball_on"], c["remaining"], c["snookers_required"]) == ("black", 7, None)


# --------------------------------------------------------------------------- prompts


def test_prompt_tie_only():
    c = cur(play(*P27, *YTOP))  # B at the table, 20 v 27, black on
    assert c["prompts"] == ["tie-only"]
    c = cur(play(*P27, "pot yellow"))  # B 2 v 27, green on: D 25 = P 25
    assert c["prompts"] == ["tie-only"]


def test_prompt_tie_only_and_frame_ball_order():
    assert cur(play(*P27, *YTOP, "end"))["prompts"] == ["tie-only", "frame-ball"]
    # A on yellow, 27 v 0 with 27 left: yellow puts it 29 v 25
    assert cur(play(*P27, "end"))["prompts"] == ["tie-only", "frame-ball"]


def test_prompt_frame_ball_on_colour():
    c = cur(play(*rb(9), "pot red"))
    # A 73, reds 5, colour on: P = 7 + 40 + 27 = 74; the black makes 80 v 67 left
    assert (c["score"]["A"], c["reds"], c["remaining"], c["snookers_required"]) == (73, 5, 74, 0)
    assert c["prompts"] == ["frame-ball"]


def test_no_frame_ball_when_already_out_of_reach():
    c = cur(play(*rb(9), "pot red", "pot black"))
    # A 80, red on, P = 8*5 + 27 = 67; D - P = 13, f = 4 -> 4
    assert (c["remaining"], c["snookers_required"]) == (67, 4)
    assert c["prompts"] == ["snookers"]
    c = cur(play(*S3560))
    assert c["prompts"] == ["snookers"]


def test_prompt_snookers_then_warn_miss():
    events = S3560 + ["end", "foul 5 miss", "replace", "foul 5 miss", "replace"]
    c = cur(play(*events))
    # A 35 v B 70, blue on: D 35, P 18, 17 -> 4 with f = 5
    assert c["score"] == {"A": 35, "B": 70}
    assert (c["striker"], c["ball_on"], c["snookers_required"]) == ("A", "blue", 4)
    assert c["misses_in_a_row"] == {"A": 2, "B": 0}
    assert c["prompts"] == ["snookers", "warn-miss"]


# --------------------------------------------------------------------------- lines


def test_line_numbers_count_blank_and_comment_lines():
    text = START + "\n# a comment\n\npot black\n"
    assert error_line(text) == 10


def test_comments_and_quotes():
    header = (
        "sbn 1 # version\n"
        "game snooker reds=15\n"
        "match best-of 7\n"
        'side A "Ann #1 \\"the ace\\" O\\\\Neil"\n'
        'side B "Bob" # comment after a name\n'
        "frame A\n"
    )
    assert play("pot red # nice", "pot black", header=header) == play("pot red", "pot black")


def test_crlf_accepted():
    text = START + "pot red\npot black\nend\n"
    assert state(text.replace("\n", "\r\n")) == state(text)


def test_time_stamps_do_not_score():
    text = START + "@1500 pot red\n@4200 pot black\n@9000 end\n"
    stamped = state(text)
    plain = play("pot red", "pot black", "end")
    assert stamped.pop("timing")["match_ms"] == 9000  # stamps feed the times only
    assert plain.pop("timing") is None
    assert stamped == plain


def test_journal_checksums():
    plain = START + "pot red\npot black\n"
    journal = "".join(with_crc(line) + "\n" for line in plain.splitlines())
    assert state(journal) == state(plain)
    rows = journal.splitlines()
    rows[7] = rows[7][:-1] + ("0" if rows[7][-1] != "0" else "1")  # line 8: pot black
    assert error_line("\n".join(rows) + "\n") == 8


def test_unknown_word_and_ball_refused():
    assert play_error("pot red", "nominate black") == 8
    assert play_error("pot red", "pot purple") == 8
    assert play_error("pot") == 7
    assert play_error("foul") == 7
    assert play_error("foul 4x") == 7
    assert play_error("foul four") == 7
    assert play_error("foul 4 purple") == 7
    assert play_error("Pot red") == 7


def test_events_before_frame_refused():
    assert error_line(HEADER + "pot red\n") == 6
    assert error_line(HEADER + "end\n") == 6
    assert error_line(HEADER + "foul 4\n") == 6


def test_report_key_order_ascii_integers():
    text = START + "\n".join(rb(2) + ["end", "pot red"]) + "\n"
    raw = report(text)
    assert raw.isascii()
    top = json.loads(raw, object_pairs_hook=OrderedDict)
    # the contract's keys first, in order (keys added after them are an extension)
    assert list(top)[:6] == ["game", "status", "winner", "frames_won", "frames", "current"]
    assert list(top["frames"][0]) == ["number", "breaker", "score", "winner", "how", "breaks"]
    assert list(top["current"]) == [
        "striker", "score", "break", "ball_on", "reds", "remaining", "snookers_required",
        "free_ball", "respotted_black", "fouls_in_a_row", "misses_in_a_row", "prompts"]

    def walk(v):
        assert not isinstance(v, float)
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(top)


def test_lines_helper_keeps_physical_lines():
    assert lines_of("a\n\nb\n") == ["a\n", "\n", "b\n"]


# --------------------------------------------------------------------------- more edges


def test_pot_free_red_with_reds_on_each_scores():
    c = cur(play("foul 4", "free", "pot free red"))
    assert c["score"] == {"A": 0, "B": 6}
    assert (c["reds"], c["ball_on"], c["remaining"]) == (14, "colour", 146)


def test_pot_free_with_ball_not_on_refused():
    base = P27 + ["foul 4", "free"]  # A on yellow with a free ball
    assert play_error(*base, "pot free green") == last_line(base) + 1
    assert play_error("foul 4", "free", "pot free black") == 9


def test_replace_brings_back_last_red():
    c = cur(play(*rb(14), "foul 4 red miss"))
    assert (c["striker"], c["reds"], c["ball_on"], c["remaining"]) == ("B", 0, "yellow", 27)
    c = cur(play(*rb(14), "foul 4 red miss", "replace"))
    # A 112, B 4; one red back: 8 + 27 = 35
    assert c["score"] == {"A": 112, "B": 4}
    assert (c["striker"], c["reds"], c["ball_on"], c["remaining"]) == ("A", 1, "red", 35)


def test_foul_flags_accepted():
    c = cur(play("foul 4 time"))
    assert c["score"] == {"A": 0, "B": 4}
    c = cur(play("foul 5 red miss time", "replace"))
    assert (c["score"], c["reds"], c["striker"]) == ({"A": 0, "B": 5}, 15, "A")


def test_foul_dropping_ball_on_colour_respotted():
    c = cur(play(*P27, "foul 4 yellow"))
    assert c["score"] == {"A": 31, "B": 0}
    assert (c["striker"], c["ball_on"], c["remaining"]) == ("A", "yellow", 27)


def test_foul_listing_balls_not_on_table_refused():
    assert play_error(*P27, "foul 4 red") == last_line(P27) + 1  # no reds left
    assert play_error(*P27, "foul 4 black") == last_line(P27) + 1  # black is worth 7
    header = HEADER.replace("reds=15", "reds=6") + "frame A\n"
    assert play_error("foul 4 red red red red red red red", header=header) == 7


def test_fouls_reset_at_new_frame():
    c = cur(play("foul 4", "again", "foul 4", "concede", "frame"))
    # B conceded frame 1 at the table after A's second foul
    assert c["fouls_in_a_row"] == {"A": 0, "B": 0}
    assert c["misses_in_a_row"] == {"A": 0, "B": 0}


def test_respot_then_miss_then_other_side_pots():
    st = play(*P27, *YTOP, "pot black", "respot A", "end", "pot black")
    f = st["frames"][0]
    assert (f["score"], f["winner"], f["how"]) == ({"A": 27, "B": 34}, "B", "potted")


def test_by_points_winner_on_aggregate_not_frames():
    # frame 1 A 34-20; frame 2 B breaks, pots red and black, A concedes at 0-8
    st = play(*F1_A34_B20, "frame", "pot red", "pot black", "end", "concede",
              header=BY_POINTS)
    assert st["frames_won"] == {"A": 1, "B": 1}
    assert (st["status"], st["winner"]) == ("finished", "A")  # 34 v 28 on aggregate


def test_undo_before_any_frame_refused():
    # docs/notation.md: between the header and the first `frame` only `called`, `forfeit`,
    # `abandon` and `clock` may appear; and undo reaches back only to a `frame` line.
    assert error_line(HEADER + "undo\n") == 6
    assert error_line(HEADER + "called\nundo\n") == 7


def test_concede_ends_the_match_in_the_deciding_frame():
    header = HEADER.replace("best-of 7", "best-of 3") + "frame A\n"
    events = ["concede", "frame", "concede", "frame", "end", "concede"]
    # frame 1: A concedes (B); 2: B breaks and concedes (A); 3: A breaks, B concedes (A)
    st = play(*events[:-1], header=header)
    assert st["status"] == "playing" and st["frames_won"] == {"A": 1, "B": 1}
    st = play(*events, header=header)
    assert (st["status"], st["winner"], st["frames_won"]) == ("finished", "A", {"A": 2, "B": 1})


def test_crlf_line_numbers_and_bad_stamp():
    assert error_line((START + "pot red\npot red\n").replace("\n", "\r\n")) == 8
    assert play_error("@12x pot red") == 7
