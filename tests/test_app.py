"""The app's loop on the host board: refusals, the e-ink refresh policy, the LED, the
buzzer, the error handler, and a reset that comes back exactly where it was.

These run the real app on CPython (its framebuf stand-in) through the same runner that
`scoreboard device` drives under MicroPython; test_device.py plays the same firmware
under MicroPython, test_app_micropython below checks the two draw the same bytes.
"""

from pathlib import Path

import pytest
from host_tools.mp.device import Runner
from scoreboard.ui.refresh import FULL_EVERY, QUIET_MS
from scoreboard.sounds import PATTERNS
from support import device, mpy

HEADER = ["sbn 1", "game snooker reds=15", "match best-of 3", 'side A "Ann"', 'side B "Bob"']
CLOCK = [*HEADER, "clock shot=45 warn=10 beeps=5"]


def rig(tmp_path, header=HEADER):
    device.queue(tmp_path, "m1", header)
    r = Runner(str(tmp_path))
    r.wait(100)
    return r


def journal(tmp_path):
    return device.events(device.journal_files(tmp_path)[-1])


def tones(r):
    return [t[1] for t in r.board.played() if t[1]]


def test_refused_entry_is_shown_beeped_and_changes_nothing(tmp_path):
    r = rig(tmp_path)
    r.press("ok", 80)
    r.press("red", 80)
    before = r.board.eink_buf[:], journal(tmp_path)
    r.wait(3000)
    r.press("pink", 80)  # a colour after a red is fine...
    r.press("pink", 80)  # ...a second colour is not: a red is on
    assert journal(tmp_path) == ["frame A", "pot red", "pot pink"]
    assert r.app.screen.message, "the reason is on the panel"
    assert tones(r)[-1] == PATTERNS["refuse"][0], "a low beep"
    assert list(r.app.match.view().score) == [7, 0]
    assert before[1] == ["frame A", "pot red"]


def test_eink_partial_per_change_coalesced_while_keys_come_fast(tmp_path):
    r = rig(tmp_path)
    r.press("ok", 80)
    r.wait(3000)
    partial, full = r.board.refreshes
    for k in ["red", "black"] * 3:  # six pots, 230 ms apart: faster than QUIET_MS
        r.press(k, 80)
        assert r.board.refreshes == [partial, full], "no refresh while keys come fast"
    r.wait(QUIET_MS + 20)
    assert r.board.refreshes == [partial + 1, full], "one partial refresh for all of them"


def test_eink_full_refresh_every_n_partials_and_at_frame_end(tmp_path):
    r = rig(tmp_path)
    r.press("ok", 80)
    r.wait(3000)
    partial, full = r.board.refreshes
    for n in range(FULL_EVERY):
        r.press("red" if n % 2 == 0 else "black", 80)
        r.wait(1000)
    assert r.board.refreshes[1] == full + 1, "the tenth refresh is a full one"
    assert r.board.refreshes[0] == partial + FULL_EVERY - 1


def test_the_clock_ticks_on_the_led_never_on_the_eink(tmp_path):
    r = rig(tmp_path, CLOCK)
    r.press("ok", 80)
    r.press("red", 80)
    r.wait(3000)
    refreshes, frames = list(r.board.refreshes), r.board.led_frames
    r.wait(30000)
    assert r.board.refreshes == refreshes
    assert r.board.led_frames >= frames + 30, "a new LED picture every second"


def test_buzzer_warning_countdown_and_time(tmp_path):
    r = rig(tmp_path, CLOCK)
    r.press("ok", 80)
    r.press("red", 80)  # the shot clock starts on the outcome, at its stamp
    last = device.journal_files(tmp_path)[-1].read_text(encoding="utf-8").splitlines()[-1]
    assert last.split(" ")[1] == "pot"
    start = int(last.split(" ")[0][1:])  # match milliseconds
    r.wait(47000)
    played = [(r.app.match_ms(ms) - start, f) for ms, f, _ in r.board.played() if f]
    warn = [ms for ms, f in played if f == PATTERNS["warn"][0]]
    beeps = [ms for ms, f in played if f == PATTERNS["beep"][0]]
    time_ = [ms for ms, f in played if f == PATTERNS["time"][0]]
    assert 34900 <= warn[0] <= 35100, "the warning at 10 s left"
    assert len(beeps) == 5, "the last five seconds counted down"
    assert 44900 <= time_[0] <= 45100, "TIME at 45 s"


def test_frame_end_sound_and_full_refresh(tmp_path):
    r = rig(tmp_path)
    r.press("ok", 80)
    r.press("end", 80)  # B to the table
    r.wait(3000)
    full = r.board.refreshes[1]
    for k in ["menu", "menu", "ok",  # the menu, down to "concede frame", chosen
              "ok", "ok"]:  # B, at the table, concedes; the question answered
        r.press(k, 80)
    assert journal(tmp_path) == ["frame A", "end", "concede"]
    r.wait(3000)
    assert r.app.screen.kind == "frame_end"
    assert r.board.refreshes[1] == full + 1, "a full refresh at the frame's end"
    assert PATTERNS["frame_end"][0] in tones(r)


class BrokenLed(Exception):
    pass


def test_one_handler_shows_the_error_and_keeps_the_journal(tmp_path):
    r = rig(tmp_path)
    r.press("ok", 80)
    r.press("red", 80)
    kept = device.journal_files(tmp_path)[-1].read_bytes()

    def broken():
        raise BrokenLed("the LED chain stopped answering")

    r.board.led_show = broken
    r.press("black", 80)
    assert r.app.screen.kind == "error"
    assert "the LED chain stopped answering" in r.app.screen.error
    assert r.app.stopped
    data = device.journal_files(tmp_path)[-1].read_bytes()
    assert data.startswith(kept), "nothing journaled before is lost"
    r.press("red", 80)  # a stopped app takes no more keys
    assert device.journal_files(tmp_path)[-1].read_bytes() == data


def test_reset_comes_back_exactly_screens_included(tmp_path):
    r = rig(tmp_path)
    for k in ["ok", "red", "black", "red", "end", "foul", "ok"]:
        r.press(k, 80)
    r.wait(3000)
    eink, led = bytes(r.board.eink_buf), bytes(r.board.led_buf)
    # power cut: a new app on the same flash, booted when its ticks start (the LED's
    # scores take turns from the last event, or from the boot: issue 33)
    r2 = Runner(str(tmp_path), now=r.board.now)
    r2.wait(3000)
    assert bytes(r2.board.eink_buf) == eink
    assert bytes(r2.board.led_buf) == led


def test_set_up_a_match_on_the_box(tmp_path):
    r = Runner(str(tmp_path))  # empty queue
    r.wait(100)
    assert r.app.screen.kind == "start"
    for k in ["menu",  # set up a match here
              "menu",  # game: snooker 10 reds
              "ok", "menu",  # format: best-of 5
              "ok", "ok",  # shot clock off; Start
              "ok"]:
        r.press(k, 80)
    assert r.app.screen.kind == "score"
    header = device.journal_lines(device.journal_files(tmp_path)[-1])
    assert "game snooker reds=10" in header and "match best-of 5" in header
    assert 'side A "Player A"' in header


def test_switch_the_breaker_before_starting(tmp_path):
    r = rig(tmp_path)
    r.press("end", 80)  # the side key on the start screen: B breaks off
    r.press("ok", 80)
    assert journal(tmp_path) == ["frame B"]


POOL = ["sbn 1", "game nineball", "match race-to 5", 'side A "Ann"', 'side B "Bob"']


@pytest.mark.parametrize("header, side, other", [(HEADER, "end", "side"),
                                                  (POOL, "side", "end")])
def test_one_side_key_switches_the_breaker_on_the_start_screen_and_before_frame_1(
        tmp_path, header, side, other):
    # The start screen and a match waiting for its first frame (a reset between the
    # match's header and its `frame` line) switch the breaker with the same key: the
    # family's side key, the one both hints name. Pool's `end` ends a visit: not it.
    r = rig(tmp_path, header)

    def press(name):  # snooker has no `side` key: the name goes in as a key script's would
        if name in r.app.names:
            r.press(name, 80)
        else:
            r.app.key(name, False, r.board.now)

    assert "%s:swap" % side in r.app.screen.hint
    press(other)
    assert r.app.screen.breaker == 0 and r.app.screen.message
    press(side)
    assert r.app.screen.breaker == 1
    press(side)
    press("menu")  # the words before frame 1, the set-up of a match here last:
    r.press("menu", 1000)  # a long menu goes up, round to that last item
    press("ok")  # the set-up screen: its game's side key (snooker, the first game)
    press("side")
    assert r.app.screen.breaker == 0 and r.app.screen.message
    press("end")
    assert r.app.screen.breaker == 1
    press("undo")
    press(side)
    press("ok")
    assert journal(tmp_path) == ["frame A"]
    # A match with no frame yet, as a reset leaves it: the grammar asks, the same key.
    from scoreboard.core.match import Match
    from scoreboard.keys.grammar import Grammar

    g = Grammar(Match(r.app.match.header))
    assert "%s:swap" % side in g.entry()
    assert g.press(other).refusal and "A breaks" in g.entry()
    assert not g.press(side).refusal and "B breaks" in g.entry()


@pytest.mark.parametrize("name", ["frame", "refusal"])
def test_panels_are_the_same_bytes_under_micropython(tmp_path, name):
    keys = ["ok", "red", "black", "red"] + (["pink", "pink"] if name == "refusal" else [])
    a, b = tmp_path / "cpy", tmp_path / "mp"
    for flash in (a, b):
        device.queue(flash, "m1", HEADER)
    r = Runner(str(a))
    for k in keys:
        r.press(k, 80)
    r.wait(2500)
    rc, out = device.run(b, [*device.commands(keys), "wait 2500", "show"])
    assert rc == 0, out
    shown = {line.split()[0]: bytes.fromhex(line.split()[3]) for line in out
             if line[:2] in ("E ", "L ")}
    assert shown["E"] == bytes(r.board.eink_buf)
    assert shown["L"] == bytes(r.board.led_buf)


def test_keyboard_interrupt_stops_cleanly_under_micropython(tmp_path):
    """mpremote connecting sends Ctrl-C: main.py's app stops, the journal flushed."""
    device.queue(tmp_path, "m1", HEADER)
    script = tmp_path / "interrupt.py"
    script.write_text(INTERRUPT_SCRIPT % {"firmware": mpy.FIRMWARE, "flash": tmp_path},
                      encoding="utf-8")
    rc, out = mpy.run_micropython(script, timeout=60)
    assert rc == 0, out
    assert "scoreboard: stopped" in out
    assert journal(tmp_path) == ["frame A", "pot red"]


INTERRUPT_SCRIPT = """
import sys
sys.path.append("%(firmware)s")
import boards.host

_keys = ["ok", "red"]
_n = [0]


class Board(boards.host.HostBoard):
    def keys(self):
        _n[0] += 1
        t = _n[0]
        if t > 60:
            raise KeyboardInterrupt
        k = _keys[(t - 1) // 20] if (t - 1) %% 20 < 8 and (t - 1) // 20 < len(_keys) else None
        return 0 if k is None else 1 << ("red yellow green brown blue pink black foul miss "
                                          "free again replace end undo menu ok".split()
                                          .index(k))


boards.host.build = lambda **kw: Board("%(flash)s", real_time=True)
sys.modules["boards.host"] = boards.host
import main  # noqa
main.board_name = lambda: "host"
main.main()
"""


def test_journal_is_in_the_flash_folder(tmp_path):
    r = rig(tmp_path)
    r.press("ok", 80)
    assert Path(device.journal_files(tmp_path)[-1]).parent == tmp_path / "matches"


def test_after_the_match_ok_goes_back_to_the_start_screen(tmp_path):
    race = ["sbn 1", "game nineball", "match race-to 1", 'side A "Cy"', 'side B "Di"']
    device.queue(tmp_path, "m1", race)
    device.queue(tmp_path, "m2", HEADER)
    r = Runner(str(tmp_path))
    r.wait(100)
    for k in ["ok", "rackA"]:
        r.press(k, 80)
    assert r.app.screen.kind == "match_end"
    r.press("undo", 80)  # the last event can still be taken back...
    assert r.app.screen.kind == "score"
    r.press("rackA", 80)
    r.press("ok", 80)  # ...until ok closes the match
    assert r.app.screen.kind == "start"
    assert [name for name, _ in r.app.screen.queue] == ["m2"]
    assert r.app.journal.stem is None, "no match in play"
    first = device.events(device.journal_files(tmp_path)[0])
    assert first == ["frame A", "rack A", "undo", "rack A"]


def test_a_full_flash_refuses_a_new_match_and_deletes_nothing(tmp_path):
    device.queue(tmp_path, "m1", HEADER)
    r = Runner(str(tmp_path))
    r.wait(100)
    r.board.flash_bytes = 100 * 1024  # a flash with less room than a match needs
    queued = sorted((tmp_path / "queue").iterdir())
    r.press("ok", 80)
    assert r.app.screen.kind == "start"
    assert "Flash full" in r.app.screen.message and "Pull matches" in r.app.screen.message
    assert tones(r)[-1] == PATTERNS["refuse"][0]
    assert sorted((tmp_path / "queue").iterdir()) == queued
    assert not device.journal_files(tmp_path)


def test_damage_found_at_start_up_is_shown_and_the_match_recovered(tmp_path):
    r = rig(tmp_path)
    for k in ["ok", "red", "black", "red", "pink", "end"]:
        r.press(k, 80)
    path = device.journal_files(tmp_path)[-1]
    lines = path.read_bytes().split(b"\n")
    damaged = 8 + 3  # the header (7 lines with the id and box), frame A, pot red, black
    lines[damaged - 1] = lines[damaged - 1].replace(b"pot red", b"pot rex")
    path.write_bytes(b"\n".join(lines))
    r2 = Runner(str(tmp_path))
    r2.wait(3000)
    notice = r2.app.screen.notice
    assert notice.startswith("JOURNAL: match HOST-3F2A0001-0001: line %d" % damaged), notice
    assert "NO:" not in notice
    assert r2.app.screen.kind == "score"
    assert list(r2.app.match.view().score) == [8, 0], "recovered up to the damaged line"
    assert path.read_bytes() == b"\n".join(lines), "the damaged file is kept as it is"
    r2.press("red", 80)
    assert r2.app.screen.notice is None


def test_volume_and_mute_on_the_start_screen_kept_on_flash(tmp_path):
    r = rig(tmp_path)
    r.press("menu", 1000)  # a long menu: 60 % -> 30 %
    assert r.app.screen.notice == "SOUND: 30%"
    assert r.board.played()[-2][1:] == (PATTERNS["beep"][0], 30), "a beep at the new volume"
    r.press("menu", 1000)  # 30 % -> off
    assert r.app.screen.notice == "SOUND: off"
    count = r.board.tone_count
    r.press("pink", 80)  # a refused key on the start screen: no sound while muted
    played = r.board.played()
    new = played[len(played) - (r.board.tone_count - count):]
    assert all(f == 0 for _, f, _ in new), new
    r2 = Runner(str(tmp_path))  # a reset keeps the setting
    assert r2.app.buzzer.volume == 0
    r2.press("menu", 1000)
    assert r2.app.buzzer.volume == 100
    assert (tmp_path / "settings.txt").read_text() == "led=8\nvolume=100\n"
    assert not (tmp_path / "settings.txt.new").exists()


def test_one_way_to_replace_a_small_file_on_flash():
    # settings.txt is replaced as current and counter are (scoreboard.files.write_small:
    # .new, then a rename, then the board's sync): no second copy of that dance.
    for path in mpy.FIRMWARE.rglob("*.py"):
        if path.name != "files.py":
            assert "rename(" not in path.read_text(encoding="utf-8"), path


def test_led_brightness_from_the_settings_file(tmp_path):
    (tmp_path / "settings.txt").write_text("led=12\nvolume=30\n", encoding="utf-8")
    r = rig(tmp_path)
    assert r.board.level == 12 and r.app.buzzer.volume == 30
    (tmp_path / "settings.txt").write_text("led=99\n", encoding="utf-8")
    assert Runner(str(tmp_path)).board.level == 8, "a bad value falls back to the default"


def test_set_up_nine_ball_with_the_wpa_clock_on_the_box(tmp_path):
    r = Runner(str(tmp_path))
    r.wait(100)
    keys = (["menu"]  # set up a match here
            + ["menu"] * 4  # game: snooker 15, 10, 6 reds, eight-ball -> nine-ball
            + ["ok", "ok"]  # format: race-to 5 as it is; to the shot clock
            + ["menu", "menu"]  # off -> seed -> wpa
            + ["ok", "ok"])  # to Start; start
    for k in keys:
        r.press(k, 80)
    header = device.journal_lines(device.journal_files(tmp_path)[-1])
    assert "game nineball" in header and "match race-to 5" in header
    clock = next(line for line in header if line.startswith("clock "))
    assert "shot=35" in clock and "ext=1x25" in clock, clock  # the WPA profile
    assert r.app.match.clock.enabled
    assert r.app.family == "pool", "the pool legend is on"


# What only the host or only the tests use is not on the device (issue 16 item 7): none of
# it is frozen into the image. (module under firmware/, class or None, name)
HOST_ONLY = (
    ("scoreboard/core/store.py", None, "FileStore"),  # host_tools/mp/filestore.py
    ("scoreboard/core/replay.py", None, "rebuild_store"),
    ("scoreboard/core/vocab.py", None, "words_for"),  # tests/support/wordtable.py
    ("scoreboard/core/vocab.py", None, "takes"),
    ("scoreboard/core/vocab.py", None, "kind"),
    ("scoreboard/core/vocab.py", None, "args"),
    ("scoreboard/core/vocab.py", None, "while_suspended"),
    ("scoreboard/core/vocab.py", None, "pre_frame"),
    ("drivers/keypad.py", "Keypad", "check"),  # host_tools/mp/keypad_check.py
    ("drivers/keypad.py", "Keypad", "count"),
    ("drivers/keypad.py", None, "pressed"),
    ("drivers/buzzer.py", "Buzzer", "play"),
    ("drivers/buzzer.py", "Buzzer", "melody"),
    ("drivers/buzzer.py", "Buzzer", "mute"),
    ("drivers/buzzer.py", "Buzzer", "set_volume"),
    ("scoreboard/sounds.py", "Sounds", "mute"),
    ("scoreboard/journal.py", "Journal", "queued_summaries"),
)
HOST_ONLY_FILES = ("scoreboard/keys/legends.py",  # host_tools/gen/keylegends.py
                   "scoreboard/core/report.py")  # host_tools/mp/replay_json.py


def _defined(path):
    """{(class or None, name)} of what a module defines at its top and in its classes."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add((None, node.name))
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    out.add((node.name, item.name))
    return out


def test_what_only_the_host_or_the_tests_use_is_not_on_the_device():
    left = [(m, c, n) for m, c, n in HOST_ONLY if (c, n) in _defined(mpy.FIRMWARE / m)]
    assert left == []
    assert [f for f in HOST_ONLY_FILES if (mpy.FIRMWARE / f).exists()] == []
    src = "".join(p.read_text(encoding="utf-8") for p in mpy.FIRMWARE.rglob("*.py"))
    assert "hasattr(Match" not in src and "hasattr(self.match" not in src
    import inspect

    from scoreboard.journal import Journal

    assert "board" not in inspect.signature(Journal).parameters
