"""The journal under real MicroPython: the main recovery scenario (play, reset, recover,
cut the journal, flip a byte in every line) prints the same under MicroPython as under
CPython, and every mark in it is right."""

import subprocess
import sys

from support import mpy

sys.path.insert(0, str(mpy.REPO / "tests" / "micropython"))
import journal_play as jp

SCRIPT = mpy.REPO / "tests" / "micropython" / "journal_scenario.py"


def _cpython(*args):
    proc = subprocess.run([sys.executable, str(SCRIPT), *(str(a) for a in args)],
                          capture_output=True, text=True, timeout=300, check=False)
    return proc.returncode, proc.stdout + proc.stderr


def test_recovery_scenario_is_the_same_under_micropython(tmp_path):
    match = mpy.SCENARIOS / "snooker-best-of-3.sbn"
    mp_rc, mp_out = mpy.run_micropython(SCRIPT, match, tmp_path / "mp", 61)
    cp_rc, cp_out = _cpython(match, tmp_path / "cp", 61)
    assert cp_rc == 0, cp_out
    assert mp_rc == 0, mp_out
    assert mp_out == cp_out
    lines = cp_out.splitlines()
    assert lines[0] == "start PICO-3F2A-0007 events 31"
    assert lines[2] == "recovered True None replayed 12"  # the third frame's lines
    assert lines[-2] == "reset in frame 1 after 6 events: replayed 4 ok"
    assert lines[-1] == "reset in frame 3 after 25 events: replayed 6 ok"
    cuts = [x for x in lines if x.startswith("cut ")]
    flips = [x for x in lines if x.startswith("flip ")]
    assert len(cuts) > 15 and len(flips) == 41  # 9 header lines, 31 events, the box line
    for x in cuts:
        assert x.endswith(" ok None") or x.endswith("no match True True"), x
    for x in flips[:-1]:
        n = x.split()[2]
        assert x == "flip line %s damage %s ok" % (n, n)
    assert flips[-1] == "flip line 41 damage None ok"


def test_a_best_of_35_recovers_alike_and_replays_only_the_last_frame(tmp_path):
    from host_tools.measure.matchgen import generate, header

    match = tmp_path / "best-of-35.sbn"
    match.write_text("\n".join(jp.stamped(generate(header("snooker", 35), seed=35))) + "\n")
    mp_rc, mp_out = mpy.run_micropython(SCRIPT, match, tmp_path / "mp", 2999, 97)
    cp_rc, cp_out = _cpython(match, tmp_path / "cp", 2999, 97)
    assert cp_rc == 0, cp_out
    assert mp_rc == 0, mp_out
    assert mp_out == cp_out
    lines = cp_out.splitlines()
    assert lines[2].startswith("recovered True None replayed ")
    assert int(lines[2].split()[-1]) < 120  # the last frame only, not the 1176 events
    assert lines[-2].startswith("reset in frame 1 after ") and lines[-2].endswith(" ok")
    assert lines[-1].startswith("reset in frame 23 after ") and lines[-1].endswith(" ok")
    marks = [x for x in lines if x.startswith(("cut ", "flip "))]
    assert len(marks) > 20
    assert all(x.endswith((" ok", " ok None", "no match True True")) for x in marks), marks


POWERCUT = mpy.REPO / "tests" / "micropython" / "journal_powercut.py"


def test_a_power_cut_at_any_flash_operation_loses_no_flushed_event():
    match = mpy.SCENARIOS / "snooker-best-of-3.sbn"
    rc, out = mpy.run_micropython(POWERCUT, match, heapsize="16M")
    assert rc == 0, out
    lines = out.splitlines()
    assert lines[0].startswith("events 31 flash operations ")
    ops = int(lines[0].split()[-1])
    assert ops > 31 * 2  # every append reaches the flash
    assert lines[1:] == ["power cuts %d wrong 0" % (2 * ops + 1)]


def test_power_cuts_during_a_best_of_35(tmp_path):
    from host_tools.measure.matchgen import generate, header

    match = tmp_path / "best-of-35.sbn"
    match.write_text("\n".join(jp.stamped(generate(header("snooker", 35), seed=35))) + "\n")
    rc, out = mpy.run_micropython(POWERCUT, match, 37, heapsize="32M")
    assert rc == 0, out
    lines = out.splitlines()
    assert lines[0].startswith("events 1176 flash operations ")
    assert len(lines) == 2 and lines[1].endswith(" wrong 0"), out
    assert int(lines[1].split()[2]) > 150
