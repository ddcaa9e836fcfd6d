"""Pool rules (8-ball, 9-ball, 10-ball), one or more tests per rule of docs/rules.md (Pool,
Tournament rules) and per pool word of docs/notation.md. Every expected figure is worked out by
hand from those two pages, never copied from the engine's output.

Interpretations where the contract leaves something open are marked `INTERPRETATION`.
"""

import pytest
from support.pool_sbn import cur, eight, nine, pool_current, rack, ten

GAMES = {"eightball": eight, "nineball": nine, "tenball": ten}
GAME_BALL = {"eightball": 8, "nineball": 9, "tenball": 10}


def all_games():
    return pytest.mark.parametrize("game", sorted(GAMES))


# --------------------------------------------------------------------------- racks, race


@all_games()
def test_fresh_rack(game):
    st = GAMES[game]().state()
    assert st["game"] == game
    assert st["status"] == "playing"
    assert st["winner"] is None
    assert st["frames_won"] == {"A": 0, "B": 0}
    assert st["frames"] == [rack(1, "A")]
    assert st["current"] == pool_current("A")
    assert st["result"] is None
    assert st["timing"] is None  # no `@MS` anywhere


@all_games()
def test_rack_word_ends_rack_won(game):
    st = GAMES[game]().state("rack A")
    assert st["frames"] == [rack(1, "A", "A", "won")]
    assert st["frames_won"] == {"A": 1, "B": 0}
    assert st["current"] is None  # between racks
    assert st["status"] == "playing"
    assert st["result"] is None


@all_games()
def test_race_to_3_ends_the_match(game):
    # breaks alternate (default): A, B, A, B, A
    ev = ["rack A", "frame", "rack B", "frame", "rack A", "frame", "rack B", "frame", "rack A"]
    st = GAMES[game]().state(*ev)
    assert st["status"] == "finished"
    assert st["winner"] == "A"
    assert st["frames_won"] == {"A": 3, "B": 2}
    assert st["current"] is None
    assert [f["breaker"] for f in st["frames"]] == ["A", "B", "A", "B", "A"]
    assert [f["winner"] for f in st["frames"]] == ["A", "B", "A", "B", "A"]
    assert st["result"] == {"how": "played", "why": None, "score": {"A": 3, "B": 2}}


def test_race_to_3_after_three_straight():
    st = nine().state("rack B", "frame", "rack B", "frame", "rack B")
    assert st["status"] == "finished"
    assert st["winner"] == "B"
    assert st["result"] == {"how": "played", "why": None, "score": {"A": 0, "B": 3}}


def test_nothing_after_the_match():
    g = nine()
    ev = ["rack A", "frame", "rack A", "frame", "rack A", "frame"]
    assert g.error(*ev) == g.last(ev)
    ev = ["rack A", "frame", "rack A", "frame", "rack A", "end"]
    assert g.error(*ev) == g.last(ev)


def test_breaks_alternate():
    st = nine().state("rack A", "frame")
    assert st["frames"][1]["breaker"] == "B"
    assert cur(st)["striker"] == "B"
    st = nine().state("rack B", "frame")
    assert st["frames"][1]["breaker"] == "B"


def test_breaks_alternate_contradicted():
    g = nine()
    assert g.error("rack A", "frame A") == g.line(2)
    assert nine().state("rack A", "frame B")["frames"][1]["breaker"] == "B"


def test_first_rack_breaker_is_free():
    # The first frame is the lag winner's choice: `frame B` is fine.
    st = nine(frame="frame B").state()
    assert st["frames"] == [rack(1, "B")]
    assert cur(st)["striker"] == "B"


def test_breaks_winner():
    g = nine(breaks="winner")
    st = g.state("rack A", "frame")
    assert st["frames"][1]["breaker"] == "A"
    st = g.state("rack B", "frame")
    assert st["frames"][1]["breaker"] == "B"
    assert g.error("rack A", "frame B") == g.line(2)
    assert g.state("rack A", "frame A")["frames"][1]["breaker"] == "A"


def test_breaks_loser():
    g = ten(breaks="loser")
    st = g.state("rack A", "frame")
    assert st["frames"][1]["breaker"] == "B"
    st = g.state("rack B", "frame")
    assert st["frames"][1]["breaker"] == "A"
    assert g.error("rack B", "frame B") == g.line(2)
    # A (breaker) loses rack 1 -> A breaks rack 2 and again loses -> A breaks rack 3
    st = g.state("rack B", "frame", "rack B", "frame")
    assert [f["breaker"] for f in st["frames"]] == ["A", "A", "A"]


def test_frame_while_rack_in_progress():
    g = nine()
    assert g.error("pot 1", "frame") == g.line(2)


# --------------------------------------------------------------------------- rack A run / golden


def test_break_and_run_by_breaker():
    st = nine().state("rack A run")
    assert st["frames"] == [rack(1, "A", "A", "won")]
    st = nine().state("pot 1 2", "pot 3", "rack A run")
    assert st["frames"][0]["how"] == "won"
    assert st["frames_won"] == {"A": 1, "B": 0}


def test_break_and_run_not_by_the_other_side():
    g = nine()
    assert g.error("rack B run") == g.line(1)


def test_break_and_run_refused_after_a_visit_by_the_other_side():
    g = nine()
    assert g.error("end", "end", "rack A run") == g.line(3)
    # A's foul gave B the table: B had a visit
    assert g.error("foul", "end", "rack A run") == g.line(3)
    # B at the table: B has had a visit even if B wins
    assert g.error("end", "rack B run") == g.line(2)


def test_golden_break_nineball():
    st = nine().state("rack A golden")
    assert st["frames"] == [rack(1, "A", "A", "won")]
    assert st["frames_won"] == {"A": 1, "B": 0}


def test_golden_only_breaker():
    g = nine()
    assert g.error("rack B golden") == g.line(1)


@pytest.mark.parametrize("game", ["eightball", "tenball"])
def test_golden_only_nineball(game):
    g = GAMES[game]()
    assert g.error("rack A golden") == g.line(1)


# --------------------------------------------------------------------------- fouls, pots


@all_games()
def test_foul_gives_table_to_other_side(game):
    st = GAMES[game]().state("foul")
    assert cur(st) == pool_current("B", fouls=(1, 0))
    st = GAMES[game]().state("foul", "foul")
    assert cur(st) == pool_current("A", fouls=(1, 1))


@all_games()
def test_end_gives_table_to_other_side(game):
    assert cur(GAMES[game]().state("end"))["striker"] == "B"


@all_games()
def test_pot_keeps_the_striker(game):
    st = GAMES[game]().state("pot 1", "pot 2 3")
    assert cur(st)["striker"] == "A"
    assert st["frames"][0]["how"] is None


@all_games()
def test_pot_ball_already_potted(game):
    g = GAMES[game]()
    assert g.error("pot 3", "pot 3") == g.line(2)
    assert g.error("pot 3 4", "end", "pot 4") == g.line(3)
    assert g.error("pot 2 2") == g.line(1)


def test_pot_ball_not_in_the_game():
    assert nine().error("pot 10") == nine().line(1)
    assert ten().error("pot 11") == ten().line(1)
    assert eight().error("pot 16") == eight().line(1)
    assert nine().error("pot 0") == nine().line(1)


def test_pot_highest_ball_of_each_set():
    # ten-ball has a 10 (here on the break: spotted), eight-ball has 15
    assert cur(ten().state("pot 10"))["striker"] == "A"
    assert cur(eight().state("pot 15"))["striker"] == "A"


def test_pot_nine_wins_nineball():
    st = nine().state("end", "pot 1", "pot 9")
    assert st["frames"] == [rack(1, "A", "B", "won")]
    assert st["frames_won"] == {"A": 0, "B": 1}
    assert st["current"] is None


def test_pot_nine_on_the_break_is_golden():
    st = nine().state("pot 9")
    assert st["frames"] == [rack(1, "A", "A", "won")]
    st = nine().state("pot 1 9")
    assert st["frames"] == [rack(1, "A", "A", "won")]


def test_nothing_after_pot_nine():
    g = nine()
    assert g.error("pot 9", "pot 1") == g.line(2)
    assert g.error("pot 9", "end") == g.line(2)


@pytest.mark.parametrize("game", ["eightball", "tenball"])
def test_game_ball_on_the_break_is_spotted(game):
    b = GAME_BALL[game]
    st = GAMES[game]().state("pot %d" % b)
    assert st["frames"] == [rack(1, "A")]
    assert cur(st)["striker"] == "A"  # a legal pot: A plays on
    # with another ball on the break too
    st = GAMES[game]().state("pot 1 %d" % b)
    assert st["frames"] == [rack(1, "A")]


@pytest.mark.parametrize("game", ["eightball", "tenball"])
def test_game_ball_spotted_then_won_later(game):
    b = GAME_BALL[game]
    # spotted: back on the table, so potting it later is allowed and wins
    st = GAMES[game]().state("pot %d" % b, "end", "pot %d" % b)
    assert st["frames"] == [rack(1, "A", "B", "won")]
    assert st["frames_won"] == {"A": 0, "B": 1}


@pytest.mark.parametrize("game", ["eightball", "tenball"])
def test_game_ball_after_break_wins(game):
    b = GAME_BALL[game]
    st = GAMES[game]().state("end", "pot %d" % b)
    assert st["frames"] == [rack(1, "A", "B", "won")]
    # the break-off stroke was the `end`; A's later pot of the game ball wins
    st = GAMES[game]().state("pot 1", "pot %d" % b)
    assert st["frames"] == [rack(1, "A", "A", "won")]


def test_eightball_restart_after_8_on_break():
    # docs/rules.md: the 8 on the break: the breaker has it spotted or the rack restarted.
    st = eight().state("pot 8", "restart")
    assert st["frames"] == [rack(1, "A", None, "restarted"), rack(1, "A")]
    assert st["frames_won"] == {"A": 0, "B": 0}


# --------------------------------------------------------------------------- three fouls

# A breaks. A fouls (A 1), B ends (B 0), A fouls (A 2) -> B at table;
# B ends -> A comes to the table on two fouls.
TWO_A = ["foul", "end", "foul", "end"]


@pytest.mark.parametrize("game", ["nineball", "tenball"])
def test_warn_prompt_for_striker_on_two_fouls(game):
    st = GAMES[game]().state(*TWO_A)
    assert cur(st) == pool_current("A", fouls=(2, 0), prompts=["warn-fouls"])


@pytest.mark.parametrize("game", ["nineball", "tenball"])
def test_no_prompt_when_other_side_on_two_fouls(game):
    # after A's second foul B is at the table: the striker is not on two fouls
    st = GAMES[game]().state("foul", "end", "foul")
    assert cur(st) == pool_current("B", fouls=(2, 0))


@pytest.mark.parametrize("game", ["nineball", "tenball"])
def test_warn_clears_prompt(game):
    st = GAMES[game]().state(*TWO_A, "warn A")
    assert cur(st) == pool_current("A", fouls=(2, 0))


@pytest.mark.parametrize("game", ["nineball", "tenball"])
def test_third_foul_warned_loses_rack(game):
    st = GAMES[game]().state(*TWO_A, "warn A", "foul")
    assert st["frames"] == [rack(1, "A", "B", "fouls")]
    assert st["frames_won"] == {"A": 0, "B": 1}
    assert st["current"] is None
    # the rack ended: counts start again in the next one (alternate: B breaks)
    st = GAMES[game]().state(*TWO_A, "warn A", "foul", "frame")
    assert cur(st) == pool_current("B", fouls=(0, 0))


@pytest.mark.parametrize("game", ["nineball", "tenball"])
def test_third_foul_unwarned_counts_as_second(game):
    st = GAMES[game]().state(*TWO_A, "foul")
    assert st["frames"] == [rack(1, "A")]
    assert cur(st) == pool_current("B", fouls=(2, 0))
    # B ends: A back on two, still not warned: prompt again
    st = GAMES[game]().state(*TWO_A, "foul", "end")
    assert cur(st) == pool_current("A", fouls=(2, 0), prompts=["warn-fouls"])
    # warned now: the next foul loses the rack
    st = GAMES[game]().state(*TWO_A, "foul", "end", "warn A", "foul")
    assert st["frames"] == [rack(1, "A", "B", "fouls")]


@pytest.mark.parametrize("game", ["nineball", "tenball"])
def test_three_fouls_by_b(game):
    # A ends; B fouls, A ends, B fouls, A ends, warn B, B fouls -> A wins the rack
    ev = ["end", "foul", "end", "foul", "end"]
    st = GAMES[game]().state(*ev)
    assert cur(st) == pool_current("B", fouls=(0, 2), prompts=["warn-fouls"])
    st = GAMES[game]().state(*ev, "warn B", "foul")
    assert st["frames"] == [rack(1, "A", "A", "fouls")]


@pytest.mark.parametrize("game", ["nineball", "tenball"])
def test_warn_refused_unless_on_two_fouls(game):
    g = GAMES[game]()
    assert g.error("warn A") == g.line(1)
    assert g.error("foul", "end", "warn A") == g.line(3)  # A on one foul
    assert g.error(*TWO_A, "warn B") == g.line(5)  # B on none


def test_warn_refused_in_eightball():
    g = eight()
    assert g.error(*TWO_A, "warn A") == g.line(5)


def test_eightball_three_fouls_do_not_lose_the_rack():
    st = eight().state(*TWO_A, "foul")
    assert st["frames"] == [rack(1, "A")]
    assert cur(st)["striker"] == "B"
    assert "warn-fouls" not in cur(st)["prompts"]
    st = eight().state(*TWO_A)
    assert cur(st)["prompts"] == []  # no three-foul rule: no warning prompt
    # a fourth and fifth foul: still no loss
    st = eight().state(*TWO_A, "foul", "end", "foul", "end", "foul")
    assert st["frames"] == [rack(1, "A")]
    assert st["current"] is not None


@pytest.mark.parametrize("game", ["nineball", "tenball"])
def test_fouls_reset_by_pot(game):
    # A fouls (1), B ends, A pots -> A back to 0
    st = GAMES[game]().state("foul", "end", "pot 1")
    assert cur(st)["fouls_in_a_row"] == {"A": 0, "B": 0}
    # then A fouls again: 1, not 2
    st = GAMES[game]().state("foul", "end", "pot 1", "foul")
    assert cur(st)["fouls_in_a_row"] == {"A": 1, "B": 0}


@pytest.mark.parametrize("game", ["nineball", "tenball"])
def test_fouls_reset_by_end(game):
    # A fouls (1), B ends, A ends its visit with `end` -> A 0
    st = GAMES[game]().state("foul", "end", "end")
    assert cur(st) == pool_current("B", fouls=(0, 0))
    st = GAMES[game]().state("foul", "end", "end", "end", "foul")
    assert cur(st)["fouls_in_a_row"] == {"A": 1, "B": 0}


@pytest.mark.parametrize("game", ["nineball", "tenball"])
def test_other_sides_foul_does_not_reset(game):
    # A fouls (A1), B fouls (B1), A fouls (A2): B's foul did not reset A's count
    st = GAMES[game]().state("foul", "foul", "foul")
    assert cur(st) == pool_current("B", fouls=(2, 1))
    # B fouls again: B on 2, A comes to the table on 2: prompt for A
    st = GAMES[game]().state("foul", "foul", "foul", "foul")
    assert cur(st) == pool_current("A", fouls=(2, 2), prompts=["warn-fouls"])


@all_games()
def test_fouls_reset_when_rack_ends(game):
    st = GAMES[game]().state("foul", "foul", "rack A", "frame")
    assert cur(st) == pool_current("B", fouls=(0, 0))


@pytest.mark.parametrize("game", ["nineball", "tenball"])
def test_warning_does_not_carry_to_next_rack(game):
    # A warned in rack 1, which B then wins by `rack B`; in rack 2 A needs a new warning:
    # A's third foul of rack 2 without one counts as the second.
    ev = TWO_A + ["warn A", "end", "rack B", "frame",  # rack 2, B breaks
                  "end", "foul", "end", "foul", "end", "foul"]
    st = GAMES[game]().state(*ev)
    assert st["frames"][1]["how"] is None
    assert cur(st)["fouls_in_a_row"] == {"A": 2, "B": 0}


# --------------------------------------------------------------------------- push / pass


@pytest.mark.parametrize("game", ["nineball", "tenball"])
def test_push_after_break(game):
    # A breaks (nothing down), B pushes out: A to choose; A passes: B plays again
    st = GAMES[game]().state("end", "push")
    assert cur(st)["striker"] == "A"
    st = GAMES[game]().state("end", "push", "pass")
    assert cur(st)["striker"] == "B"
    # or A plays the shot: then B
    st = GAMES[game]().state("end", "push", "end")
    assert cur(st)["striker"] == "B"


@pytest.mark.parametrize("game", ["nineball", "tenball"])
def test_push_by_breaker_who_potted_on_break(game):
    # A pots on the break and plays the next shot: that shot is the one after the break
    st = GAMES[game]().state("pot 1", "push")
    assert cur(st)["striker"] == "B"
    st = GAMES[game]().state("pot 1", "push", "pass")
    assert cur(st)["striker"] == "A"


@pytest.mark.parametrize("game", ["nineball", "tenball"])
def test_push_refused_as_break(game):
    g = GAMES[game]()
    assert g.error("push") == g.line(1)


@pytest.mark.parametrize("game", ["nineball", "tenball"])
def test_push_refused_later(game):
    g = GAMES[game]()
    assert g.error("end", "end", "push") == g.line(3)
    assert g.error("end", "push", "end", "push") == g.line(4)


def test_push_refused_in_eightball():
    g = eight()
    assert g.error("end", "push") == g.line(2)


@pytest.mark.parametrize("game", ["nineball", "tenball"])
def test_pass_only_right_after_push(game):
    g = GAMES[game]()
    assert g.error("pass") == g.line(1)
    assert g.error("end", "pass") == g.line(2)
    assert g.error("end", "push", "end", "pass") == g.line(4)
    assert g.error("end", "push", "pass", "pass") == g.line(4)


# --------------------------------------------------------------------------- concede, restart


@all_games()
def test_concede_loses_the_match(game):
    # A (striker) concedes after winning rack 1: the MATCH goes to B
    st = GAMES[game]().state("rack A", "frame", "end", "concede")  # rack 2: B breaks, A concedes
    assert st["status"] == "finished"
    assert st["winner"] == "B"
    assert st["current"] is None
    assert st["result"] == {"how": "conceded", "why": None, "score": None}
    assert st["frames_won"] == {"A": 1, "B": 0}  # the conceded rack is not won by anyone
    assert len(st["frames"]) == 2
    # INTERPRETATION: the rack in progress keeps how `conceded` (as the frame of a
    # forfeited match keeps `forfeited`).
    assert st["frames"][1]["how"] == "conceded"


def test_concede_by_striker_only():
    # the striker concedes; B at the table conceding -> A wins
    st = nine().state("end", "concede")
    assert st["winner"] == "A"
    assert st["result"]["how"] == "conceded"


def test_nothing_after_concede():
    g = nine()
    assert g.error("concede", "frame") == g.line(2)
    assert g.error("concede", "end") == g.line(2)


@all_games()
def test_restart_rerack(game):
    st = GAMES[game]().state("pot 1", "end", "restart")
    assert st["frames"] == [rack(1, "A", None, "restarted"), rack(1, "A")]
    assert cur(st) == pool_current("A")
    assert st["frames_won"] == {"A": 0, "B": 0}
    # the restarted rack does not count: the next rack is number 2 and B breaks it
    st = GAMES[game]().state("end", "restart", "rack A", "frame")
    assert st["frames"] == [rack(1, "A", None, "restarted"), rack(1, "A", "A", "won"),
                            rack(2, "B")]
    assert st["frames_won"] == {"A": 1, "B": 0}


def test_restart_clears_fouls_and_pots():
    st = nine().state("pot 3", "foul", "foul", "restart")
    assert cur(st) == pool_current("A")
    # the 3 is back on the table after the re-rack
    st = nine().state("pot 3", "end", "restart", "pot 3")
    assert cur(st)["striker"] == "A"


def test_restart_after_rack_end_refused():
    g = nine()
    assert g.error("rack A", "restart") == g.line(2)


# --------------------------------------------------------------------------- forfeit, abandon


def test_forfeit_late():
    st = nine().state("forfeit A late")
    assert st["status"] == "finished"
    assert st["winner"] == "B"
    assert st["current"] is None
    # INTERPRETATION: a forfeited match is an interrupted one (seed 004 1.14): no score
    assert st["result"] == {"how": "forfeited", "why": "late", "score": None}
    assert st["frames"][0]["how"] == "forfeited"
    assert st["frames_won"] == {"A": 0, "B": 0}


def test_forfeit_late_before_first_rack():
    st = nine(pre=["called", "forfeit B late"], frame=None).state()
    assert st["status"] == "finished"
    assert st["winner"] == "A"
    assert st["frames"] == []
    assert st["current"] is None
    assert st["result"] == {"how": "forfeited", "why": "late", "score": None}


def test_forfeit_disqualified():
    st = ten().state("rack A", "frame", "pot 1", "forfeit A disqualified")
    assert st["status"] == "finished"
    assert st["winner"] == "B"
    assert st["result"] == {"how": "disqualified", "why": "disqualified", "score": None}
    assert st["frames"][1]["how"] == "forfeited"
    assert st["frames_won"] == {"A": 1, "B": 0}


@pytest.mark.parametrize("why", ["conduct", "retired"])
def test_forfeit_other_reasons(why):
    st = eight().state("forfeit B " + why)
    assert st["winner"] == "A"
    assert st["result"] == {"how": "forfeited", "why": why, "score": None}


def test_forfeit_between_racks():
    st = nine().state("rack A", "forfeit B retired")
    assert st["winner"] == "A"
    assert st["frames"] == [rack(1, "A", "A", "won")]  # the finished rack keeps `won`
    assert st["current"] is None


def test_abandon_with_winner():
    st = nine().state("rack A", "frame", "end", "abandon B")
    assert st["status"] == "finished"
    assert st["winner"] == "B"
    assert st["result"] == {"how": "abandoned", "why": None, "score": None}
    assert st["frames"][1]["how"] == "abandoned"
    assert st["frames"][1]["winner"] is None
    assert st["current"] is None


def test_abandon_without_winner():
    st = nine().state("abandon")
    assert st["status"] == "finished"
    assert st["winner"] is None
    assert st["result"] == {"how": "abandoned", "why": None, "score": None}


def test_nothing_after_forfeit_or_abandon():
    g = nine()
    assert g.error("forfeit A late", "end") == g.line(2)
    assert g.error("abandon B", "frame") == g.line(2)


# --------------------------------------------------------------------------- undo


def test_undo_foul():
    assert nine().state("foul", "undo") == nine().state()


def test_undo_rack_end():
    assert nine().state("pot 1", "rack A", "undo") == nine().state("pot 1")
    assert nine().state("pot 9", "undo") == nine().state()


def test_undo_three_foul_loss():
    st = nine().state(*TWO_A, "warn A", "foul", "undo")
    assert cur(st) == pool_current("A", fouls=(2, 0))
    st = nine().state(*TWO_A, "warn A", "undo")
    assert cur(st) == pool_current("A", fouls=(2, 0), prompts=["warn-fouls"])


def test_undo_concede_forfeit_abandon():
    for word in ("concede", "forfeit A late", "forfeit B disqualified", "abandon B", "abandon"):
        st = nine().state("end", word, "undo")
        assert st == nine().state("end"), word


def test_undo_restart():
    assert nine().state("pot 2", "restart", "undo") == nine().state("pot 2")


def test_undo_push_pass():
    assert nine().state("end", "push", "pass", "undo") == nine().state("end", "push")
    assert nine().state("end", "push", "undo") == nine().state("end")


def test_undo_match_end():
    ev = ["rack A", "frame", "rack A", "frame", "rack A"]
    st = nine().state(*ev, "undo")
    assert st["status"] == "playing"
    assert st["frames_won"] == {"A": 2, "B": 0}
    assert cur(st) == pool_current("A")


def test_undo_stops_at_frame_line():
    g = nine()
    assert g.error("rack A", "frame", "undo") == g.line(3)


# --------------------------------------------------------------------------- snooker-only words


@all_games()
def test_penalty_refused(game):
    g = GAMES[game]()
    assert g.error("penalty B 1") == g.line(1)
    assert g.error("end", "penalty A 4") == g.line(2)


@all_games()
@pytest.mark.parametrize("word", ["score 1", "pot red", "again", "free", "claim", "respot A"])
def test_other_games_words_refused(game, word):
    g = GAMES[game]()
    assert g.error("foul", word) == g.line(2)


def test_golden_refused_after_the_break_stroke():
    # golden: the 9 dropped on the break; after a visit by B it cannot be one
    g = nine()
    assert g.error("end", "end", "rack A golden") == g.line(3)
    assert g.error("foul", "rack A golden") == g.line(2)


@pytest.mark.parametrize("game", ["eightball", "tenball"])
def test_undo_game_ball_win(game):
    b = GAME_BALL[game]
    ev = ["pot %d" % b, "end", "pot %d" % b]
    assert GAMES[game]().state(*ev, "undo") == GAMES[game]().state(*ev[:-1])
