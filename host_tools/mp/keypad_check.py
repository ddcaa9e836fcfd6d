"""The keypad's wiring check for the assembly's bench test, run on the board itself:

    mpremote run host_tools/mp/keypad_check.py

(hardware/README.md, "First power-up on the bench"). It builds the board the flash
names (`main.board_name()`: the reference Pico unless `board.txt` says otherwise),
looks at the keypad with no key held and prints `keypad: wiring sound`, or one line per
fault and `keypad: N problems`. It is a host-side script, not firmware: the box never
runs it, so none of it is frozen into the image or held in the app's heap.

`check(pad)` and `pressed(bits, count)` take a drivers.keypad.Keypad (tests give it
fake pins): a column that reads 0 with every row released is shorted to GND (or a key
is stuck down and its row line shorted to GND); a key that reads down with nobody
touching the pad is stuck, or two lines touch in the ribbon; an extra button that
reads pressed.
"""


def pressed(bits, count=16):
    """The key numbers set in `bits`, lowest first."""
    out = []
    i = 0
    while i < count:
        if bits >> i & 1:
            out.append(i)
        i += 1
    return out


def check(pad):
    """The wiring faults of keypad `pad`, with no key held: a list of lines (empty when
    the wiring is sound)."""
    problems = []
    pad.release_all()
    for c in range(pad.ncols):
        if not pad.cols[c].value():
            problems.append("column %d reads low with no row driven" % (c + 1))
    bits = pad.scan()
    n = pad.nrows * pad.ncols
    for k in pressed(bits, n):
        problems.append("key %d (row %d, column %d) reads down"
                        % (k, k // pad.ncols + 1, k % pad.ncols + 1))
    for i in range(len(pad.extra)):
        if bits >> (n + i) & 1:
            problems.append("extra button %d reads pressed" % (i + 1))
    return problems


def main():
    from main import board_name

    module = __import__("boards." + board_name(), None, None, ("build",))
    problems = check(module.build().keypad)
    for line in problems:
        print("keypad:", line)
    print("keypad: wiring sound" if not problems else "keypad: %d problems" % len(problems))


if __name__ == "__main__":
    main()
