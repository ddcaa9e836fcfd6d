"""`scoreboard device` as a user runs it: a queued match, a key script, PNG pictures."""

from support import mpy
from host_tools.gen.png import decode

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
