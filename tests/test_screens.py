"""The screens: the same bytes on both interpreters, the expected files, the PNGs, and
what the e-ink (and OLED) screens say.

- tests/micropython/screens_catalogue.py draws every screen (e-ink 400x300, OLED
  128x64, LED 32x16) from matches replayed from notation lines. Under MicroPython (the
  real framebuf) and under CPython (host_tools/compat/framebuf.py) the bytes must be
  identical, and equal to tests/screens/NAME.fb; tests/screens/NAME.png shows each one
  (e-ink black on white, the OLED 3x, LED as red dots) and must show exactly those
  bytes.
- tests/micropython/screens_framebuf_ops.py checks the stand-in method by method
  against the real framebuf, clipping included; tests/micropython/screens_sweep.py draws
  every state of every scenario on both interpreters.
- The rest reads the screens back like a person: the big digits of the scores (decoded
  segment by segment, tests/support/screens.py), the striker's inverted name, the
  prompts in words, the entry, the cells, on the canvas sizes of both boards.

Regenerate the expected files and the PNGs after a deliberate change of a screen
(then look at the PNGs before committing them):

    UPDATE_SCREENS=1 .venv/bin/pytest -q tests/test_screens.py -k expected
"""

import re
import os
import sys

import pytest

from host_tools.gen import fontgen

from host_tools import png
from support import mpy
from support import screens as S

sys.path.insert(0, str(mpy.REPO / "tests" / "micropython"))

import screens_catalogue as cat

from scoreboard.ui import draw, eink, model

S_, B, L = draw.SMALL, draw.BODY, draw.LARGE

SCREENS = mpy.REPO / "tests" / "screens"
CATALOGUE = mpy.REPO / "tests" / "micropython" / "screens_catalogue.py"
OPS = mpy.REPO / "tests" / "micropython" / "screens_framebuf_ops.py"
SWEEP = mpy.REPO / "tests" / "micropython" / "screens_sweep.py"
UPDATE = os.environ.get("UPDATE_SCREENS") == "1"


@pytest.fixture(scope="module")
def rendered():
    return cat.render()


def _scale(w):
    """PNG pixels per panel pixel: the small OLED panel is shown 3x."""
    return 1 if w >= 400 else 3


def _png(panel, w, h, data):
    if panel == "eink":
        return png.eink_png(data, w, h, _scale(w))
    return png.led_png(data, w, h)


# -- bytes ------------------------------------------------------------------------------
def test_every_screen_is_byte_identical_under_micropython(rendered, tmp_path,
                                                          micropython_bin):
    rc, out = mpy.run_micropython(CATALOGUE, tmp_path)
    assert rc == 0, out
    names = [line.split()[0] for line in out.splitlines()]
    assert names == [r[0] for r in rendered]
    differ = [name for name, _, _, _, data in rendered
              if (tmp_path / (name + ".fb")).read_bytes() != data]
    assert not differ, "MicroPython and CPython drew different bytes: %s" % differ


def test_screens_drawn_in_bands_are_the_same_bytes(rendered, tmp_path, micropython_bin):
    """The boards draw the panel in bands (drivers/ssd1683.py): put together, they are
    the screens drawn whole, byte for byte, on both interpreters."""
    banded = cat.render(bands=True)
    assert [r[0] for r in banded] == [r[0] for r in rendered]
    differ = [a[0] for a, b in zip(banded, rendered) if a[4] != b[4]]
    assert not differ, "CPython's bands differ from the whole screens: %s" % differ
    rc, out = mpy.run_micropython(CATALOGUE, tmp_path, "--bands")
    assert rc == 0, out
    differ = [name for name, _, _, _, data in rendered
              if (tmp_path / (name + ".fb")).read_bytes() != data]
    assert not differ, "MicroPython's bands differ from the whole screens: %s" % differ


def test_framebuf_stand_in_matches_the_real_one(micropython_bin):
    rc_mp, out_mp = mpy.run_micropython(OPS)
    rc_cp, out_cp = mpy.run_tool([sys.executable, OPS])
    assert rc_mp == 0, out_mp
    assert rc_cp == 0, out_cp
    assert len(out_mp.splitlines()) == 17
    assert out_cp == out_mp


def test_every_state_of_every_scenario_draws_alike(micropython_bin):
    """After each event of each scenario: the app's screen, a menu, both canvas sizes and
    the LED, drawn without an exception and to the same bytes on both interpreters."""
    files = mpy.scenario_files()
    rc_mp, out_mp = mpy.run_micropython(SWEEP, *files)
    rc_cp, out_cp = mpy.run_tool([sys.executable, SWEEP, *files])
    assert rc_mp == 0, out_mp
    assert rc_cp == 0, out_cp
    lines = out_mp.splitlines()
    assert len(lines) == len(files)
    for line, path in zip(lines, files):
        words = line.split()
        assert words[0] == path.name
        assert (words[-1] == "error") == path.name.startswith("error-"), line
        if not path.name.startswith("error-"):
            assert int(words[1]) > 0, line
    assert out_cp == out_mp


def test_font_modules_are_generated_from_micropythons_font():
    """Both font data modules are what host_tools/gen/fontgen.py makes of the C header."""
    data = fontgen.read_font(fontgen._DEFAULT)
    assert len(data) == 96 * 8
    for rel, purpose in fontgen._OUTPUTS:
        assert (mpy.REPO / rel).read_text(encoding="utf-8") == fontgen.module_text(data, purpose)
    from scoreboard.ui import font8

    assert font8.FONT == data
    assert font8.FONT[(ord("A") - 32) * 8:(ord("A") - 31) * 8] == bytes(
        [0x00, 0x7C, 0x7E, 0x0B, 0x0B, 0x7E, 0x7C, 0x00])


def test_the_catalogue_covers_every_kind_and_panel(rendered):
    kinds = {screen.kind for _, screen in cat.eink_screens()}
    assert kinds == set(model.KINDS)
    names = [r[0] for r in rendered]
    assert len(names) == len(set(names))
    for prefix in ("eink-", "oled-", "led-"):
        assert any(n.startswith(prefix) for n in names)


def _ours(paths):
    """This catalogue's expected files: the Polish and Bulgarian screens are
    tests/test_i18n_screens.py's (the same folder, their own catalogue)."""
    return {p.stem for p in paths if not re.match(r"(eink|oled)-(pl|bg)-", p.stem)}


def test_expected_framebuffers(rendered):
    """tests/screens/NAME.fb holds each screen's bytes (UPDATE_SCREENS=1 rewrites them)."""
    if UPDATE:
        for stem in _ours(SCREENS.glob("*.fb")) | _ours(SCREENS.glob("*.png")):
            for old in SCREENS.glob(stem + ".*"):
                old.unlink()
        for name, panel, w, h, data in rendered:
            (SCREENS / (name + ".fb")).write_bytes(data)
            (SCREENS / (name + ".png")).write_bytes(_png(panel, w, h, data))
    missing = [n for n, *_ in rendered if not (SCREENS / (n + ".fb")).exists()]
    assert not missing, "no expected file (see the module docstring): %s" % missing
    differ = [n for n, _, _, _, data in rendered if (SCREENS / (n + ".fb")).read_bytes() != data]
    assert not differ, "screens changed (see the module docstring): %s" % differ
    stale = _ours(SCREENS.glob("*.fb")) - {r[0] for r in rendered}
    assert not stale, "expected files of screens that are gone: %s" % sorted(stale)


def test_expected_pngs_show_the_framebuffers(rendered):
    for name, panel, w, h, data in rendered:
        path = SCREENS / (name + ".png")
        assert path.exists(), name
        shown = path.read_bytes()
        if panel == "eink":
            assert png.eink_bits_of_png(shown, _scale(w)) == png.bits(data, w, h), name
        else:
            assert shown == png.led_png(data, w, h), name
    stale = _ours(SCREENS.glob("*.png")) - {r[0] for r in rendered}
    assert not stale, sorted(stale)


# -- what the e-ink score screen says -----------------------------------------------------
def _draw(screen, w=400, h=300):
    buf, fb = S.canvas(w, h)
    eink.draw(fb, screen)
    return buf


def _score(text, **fields):
    screen = model.Screen("score", cat.play(text))
    for k, v in fields.items():
        setattr(screen, k, v)
    return _draw(screen)


def _big(buf, side):
    """The big figure of a side on the 400x300 score screen, read from its segments."""
    return S.number_at(buf, 400, side * 200, 200, 36, 46, 86, 10, 10, draw.CENTRE)


def test_big_digits_show_the_frame_score_and_follow_it():
    # A: 23 (red black red pink red black), B: 6 (red blue), A: 9 so far (red black red).
    buf = _score(cat.OPENING)
    assert (_big(buf, 0), _big(buf, 1)) == ("32", "6")
    after = _score(cat.OPENING + "pot black\n")
    assert (_big(after, 0), _big(after, 1)) == ("39", "6")
    # Only A's half of the big figures changed.
    assert S.region(after, 400, 200, 36, 200, 86) == S.region(buf, 400, 200, 36, 200, 86)
    assert S.region(after, 400, 0, 36, 200, 86) != S.region(buf, 400, 0, 36, 200, 86)


def test_the_striker_is_marked_and_changes_with_the_visit():
    buf = _score(cat.OPENING)
    a, b = S.ink(buf, 400, 0, 0, 200, 27), S.ink(buf, 400, 200, 0, 200, 27)
    assert a > 200 * 27 // 2 > b  # A's name bar is inverted (black), B's is not
    assert S.find_text(buf, 400, 0, 0, 200, 28, "Ronnie O'Sullivan", B, col=0)
    # both names in one face: Ronnie O'Sullivan's (issue 33: Judd Trump was large)
    assert S.find_text(buf, 400, 200, 0, 200, 28, "Judd Trump", B)
    swapped = _score(cat.OPENING + "end\n")
    a, b = S.ink(swapped, 400, 0, 0, 200, 27), S.ink(swapped, 400, 200, 0, 200, 27)
    assert b > 200 * 27 // 2 > a


def test_break_frames_and_cells():
    buf = _score(cat.OPENING)
    # A is at the table on a break of 9 (red black red): in A's inverted BREAK box.
    assert S.find_text(buf, 400, 0, 126, 200, 26, "BREAK", B, col=0)
    assert S.find_text(buf, 400, 0, 126, 200, 26, "9", L, 0)
    assert S.find_text(buf, 400, 200, 126, 200, 26, "BREAK", B, col=0) is None
    assert S.find_text(buf, 400, 0, 126, 100, 26, "FRAMES", B)
    # 6 reds potted: 9 left; on a colour: 7 + 8 * 9 + 27 = 106 remaining; no snookers.
    row = (0, 186, 400, 38)
    for text, cell in (("COLOUR", 0), ("9", 1), ("106", 2), ("0", 3)):
        assert S.find_text(buf, 400, cell * 100, 196, 100, 30, text, L), text
    assert S.find_text(buf, 400, *row, "REMAINING")


def test_a_break_of_140_fits_its_box():
    lines = mpy.split_lines((mpy.SCENARIOS / "snooker-147.sbn").read_text())
    buf = _draw(model.Screen("score", cat.replay(lines[:-1])))  # the last black to come
    assert (_big(buf, 0), _big(buf, 1)) == ("140", "0")
    assert S.find_text(buf, 400, 96, 124, 98, 30, "140", L, 0)
    assert S.ink(buf, 400, 194, 124, 4, 30) == 0  # clear of the divider


def test_last_three_breaks_of_each_side():
    events = ("pot red\npot black\npot red\npot black\npot red\npot pink\nend\nend\n"  # 23
              "pot red\npot black\npot red\npot pink\nend\nend\n"  # 15
              "pot red\npot black\npot red\npot black\nend\nend\n"  # 16
              "pot red\npot black\npot red\npot blue\nend\n"  # 14, B to the table
              "pot red\npot black\npot red\npot black\npot red\n")  # B on 17
    buf = _score(cat.HEAD + "frame A\n" + events)
    assert S.find_text(buf, 400, 0, 154, 200, 30, "15 16 14", L)
    assert S.find_text(buf, 400, 0, 154, 200, 30, "23", L) is None
    # B's break of 17 is in progress: not listed yet, shown as the break.
    assert S.find_text(buf, 400, 200, 126, 200, 26, "17", L, 0)
    assert (_big(buf, 0), _big(buf, 1)) == ("68", "17")


def test_prompts_in_words():
    buf = _score(cat.SNOOKERS, message="'again' only right after a foul")
    assert S.find_text(buf, 400, 0, 224, 400, 22, "SNOOKERS NEEDED - no miss", B, 0)
    assert S.find_text(buf, 400, 0, 241, 400, 20, "WARN: 2 misses - the next loses the frame",
                       B, 0)
    # 64 behind with 51 remaining, red on: (64 - 51) / 4 rounded up = 4 snookers.
    assert S.find_text(buf, 400, 300, 196, 100, 30, "4", L)
    assert S.find_text(buf, 400, 0, 260, 400, 26, "NO: 'again' only right after a foul", B)
    quiet = _score(cat.OPENING)
    assert S.ink(quiet, 400, 0, 226, 400, 39) == 0  # no prompt, no bar
    timed = _score(cat.TIMED)
    assert S.find_text(timed, 400, 0, 224, 400, 22, "TIME: shot clock expired", B, 0)
    nine = _score(cat.NINE)
    assert S.find_text(nine, 400, 0, 224, 400, 22, "WARN: 2 fouls", B, 0)


def test_respot_frame_ball_and_free_ball():
    respot = _score(cat.RESPOT)  # 27-27 after the last black: nobody at the table yet
    assert S.find_text(respot, 400, 0, 224, 400, 22, "RE-SPOTTED BLACK: who plays first?", B, 0)
    for side in (0, 1):
        assert S.ink(respot, 400, side * 200, 0, 200, 27) < 200 * 27 // 4  # no name inverted
    assert (_big(respot, 0), _big(respot, 1)) == ("27", "27")
    # 36-29, only the black left (7): B can only tie, and the black is A's frame ball.
    ball = _score(cat.COLOURS + "pot blue\npot pink\n")
    assert S.find_text(ball, 400, 0, 224, 400, 22, "Judd Trump CAN ONLY TIE", B, 0)
    assert S.find_text(ball, 400, 0, 241, 400, 20, "FRAME BALL", B, 0)
    free = _score(cat.FREE)
    assert S.find_text(free, 400, 0, 224, 400, 22, "FREE BALL", B, 0)
    assert S.find_text(free, 400, 200, 196, 100, 30, "107", L)  # 8 * 9 + 27 + 8


def test_every_prompt_code_has_words_that_fit_the_bar():
    match = cat.play(cat.SNOOKERS)
    fig = model.figures(match)
    for code in ("snookers", "tie-only", "warn-miss", "warn-fouls", "frame-ball", "respot",
                 "time"):
        words = model.prompt_words(code, fig, match)
        assert words != code.upper() and code not in words, code
        assert draw.fits(words, 392, draw.BODY), words  # the bar's body face, whole
    assert model.prompt_words("warn-fouls", fig, match) == "WARN: %d fouls" % fig.fouls[1]


def test_entry_in_progress_and_footer():
    buf = _score(cat.OPENING, entry="FOUL 6 - balls down? ok")
    assert S.find_text(buf, 400, 0, 260, 400, 26, "> FOUL 6 - balls down? ok", B)
    assert S.find_text(buf, 400, 0, 286, 200, 14, "FRAME 1  BEST OF 7")
    assert S.find_text(buf, 400, 200, 286, 200, 14, "NO CLOCK")
    clocked = _score(cat.CLOCK_RUN)
    # The match time and the clock's details fit beside each other in small print.
    assert S.find_text(clocked, 400, 150, 286, 250, 14, "CLOCK 45s/10 on ext A1 B1")
    assert S.find_text(clocked, 400, 0, 286, 200, 14, "FRAME 1  BEST OF 7  0:00")


def test_pool_and_straight_variants():
    nine = _score(cat.NINE)
    assert (_big(nine, 0), _big(nine, 1)) == ("1", "1")  # racks won
    assert S.find_text(nine, 400, 0, 186, 200, 16, "BALLS ON THE TABLE")
    for i, ball in enumerate((4, 5, 6, 7, 8, 9)):
        col = 0 if ball == 9 else 1  # the game ball inverted
        assert S.find_text(nine, 400, 4 + 26 * i, 201, 24, 22, "%d" % ball, B, col=col), ball
    # B has two fouls in a row: two of the three boxes filled.
    assert S.ink(nine, 400, 200, 128, 200, 20) > S.ink(nine, 400, 0, 128, 200, 20)
    straight = _score(cat.STRAIGHT)
    assert (_big(straight, 0), _big(straight, 1)) == ("1", "24")
    assert S.find_text(straight, 400, 200, 154, 200, 30, "24", L)  # B's run of 24
    assert S.find_text(straight, 400, 320, 196, 80, 30, "76", L)  # B needs 76


def test_end_screens_say_who_won():
    frame = _draw(model.Screen("frame_end", cat.play(cat.FRAME_OVER)))
    assert S.number_at(frame, 400, 0, 200, 64, 40, 72, 9, 9, draw.CENTRE) == "23"
    assert S.number_at(frame, 400, 200, 200, 64, 40, 72, 9, 9, draw.CENTRE) == "6"
    assert S.find_text(frame, 400, 0, 140, 400, 26, "Judd Trump wins (conceded)", L)
    match = _draw(model.Screen("match_end", cat.play(cat.MATCH_OVER)))
    assert S.number_at(match, 400, 0, 200, 62, 40, 72, 9, 9, draw.CENTRE) == "0"
    assert S.number_at(match, 400, 200, 200, 62, 40, 72, 9, 9, draw.CENTRE) == "2"
    assert S.find_text(match, 400, 0, 136, 400, 26, "Judd Trump wins", L)


def test_start_menu_and_error_screens():
    start = _draw(dict(cat.eink_screens())["start"])  # in the order of their names
    # each match's names large, its game, format and clock below in the body face, in
    # the words of the match's language (the start menu writes them from its header)
    assert S.find_text(start, 400, 0, 60, 400, 30, "O'Sullivan v Trump", L, col=0)
    assert S.find_text(start, 400, 0, 84, 400, 22, "snooker, 15 reds, best of 7, no clock",
                       B, col=0)
    assert S.find_text(start, 400, 0, 100, 400, 40, "M\u00fcller v S\u00e1nchez", L)
    assert S.find_text(start, 400, 0, 140, 400, 40, "Higgins v Robertson", L)
    screen = model.Screen("menu")
    screen.menu_items = cat.MENU
    screen.menu_cursor = 11  # past the rows that fit: the list scrolls
    menu = _draw(screen)
    assert S.find_text(menu, 400, 0, 30, 400, 260, "sound", L, 0)
    assert S.find_text(menu, 400, 0, 30, 400, 260, "respot", L) is None
    error = _draw(model.Screen("error"))
    assert S.find_text(error, 400, 0, 0, 400, 30, "ERROR", L, col=0)


def test_the_start_screen_shows_a_queued_matchs_playing_conditions():
    """Issue 27 item 3: under the match under the cursor, the conditions its header sets
    that differ from the official rules (late start 15 min, three fouls and push out in
    nine-ball, alternate breaks), in the match's language, in its row (inverted)."""
    shown = _draw(dict(cat.eink_screens())["start-conditions"])
    assert S.find_text(shown, 400, 0, 60, 400, 30, "Ann v Bob", L, col=0)
    assert S.find_text(shown, 400, 0, 84, 400, 22, "nine-ball, race to 7, no clock", B, col=0)
    said = "late 10 min, no three-foul rule, no push out, winner breaks"
    assert S.find_text(shown, 400, 0, 104, 400, 28, said, S_, col=0)
    # the rows under it move down: the next match's names below the conditions
    assert S.find_text(shown, 400, 0, 130, 400, 34, "O'Sullivan v Trump", L)
    polish = cat.CLUB.replace("sbn 1\n", "sbn 1\nlang pl\n").replace(
        "breaks winner", "breaks loser").replace("late=10 threefoul=0 pushout=0", "late=20")
    from scoreboard import lang

    try:
        pl = _draw(cat.start([("club-9", "Ann v Bob  9-ball", polish)] + cat.QUEUE))
    finally:
        lang.use("en")  # the start menu left the match's language in use
    assert S.find_text(pl, 400, 0, 104, 400, 28, "spóźnienie 20 min, rozbija przegrany", B,
                       col=0)
    # a match played by the official rules has no such line: the rows as before
    plain = _draw(cat.start([("club-9", "Ann v Bob  9-ball", cat.CLUB.replace(
        "breaks winner\n", "").replace("rules late=10 threefoul=0 pushout=0\n", ""))]
        + cat.QUEUE))
    assert S.find_text(plain, 400, 0, 100, 400, 40, "O'Sullivan v Trump", L)
    # the OLED: under the cursor's summary when its four rows hold them, else not at all
    late = cat.CLUB.replace("breaks winner\n", "").replace("threefoul=0 pushout=0", "")
    buf, fb = S.canvas(128, 64)
    eink.draw(fb, cat.start([("club-9", "Ann v Bob  9-ball", late)]))
    assert S.find_text(buf, 128, 0, 12, 128, 52, "late 10 min", S_, col=0)
    buf, fb = S.canvas(128, 64)
    eink.draw(fb, dict(cat.eink_screens())["start-conditions"])
    assert S.find_text(buf, 128, 0, 12, 128, 52, "late 10 min", S_, col=0) is None
    assert S.find_text(buf, 128, 0, 12, 128, 52, "race to 7, no clock", S_, col=0)


def test_names_outside_ascii_are_drawn_as_written():
    """Issue 18: a name keeps its letters (tests/test_i18n_glyphs.py draws them); a name
    too long for its field is cut at a character, an ellipsis last."""
    assert draw.fit("S\u00e1nchez-Rodr\u00edguez", 8) == "S\u00e1nchez\u2026"
    assert draw.text_width("Zo\u00eb", draw.LARGE) == 36
    assert draw.drawable("\u0141") and not draw.drawable("\u4e2d")


def test_screens_before_the_first_frame():
    before = _draw(model.Screen("frame_end", cat.play(cat.HEAD + "called\n")))
    assert S.find_text(before, 400, 0, 224, 400, 22, "FIRST FRAME TO START", B, 0)
    assert (_big(before, 0), _big(before, 1)) == ("0", "0")
    forfeit = _draw(model.Screen("match_end", cat.play(cat.HEAD + "forfeit B late\n")))
    assert S.find_text(forfeit, 400, 0, 136, 400, 26, "Ronnie O'Sullivan wins", L)
    # how it ended, for the loser (issue 33: `forfeited late`); no high breaks, no frame
    assert S.find_text(forfeit, 400, 0, 160, 400, 20, "forfeited: the opponent was late", B)
    assert S.ink(forfeit, 400, 0, 182, 400, 20) == 0


# -- canvases ---------------------------------------------------------------------------
@pytest.mark.parametrize("size, compact_layout", [((400, 300), False), ((128, 64), True),
                                                  ((296, 128), True), ((399, 300), True),
                                                  ((640, 384), False)])
def test_the_layout_follows_the_size_the_canvas_states(size, compact_layout):
    """No probe: the canvas says its size, and nothing but pixel reads could tell it."""
    from scoreboard.ui import compact, eink_score

    screen = model.Screen("score", cat.play(cat.OPENING))
    buf, fb = S.canvas(*size)
    only = S.OnlyFramebuf(fb)
    eink.draw(only, screen)
    assert "pixel" not in only.calls
    want, ref = S.canvas(*size)
    if compact_layout:
        compact.draw(ref, screen, *size)
    else:
        eink_score.draw_score(ref, screen)
    assert buf == want


def test_oled_gets_the_compact_score_screen():
    screen = model.Screen("score", cat.play(cat.OPENING))
    buf = _draw(screen, 128, 64)
    assert S.number_at(buf, 128, 0, 64, 12, 10, 16, 3, 3, draw.CENTRE) == "32"
    assert S.number_at(buf, 128, 64, 64, 12, 10, 16, 3, 3, draw.CENTRE) == "6"
    assert S.find_text(buf, 128, 0, 0, 64, 12, "O'Sullivan", S_, 0)  # the striker
    assert S.find_text(buf, 128, 0, 28, 64, 12, "F0", S_)  # frames won, and the break
    assert S.find_text(buf, 128, 0, 28, 64, 12, "B9", S_)
    assert S.find_text(buf, 128, 0, 40, 128, 12, "COLOUR R9 P106 S0", S_)


def test_screens_use_only_the_framebuf_api():
    for name, screen in cat.eink_screens():
        for size in ((400, 300), (128, 64)):
            _, fb = S.canvas(*size)
            only = S.OnlyFramebuf(fb)
            eink.draw(only, screen)
            assert set(only.calls) <= {"fill", "fill_rect", "pixel", "hline", "vline",
                                       "rect", "text"}, name


def test_the_screens_build_no_table_per_call():
    """A dict or set literal inside a function is built on every call, and the e-ink
    screens are drawn once per band: the screens' tables are constant tuples."""
    import ast

    found = []
    for path in sorted((mpy.FIRMWARE / "scoreboard" / "ui").glob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found += ["%s:%d" % (path.name, n.lineno) for n in ast.walk(fn)
                          if isinstance(n, (ast.Dict, ast.DictComp, ast.Set, ast.SetComp))]
    assert not found


def test_straight_pools_match_over_shows_the_points():
    """Issue 26: one game, so its points in big digits, not frames won 0 - 0."""
    buf = _draw(model.Screen("match_end", cat.play(cat.STRAIGHT_OVER)))
    assert S.number_at(buf, 400, 0, 200, 62, 40, 72, 9, 9, draw.CENTRE) == "1"
    assert S.number_at(buf, 400, 200, 200, 62, 40, 72, 9, 9, draw.CENTRE) == "40"


def test_frames_won_up_to_99_are_drawn_in_every_language():
    """Issue 26: a two-digit count drew as `FRAMES …`, and in Bulgarian not at all."""
    from scoreboard import lang

    match = cat.play(cat.OPENING)
    match.frames_won = lambda: (99, 10)
    try:
        for code in lang.LANGS:
            lang.use(code)
            buf = _draw(model.Screen("score", match))
            assert S.find_text(buf, 400, 0, 124, 100, 30, "99", L), code
            assert S.find_text(buf, 400, 200, 124, 100, 30, "10", L), code
            oled = _draw(model.Screen("score", match), 128, 64)
            assert S.find_text(oled, 128, 0, 28, 64, 12, lang.t("c.frames") % 99, S_), code
    finally:
        lang.use("en")


def test_a_menu_longer_than_its_rows_says_where_the_cursor_is():
    """Issue 33 (K7): snooker's menu in play has 9 items for 8 rows; the title says which
    of how many is under the cursor, so `abandon` below the last row is known to be
    there. A list that fits says nothing."""
    menu = _draw(dict(cat.eink_screens())["menu"])  # the cursor on the 2nd of 9
    assert S.find_text(menu, 400, 300, 0, 100, 30, "2/9", B, col=0)
    short = model.Screen("menu")
    short.menu_items = ["a", "b", "c"]
    assert S.ink(_draw(short), 400, 300, 0, 100, 30) == 30 * 100  # the bar, nothing on it


def test_the_oleds_result_keeps_the_surname_before_the_words():
    """Issue 33 (P22): on the OLED's 21 characters a long result gives way to `wins`
    before the surname is cut to a few letters (`Br… wygrywa (poddany)` was shown)."""
    from scoreboard import lang

    match = cat.play(cat.FRAME_OVER.replace("Judd Trump", "Grzegorz Brzęczyszczykiewicz"))
    try:
        lang.use("pl")
        said = model.frame_result(match, 1, "conceded", 21)
        assert said == "Brzęczyszczy\u2026 wygrywa", said
        whole = model.frame_result(match, 1, "conceded", 65)  # the e-ink's line: all of it
        assert whole == "Grzegorz Brzęczyszczykiewicz wygrywa (rywal poddał frejm)"
        lang.use("en")
        assert model.frame_result(cat.play(cat.FRAME_OVER), 1, "conceded", 21) == \
            "Trump wins (conceded)"  # the words kept where the surname fits with them
    finally:
        lang.use("en")
