"""The box in the club's own language (issue 18 item 2): settings.txt's `lang=`, a long
`undo` on the start screen stepping it (kept on flash, the box speaks it at once and
after a reset), the rules' refusals in it; the journal's words stay English."""

from host_tools.mp.device import Runner
from support import device

from scoreboard import lang

HEADER = ["sbn 1", "game snooker reds=15", "match best-of 3", 'side A "Łukasz Wiśniewski"',
          'side B "Иван Петров"']


def _settings(tmp_path):
    return (tmp_path / "settings.txt").read_text(encoding="utf-8")


def teardown_function():
    lang.use("en")


def test_the_box_speaks_the_language_of_its_settings(tmp_path):
    (tmp_path / "settings.txt").write_text("lang=pl\nvolume=60\n", encoding="utf-8")
    device.queue(tmp_path, "m1", HEADER)
    r = Runner(str(tmp_path))
    r.wait(100)
    assert r.app.screen.kind == "start"
    # the keys named as the Polish legend prints them (issue 26 item 4)
    assert r.app.screen.hint == "ok:start (zaczyna A) cofnij:dalej koniec:zamiana menu:więcej"
    r.press("ok", 80)
    r.press("pink", 80)  # red is on: refused, with the rules' reason in Polish
    assert r.app.screen.message == "bila rozgrywana: czerwona, nie różowa"
    r.press("red", 80)
    r.press("foul", 80)
    assert r.app.screen.entry == "FAUL 4 - bila? ok"
    lines = device.events(device.journal_files(tmp_path)[-1])
    assert lines == ["frame A", "pot red"]  # the journal's words stay English


def test_a_long_undo_on_the_start_screen_steps_the_language_and_keeps_it(tmp_path):
    device.queue(tmp_path, "m1", HEADER)
    r = Runner(str(tmp_path))
    r.wait(100)
    assert r.app.screen.hint.startswith("ok:start (A breaks)")
    r.press("undo", 1500)  # held: the next language
    assert r.app.screen.notice == "JĘZYK: Polski"
    assert "lang=pl" in _settings(tmp_path).split("\n")
    r.press("undo", 1500)
    assert r.app.screen.notice == "ЕЗИК: Български"
    assert r.app.screen.hint.startswith("ok:старт (A разбива)")
    assert "lang=bg" in _settings(tmp_path).split("\n")
    r.app.stop()
    again = Runner(str(tmp_path))  # a reset: still Bulgarian
    again.wait(100)
    assert again.app.screen.hint.startswith("ok:старт")
    again.press("undo", 1500)
    assert again.app.screen.notice == "LANGUAGE: English"
    assert "lang=en" in _settings(tmp_path).split("\n")


def test_the_set_up_on_a_polish_box_says_every_field_in_polish(tmp_path):
    """Issue 26 item 5: the set-up's format, clock and default names were English
    (`Match`, `best-of 3`, `seed 45s`, `Player A`) on a box in Polish."""
    (tmp_path / "settings.txt").write_text("lang=pl\n", encoding="utf-8")
    r = Runner(str(tmp_path))  # nothing queued: menu sets one up
    r.wait(100)
    r.press("menu", 80)
    assert r.app.screen.kind == "setup"
    assert r.app.screen.setup == [("Gra", "snooker, 15 czerwonych"), ("Mecz", "z 3 frejmów"),
                                  ("Zegar", "wył."), ("Start", "ok")]
    r.press("ok", 80)
    for _ in range(4):  # best-of 3, 5, 7, 9, 1: one frame, its singular
        r.press("menu", 80)
    assert r.app.screen.setup[1] == ("Mecz", "z 1 frejmu")
    r.press("ok", 80)
    r.press("menu", 80)  # the clock: the rule book's 45 s, in words (a limit, issue 33)
    assert r.app.screen.setup[2] == ("Zegar", "limit 45s")
    r.press("ok", 80)
    r.press("ok", 80)  # Start
    assert r.app.screen.kind == "score"
    header = device.journal_lines(device.journal_files(tmp_path)[-1])
    assert "match best-of 1" in header and "clock shot=45 warn=10" in header  # English
    assert 'side A "Gracz A"' in header and 'side B "Gracz B"' in header


def test_a_long_undo_says_the_queued_lines_again_in_the_new_language(tmp_path):
    device.queue(tmp_path, "m1", HEADER)  # no lang of its own: the box's
    r = Runner(str(tmp_path))
    r.wait(100)
    assert r.app.screen.queue[0][1].endswith("best of 3, no clock")  # one case
    r.press("undo", 1500)  # Polish
    assert r.app.screen.queue[0][1].endswith("z 3 frejmów, bez zegara")
    assert " \u2013 " in r.app.screen.queue[0][1]  # the sides joined as Polish writes it
