"""A prepared match carries the language of its event (issue 18 item 2): the header
word `lang CODE` (en, pl, bg; an addition to the notation's header, at most once, header
only, written back by Header.lines()), which the box speaks for that match's screens
instead of settings.txt's `lang=` while the match is played; `scoreboard setup` writes
it from a CSV draw's `lang` column or `--lang`."""

from datetime import datetime

import pytest

from host_tools.results import draw as setup_cmd  # the draw setup queues
from host_tools.mp.device import Runner
from support import device

from scoreboard import lang
from scoreboard.core import header as header_module
from scoreboard.core.notation import NotationError, Reader

HEADER = ["sbn 1", "game snooker reds=15", "match best-of 3", 'side A "Łukasz Wiśniewski"',
          'side B "Иван Петров"']
WHEN = datetime(2026, 11, 29, 18, 3)


def teardown_function():
    lang.use("en")


def _header(lines):
    r = Reader()
    for text in lines:
        r.feed(text)
    r.finish()
    return r.header


# -- the header word -------------------------------------------------------------------
def test_the_lang_word_is_read_and_written_back():
    h = _header([HEADER[0], "id CLUB-7", "date 2026-11-29T18:03", "lang pl", *HEADER[1:]])
    assert h.lang == "pl"
    assert h.lines()[:4] == ["sbn 1", "id CLUB-7", "date 2026-11-29T18:03", "lang pl"]
    assert _header(h.lines()).lang == "pl"  # what lines() writes reads back the same
    plain = _header(HEADER)
    assert plain.lang is None and not any(ln.startswith("lang") for ln in plain.lines())


def test_the_codes_are_the_languages_the_box_has():
    assert tuple(header_module.LANGS) == lang.LANGS  # the core cannot import scoreboard.lang


@pytest.mark.parametrize("lines, why", [
    ([*HEADER, "lang de"], "line 6: lang must be one of en pl bg, not 'de'"),
    ([*HEADER, "lang PL"], "line 6: lang must be one of en pl bg, not 'PL'"),
    ([*HEADER, "lang pl", "lang bg"], "line 7: 'lang' given twice"),
    ([*HEADER, "lang"], "line 6: 'lang' needs more words"),
    ([*HEADER, "lang pl bg"], "line 6: too many words after 'lang'"),
    ([*HEADER, "frame A", "lang pl"], "line 7: header line 'lang' after the first event"),
], ids=["unknown", "capitals", "twice", "bare", "two", "after-frame"])
def test_a_bad_lang_line_is_refused(lines, why):
    with pytest.raises(NotationError) as e:
        _header(lines)
    assert str(e.value).startswith(why), str(e.value)


# -- the box speaks it for that match ------------------------------------------------
def _choose(r, label):
    """Move the open menu's cursor to `label` and take it."""
    items = r.app.screen.menu_items
    assert label in items, (label, items)
    while items[r.app.screen.menu_cursor] != label:
        r.press("menu", 80)
    r.press("ok", 80)


def test_a_queued_match_in_polish_on_an_english_box(tmp_path):
    device.queue(tmp_path, "m1", [HEADER[0], "lang pl", *HEADER[1:]])
    device.queue(tmp_path, "m2", HEADER)  # the next one, in the box's language
    r = Runner(str(tmp_path))
    r.wait(100)
    # the start screen speaks the language of the match under the cursor (issue 26 item 5)
    assert r.app.screen.hint.startswith("ok:start (zaczyna A) cofnij:")
    assert "z 3 frejmów" in r.app.screen.queue[0][1]
    r.press("undo", 80)  # the next match: the box's own
    assert r.app.screen.hint.startswith("ok:start (A breaks)")
    assert "best of 3" in r.app.screen.queue[1][1]
    r.press("undo", 80)  # round to the first: Polish again, and its menu before frame 1
    assert r.app.screen.hint.startswith("ok:start (zaczyna A)")
    r.press("menu", 80)
    assert r.app.screen.kind == "menu"
    assert r.app.screen.menu_title == "PRZED PIERWSZYM FREJMEM"
    assert r.app.screen.menu_items[0] == "wywołanie meczu"
    r.press("undo", 80)  # out of the menu: the list
    assert r.app.screen.kind == "start"
    r.press("ok", 80)
    assert r.app.screen.kind == "score"
    r.press("pink", 80)  # red is on: refused, in the match's language
    assert r.app.screen.message == "bila rozgrywana: czerwona, nie różowa"
    r.press("red", 80)
    r.press("foul", 80)
    assert r.app.screen.entry == "FAUL 4 - bila? ok"
    r.press("undo", 80)
    journal = device.journal_files(tmp_path)[-1]
    assert "lang pl" in device.journal_lines(journal)[:6]
    assert device.events(journal) == ["frame A", "pot red"]  # the notation stays English
    r.app.stop()
    again = Runner(str(tmp_path))  # a reset mid-match: recovered, still Polish
    again.wait(100)
    again.press("foul", 80)
    assert again.app.screen.entry == "FAUL 4 - bila? ok"
    again.press("undo", 80)
    again.press("menu", 80)  # abandon it: the menu in Polish
    _choose(again, lang.t("n.abandon"))
    _choose(again, lang.t("n.no_winner"))
    again.press("ok", 80)  # asked once: yes
    assert again.app.screen.kind == "match_end"
    again.press("ok", 80)  # the match is done: the start screen in the box's own language
    assert again.app.screen.kind == "start"
    assert lang.current() == "en"
    assert again.app.screen.hint.startswith("ok:start (A breaks)")
    settings = tmp_path / "settings.txt"
    assert not settings.exists() or "lang=pl" not in settings.read_text(encoding="utf-8")


@pytest.mark.parametrize("interpreter", ["unix", "32-bit"])
def test_the_match_language_on_micropython(tmp_path, interpreter):
    """On MicroPython the score screen of a `lang pl` match on an English box is the
    very picture of the same match on a box set to Polish, and not the English one."""
    binary = None if interpreter == "unix" else device.MP32
    cmds = device.commands(["ok", "red", "foul"]) + ["wait 3000", "show"]  # refreshed
    pictures = {}
    for case, settings, header in (
            ("header", None, [HEADER[0], "lang pl", *HEADER[1:]]),
            ("settings", "lang=pl\n", HEADER),
            ("english", None, HEADER)):
        flash = tmp_path / case
        device.queue(flash, "m1", header)
        if settings:
            (flash / "settings.txt").write_text(settings, encoding="utf-8")
        rc, out = device.run(flash, cmds, binary)
        assert rc == 0, "\n".join(out[-10:])
        pictures[case] = [line for line in out if line.startswith("E ")][-1]
    assert pictures["header"] == pictures["settings"]
    assert pictures["header"] != pictures["english"]


# -- scoreboard setup writes it ------------------------------------------------------
def test_setup_writes_the_lang_column_and_option():
    draw = ("table,a,b,game,format,lang\n"
            "1,Łukasz Wiśniewski,Ann,snooker,best-of 7,pl\n"
            "2,Иван Петров,Bob,nineball,race-to 5,bg\n"
            "3,Cy,Di,snooker,best-of 3,\n")
    out = setup_cmd.from_csv(draw, "DESK", WHEN, "draw.csv")
    assert [[ln for ln in lines if ln.startswith("lang")] for _, lines in out] == [
        ["lang pl"], ["lang bg"], []]
    plain = "table,a,b,game,format\n1,Ann,Bob,snooker,best-of 7\n2,Cy,Di,nineball,race-to 5\n"
    forced = setup_cmd.from_csv(plain, "DESK", WHEN, "draw.csv", lang="pl")
    assert [[ln for ln in lines if ln.startswith("lang")] for _, lines in forced] == [
        ["lang pl"]] * 2  # --lang is for all rows
    with pytest.raises(setup_cmd.SetupError) as e:  # a row that says otherwise: never silent
        setup_cmd.from_csv(draw, "DESK", WHEN, "draw.csv", lang="pl")
    assert str(e.value) == "draw.csv row 3: lang bg, but --lang pl is for all matches"
    assert len(setup_cmd.from_csv(draw.replace(",bg\n", ",pl\n"), "DESK", WHEN, "draw.csv",
                                  lang="pl")) == 3
    for _, lines in out:
        assert _header(lines).lines() == lines  # as the core writes it
    with pytest.raises(setup_cmd.SetupError) as e:
        setup_cmd.from_csv("table,a,b,game,format,lang\n1,A,B,snooker,best-of 3,de\n",
                           "DESK", WHEN, "draw.csv")
    assert str(e.value) == "draw.csv row 2: line 4: lang must be one of en pl bg, not 'de'"
    sbn = setup_cmd.from_sbn("\n".join(HEADER) + "\n", "DESK", WHEN, "m.sbn", lang="bg")
    assert sbn[0][1][:4] == ["sbn 1", "id DESK-2611291803-S-01", "date 2026-11-29T18:03",
                             "lang bg"]
    with pytest.raises(setup_cmd.SetupError) as e:
        setup_cmd.from_sbn("\n".join([HEADER[0], "lang pl", *HEADER[1:]]), "DESK", WHEN,
                           "m.sbn", lang="bg")
    assert str(e.value) == "m.sbn: lang pl, but --lang bg is for all matches"


def test_setup_refuses_an_unknown_lang_option_in_one_line(tmp_path):
    from support.vdev import scoreboard

    draw = tmp_path / "draw.csv"
    draw.write_text("table,a,b,game,format\n1,Ann,Bob,snooker,best-of 7\n", encoding="utf-8")
    rc, out, err = scoreboard("setup", "--port", "/dev/null/none", "--lang", "de", draw)
    assert rc != 0 and out == ""
    assert err.strip() == "setup: --lang de: the box speaks en, pl or bg", err
