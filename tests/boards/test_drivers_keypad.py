"""The keypad matrix driver against a fake 4x4 membrane keypad (tests/support/fakes.py).

A membrane matrix has no datasheet worth the name; what is checked is the scan the
driver's docstring promises: one row driven low at a time (open drain, the others
released), the columns read through their pull-ups, the raw bitmap bit row*4+col, all
rows released after the scan. The heap-locked run is in test_drivers_micropython.py.
"""

import pytest

from drivers import keypad
from host_tools.mp.keypad_check import check, pressed
from support import fakes


def make():
    bus = fakes.Bus()
    km = fakes.KeyMatrix(bus)
    pad = keypad.Keypad(km.rows, km.cols)
    bus.clear()
    return bus, km, pad


def test_no_key_reads_zero():
    _, _, pad = make()
    assert pad.scan() == 0


def test_each_key_alone_sets_its_bit_and_only_it():
    _, km, pad = make()
    for key in range(16):
        km.press(key)
        assert pad.scan() == 1 << key, key
        km.release(key)
    assert pad.scan() == 0


def test_bit_numbering_is_row_major_top_left_first():
    _, km, pad = make()
    km.press(1 * 4 + 2)  # row 1, column 2
    assert pressed(pad.scan()) == [6]


def test_several_keys_and_release():
    _, km, pad = make()
    km.press(0, 5, 10, 15)
    assert pressed(pad.scan()) == [0, 5, 10, 15]
    km.release(5)
    assert pressed(pad.scan()) == [0, 10, 15]


def test_one_row_driven_at_a_time_and_all_released_after():
    bus, km, pad = make()
    km.press(3, 12)
    pad.scan()
    levels = {r.name: 1 for r in km.rows}
    for e in bus.log:
        if e[0] == "pin" and e[1].startswith("row"):
            levels[e[1]] = e[2]
            assert sum(1 for v in levels.values() if v == 0) <= 1
    assert all(v == 1 for v in levels.values())
    # each row was driven once, in order
    assert [e[1] for e in bus.log if e[0] == "pin" and e[2] == 0] == [
        "row0", "row1", "row2", "row3"]


def test_three_corners_ghost_a_fourth_as_documented():
    # a real diode-less matrix: keys 0, 1 and 4 down join column 1 to row 1 through
    # row 0 and column 0, so key 5 reads as down too (the driver reports it raw)
    bus = fakes.Bus()
    km = fakes.KeyMatrix(bus, ghosting=True)
    pad = keypad.Keypad(km.rows, km.cols)
    km.press(0, 1, 4)
    assert pressed(pad.scan()) == [0, 1, 4, 5]
    km.release(1)  # two keys never ghost
    assert pressed(pad.scan()) == [0, 4]


def test_other_matrix_sizes_and_limits():
    bus = fakes.Bus()
    km = fakes.KeyMatrix(bus, nrows=3, ncols=4)
    pad = keypad.Keypad(km.rows, km.cols)
    km.press(11)
    assert pad.scan() == 1 << 11 and (pad.nrows, pad.ncols) == (3, 4)
    big = fakes.KeyMatrix(bus, nrows=6, ncols=6)
    with pytest.raises(ValueError):
        keypad.Keypad(big.rows, big.cols)


def test_extra_buttons_follow_the_matrix():
    bus = fakes.Bus()
    km = fakes.KeyMatrix(bus)
    button = fakes.Pin(bus, "shot", level=1)
    pad = keypad.Keypad(km.rows, km.cols, extra=[button])
    assert pad.scan() == 0
    button.level = 0
    km.press(2)
    assert pressed(pad.scan(), 17) == [2, 16]


def test_check_reports_wiring_faults():
    _, km, pad = make()
    assert check(pad) == []
    km.press(9)
    assert check(pad) == ["key 9 (row 3, column 2) reads down"]
    km.release(9)
    km.cols[3].reader = lambda: 0  # column 4 shorted to GND
    problems = check(pad)
    assert problems[0] == "column 4 reads low with no row driven"
    assert len(problems) == 5  # and every key of that column reads down
