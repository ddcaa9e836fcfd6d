"""`scoreboard device` as a user runs it: a queued match, a key script, PNG pictures."""

from support import mpy
from host_tools.png import decode

SCRIPT = """# one visit, then the shot clock runs out
ok
red
black
@46000        # 46 s pass: the 45 s shot clock expires (TIME on the LED)
"""
HEADER = """sbn 1
game snooker reds=15
match best-of 3
side A "Ann"
side B "Bob"
clock shot=45 warn=10
"""


def scoreboard(*args):
    return mpy.run_tool([mpy.BIN / "scoreboard", *args])


def test_key_script_with_pictures(tmp_path):
    (tmp_path / "m.sbn").write_text(HEADER, encoding="utf-8")
    (tmp_path / "keys.txt").write_text(SCRIPT, encoding="utf-8")
    flash, pics = tmp_path / "flash", tmp_path / "png"
    rc, out = scoreboard("device", "--flash", flash, "--match", tmp_path / "m.sbn",
                         "--keys", tmp_path / "keys.txt", "--png", pics)
    assert rc == 0, out
    assert "played 3 keys" in out
    journal = next((flash / "matches").glob("*.sbn")).read_text(encoding="utf-8")
    words = [line.split(" ")[1] for line in journal.splitlines() if line.startswith("@")]
    assert words == ["frame", "pot", "pot"]
    names = sorted(p.name for p in pics.iterdir())
    assert names == ["eink-001.png", "eink-002.png", "eink-003.png", "eink.png",
                     "led-001.png", "led-002.png", "led-003.png", "led.png"]
    # After the black the clock shows 45 s; at the end TIME: the pictures differ, and the
    # e-ink one is the 400x300 panel.
    assert (pics / "led-003.png").read_bytes() != (pics / "led.png").read_bytes()
    width, height, _, _ = decode((pics / "eink.png").read_bytes())
    assert (width, height) == (400, 300)
    rc, out = scoreboard("replay", next((flash / "matches").glob("*.sbn")))
    assert rc == 0, out


def test_bad_input_is_one_line(tmp_path):
    rc, out = scoreboard("device", "--flash", tmp_path, "--keys", tmp_path / "none.txt")
    assert rc == 1
    assert out.strip().count("\n") == 0 and "no key script" in out
    (tmp_path / "m.sbn").write_text(HEADER, encoding="utf-8")
    (tmp_path / "k.txt").write_text("ok\nbogus\n", encoding="utf-8")
    rc, out = scoreboard("device", "--flash", tmp_path / "f", "--match", tmp_path / "m.sbn",
                         "--keys", tmp_path / "k.txt")
    assert rc == 1
    assert "no key 'bogus'" in out and "Traceback" not in out
    (tmp_path / "w.txt").write_text("@soon\n", encoding="utf-8")
    rc, out = scoreboard("device", "--flash", tmp_path / "f", "--keys", tmp_path / "w.txt")
    assert rc == 1 and "line 1" in out


def test_the_interactive_device_needs_a_terminal(tmp_path):
    rc, out = scoreboard("device", "--flash", tmp_path / "f")  # stdin is not a terminal
    want = "scoreboard device: the interactive device needs a terminal (or give --keys FILE)\n"
    assert (rc, out) == (1, want)


# Issue 23 item A: how long a tap is. `--hold MS` / `--gap MS` set every short press's
# hold and the pause after it; `NAME hold=MS` one line's hold.

def test_parse_script_reads_a_lines_own_hold():
    from host_tools.device.keyscript import parse_script

    steps = parse_script("ok\nred hold=30   # a quick tap\n@500 black hold=120\n"
                         "end long\n@40\n")
    assert steps == [("press", "ok"), ("press", "red"), ("wait", 500), ("press", "black"),
                     ("long", "end"), ("wait", 40)]
    assert [getattr(s, "hold", None) for s in steps] == [None, 30, None, 120, None, None]


def test_parse_script_bad_holds_name_the_line():
    from host_tools.device.keyscript import DeviceError, parse_script

    cases = {"red hold=soon": "line 2: 'red hold=soon': hold= wants a positive number "
                              "of milliseconds",
             "red hold=0": "line 2: 'red hold=0': hold= wants a positive number of "
                           "milliseconds",
             "red hold=-5": "line 2: 'red hold=-5': hold= wants a positive number of "
                            "milliseconds",
             "red hold=": "line 2: 'red hold=': hold= wants a positive number of "
                          "milliseconds",
             "red long hold=30": "line 2: 'red long hold=30': a long press has its own "
                                 "hold (1 s): no hold= with long",
             "red hold=30 long": "line 2: 'red hold=30 long': a long press has its own "
                                 "hold (1 s): no hold= with long",
             "red hold=30 hold=40": "line 2: 'red hold=30 hold=40': one key name a line, "
                                    "optionally 'long' or 'hold=MS'",
             "red soon": "line 2: 'red soon': one key name a line, optionally 'long' or "
                         "'hold=MS'"}
    for line, want in cases.items():
        try:
            parse_script("ok\n%s   # a comment\n" % line)
        except DeviceError as e:
            assert str(e) == want, line
        else:
            raise AssertionError("%r was taken" % line)


def test_the_defaults_are_the_runners():
    from host_tools.device import keyscript as device_cmd
    from host_tools.mp import device as runner

    assert (device_cmd.HOLD_MS, device_cmd.GAP_MS) == (runner.HOLD_MS, runner.GAP_MS) \
        == (80, 150)


def stamps(flash):
    """(ms, word) of every journaled event of the box's one match."""
    journal = next((flash / "matches").glob("*.sbn")).read_text(encoding="utf-8")
    return [(int(line.split(" ")[0][1:]), line.split(" ")[1])
            for line in journal.splitlines() if line.startswith("@")]


def test_hold_and_gap_are_how_long_the_box_sees_the_keys(tmp_path):
    """--hold 40 --gap 100: each press is held 40 ms, then 100 ms released (the journal's
    stamps are 140 ms apart, not the default 230); a line's hold=10 is below the app's
    20 ms debounce and is not taken, its hold=30 is."""
    (tmp_path / "m.sbn").write_text(HEADER, encoding="utf-8")
    (tmp_path / "keys.txt").write_text("ok\nred hold=10   # too short a tap\nred hold=30\n"
                                       "black\n", encoding="utf-8")
    flash = tmp_path / "flash"
    rc, out = scoreboard("device", "--flash", flash, "--match", tmp_path / "m.sbn",
                         "--keys", tmp_path / "keys.txt", "--hold", "40", "--gap", "100")
    assert rc == 0, out
    assert "played 4 keys" in out
    # ok taken at its release (+40) then 10 + 100, 30 + 100 and 40 down to black's:
    # every release is read after the same debounce, so the stamps differ by exactly that.
    assert stamps(flash) == [(0, "frame"), (240, "pot"), (380, "pot")]
    # The defaults as before: 80 ms held, 150 released.
    flash2 = tmp_path / "flash2"
    (tmp_path / "plain.txt").write_text("ok\nred\nblack\n", encoding="utf-8")
    rc, out = scoreboard("device", "--flash", flash2, "--match", tmp_path / "m.sbn",
                         "--keys", tmp_path / "plain.txt")
    assert rc == 0, out
    assert stamps(flash2) == [(0, "frame"), (230, "pot"), (460, "pot")]
    # --hold 10 for every press: none is taken (the match never starts).
    flash3 = tmp_path / "flash3"
    rc, out = scoreboard("device", "--flash", flash3, "--match", tmp_path / "m.sbn",
                         "--keys", tmp_path / "plain.txt", "--hold", "10")
    assert rc == 0, out
    assert not list((flash3 / "matches").glob("*.sbn"))


def test_bad_holds_are_one_line(tmp_path):
    (tmp_path / "k.txt").write_text("ok\n\nred hold=fast\n", encoding="utf-8")
    rc, out = scoreboard("device", "--flash", tmp_path / "f", "--keys", tmp_path / "k.txt")
    assert rc == 1
    assert out == ("scoreboard device: line 3: 'red hold=fast': hold= wants a positive "
                   "number of milliseconds\n")
    (tmp_path / "ok.txt").write_text("ok\n", encoding="utf-8")
    for option, value in (("--hold", "0"), ("--gap", "-3"), ("--hold", "soon")):
        rc, out = scoreboard("device", "--flash", tmp_path / "f", "--keys",
                             tmp_path / "ok.txt", option, value)
        assert rc == 2 and "Traceback" not in out, out
        assert out.splitlines()[-1] == ("scoreboard device: error: argument %s: '%s' is "
                                        "not a positive number of milliseconds"
                                        % (option, value)), out


def test_the_runner_takes_a_press_with_its_hold_and_gap(tmp_path):
    """The runner's protocol: `press NAME HOLD GAP` (both optional); bad numbers are a
    `? why` that presses nothing."""
    from support import device

    device.queue(tmp_path, "m1", HEADER.splitlines())
    rc, lines = device.run(tmp_path, ["press ok 40 100", "press red 10 100",
                                      "press red 30", "press black 0 100",
                                      "press black 40 soon", "press black 40 100 9",
                                      "press black 40 100", "status"])
    assert rc == 0, lines
    assert device.refusals(lines) == [
        "'0' is not a positive number of milliseconds",
        "'soon' is not a positive number of milliseconds",
        "press NAME [HOLD [GAP]]: too many words"]
    assert device.events(device.journal_files(tmp_path)[-1]) == [
        "frame A", "pot red", "pot black"]


def test_the_pty_feed_presses_with_the_hold_and_gap(tmp_path, monkeypatch):
    """`scoreboard device --pty --keys FILE --hold --gap`: the bridge writes each press
    for host_tools/mp/keyfeed.py as `press NAME HOLD GAP` (a line's hold=MS its own) and
    puts the next one off by that press's hold and gap (on the wall's clock, here a
    stand-in)."""
    from host_tools.device import vdev
    from host_tools.device.keyscript import parse_script

    clock = [1000.0]
    monkeypatch.setattr(vdev.time, "monotonic", lambda: clock[0])
    bridge = vdev.Bridge(tmp_path, keys=parse_script("red hold=30\nblack\nend long\n"),
                         hold=40, gap=100)
    try:
        bridge.keys_out.clear()  # as if the app had taken the bridge's `start`
        sent = []
        for ms in (0, 129, 1, 139, 1):
            clock[0] += ms / 1000
            bridge._due_keys()
            sent.append(bytes(bridge.keys_out).decode())
        assert sent == ["press red 30 100\n", "press red 30 100\n",
                        "press red 30 100\npress black 40 100\n",
                        "press red 30 100\npress black 40 100\n",
                        "press red 30 100\npress black 40 100\nlong end\n"]
    finally:
        bridge.close()


def test_the_pty_device_takes_its_keys_from_standard_input_as_they_come(tmp_path):
    """`scoreboard device --pty --keys -`: the script's lines played when they arrive,
    each press logged (`--keys-log`); a bad line is one line on stderr and the box plays
    on; the box serves on after its input ends."""
    from support import device
    from support.tablebox import TableBox
    from support.vdev import mpremote
    from support.waits import wait_for

    queue = tmp_path / "flash" / "queue"
    queue.mkdir(parents=True)
    (queue / "m.sbn").write_text(HEADER, encoding="utf-8")
    box = TableBox(tmp_path)
    try:
        def played():
            files = device.journal_files(box.flash)
            return device.events(files[-1]) if files else []

        box.press(["ok", "red"])
        wait_for(lambda: played() == ["frame A", "pot red"], 30, "the red")
        box.press(["red hold=oops", "black"])
        wait_for(lambda: played() == ["frame A", "pot red", "pot black"], 30, "the black")
        assert [name for name, _ in box.presses()] == ["ok", "red", "black"]
        downs = [ms for _, ms in box.presses()]
        assert downs[1] - downs[0] >= 200 and downs[2] > downs[1]  # held 80 ms, 150 up
        box.proc.stdin.close()  # the input ends: the box still serves its port
        rc, out, err = mpremote(box.port, "exec", "print(1 + 1)", timeout=60)
        assert rc == 0 and out.strip().endswith("2"), (rc, out, err)
    finally:
        box.stop()
    said = box.proc.stdout.read().decode()
    assert ("scoreboard device: keys: line 3: 'red hold=oops': hold= wants a positive number "
            "of milliseconds") in said, said


def test_the_bridge_plays_lines_that_come_later_from_then(tmp_path, monkeypatch):
    """Lines from `keys_in` go after what is still to come; once the script has run out
    they count from their arrival, not from the last press (on a stand-in clock); a line
    is taken once it is whole, and the last one at the input's end."""
    import os

    from host_tools.device import vdev

    clock = [1000.0]
    monkeypatch.setattr(vdev.time, "monotonic", lambda: clock[0])
    r, w = os.pipe()
    bridge = vdev.Bridge(tmp_path, keys_in=r, hold=80, gap=150)
    try:
        bridge.keys_out.clear()  # as if the app had taken the bridge's `start`

        def sent(data, later=0.0):
            if data is not None:
                os.write(w, data)
                bridge._from_keys_in()
            clock[0] += later
            bridge._due_keys()
            return bytes(bridge.keys_out).decode().splitlines()

        assert sent(b"red\n") == ["press red 80 150"]
        assert sent(None, 10.0) == ["press red 80 150"]  # ten idle seconds
        assert sent(b"@500\nbla") == ["press red 80 150"]  # the @500 counts from now
        assert sent(b"ck\npink", 0.5) == ["press red 80 150", "press black 80 150"]
        assert sent(None, 0.23) == ["press red 80 150", "press black 80 150"]
        os.close(w)  # the end of the input: its last line, then read no more
        w = -1
        bridge._from_keys_in()
        assert bridge.keys_in == -1
        assert sent(None) == ["press red 80 150", "press black 80 150", "press pink 80 150"]
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)
        bridge.close()
