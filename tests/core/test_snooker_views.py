"""Snooker rules, what the box shows: remaining, snookers required, prompts, line errors,
more edges. One or more tests per rule of docs/rules.md (Snooker) and per snooker word of
docs/notation.md. Every expected figure is worked out by hand from those two pages (the
arithmetic is in the comments), never copied from the engine's output; the shared
positions (P27, S3560, ...) are in tests/support/snooker_sbn.py.

Interpretations where the contract leaves something open are marked `INTERPRETATION`.
"""

import json
from collections import OrderedDict

import pytest
from support.sbn import (HEADER, START, error_line, lines_of, play, play_error, report, state,
                         with_crc)
from support.snooker_sbn import (VALUES, COLOURS, rb, last_line, cur, P27, YTOP, S3560, BY_POINTS,
                                 F1_A34_B20)


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
    # NOTATION: between the header and the first `frame` only `called`, `forfeit`,
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
