"""Every notation word of every game can be entered from the keys (issue 7, point 1).

The words come from the core's word table (`support.wordtable.words_for`). For each game and word,
a case sets up a position with lines, then presses keys; the grammar's line must start
with that word, parse, and apply to the real Match. Words the rules of a game never
take (pool's `penalty`) are checked to be refused by the core, so nothing that could be
entered is left out.
"""

import pytest
from scoreboard.core import notation
from scoreboard.keys import keymaps, menus
from scoreboard.keys.grammar import Grammar

from support import sbn, wordtable
from support.keys import EIGHTBALL, NINEBALL, SNOOKER, SNOOKER6, STRAIGHT, TENBALL, Desk


def words_for(fam):
    return wordtable.words_for(fam)


CLOCKED = ["clock shot=35 warn=10 ext=1x25"]
# Snooker, reds=6: only the black left, A 68 up (for `claim`); level after B's black
# (for `respot`).
ONLY_BLACK = ["frame A"] + ["pot red", "pot black"] * 6 + [
    "pot yellow", "pot green", "pot brown", "pot blue", "pot pink"]
LEVEL = ["frame A", "pot red", "pot black", "pot red", "pot black", "pot red", "pot black",
         "end", "pot red", "pot black", "pot red", "pot black", "pot red", "pot pink", "end",
         "pot yellow", "end", "pot green", "pot brown", "end", "pot blue", "pot pink", "end",
         "pot black"]
A = ["frame A"]

# (word, header, setup lines, keys; `menu:label/label` walks the menu, `_` for a space
# in a label; `rackA!:label` opens the menu with a long press). A word may have several
# cases.
COMMON = [
    ("frame", None, [], "ok"),
    ("frame", None, [], "SIDE ok"),
    ("undo", None, A + ["end"], "undo"),
    ("end", None, A, "end"),
    ("award", None, A, "menu:award/A_Ann/conduct ok"),
    ("restart", None, A, "menu:restart ok"),
    ("forfeit", None, A, "menu:forfeit/B_Bob/late ok"),
    ("forfeit", None, [], "menu:forfeit/A_Ann/retired ok"),
    ("abandon", None, A, "menu:abandon/no_winner ok"),
    ("abandon", None, A, "menu:abandon/winner_B_Bob ok"),
    ("called", None, [], "menu:call_the_match"),
    ("suspend", None, A, "menu:suspend"),
    ("resume", None, A + ["suspend"], "menu:resume"),
    ("clock", None, A, "menu:shot_clock/wpa_35s"),
    ("clock", None, [], "menu:shot_clock/pro_30s"),
    ("clock", CLOCKED, A, "menu:shot_clock/clock_off"),
    ("clock", CLOCKED, A, "menu:shot_clock/as_set_up"),
    ("go", CLOCKED, A, "ok"),
    ("hit", CLOCKED, A + ["go"], "ok"),
    ("extend", CLOCKED, A + ["go"], "ok!"),
    ("extend", CLOCKED, A + ["go"], "menu:extend"),
    ("go", CLOCKED, A, "menu:go"),
    ("hit", CLOCKED, A + ["go"], "menu:hit"),
]
CASES = {
    "snooker": [
        ("pot", None, A, "red"),
        ("pot", None, A + ["pot red"], "pink"),
        ("pot", None, A + ["foul 4", "free"], "free red ok"),
        ("foul", None, A, "foul ok"),
        ("foul", None, A, "foul black ok"),
        ("foul", None, A, "foul! ok"),
        ("foul", None, A, "miss ok"),
        ("again", None, A + ["foul 4"], "again"),
        ("free", None, A + ["foul 4"], "free"),
        ("replace", None, A + ["foul 4 miss"], "replace"),
        ("respot", SNOOKER6, LEVEL, "ok ok"),
        ("respot", SNOOKER6, LEVEL, "menu:respot/B_Bob"),
        ("penalty", None, A, "menu:penalty/B_Bob/7"),
        ("claim", SNOOKER6, ONLY_BLACK, "menu:claim ok"),
        ("concede", None, A, "menu:concede_frame/A_Ann ok"),
    ],
    "pool": [
        ("rack", None, A, "rackA"),
        ("rack", None, A, "rackA!:break_and_run"),
        ("rack", None, A, "rackA!:golden_break"),
        ("rack", None, A, "menu:rack_B_details/no_details"),
        ("pot", None, A, "pot rackA ok"),
        ("foul", None, A, "foul"),
        ("foul", None, A, "foul!"),
        ("foul", None, A, "menu:foul_time"),
        ("warn", None, A + ["foul", "end", "foul", "end"], "warn"),
        ("push", None, A + ["end"], "push"),
        ("pass", None, A + ["end", "push"], "pass"),
        ("concede", None, A, "concede ok ok"),
        ("concede", None, A, "menu:concede_match/A_Ann ok"),
    ],
    "straight": [
        ("score", None, A, "ball"),
        ("score", None, A, "score 14"),
        ("score", None, A, "ball! rerack"),
        ("again", None, A + ["foul break"], "again"),
        ("foul", None, A, "foul"),
        ("foul", None, A, "break"),
        ("foul", None, A, "break!"),
        ("foul", None, A, "menu:foul_break_time"),
        ("rerack", None, A, "rerack!"),
        ("rerack", None, A, "menu:rerack_15"),
        ("warn", None, A + ["foul", "end", "foul", "end"], "warn"),
        ("penalty", None, A, "menu:penalty/B_Bob foul"),
        ("penalty", None, A, "menu:penalty/B_Bob 3"),
        ("concede", None, A, "concede ok ok"),
    ],
}
HEADERS = {"snooker": SNOOKER, "pool": NINEBALL, "straight": STRAIGHT}
NEVER = {("pool", "penalty")}  # the pool rules take no penalty (docs/notation.md)


def run_case(fam, head, setup, keys):
    base = HEADERS[fam] if head is None else head
    if head is CLOCKED:
        base = HEADERS[fam] + CLOCKED
    d = Desk(base, setup)
    for k in keys.split():
        if k.startswith("menu:") or ":" in k:
            opener, path = k.split(":", 1)
            if opener != "menu":
                d.press(opener)
            d.choose(*path.replace("_", " ").split("/"))
        elif k == "SIDE":
            d.press("end" if fam == "snooker" else "side")
        else:
            d.press(k)
    assert not d.refusals, d.refusals
    return d


def all_cases():
    for fam in ("snooker", "pool", "straight"):
        for case in COMMON + CASES[fam]:
            yield pytest.param(fam, *case, id="%s-%s-%s" % (fam, case[0], case[3]))


@pytest.mark.parametrize("fam,word,head,setup,keys", list(all_cases()))
def test_word_entered_by_keys(fam, word, head, setup, keys):
    d = run_case(fam, head, setup, keys)
    assert len(d.lines) == len(setup) + 1, (d.lines, d.grammar.entry())
    line = d.lines[-1]
    assert line.split()[0] == word
    # it parses as the notation and the replay agrees with the live match
    assert notation.parse_event(fam, line)[1] == word
    assert sbn.to_dict(d.replayed()) == sbn.to_dict(d.match)


@pytest.mark.parametrize("fam", ["snooker", "pool", "straight"])
def test_every_word_of_the_game_has_a_case(fam):
    covered = {c[0] for c in COMMON + CASES[fam]}
    words = set(words_for(fam))
    missing = words - covered - {w for f, w in NEVER if f == fam}
    assert not missing, missing
    assert covered <= words


def test_what_the_pool_rules_never_take_is_refused_by_the_core():
    d = Desk(NINEBALL, A)
    with pytest.raises(ValueError):
        d.match.apply(notation.parse_event("pool", "penalty B 1"))


@pytest.mark.parametrize("head", [EIGHTBALL, TENBALL])
def test_other_pool_games_use_the_pool_keys(head):
    d = Desk(head)
    assert d.grammar.names == keymaps.keymap("pool")
    d.play("ok pot rackB rackA ok end foul rackB")
    assert d.lines[1:] == ["pot 2 1", "end", "foul", "rack B"]


def test_menu_trees_only_give_lines_that_parse():
    for fam, head in HEADERS.items():
        for setup in ([], A, A + ["suspend"]):
            d = Desk(head + CLOCKED, setup)
            g = d.grammar
            for tree in (menus.start_menu(d.match), menus.between_menu(d.match),
                         g.family_keys.menu(["respot"])):
                for line in menus.lines(tree):
                    assert notation.parse_event(fam, line)[1] in words_for(fam), line
            assert isinstance(g, Grammar)
