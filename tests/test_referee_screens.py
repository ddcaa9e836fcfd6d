"""Issue 17, what the referee sees: the panel always says what the keys will do now.

Each test plays a key script on the box (tests/micropython/referee_keys.py: the real
app on the host board) under CPython, the MicroPython unix port and the 32-bit build
with the firmware frozen in; the three must say the same after every key, and the box
must have journaled the notation the referee meant. What must hold (the issue's items):
1. the hint line follows the state (menus, the respot list, a frame over with who
   breaks next, the match over), never the start screen's left behind;
2. before the first frame a match can be called, given its clock, forfeited (`forfeit
   A late`) or abandoned from the keys;
3. a decision that ends a frame or the match asks once, naming who, before it is
   journaled, and a concession by the side not at the table is refused with its reason;
4. a decision pending is on the panel (after a push out, after a foul, a free ball);
5. the footer shows the shot clock's state, TIME included, and after TIME the next foul
   is a time foul, which the panel says;
6. nothing pressed is changed silently (a foul past 7, a `rerack` after the board's).
The key counts of the four decisions the issue measures are checked last.
"""

import sys
from pathlib import Path

import pytest
from scoreboard.keys.keymaps import number_key

from support import device, mpy

SCRIPT = mpy.REPO / "tests" / "micropython" / "referee_keys.py"
INTERPRETERS = (("cpython", Path(sys.executable)), ("unix64", mpy.MICROPYTHON),
                ("unix32-frozen", device.MP32))
FIELDS = ("key", "kind", "entry", "hint", "banner", "title", "clock", "refreshes", "late")


def head(game, match, *more):
    return ["sbn 1", "game " + game, "match " + match, 'side A "Ann"', 'side B "Bob"',
            *more]


SNOOKER = head("snooker reds=15", "best-of 3")
SIX_REDS = head("snooker reds=6", "best-of 3")
NINEBALL = head("nineball", "race-to 3")
STRAIGHT = head("straight", "points 100")
CLOCKED = head("snooker reds=15", "best-of 3", "clock shot=45 warn=10")
COLOURS = ["yellow", "green", "brown", "blue", "pink", "black"]


class Said(dict):
    """What the panel said after one line of the script (FIELDS; None: not there)."""

    def __getattr__(self, name):
        return self[name]


def _run(interpreter, flash, keys):
    import subprocess

    proc = subprocess.run([str(mpy.tool(interpreter)), str(SCRIPT), "--flash", str(flash)],
                          input="\n".join(keys) + "\n", text=True, capture_output=True,
                          timeout=120, check=False)
    return proc.returncode, mpy.normalise(proc.stdout + proc.stderr).splitlines()


def box(tmp_path, header, keys):
    """Play `keys` (key-script lines) on a box with `header` queued, under each
    interpreter. Returns ([Said after the start and each line], the journal's lines after
    the header, as notation without stamps)."""
    outs = {}
    journals = {}
    for name, interpreter in INTERPRETERS:
        flash = tmp_path / name
        device.queue(flash, "m1", header)
        rc, out = _run(interpreter, flash, keys)
        assert rc == 0 and out[-1] == "stopped", "\n".join(out[-20:])
        outs[name] = out
        files = device.journal_files(flash)
        journals[name] = device.journal_lines(files[-1])[len(header) + 2:] if files else None
    for name, _ in INTERPRETERS[1:]:
        assert outs[name] == outs["cpython"], name
        assert journals[name] == journals["cpython"], name
    said = []
    for line in outs["cpython"][:-1]:
        values = [None if v == "None" else v for v in line.split("|")]
        said.append(Said(zip(FIELDS, values)))
    return said, journals["cpython"]


def after(said, n):
    """What the panel said after the n-th line of the script (0: at the start)."""
    return said[n]


# -- 1. the hint line follows the state -----------------------------------------------------
def test_the_hint_line_follows_the_state(tmp_path):
    keys = (["ok", "menu"]  # the score screen, then the menu
            + ["undo"]  # the menu closed
            + ["red", "black"] * 6 + ["end"]  # A 48; B to the table
            + ["menu", "menu", "ok", "ok"]  # B concedes frame 1: asked, naming B
            + ["ok"])  # answered: frame 1 over, B breaks frame 2
    said, journal = box(tmp_path, SIX_REDS, keys)
    start = after(said, 0)
    assert start.kind == "start"
    assert start.hint == "ok:start (A breaks) undo:next end:swap menu:more"
    play = after(said, 1)
    assert play.kind == "score" and play.hint is None, "the start screen's hint is gone"
    menu = after(said, 2)
    assert (menu.kind, menu.title) == ("menu", "MENU")
    assert menu.hint == "ok:choose  menu:next (held: previous)  undo:back"
    assert after(said, 3).hint is None
    asked = after(said, 20)
    assert asked.entry == "B (Bob) concedes the frame? ok" and asked.hint == "ok: yes   undo: no"
    over = after(said, 21)
    assert over.kind == "frame_end"
    assert over.hint == "ok:frame 2, B breaks  undo:take back  menu:more"
    assert over.entry == "ok: B breaks next"
    assert journal[-1] == "concede"


def test_the_respot_list_and_the_match_over_have_their_own_hints(tmp_path):
    # Six reds, best of 1: level on the last black, then the respot list, then the end.
    keys = (["ok"] + ["red", "black"] * 3 + ["end"]
            + ["red", "yellow", "red", "yellow", "red", "brown"] + COLOURS[:5] + ["end"]
            + ["black"]  # A levels it at 31: the board waits for `respot`
            + ["ok"]  # the respot list
            + ["ok", "black"])  # A plays first and pots it: the match is over
    said, journal = box(tmp_path, head("snooker reds=6", "best-of 1"), keys)
    level = after(said, 21)
    assert level.entry == "ok: choose"  # the prompt bar: who plays first
    respot = after(said, 22)
    assert respot.title == "RESPOT: WHO PLAYS FIRST?"
    assert respot.hint == "ok:choose  menu:next (held: previous)  undo:back"
    over = after(said, 24)
    assert over.kind == "match_end" and over.hint == "ok:start screen  undo:take back"
    assert journal[-2:] == ["respot A", "pot black"]


# -- 2. before the first frame --------------------------------------------------------------
def test_forfeit_a_late_before_any_frame_from_the_keys(tmp_path):
    keys = ["menu",  # the match's words before its first frame
            "menu", "menu", "ok",  # called, shot clock, forfeit: chosen
            "ok",  # who loses: A, under the cursor
            "ok",  # why: late
            "ok"]  # the question answered
    said, journal = box(tmp_path, SNOOKER, keys)
    pre = after(said, 1)
    assert pre.kind == "menu" and pre.title == "BEFORE THE FIRST FRAME"
    asked = after(said, 6)
    assert asked.entry == "A (Ann) forfeits, late? ok"
    assert after(said, 7).kind == "match_end"
    assert journal == ["forfeit A late"], "no frame was played"


def test_the_late_start_in_minutes_then_its_forfeit_question(tmp_path):
    """Issue 33 item 2 (seed 004 1.7): a called match says the minutes left before its
    late start is due on the score screen, refreshed when the minute changes and never
    more often (the LED counts the seconds); once due it asks for the forfeit, which the
    menu offers first, where it offered the call."""
    keys = ["menu", "ok",  # called: the late start runs, 15 minutes
            "@1000",  # the call's own refresh done
            "@28000",  # 14:30 left: still 15 minutes, no refresh
            "@31500",  # 14 minutes left (and a moment for the refresh): one refresh
            "@780000",  # 13 minutes later: 1 minute left
            "@61000",  # due
            "menu",  # the late start's forfeit, where `called` was
            "ok",  # who is late: A, under the cursor
            "ok",  # the question
            "ok"]  # answered
    said, journal = box(tmp_path, SNOOKER, keys)
    called = after(said, 3)
    assert called.kind == "score" and called.late == "LATE START: forfeit in 15 min"
    assert after(said, 4).late == called.late and after(said, 4).refreshes == called.refreshes
    assert after(said, 5).late == "LATE START: forfeit in 14 min"
    assert int(after(said, 5).refreshes) == int(called.refreshes) + 1
    one = after(said, 6)
    assert one.late == "LATE START: forfeit in 1 min"
    assert int(one.refreshes) - int(after(said, 5).refreshes) == 13, "a refresh a minute"
    due = after(said, 7)
    assert due.late == "LATE START DUE: forfeit? menu"
    assert int(due.refreshes) == int(one.refreshes) + 1
    assert after(said, 9).title == "LATE START: WHO IS LATE?"
    assert after(said, 10).entry == "A (Ann) forfeits, late? ok"
    assert after(said, 11).kind == "match_end"
    assert journal == ["called", "forfeit A late"]


def test_called_and_the_clock_before_frame_one_then_b_breaks(tmp_path):
    keys = ["menu", "ok",  # called: the match starts, waiting for its first frame
            "menu", "menu", "ok",  # its menu again (the late start's forfeit): the clock...
            "ok",  # ... the WPA profile
            "end",  # the side key: B breaks off
            "ok"]
    said, journal = box(tmp_path, SNOOKER, keys)
    waiting = after(said, 2)
    assert waiting.kind == "score" and waiting.entry == "ok:A breaks off end:swap menu:more"
    assert waiting.clock == "NO CLOCK"
    assert after(said, 5).title == "SHOT CLOCK"
    assert after(said, 6).clock.startswith("CLOCK 35s/10 ")
    assert after(said, 7).entry == "ok:B breaks off end:swap menu:more"
    assert journal == ["called", "clock on shot=35 warn=10 ext=1x25 first=60", "frame B"]


def test_the_set_up_is_the_start_menus_last_item(tmp_path):
    keys = ["menu", "menu long",  # the menu, then up: round to its last item
            "ok"]
    said, journal = box(tmp_path, SNOOKER, keys)
    assert after(said, 2).kind == "menu"
    setup = after(said, 3)
    assert setup.kind == "setup" and setup.hint == "menu:change  ok:next  undo:back  end:swap"
    assert journal is None, "nothing started"


# -- 3. decisions ask once, naming who --------------------------------------------------------
def test_a_concession_names_who_and_the_side_not_at_the_table_is_refused(tmp_path):
    keys = ["ok", "red", "black",  # A at the table
            "menu", "menu", "ok",  # concede frame: who? (A, the striker, under the cursor)
            "menu", "ok",  # B is chosen: refused with the rules' reason
            "menu", "ok",  # A: the question
            "undo",  # no: back to who, nothing journaled
            "ok", "ok"]  # A again, yes
    said, journal = box(tmp_path, SNOOKER, keys)
    who = after(said, 6)
    assert who.title == "WHO CONCEDES THE FRAME?"
    refused = after(said, 8)
    assert refused.banner == "NO: only the striker concedes: A is at the table"
    assert refused.title == "WHO CONCEDES THE FRAME?"
    assert after(said, 10).entry == "A (Ann) concedes the frame? ok"
    no = after(said, 11)
    assert no.entry is None and no.title == "WHO CONCEDES THE FRAME?"
    assert after(said, 13).kind == "frame_end"
    assert journal == ["frame A", "pot red", "pot black", "concede"]


def test_pool_concede_concedes_the_match_once_asked(tmp_path):
    keys = ["ok", "end",  # B at the table
            "concede",  # who concedes the match: B under the cursor
            "ok",  # the question
            "ok"]
    said, journal = box(tmp_path, NINEBALL, keys)
    assert after(said, 3).title == "WHO CONCEDES THE MATCH?"
    assert after(said, 4).entry == "B (Bob) concedes the match? ok"
    assert after(said, 5).kind == "match_end"
    assert journal == ["frame A", "end", "concede"]


def test_award_and_abandon_ask_before_they_are_journaled(tmp_path):
    keys = ["ok", "red",
            "menu", "menu", "menu", "ok",  # award (claim, concede frame, award)
            "menu", "ok",  # to B
            "ok",  # three misses: the question
            "undo", "undo", "undo", "undo",  # no; out of the menus again
            "menu", "menu long", "ok",  # abandon (the last item)
            "ok",  # no winner: the question
            "ok"]
    said, journal = box(tmp_path, SNOOKER, keys)
    assert after(said, 9).entry == "Award the frame to B (Bob), three misses? ok"
    assert after(said, 13).kind == "score"
    assert after(said, 17).entry == "Abandon the match, no winner? ok"
    assert after(said, 18).kind == "match_end"
    assert journal == ["frame A", "pot red", "abandon"]


# -- 4. decisions pending --------------------------------------------------------------------
def test_after_a_push_out_whose_choice_it_is(tmp_path):
    said, journal = box(tmp_path, NINEBALL, ["ok", "end", "push", "pass"])
    assert after(said, 3).entry == "A: play the push out, or pass?"
    assert after(said, 4).entry is None
    assert journal == ["frame A", "end", "push", "pass"]


def test_after_a_foul_the_incoming_sides_options_and_the_free_ball(tmp_path):
    keys = ["ok", "end",
            "foul", "miss",  # B misses the red: A's choices, replace among them
            "replace",
            "foul", "ok",  # B fouls again, no miss
            "free",  # A takes a free ball: to nominate
            "green"]  # the nominated green, potted as a red
    said, journal = box(tmp_path, SNOOKER, keys)
    assert after(said, 4).entry == "A: play, again, free, replace?"
    assert after(said, 5).entry is None
    assert after(said, 7).entry == "A: play, again or free?"
    assert after(said, 8).entry == "A nominates the free ball: its key pots it"
    assert after(said, 9).entry is None
    assert journal == ["frame A", "end", "foul 4 miss", "replace", "foul 4", "free",
                       "pot free"]


# -- 5. the shot clock on the e-ink ----------------------------------------------------------
def test_the_footer_shows_the_clock_and_time_makes_the_next_foul_a_time_foul(tmp_path):
    keys = ["ok", "red",  # the outcome starts A's shot
            "@3000",  # the e-ink has caught up
            "@44000",  # 45 s are up: TIME
            "foul", "ok"]
    said, journal = box(tmp_path, CLOCKED, keys)
    assert after(said, 1).clock == "CLOCK 45s/10 stopped"
    assert after(said, 1).entry == "ok: go - the shot clock starts"  # what ok does now
    assert after(said, 2).clock == "CLOCK 45s/10 on"
    assert after(said, 2).entry == "ok: hit - the shot clock stops"
    caught_up = after(said, 3)
    time_up = after(said, 4)
    assert time_up.clock == "CLOCK 45s/10 TIME"
    assert time_up.entry == "TIME: foul is A's time foul ok:hit"
    assert int(time_up.refreshes) > int(caught_up.refreshes), "TIME went up on the e-ink"
    assert after(said, 5).entry == "FOUL 4 TIME - ball? ok"
    assert journal == ["frame A", "pot red", "foul 4 time"]


def test_the_footer_says_paused_while_play_is_suspended(tmp_path):
    keys = ["ok", "red", "menu",
            "menu long", "menu long", "menu long",  # up: abandon, forfeit, suspend
            "ok"]
    said, journal = box(tmp_path, CLOCKED, keys)
    suspended = after(said, 7)
    assert suspended.clock == "CLOCK 45s/10 paused"
    assert suspended.entry == "play suspended: menu, resume"
    assert journal == ["frame A", "pot red", "suspend"]


# -- 6. no silent changes -------------------------------------------------------------------
def test_a_foul_past_7_is_refused_not_turned_back(tmp_path):
    keys = ["ok", "foul", "foul", "foul", "foul", "foul", "ok"]
    said, journal = box(tmp_path, SNOOKER, keys)
    assert after(said, 5).entry == "FOUL 7 (max) - ball? ok"
    past = after(said, 6)
    assert past.banner == "NO: a foul is worth 7 at most: undo starts again"
    assert past.entry == "FOUL 7 (max) - ball? ok"
    assert journal == ["frame A", "foul 7"]


def test_a_rerack_after_the_board_re_racked_is_refused(tmp_path):
    # `score` and the key that stands for 14 (keymaps.NUMBERS): one left, 14 racked.
    keys = ["ok", "score", number_key("straight", 14), "rerack", "rerack long"]
    said, journal = box(tmp_path, STRAIGHT, keys)
    assert after(said, 4).banner == "NO: 15 balls on the table: the board re-racked already"
    assert journal == ["frame A", "score 14", "rerack 15"]


# -- the keys a referee needs (the measure) -------------------------------------------
@pytest.mark.parametrize("what,header,setup,keys,lines", [
    ("a foul with a miss and replace", SNOOKER, ["ok", "end"],
     ["foul", "miss", "replace"], ["foul 4 miss", "replace"]),
    ("a free ball", SNOOKER, ["ok", "foul", "ok"], ["free", "green"], ["free", "pot free"]),
    ("a concession", SNOOKER, ["ok"], ["menu", "menu", "ok", "ok", "ok"], ["concede"]),
    ("a concession in pool", NINEBALL, ["ok"], ["concede", "ok", "ok"], ["concede"]),
    ("a re-spotted black", head("snooker reds=6", "best-of 1"),
     ["ok"] + ["red", "black"] * 3 + ["end"] + ["red", "yellow", "red", "yellow", "red",
                                                 "brown"] + COLOURS[:5] + ["end", "black"],
     ["ok", "ok"], ["respot A"]),
])
def test_the_keys_a_referee_needs(tmp_path, what, header, setup, keys, lines):
    said, journal = box(tmp_path, header, setup + keys)
    assert journal[-len(lines):] == lines, what
    assert not any(s.banner for s in said), what


def test_the_error_screen_shows_no_hint_left_from_before(tmp_path):
    """The box takes no key on its error screen: no hint of the screen before it."""
    from host_tools.mp.device import Runner
    from scoreboard.ui import eink

    from support import screens as S

    device.queue(tmp_path, "m1", SNOOKER)
    r = Runner(str(tmp_path))
    r.wait(100)
    assert r.app.screen.hint  # the start screen's

    def broken():
        raise RuntimeError("the keypad stopped answering")

    r.board.keys = broken
    r.wait(100)
    assert r.app.screen.kind == "error" and r.app.stopped
    buf, fb = S.canvas(400, 300)
    eink.draw(fb, r.app.screen)
    assert S.ink(buf, 400, 0, 280, 400, 20) == 0, "nothing on the hint line"
