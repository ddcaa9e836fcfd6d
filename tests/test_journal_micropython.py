"""The journal under real MicroPython: the main recovery scenario (play, reset, recover,
cut the journal, flip a byte in every line) prints the same under MicroPython as under
CPython, and every mark in it is right."""

import subprocess
import sys

from support import mpy

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
    assert lines[2] == "recovered True None"
    cuts = [x for x in lines if x.startswith("cut ")]
    flips = [x for x in lines if x.startswith("flip ")]
    assert len(cuts) > 15 and len(flips) == 40
    for x in cuts:
        assert x.endswith(" ok None") or x.endswith("no match True True"), x
    for x in flips[:-1]:
        n = x.split()[2]
        assert x == "flip line %s damage %s ok" % (n, n)
    assert flips[-1] == "flip line 40 damage None ok"
