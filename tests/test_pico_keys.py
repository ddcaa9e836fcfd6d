"""Every press counts on the chip: the keypad scanned by the PIO (drivers/pio_keypad.py)
on the emulated Pico, whose flash stalls the CPU for the W25Q16JV's erase and program
times while the PIO and the DMA, stepped by the harness in emulated time, run on, and
the referee's finger keeps the emulated clock too (a key goes down and up at its time
in the middle of an erase).

- a frame by 30 ms taps at 8 a second, each key's contacts bouncing 5 ms on press and
  on release, with the datasheet's typical flash times: every press is in the journal,
  and the PIO's scans never paused for the stalls (the longest gap is one sample);
- a 15-red frame tapped so at the datasheet's worst (400 ms a sector erase, 3 ms a
  page): every tap journaled in order, each line stamped with its own tap's time, the
  FIFO never waiting, the e-ink changing while the keys come, a sector erase for
  several strokes; the whole best-of-3 so under `-m slow` (and in `make bench`);
- the PIO program itself, driven from the REPL with a fresh debouncer against the
  harness's matrix model: a bouncing tap is one press, a glitch shorter than a sample
  is none, changes wait in the DMA's ring with their times while nobody reads them
  (a tap in the middle of an erase at its own time), and a full ring is counted once
  (the app's "a press may be lost" notice);
- out of memory is never silent: with a ballast in boot.py the app stops on its error
  screen and prints one line on the console, and the next start recovers the match;
- the app side on CPython: a count of lost presses puts the notice on the panel.

The table of taps journaled at 45 to 400 ms erases and the shortest tap never lost are
`make bench`'s (host_tools/measure/pico_keys.py).
"""

import re
import shutil

import pytest

from host_tools.measure import pico_heap as heap
from host_tools.measure import pico_keys as keys_bench
from host_tools.pico.emulator import Pico
from host_tools.measure.pico_keys import FRAME_KEYS as KEYS
from host_tools.measure.pico_keys import HEADER
from support import mpy
from support.screens import error_pictures

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


# -- the datasheet's worst: a 15-red frame at 8 taps a second -----------------------------

@pytest.fixture(scope="module")
def worst(tmp_path_factory):
    """A 15-red frame (52 taps of 30 ms, 8 a second, bouncing 5 ms) with 400 ms erases and
    3 ms pages: pico_keys.steady's figures."""
    mpy.need_uf2()
    return keys_bench.steady(tmp_path_factory.mktemp("worst") / "box.img", 1, 400, 3)


def test_every_tap_is_journaled_in_order_at_the_flash_s_worst(worst):
    assert (worst["journaled"], worst["in_order"]) == (worst["taps"], True), worst


def test_each_line_carries_its_own_tap_s_time(worst):
    """The stamp is the sample that first saw the key: within one sample period of the
    contacts settling (a release bounces CHATTER_MS), counted from the first tap."""
    assert worst["stamp_error_ms"] <= SAMPLE_US / 1000 + keys_bench.CHATTER_MS, worst


def test_the_fifo_never_waits_and_the_scan_never_pauses_at_the_flash_s_worst(worst):
    assert worst["fifo_wait_ms"] < 1, "the DMA takes every word at once: %s" % worst
    assert worst["scan_gap_ms"] < SAMPLE_US * 1.05 / 1000, worst
    # what the ring holds (drivers/pio_keypad.py RING words: 32 taps, 4 s at 8 a second)
    assert worst["look_gap_ms"] < 2000, worst


def test_the_e_ink_changes_while_the_keys_come_at_the_flash_s_worst(worst):
    """The frame's 6.5 s of tapping: the panel changes every few seconds (the refresh
    policy coalesces changes for up to 2 s, then draws its bands between the writes)."""
    assert worst["eink_still_ms"] < 4000, worst


def test_the_keys_too_fast_alarm_stays_quiet_when_no_tap_is_lost(worst):
    assert worst["alarms"] == 0, worst


def test_a_sector_erase_serves_several_strokes_at_the_flash_s_worst(worst):
    """Each synced append costs littlefs an erase: the keys that waited go in one."""
    assert worst["erases"] < worst["journaled"] / 2, worst


@pytest.mark.slow
def test_a_best_of_3_at_the_flash_s_worst_journals_every_tap(tmp_path):
    mpy.need_uf2()
    got = keys_bench.steady(tmp_path / "box.img", 3, 400, 3)
    assert (got["journaled"], got["in_order"]) == (got["taps"], True), got
    assert got["stamp_error_ms"] <= SAMPLE_US / 1000 + keys_bench.CHATTER_MS, got


def test_the_pio_scans_on_while_the_flash_stalls_the_cpu(frame):
    before, after = frame["before"], frame["after"]
    assert after["flash_erases"] > before["flash_erases"], "the frame erased sectors"
    assert after["flash_longest_us"] >= 45000, "a whole 45 ms sector erase stalled the CPU"
    count, median, p99, most = frame["gaps"]
    seconds = (after["emulated_us"] - before["emulated_us"]) / 1e6
    assert count >= seconds * 1e6 / SAMPLE_US * 0.95, "a scan every sample"
    assert SAMPLE_US * 0.95 < median <= p99 <= most < SAMPLE_US * 1.05, frame["gaps"]


# -- the PIO program against the matrix model, from the REPL ----------------------------

SETUP = """import rp2, machine, time
from drivers.pio_keypad import PioKeypad
from scoreboard.keys.debounce import Debouncer
pad = PioKeypad(rp2, machine.Pin, (16, 17, 18, 19), (20, 21, 22, 26), mem32=machine.mem32)
d = Debouncer(size=32)
def drain():
    pad.feed(d, time.ticks_ms())
    evs = []
    ats = []
    e = d.get()
    while e >= 0:
        evs.append(e)
        ats.append(d.at)
        e = d.get()
    print('EV', evs, ats, d.dropped, pad.state)
"""


def drained(pico, times=False):
    """(events, dropped, state) the REPL's drain() printed; with `times`, the events'
    times (ticks_ms: the emulated ms, as the chip's timer counts from the start) too."""
    out = pico.repl("drain()\n")
    got = re.search(r"^EV (\[.*?\]) (\[.*?\]) (\d+) (\d+)", out, re.M)
    evs, ats, dropped, state = got.groups()
    # lists of ints, as MicroPython prints them
    return (eval(evs), int(dropped), int(state)) + ((eval(ats),) if times else ())


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


def test_changes_wait_in_the_ring_with_their_times(pad):
    pad.command("chatter 0")
    releases = []
    for key in (1, 2, 3, 4, 7, 8, 9, 10, 11, 12):  # 20 changes, nobody reading: > the FIFO
        releases.append(pad.emulated_us // 1000 + 30)
        pad.press(key, 30, 60)
    evs, dropped, state, ats = drained(pad, times=True)
    assert evs == [PRESS | k for k in (1, 2, 3, 4, 7, 8, 9, 10, 11, 12)], evs
    assert dropped == 0 and state == 0
    # each press at its release, as the scan saw it: within a sample after
    assert all(0 <= at - r <= SAMPLE_US // 1000 + 1 for at, r in zip(ats, releases)), (
        ats, releases)


def test_a_tap_in_the_middle_of_an_erase_is_seen_at_its_time(pad):
    """The finger keeps the emulated clock while the CPU waits for the flash: a tap made
    0.1 s into a 1 s erase takes its 125 ms and is seen then, not after the stall."""
    pad.command("chatter 5")
    pad.flash(1000, 3)
    erases = pad.stats()["flash_erases"]
    # a file bigger than littlefs keeps in its metadata: it takes a block, erased first
    pad.repl("f = open('tap.txt', 'w')\nf.write('x' * 6000)\nf.close()\n", wait=False)
    for _ in range(3000):
        if pad.stats()["flash_erases"] != erases:
            break
        pad.run(1)
    else:
        pytest.fail("the file's write erased nothing in 3 s")
    pad.run(100)
    start = pad.emulated_us
    pad.press(6, 30, 95)
    assert pad.emulated_us - start == 125_000, "the press took its own time"
    pad.flash(45, 0.4)
    pad.run(1500)  # the erase ends; the REPL takes the rest of the file
    evs, dropped, _state, ats = drained(pad, times=True)
    assert evs == [PRESS | 6] and dropped == 0, evs
    release = (start + 30_000) // 1000
    assert 0 <= ats[0] - release <= SAMPLE_US // 1000 + 5 + 1, (ats, release)


def test_a_full_ring_is_one_loss_and_keeps_the_newest(pad):
    """Nobody reads for 40 taps (80 changes, the ring holds RING): one loss is counted
    (the app's notice), and the newest RING changes are read, in order."""
    from drivers.pio_keypad import RING

    pad.command("chatter 0")
    keys = [k % 16 for k in range(40)]
    for key in keys:
        pad.press(key, 30, 30)
    evs, dropped, state = drained(pad)
    assert dropped == 1, "the lost presses are counted once"
    assert evs == [PRESS | k for k in keys[-RING // 2:]], evs
    pad.press(5, 30, 60)  # and on from there
    evs, dropped, state = drained(pad)
    assert (evs, dropped, state) == ([PRESS | 5], 1, 0)


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
            if "SB> " not in said.split("scoreboard: out of memory")[0]:
                i += 1  # out at its start, before the match: more room
                continue
            assert said.count("scoreboard: out of memory") == 1, said[-800:]
            pico.idle()
            assert pico.stats()["eink_full"] >= 2, "the error screen went up in full"
            eink, led = error_pictures("en", "a.oom")
            panels = pico.panels()
            assert panels["E"][2] == eink, "the words and what to do, not Python's"
            assert panels["L"][2] == led
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
    pytest.fail("no ballast of %s B over %d B made the app run out of memory in the match"
                % (sorted(OOM_MARGINS[j] for j in tried), alive))


def test_out_of_memory_at_the_start_says_so_on_both_panels(tmp_path):
    """Too little heap for the app to be made (its board is, first): main.py says so on
    the console, and both panels say it with what to do once the app's modules are let
    go. The heap is the most that is still too little (KB free after the ballast, from
    the top: 44 runs out while starting on this firmware); with far less, the console's
    line is all there is."""
    mpy.need_uf2()
    base = tmp_path / "base.img"
    with Pico(base) as pico:
        pico.boot()
        pico.idle()
    for kb in (44, 40, 36):
        image = tmp_path / ("start-%d.img" % kb)
        shutil.copyfile(base, image)
        with Pico(image) as pico:
            pico.boot()
            pico.put("boot.py", heap.BOOT_PY % (kb * 1024))
            pico.repl("import machine\nmachine.soft_reset()\n", wait=False)
            mark = len(pico.console)
            pico.run(6000)  # the start, or its report
            said = pico.console[mark:].decode("utf-8", "replace")
            if "scoreboard: out of memory while starting (" not in said:
                continue
            pico.idle()
            eink, led = error_pictures("en", "a.oom_start")
            panels = pico.panels()
            assert panels["E"][2] == eink, "the start's words and what to do (%d KB)" % kb
            assert panels["L"][2] == led
            return
    pytest.fail("the app started with 36 KB free")


# bytes over the app's start-screen heap that boot.py may leave; the walk's first
# (256 B apart: since issue 36 built the board before the app and gave the keypad its
# DMA ring, 9.5 KB runs out at the match's start, a littlefs cache of 1148 bytes finding
# no room, and 10 KB plays on; 9.75 KB runs out in the first frame)
OOM_MARGINS = tuple(range(8 * 1024, 12 * 1024 + 1, 256))
OOM_FIRST = 9984


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
