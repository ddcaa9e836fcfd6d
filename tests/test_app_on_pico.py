"""The drivers drop in: the app's real asyncio loop on the reference Pico board (its
e-ink, LED, keypad and buzzer drivers over fake pins and buses) under MicroPython."""

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
