"""Out of memory says so (issue 36 item 5): on the e-ink's error screen, with what to do,
and in a word on the LED, in the club's language, mid-match and at the start; the match
stays recoverable. Here the host board on CPython and the app's start under the
MicroPython unix port; the emulated Pico's own run is tests/test_pico_keys.py's.

The pictures are what scoreboard/outofmemory.py's words make on the host board
(support.screens.error_pictures): the same drawing code makes the Pico's
(tests/test_pico.py: the panels byte for byte), and the LED's word is read back.
"""

import pytest
from host_tools.mp.device import Runner
from scoreboard import lang
from support import device, mpy
from support.screens import error_pictures, find_text

HEADER = ["sbn 1", "game snooker reds=6", "match best-of 3", 'side A "Ann"', 'side B "Bob"']


@pytest.fixture(autouse=True)
def english_after():
    yield
    lang.use("en")


@pytest.mark.parametrize("code", lang.LANGS)
def test_mid_match_both_panels_say_it_in_the_club_s_language(tmp_path, code):
    flash = tmp_path / "flash"
    device.queue(flash, "m", HEADER)
    (flash / "settings.txt").write_text("lang=%s\n" % code, encoding="utf-8")
    r = Runner(str(flash))
    for key in ("ok", "red", "black"):
        r.press(key, 80)
    journaled = r.app.journal.lines

    def no_memory(*args):
        raise MemoryError("memory allocation failed, allocating 1148 bytes")

    r.app.grammar.press = no_memory
    r.press("red", 80)
    assert r.app.stopped and r.app.screen.kind == "error"
    assert r.app.screen.error == lang.t("a.oom"), "the words, not Python's"
    assert "MemoryError" not in r.app.screen.error
    eink_want, led_want = error_pictures(code, "a.oom")
    r.wait(100)
    assert bytes(r.board.eink_buf) == eink_want
    assert bytes(r.board.led_buf) == led_want
    assert find_text(led_want, 32, 0, 0, 32, 16, lang.t("a.oom_led")) is not None
    again = Runner(str(flash))  # switched off and on, as the screen says
    assert again.app.journal.lines == journaled
    assert again.app.match.frame.score == [8, 0]


def test_the_words_differ_by_language_and_the_led_word_is_lit(tmp_path):
    seen = {code: error_pictures(code, "a.oom") for code in lang.LANGS}
    assert len({e for e, _ in seen.values()}) == 3 and len({d for _, d in seen.values()}) == 3
    assert all(any(led) for _, led in seen.values())


AT_START = """
import sys
sys.path.append("%(firmware)s")
import boards.host
import scoreboard.app

built = []


def build(**kw):
    built.append(boards.host.HostBoard("%(flash)s"))
    return built[-1]


class App:
    def __init__(self, board):
        raise MemoryError("memory allocation failed, allocating 4096 bytes")


boards.host.build = build
scoreboard.app.App = App
import main  # noqa
main.board_name = lambda: "host"
main.main()
b = built[-1]
print("E", bytes(b.eink_buf).hex())
print("L", bytes(b.led_buf).hex())
"""


@pytest.mark.needs_build  # the MicroPython unix port
@pytest.mark.parametrize("code", ["en", "bg"])
def test_at_the_start_both_panels_say_it_under_micropython(tmp_path, code):
    """The app could not be made (main.py): the board is built again on what the
    collector frees, and the start's words go up, in the box's language."""
    flash = tmp_path / "flash"
    flash.mkdir()
    (flash / "settings.txt").write_text("lang=%s\n" % code, encoding="utf-8")
    script = tmp_path / "start.py"
    script.write_text(AT_START % {"firmware": mpy.FIRMWARE, "flash": flash}, encoding="utf-8")
    rc, out = mpy.run_micropython(script, timeout=60)
    assert rc == 0, out
    assert "scoreboard: out of memory while starting" in out
    shown = {line[0]: bytes.fromhex(line[2:].strip()) for line in out.splitlines()
             if line[:2] in ("E ", "L ")}
    eink_want, led_want = error_pictures(code, "a.oom_start")
    assert shown["E"] == eink_want
    assert shown["L"] == led_want
