"""Every press counts on the chip: the keypad scanned by the PIO (drivers/pio_keypad.py)
on the emulated Pico, whose flash stalls the CPU for the W25Q16JV's erase and program
times while the PIO, stepped by the harness in emulated time, scans on.

- a frame by 30 ms taps at 8 a second, each key's contacts bouncing 5 ms on press and
  on release, with the datasheet's typical flash times: every press is in the journal,
  and the PIO's scans never paused for the stalls (the longest gap is one sample);
- the PIO program itself, driven from the REPL with a fresh debouncer against the
  harness's matrix model: a bouncing tap is one press, a glitch shorter than a sample
  is none, a full FIFO waits and is counted (the app's "a press may be lost" notice);
- out of memory is never silent: with a ballast in boot.py the app stops on its error
  screen and prints one line on the console, and the next start recovers the match;
- the app side on CPython: a count of lost presses puts the notice on the panel.

The worst-case flash times and the shortest tap never lost are `make bench`'s
(host_tools/measure/pico_keys.py).
"""

import shutil

import pytest

from host_tools.measure import pico_heap as heap
from host_tools.measure import pico_keys as keys_bench
from host_tools.pico.emulator import Pico
from host_tools.measure.pico_keys import FRAME_KEYS as KEYS
from host_tools.measure.pico_keys import HEADER
from support import mpy

SAMPLE_US = 8000  # drivers/pio_keypad.py SAMPLE_US


def journal_lines(pico):
    """The journal's lines as plain notation (stamps and checksums stripped)."""
    return [line.rsplit(" *", 1)[0].split(" ", 1)[1] for line in keys_bench.journal_lines(pico)]


def echoed(console):
    """The event lines (stamps and checksums stripped) of the echo's `SB> STEM N @MS ...`
    frames in console text: what the journal held as it was written."""
    out = []
    for line in console.splitlines():
        words = line.split("SB> ", 1)[-1].split(" ", 2) if "SB> " in line else []
        if len(words) == 3 and words[2].startswith("@"):
            out.append(words[2].rsplit(" *", 1)[0].split(" ", 1)[1])
    return out


@pytest.fixture(scope="module")
def frame(tmp_path_factory):
    """A frame by 30 ms taps, 125 ms apart, with bouncing contacts; what it left."""
    mpy.need_uf2()
    image = tmp_path_factory.mktemp("keys") / "box.img"
    with Pico(image, names=KEYS, chatter_ms=5) as pico:
        pico.boot()
        pico.idle()
        pico.queue(HEADER)
        pico.restart()
        before = pico.stats()
        pico.command("gap")
        for key in KEYS:
            pico.press(pico.legend.key(key), 30, 95)
        pico.run(2000)
        after = pico.stats()
        gaps = [int(w) for w in pico.command("gaps")[0].split()[1:]]
        pico.idle()
        lines = journal_lines(pico)
    return {"before": before, "after": after, "gaps": gaps, "lines": lines}


def test_a_frame_of_30_ms_taps_at_8_a_second_is_journaled_whole(frame):
    events = ["frame A", "pot red", "pot black", "end", "pot red", "pot pink", "pot red",
              "pot black", "pot red", "pot black", "pot red", "pot black", "pot red",
              "pot black", "pot yellow", "pot green", "pot brown", "pot blue", "pot pink",
              "pot black"]
    assert frame["lines"] == events
    bounces = frame["after"]["key_bounces"] - frame["before"]["key_bounces"]
    assert bounces == 2 * 6 * len(KEYS), "every press and release bounced"


def test_the_pio_scans_on_while_the_flash_stalls_the_cpu(frame):
    before, after = frame["before"], frame["after"]
    assert after["flash_erases"] > before["flash_erases"], "the frame erased sectors"
    assert after["flash_longest_us"] >= 45000, "a whole 45 ms sector erase stalled the CPU"
    count, median, p99, most = frame["gaps"]
    seconds = (after["emulated_us"] - before["emulated_us"]) / 1e6
    assert count >= seconds * 1e6 / SAMPLE_US * 0.95, "a scan every sample"
    assert SAMPLE_US * 0.95 < median <= p99 <= most < SAMPLE_US * 1.05, frame["gaps"]


# -- the PIO program against the matrix model, from the REPL ----------------------------

SETUP = """import rp2, machine
from drivers.pio_keypad import PioKeypad
from scoreboard.keys.debounce import Debouncer
pad = PioKeypad(rp2, machine.Pin, (16, 17, 18, 19), (20, 21, 22, 26), mem32=machine.mem32)
d = Debouncer()
def drain():
    pad.feed(d, 0)
    evs = []
    e = d.get()
    while e >= 0:
        evs.append(e)
        e = d.get()
    print('EV', evs, d.dropped, pad.state)
"""


def drained(pico):
    out = pico.repl("drain()\n")
    line = next(t for t in out.splitlines() if t.startswith("EV "))
    evs, dropped, state = line[3:].rsplit(" ", 2)
    return eval(evs), int(dropped), int(state)  # a list of ints, as MicroPython prints it


@pytest.fixture(scope="module")
def pad(tmp_path_factory):
    mpy.need_uf2()
    image = tmp_path_factory.mktemp("pad") / "box.img"
    with Pico(image) as pico:
        pico.boot()
        pico.repl(SETUP)
        yield pico


PRESS = 1 << 8


def test_a_bouncing_tap_is_one_press_of_its_key(pad):
    pad.command("chatter 5")
    pad.press(5, 30, 100)
    assert drained(pad) == ([PRESS | 5], 0, 0)
    pad.press(15, 40, 100)
    pad.press(0, 40, 100)
    assert drained(pad) == ([PRESS | 15, PRESS | 0], 0, 0)


def test_a_glitch_shorter_than_a_sample_is_no_press(pad):
    pad.command("chatter 0")
    for _ in range(5):
        pad.press(9, 3, 40)
    assert drained(pad) == ([], 0, 0)


def test_a_held_key_is_the_state_after_the_drain(pad):
    pad.command("chatter 0")
    pad.command("down 6")
    pad.run(40)
    assert drained(pad) == ([], 0, 1 << 6)
    pad.command("up 6")
    pad.run(40)
    assert drained(pad) == ([PRESS | 6], 0, 0)


def test_a_full_fifo_waits_and_is_counted(pad):
    pad.command("chatter 0")
    for key in (1, 2, 3, 4, 7, 8):  # 12 changes, 8 words of room, nobody draining
        pad.press(key, 30, 60)
    evs, dropped, state = drained(pad)
    assert evs[:4] == [PRESS | 1, PRESS | 2, PRESS | 3, PRESS | 4], evs
    assert dropped == 1, "the wait is counted once"
    pad.run(40)  # the scan samples on after the drain: the keys as they are
    evs, dropped, state = drained(pad)
    assert state == 0 and dropped == 1


# -- out of memory -------------------------------------------------------------------------

def test_out_of_memory_shows_the_error_screen_says_so_and_the_match_recovers(tmp_path):
    """The ballast leaves a little more than the app holds on its start screen; the
    margin is walked until the match runs out of memory once it has started (its header
    journaled): at its first frame, where the match takes the most at once, or later.
    The walk starts where that has been (each try is a boot of the emulated Pico): down
    while the match plays on, up when the app runs out at its start."""
    mpy.need_uf2()
    queued = tmp_path / "queued.img"
    keys = ["ok"] + ["red", "black"] * 6
    with Pico(queued, names=keys) as pico:
        pico.boot()
        pico.idle()
        pico.queue(HEADER)
        pico.restart()
        alive, _free = pico.app_heap(lambda: pico.run(300))
    i, tried = OOM_MARGINS.index(OOM_FIRST), set()
    while 0 <= i < len(OOM_MARGINS) and i not in tried:
        tried.add(i)
        margin = OOM_MARGINS[i]
        image = tmp_path / ("oom-%d.img" % margin)
        shutil.copyfile(queued, image)
        with Pico(image, names=keys) as pico:
            pico.boot()
            text = heap.BOOT_PY % (alive + margin)
            pico.put("boot.py", text)
            pico.restart()
            mark = len(pico.console)
            for key in keys:
                pico.send("press " + key)
            pico.run(3000)
            said = pico.console[mark:].decode("utf-8", "replace")
            if "scoreboard: out of memory" not in said:
                i -= 1  # the match played on: less room
                continue
            if "scoreboard: out of memory (" not in said:
                i += 1  # out at its start, before the match: more room
                continue
            assert said.count("scoreboard: out of memory") == 1, said[-800:]
            pico.idle()
            assert pico.stats()["eink_full"] >= 2, "the error screen went up in full"
            # What the journal held when the heap ran out: the lines its echo put on the
            # console (the heap is still full of ballast: no REPL listing fits in it).
            played = echoed(said)
            expected = ["frame A"] + ["pot red", "pot black"] * 6
            assert "SB> " in said.split("scoreboard: out of memory")[0], "the match started"
            assert played == expected[:len(played)], said[-800:]
            pico.repl("import os\nos.remove('boot.py')\n")
            pico.restart()
            assert journal_lines(pico) == played, "the next start recovers the journal"
            return
    pytest.fail("no ballast of %s KB over %d B made the app run out of memory in the match"
                % (sorted(OOM_MARGINS[j] // 1024 for j in tried), alive))


# bytes over the app's start-screen heap that boot.py may leave; the walk's first
OOM_MARGINS = (4 * 1024, 6 * 1024, 8 * 1024, 10 * 1024, 13 * 1024, 16 * 1024)
OOM_FIRST = 8 * 1024


# -- the app's notice, on CPython ------------------------------------------------------------

def test_a_lost_press_puts_the_notice_on_the_panel(tmp_path):
    from boards.host import HostBoard
    from scoreboard import lang
    from scoreboard.app import App

    board = HostBoard(str(tmp_path))
    app = App(board)
    app.boot(0)
    app.step(10)
    assert app.screen.notice != lang.t("a.keys_lost")
    app.keys.dropped += 1  # what PioKeypad.feed does when its FIFO had to wait
    app.step(20)
    assert app.screen.notice == lang.t("a.keys_lost")
