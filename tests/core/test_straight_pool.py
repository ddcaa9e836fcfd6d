"""Straight pool (14.1 continuous), from docs/rules.md (Straight pool) and
docs/notation.md (Straight pool). Every expected figure is worked out by hand
(arithmetic in the comments), never copied from the engine's output.

Balls on the table are tracked by hand in the comments as `[n]`: 15 at the start; the
board re-racks 14 when one is left (back to 15); the 14th and 15th together: 15 racked.

Interpretations where the contract leaves something open are marked `INTERPRETATION`.
"""

import pytest
from support.pool_sbn import cur, straight, straight_current


def S(points=100):
    return straight(points)


# --------------------------------------------------------------------------- score, runs


def test_fresh_game():
    st = S().state()
    assert st["game"] == "straight"
    assert st["status"] == "playing"
    assert st["frames"] == [{"number": 1, "breaker": "A", "score": {"A": 0, "B": 0},
                             "winner": None, "how": None, "breaks": {"A": [], "B": []}}]
    assert st["current"] == straight_current("A", (0, 0), 0)
    assert st["result"] is None
    assert st["timing"] is None


def test_score_is_points_and_run():
    st = S().state("score 1", "score 3")
    assert cur(st) == straight_current("A", (4, 0), 4)
    assert st["frames"][0]["score"] == {"A": 4, "B": 0}


def test_end_passes_the_table_and_ends_the_run():
    st = S().state("score 2", "end")
    assert cur(st) == straight_current("B", (2, 0), 0)
    st = S().state("score 2", "end", "score 3")
    assert cur(st) == straight_current("B", (2, 3), 3)


def test_score_zero_or_bad_refused():
    g = S()
    assert g.error("score 0") == g.line(1)
    assert g.error("score x") == g.line(1)


# --------------------------------------------------------------------------- fouls


def test_foul_minus_one():
    # A breaks legally (`end`); B fouls: B -1, A to the table
    st = S().state("end", "foul")
    assert cur(st) == straight_current("A", (0, -1), 0, fouls=(0, 1))


def test_foul_after_scoring():
    # A 3, then fouls: 3 - 1 = 2; B to the table
    st = S().state("score 3", "foul")
    assert cur(st)["score"] == {"A": 2, "B": 0}
    assert cur(st)["striker"] == "B"
    assert cur(st)["fouls_in_a_row"] == {"A": 1, "B": 0}


def test_break_foul_minus_two_not_counted():
    st = S().state("foul break")
    assert cur(st) == straight_current("B", (-2, 0), 0, fouls=(0, 0))


def test_break_foul_refused_after_first_stroke():
    g = S()
    assert g.error("score 1", "foul break") == g.line(2)
    assert g.error("end", "foul break") == g.line(2)  # B's first stroke is not a break
    assert g.error("foul", "foul break") == g.line(2)


def test_again_after_break_foul():
    # A fouls the break (-2); B makes A break again; A fouls it again (-2): -4
    st = S().state("foul break", "again")
    assert cur(st) == straight_current("A", (-2, 0), 0)
    st = S().state("foul break", "again", "foul break")
    assert cur(st) == straight_current("B", (-4, 0), 0)
    st = S().state("foul break", "again", "foul break", "again", "score 2")
    assert cur(st) == straight_current("A", (-2, 0), 2)


def test_break_fouls_never_make_three():
    # three opening-break fouls in a row by A: -2 each, none counted: -6, no -15
    st = S().state("foul break", "again", "foul break", "again", "foul break")
    assert cur(st) == straight_current("B", (-6, 0), 0, fouls=(0, 0))


def test_break_foul_then_other_side_plays():
    # B takes the table: no more opening break
    g = S()
    st = g.state("foul break", "score 3")
    assert cur(st) == straight_current("B", (-2, 3), 3)
    assert g.error("foul break", "foul break") == g.line(2)


def test_again_only_right_after_break_foul():
    g = S()
    assert g.error("again") == g.line(1)
    assert g.error("foul", "again") == g.line(2)
    assert g.error("end", "foul", "again") == g.line(3)
    assert g.error("score 2", "again") == g.line(2)
    assert g.error("foul break", "end", "again") == g.line(3)
    assert g.error("foul break", "again", "again") == g.line(3)


# A breaks (`end`); B fouls (B -1, 1 in a row), A ends, B fouls (-2, 2), A ends:
# B at the table on two fouls.
TWO_B = ["end", "foul", "end", "foul", "end"]


def test_prompt_warn_fouls():
    st = S().state(*TWO_B)
    assert cur(st) == straight_current("B", (0, -2), 0, fouls=(0, 2), prompts=["warn-fouls"])
    st = S().state(*TWO_B, "warn B")
    assert cur(st) == straight_current("B", (0, -2), 0, fouls=(0, 2))


def test_warn_refused_unless_on_two():
    g = S()
    assert g.error("warn A") == g.line(1)
    assert g.error("end", "foul", "warn B") == g.line(3)
    assert g.error(*TWO_B, "warn A") == g.line(6)


def test_three_fouls_warned():
    # third foul: -1, then -15 more: -2 - 1 - 15 = -18 (the three fouls cost 18);
    # the count resets, 15 balls are racked and B (the offender) breaks: striker B
    st = S().state(*TWO_B, "warn B", "foul")
    assert cur(st) == straight_current("B", (0, -18), 0, fouls=(0, 0))
    assert st["frames"][0]["score"] == {"A": 0, "B": -18}
    assert st["status"] == "playing"


def test_three_fouls_then_opening_break_rules():
    # after the three-foul re-rack B breaks under opening-break rules: `foul break` -2
    st = S().state(*TWO_B, "warn B", "foul", "foul break")
    assert cur(st) == straight_current("A", (0, -20), 0, fouls=(0, 0))
    # and `again` after it
    st = S().state(*TWO_B, "warn B", "foul", "foul break", "again")
    assert cur(st) == straight_current("B", (0, -20), 0)


def test_three_fouls_rerack_15_balls():
    # A scores 10 first: [5]; the three-foul re-rack puts 15 back: B can score 14
    ev = ["score 10", "end", "foul", "end", "foul", "end", "warn B", "foul"]
    st = S().state(*ev, "score 14")
    # A's run of 10 ended by `end`; B: -1 -1 -16 = -18, then 14: -4, run 14
    assert cur(st) == straight_current("B", (10, -4), 14)
    assert st["frames"][0]["breaks"] == {"A": [10], "B": []}


def test_unwarned_third_foul_counts_as_second():
    st = S().state(*TWO_B, "foul")
    # -3 in all, count stays 2, A to the table
    assert cur(st) == straight_current("A", (0, -3), 0, fouls=(0, 2))
    # back to B on two: prompt again; warned, the next foul costs 16: -19
    st = S().state(*TWO_B, "foul", "end")
    assert cur(st)["prompts"] == ["warn-fouls"]
    st = S().state(*TWO_B, "foul", "end", "warn B", "foul")
    assert cur(st) == straight_current("B", (0, -19), 0, fouls=(0, 0))


def test_fouls_reset_by_score_and_end():
    # B fouls (1), A ends, B scores: 0
    st = S().state("end", "foul", "end", "score 1")
    assert cur(st)["fouls_in_a_row"] == {"A": 0, "B": 0}
    # B fouls (1), A ends, B ends its visit with `end`: 0
    st = S().state("end", "foul", "end", "end")
    assert cur(st)["fouls_in_a_row"] == {"A": 0, "B": 0}


def test_negative_scores():
    st = S().state("foul", "foul", "foul")
    # A -1, B -1, A -2 (two in a row), B to the table
    assert cur(st) == straight_current("B", (-2, -1), 0, fouls=(2, 1))


# --------------------------------------------------------------------------- re-racks


def test_score_more_than_on_table_refused():
    g = S()
    assert g.error("score 16") == g.line(1)
    assert g.error("score 5", "score 11") == g.line(2)  # [10]
    assert g.error("score 5", "end", "score 11") == g.line(3)  # still [10]
    assert "only 10 object balls" in str(g.exc("score 5", "score 11"))


def test_score_all_on_table_allowed():
    st = S().state("score 5", "score 10")  # [10] -> all of them
    assert cur(st) == straight_current("A", (15, 0), 15)


def test_automatic_rerack_at_one_ball():
    # [15] -5 -> [10] -9 -> [1]: the other 14 are re-racked: [15]
    st = S().state("score 5", "score 9", "score 14")
    assert cur(st) == straight_current("A", (28, 0), 28)
    g = S()
    assert g.error("score 5", "score 9", "score 16") == g.line(3)
    assert g.error("score 14", "score 16") == g.line(2)


def test_automatic_rerack_across_visits():
    # A 13 [2], end; B 1 [1] -> [15]; B can then score 14
    st = S().state("score 13", "end", "score 1", "score 14")
    assert cur(st) == straight_current("B", (13, 15), 15)


def test_fourteenth_and_fifteenth_together():
    # [15] -13 -> [2]; both in one stroke: all 15 racked; the striker continues
    st = S().state("score 13", "score 2")
    assert cur(st) == straight_current("A", (15, 0), 15)
    st = S().state("score 13", "score 2", "score 14")
    assert cur(st) == straight_current("A", (29, 0), 29)
    g = S()
    assert g.error("score 13", "score 3") == g.line(2)


def test_rerack_word():
    # INTERPRETATION: `rerack` and `rerack 15` record a re-rack where one is due, the
    # table holding 15 (14 racked + the one left, or all 15); play and scores are
    # unchanged. A game's first rack holds 15 too.
    st = S().state("score 14", "rerack", "score 14")
    assert cur(st) == straight_current("A", (28, 0), 28)
    st = S().state("score 14", "rerack 15", "score 14")
    assert cur(st) == straight_current("A", (28, 0), 28)
    st = S().state("score 14", "rerack 15")
    assert cur(st) == straight_current("A", (14, 0), 14)
    st = S().state("rerack 15", "score 3")
    assert cur(st) == straight_current("A", (3, 0), 3)


def test_fifteen_with_fifteen_on_the_table_refused():
    # Issue 26: the balls are racked again when one object ball is left (14 down), so
    # with 15 on the table one entry scores at most 14; the 15th is from the new rack.
    g = S()
    assert g.error("score 15") == g.line(1)  # the opening rack
    assert g.error("score 14", "score 15") == g.line(2)  # [1 -> 15]
    assert g.error("score 13", "score 2", "score 15") == g.line(3)  # all 15 racked
    why = str(g.exc("score 15"))
    assert "15 balls on the table" in why and "at most 14" in why
    # 14 of them is the most, and then the striker goes on
    st = S().state("score 14", "score 14")
    assert cur(st) == straight_current("A", (28, 0), 28)


def test_a_rerack_before_one_ball_is_left_refused():
    # Issue 26: [15] -6 -> [9]: no rack is due with 9 on the table, by the referee
    # (`rerack`, `rerack 15`): refused with the reason.
    g = S()
    assert g.error("score 6", "rerack") == g.line(2)
    assert g.error("score 6", "rerack 15") == g.line(2)
    assert g.error("score 13", "rerack") == g.line(2)  # [2]: the last two still there
    why = str(g.exc("score 6", "rerack"))
    assert why.endswith("9 balls on the table: the balls are racked when one is left")


# --------------------------------------------------------------------------- runs (breaks)


def test_runs_of_ten_or_more_recorded_in_order():
    # A 5+6 = 11 [4], end -> A [11]; B 3 [1 -> 15], end (3: not recorded);
    # A 2 + 10 = 12 [13 -> 3], end -> A [11, 12]
    ev = ["score 5", "score 6", "end", "score 3", "end", "score 2", "score 10", "end"]
    st = S().state(*ev)
    assert st["frames"][0]["breaks"] == {"A": [11, 12], "B": []}
    assert cur(st) == straight_current("B", (23, 3), 0)


def test_run_in_progress_not_yet_in_breaks():
    st = S().state("score 12")
    assert st["frames"][0]["breaks"] == {"A": [], "B": []}
    assert cur(st)["break"] == 12


def test_run_across_rerack():
    # A 14 [1 -> 15] then 5: one run of 19
    st = S().state("score 14", "score 5", "end")
    assert st["frames"][0]["breaks"] == {"A": [19], "B": []}


def test_run_of_nine_not_recorded_ten_is():
    st = S().state("score 9", "end", "score 5", "score 5", "end")
    assert st["frames"][0]["breaks"] == {"A": [], "B": [10]}


# --------------------------------------------------------------------------- end of game


def test_game_ends_at_target():
    # points 25: A 14 [1 -> 15], A 11 -> 25
    st = S(25).state("score 14", "score 11")
    assert st["status"] == "finished"
    assert st["winner"] == "A"
    assert st["current"] is None
    assert st["result"] == {"how": "played", "why": None, "score": {"A": 25, "B": 0}}
    f = st["frames"][0]
    assert f["score"] == {"A": 25, "B": 0}
    assert f["winner"] == "A"
    # INTERPRETATION: the game ends with the run of 25 finished: it is in `breaks`;
    # the single frame is won by A (how `won`, frames_won A 1).
    assert f["breaks"] == {"A": [25], "B": []}
    assert f["how"] == "won"
    assert st["frames_won"] == {"A": 1, "B": 0}


def test_game_ends_for_b():
    # A breaks (`end`); B 12 [3], 2 [1 -> 15]: 14; end; A end; B 11: 25
    st = S(25).state("end", "score 12", "score 2", "end", "end", "score 11")
    assert st["winner"] == "B"
    assert st["result"]["score"] == {"A": 0, "B": 25}


def test_not_yet_at_target():
    st = S(25).state("score 14", "score 10")
    assert st["status"] == "playing"
    assert cur(st)["score"] == {"A": 24, "B": 0}


def test_nothing_after_the_end():
    g = S(25)
    for word in ("score 1", "end", "foul", "frame", "rerack"):
        assert g.error("score 14", "score 11", word) == g.line(3), word


def test_undo_game_end():
    st = S(25).state("score 14", "score 11", "undo")
    assert st["status"] == "playing"
    assert cur(st) == straight_current("A", (14, 0), 14)


# --------------------------------------------------------------------------- penalty


def test_penalty_takes_points_from_the_side_not_at_the_table():
    st = S().state("score 3", "penalty B 2", "score 2")
    # B -2; A at the table still, run unbroken: 3 + 2
    assert cur(st) == straight_current("A", (5, -2), 5)


def test_penalty_on_striker_refused():
    # docs/notation.md says `penalty A N` is for A "not at the table"; snooker refuses the striker
    g = S()
    assert g.error("penalty A 1") == g.line(1)


def test_undo_penalty():
    assert S().state("score 3", "penalty B 2", "undo") == S().state("score 3")


@pytest.mark.parametrize("word", ["rack A", "push", "pot 1", "warn A", "golden"])
def test_pool_words_refused(word):
    g = S()
    assert g.error("end", word) == g.line(2)


def test_undo_across_automatic_rerack():
    # A 14 [1 -> 15]; undone: [15] again from the start, so 14 is still allowed
    st = S().state("score 14", "undo", "score 14")
    assert cur(st) == straight_current("A", (14, 0), 14)
    # A 14 [15], 1 [14]; both undone: [15]; 16 never fits
    g = S()
    assert g.error("score 14", "score 1", "undo", "undo", "score 16") == g.line(5)
    # A 13 [2], 1 [1 -> 15]; the 1 undone: [2] again, so 3 is refused
    assert g.error("score 13", "score 1", "undo", "score 3") == g.line(4)


def test_warned_side_resets_by_scoring():
    # B on two, warned, then scores: count 0; the next foul is the first again: -1
    ev = TWO_B + ["warn B", "score 1", "foul"]
    st = S().state(*ev)
    # B: -1 -1 +1 -1 = -2, one foul in a row, A to the table
    assert cur(st) == straight_current("A", (0, -2), 0, fouls=(0, 1))
