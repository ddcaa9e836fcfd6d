"""Snooker rules, frames and the match: end of frame, claim and concede, penalty and
restart, forfeit and abandon, undo, breaks, the match. One or more tests per rule of
docs/rules.md (Snooker) and per snooker word of docs/notation.md. Every expected figure is worked
out by hand from those two pages (the arithmetic is in the comments), never copied from
the engine's output; the shared positions (P27, S3560, ...) are in
tests/support/snooker_sbn.py.

Interpretations where the contract leaves something open are marked `INTERPRETATION`.
"""

import pytest
from support.sbn import HEADER, error_line, play, play_error, state
from support.snooker_sbn import rb, last_line, cur, P27, YTOP, BY_POINTS, F1_A34_B20, F2_MIRROR


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
    # INTERPRETATION: NOTATION says "A, not at the table"; penalising the striker is a foul.
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


