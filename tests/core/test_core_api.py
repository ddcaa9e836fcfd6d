"""The core's API for the device code: the word table, named views, the timekeeper and
match milliseconds (issue 6, points 7, 8 and 10)."""

import host_tools  # noqa: F401
import pytest
from support import wordtable
from support.sbn import START, lines_of

from scoreboard.core import ticks, vocab
from scoreboard.core.notation import parse_args
from scoreboard.core.replay import replay
from scoreboard.core.rules import snooker
from scoreboard.core.timekeeper import MAX_MS, MatchTime
from scoreboard.core.views import Timing, View


# -- the word table ------------------------------------------------------------------------
def test_words_per_family_follow_notation():
    snooker_words = set(wordtable.words_for("snooker"))
    pool_words = set(wordtable.words_for("pool"))
    straight_words = set(wordtable.words_for("straight"))
    common = {"frame", "end", "award", "penalty", "restart", "forfeit", "abandon", "called",
              "suspend", "resume", "clock", "go", "hit", "extend", "undo"}
    assert snooker_words == common | {"pot", "foul", "again", "free", "replace", "claim",
                                      "concede", "respot"}
    assert pool_words == common | {"rack", "pot", "foul", "warn", "push", "pass", "concede"}
    assert straight_words == common | {"score", "again", "foul", "rerack", "warn", "concede"}
    assert wordtable.words_for("snooker")[0] == "frame"  # table order, on every interpreter


def test_kinds_and_flags():
    assert [wordtable.kind(w) for w in ("pot", "again", "rack", "warn", "restart", "go")] == [
        "stroke", "decision", "result", "ruling", "match", "clock"]
    assert wordtable.kind("nonsense") is None
    assert {w for w, *_ in vocab.TABLE if wordtable.while_suspended(w)} == {
        "resume", "award", "forfeit", "abandon", "clock", "undo"}
    assert {w for w, *_ in vocab.TABLE if wordtable.pre_frame(w)} == {
        "called", "forfeit", "abandon", "clock"}
    assert wordtable.takes("pool", "rack") and not wordtable.takes("snooker", "rack")
    assert wordtable.args("penalty") == (vocab.ARG_PENALTY, 2, 2)


def test_parser_reads_the_table():
    assert parse_args("snooker", "respot", ["A"]) == ("A",)
    with pytest.raises(ValueError, match="unknown word 'rack' in snooker"):
        parse_args("snooker", "rack", ["A"])
    with pytest.raises(ValueError, match="too many words after 'end'"):
        parse_args("pool", "end", ["A"])


def test_colours_are_defined_once():
    assert snooker.COLOURS is vocab.COLOURS
    from scoreboard.core import notation, words
    assert notation.COLOURS is words.COLOURS is vocab.COLOURS


def test_game_to_family_is_defined_once():
    from scoreboard.core import match, words
    from scoreboard.keys import keymaps
    games = {"snooker": "snooker", "eightball": "pool", "nineball": "pool",
             "tenball": "pool", "straight": "straight"}
    assert tuple(games) == vocab.GAMES
    for game, fam in games.items():
        assert vocab.family(game) == fam
        head = "sbn 1\ngame %s\nmatch %s\nside A \"A\"\nside B \"B\"\n" % (
            game, {"snooker": "best-of 3", "pool": "race-to 3", "straight": "points 50"}[fam])
        assert replay(lines_of(head)).family == fam
    with pytest.raises(ValueError, match="unknown game 'darts'"):
        vocab.family("darts")
    # every module that needs it takes vocab's: none keeps a copy of its own
    assert words.family is match.family is vocab.family and words.GAMES is vocab.GAMES
    assert not hasattr(keymaps, "family_of")


# -- views with names ------------------------------------------------------------------------
def test_view_has_named_fields():
    m = replay(lines_of(START + "pot red\npot black\n"))
    v = m.view()
    assert isinstance(v, View)
    assert (v.striker, list(v.score), v.brk, v.ball_on, v.reds) == (0, [8, 0], 8, "red", 14)
    assert (v.remaining, v.snookers_required, v.free_ball, v.respotted_black) == (
        139, 0, False, False)
    assert (list(v.fouls), list(v.misses), v.prompts) == ([0, 0], [0, 0], [])
    assert m.view() is v  # refilled, not allocated again


def test_pool_view_has_no_snooker_fields():
    text = 'sbn 1\ngame nineball\nmatch race-to 3\nside A "A"\nside B "B"\nframe A\nfoul\n'
    v = replay(lines_of(text)).view()
    assert v.striker == 1 and v.score is None and v.ball_on is None and v.misses is None
    assert list(v.fouls) == [1, 0]


def test_timing_has_named_fields():
    m = replay(lines_of(START + "@1000 go\n@4000 pot red\n@9000 end\n"))
    t = m.timing()
    assert isinstance(t, Timing)
    # shots: 1000->4000 (A), 4000->9000 (A again: the pot keeps A at the table)
    assert (t.match_ms, t.frame_ms, t.late_start_due) == (9000, 9000, None)
    assert list(t.shots) == [2, 0] and t.average_ms(0) == 4000 and t.average_ms(1) is None
    assert list(t.longest) == [5000, 0] and t.extensions is None


# -- match milliseconds ----------------------------------------------------------------------
def test_match_time_continues_from_the_last_stamp_after_a_reset():
    mt = MatchTime()
    start = ticks.PERIOD - 500  # the board's ticks are about to wrap
    mt.resume(0, start)
    assert mt.ms(start) == 0
    assert mt.ms(ticks.wrap(start + 1500)) == 1500
    # A reset: the journal's last stamp was @61250; the ticks start again anywhere.
    mt2 = MatchTime()
    mt2.resume(61250, 12345)
    assert mt2.ms(12345) == 61250
    assert mt2.ms(12345 + 750) == 62000


def test_match_time_runs_past_half_the_ticks_period():
    mt = MatchTime()
    mt.resume(0, 0)
    now = 0
    total = 0
    for _ in range(10):  # ten steps of 2**28 ms: far past what ticks_diff can tell apart
        now = ticks.wrap(now + (1 << 28))
        total += 1 << 28
        assert mt.ms(now) == total


def test_stamps_past_the_clocks_range_are_refused():
    from support.sbn import notation_error
    e = notation_error(START + "@%d end\n" % (MAX_MS + 1))
    assert e.line == 7 and "6.2 days" in e.why
    assert replay(lines_of(START + "@%d end\n" % MAX_MS)).timing().match_ms == MAX_MS
