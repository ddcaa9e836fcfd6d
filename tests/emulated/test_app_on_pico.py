"""The drivers drop in: the app's real asyncio loop on the reference Pico board (its
e-ink, LED, keypad and buzzer drivers over fake pins and buses) under MicroPython."""

import pytest

from support import device, mpy

SCRIPT = mpy.REPO / "tests" / "micropython" / "app_on_pico.py"


def test_the_app_runs_on_the_pico_board(tmp_path):
    device.queue(tmp_path, "m1", ["sbn 1", "game snooker reds=15", "match best-of 3",
                                  'side A "Ann"', 'side B "Bob"'])
    rc, out = mpy.run_micropython(SCRIPT, tmp_path, timeout=60)
    assert rc == 0, out
    lines = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    assert lines["events"] == "['frame A', 'pot red']", out
    partial, full = (int(w) for w in lines["eink"].split()[1::2])
    assert full >= 1 and partial + full >= 2, "the panel was refreshed through its driver"
    assert int(lines["led"].split()[1]) >= 3, "the LED chain was written"
    assert lines["screen"] == "score stopped True", "Ctrl-C stopped the app cleanly"
    assert out.strip().endswith("OK")


def test_an_error_in_the_loop_ends_on_the_error_screen_on_the_panel(tmp_path):
    device.queue(tmp_path, "m1", ["sbn 1", "game snooker reds=15", "match best-of 3",
                                  'side A "Ann"', 'side B "Bob"'])
    rc, out = mpy.run_micropython(SCRIPT, tmp_path, "--fail", timeout=60)
    assert rc == 0, out
    lines = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    assert lines["events"] == "['frame A', 'pot red']", "the journal is intact"
    assert lines["screen"] == "error stopped True"
    assert "the LED chain stopped answering" in lines["error"]
    _, full = (int(w) for w in lines["eink"].split()[1::2])
    assert full >= 3, "boot, the match's start and then the error screen: full refreshes"


RUN = mpy.REPO / "tests" / "micropython" / "app_run.py"


@pytest.mark.parametrize("interpreter", [mpy.MICROPYTHON, device.MP32], ids=["unix", "mp32"])
def test_run_drives_the_very_passes_the_tests_step(tmp_path, interpreter):
    # App.run() is App.step() every SCAN_MS in one task, and one task for the panel's
    # waits: the key scans are step()'s, the e-ink goes through eink_show (awaited),
    # never through eink_show_now (the stepped runners').
    device.queue(tmp_path, "m1", ["sbn 1", "game snooker reds=15", "match best-of 3",
                                  'side A "Ann"', 'side B "Bob"'])
    rc, out = mpy.run_micropython(RUN, tmp_path, 60, timeout=60, interpreter=interpreter)
    assert rc == 0 and out.strip().endswith("OK"), out
    lines = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    assert lines["steps"] == "60 passes 60", "every key scan was a step()"
    # the ports here have sockets, so the net task (issue 40) waits beside the e-ink's
    # for settings that name a broker; a Pico without Wi-Fi loads neither its module
    assert lines["tasks"] == "2", "two tasks besides run(): the e-ink's and the net's"
    assert lines["eink_show_now"] == "0 eink_show partial 0 full 2", "boot and the start"
    assert lines["events"] == "['frame A']", "`ok` held on the keypad started the match"
    assert lines["screen"].startswith("score stopped True"), out
