"""The interactive virtual device: the keyboard as the keypad, both panels in the terminal.

The keyboard's block `1234 / qwer / asdf / zxcv` stands for the keypad's four rows
(Shift for a long press; a key typed is a short press held `--hold` ms, then `--gap` ms
released); the legend of the game in play is printed beside it. The
e-ink panel is drawn at a quarter of its size with half-block characters, the LED panel
at full size in red. Time runs as on the box: the firmware is stepped in real time.
Ctrl-C stops the app cleanly.
"""

import os
import select
import sys
import termios
import time
import tty

# The keyboard's 4x4 block stands for the keypad's 4x4 keys, row by row; Shift = long.
KEYBOARD = "1234qwerasdfzxcv"

_STEP_S = 0.05
_SHIFTED = "!@#$"  # Shift+1..4 on a US keyboard


def _half_blocks(data, w, h, scale, on_char_colour=""):
    """Rows of text: each character shows 1 x 2 cells of scale x scale pixels."""
    stride = (w + 7) // 8

    def cell(x0, y0):
        for y in range(y0, min(y0 + scale, h)):
            row = y * stride
            for x in range(x0, min(x0 + scale, w)):
                if data[row + (x >> 3)] & (0x80 >> (x & 7)):
                    return True
        return False

    out = []
    for y in range(0, h, 2 * scale):
        line = []
        for x in range(0, w, scale):
            top, bottom = cell(x, y), cell(x, y + scale)
            line.append("\u2588" if top and bottom else "\u2580" if top else
                        "\u2584" if bottom else " ")
        out.append(on_char_colour + "".join(line) + ("\x1b[0m" if on_char_colour else ""))
    return out


def draw(panels, legend):
    w, h, data = panels["E"]
    scale = 4 if w > 200 else 1
    lines = ["\x1b[H\x1b[2J"]
    lines += _half_blocks(data, w, h, scale, "\x1b[30;47m")
    lw, lh, ldata = panels["L"]
    lines.append("")
    lines += _half_blocks(ldata, lw, lh, 1, "\x1b[31;40m")
    lines.append("")
    for r in range(4):
        lines.append("  ".join("%s=%-8s" % (KEYBOARD[r * 4 + c], legend[r * 4 + c])
                               for c in range(4)))
    lines.append("Shift+key: long press    Ctrl-C: stop")
    sys.stdout.write("\r\n".join(lines) + "\r\n")
    sys.stdout.flush()


def interactive(device, png_dir=None, hold=None, gap=None):
    """Play the device from this terminal (stdin must be one: commands/device.py checks) until
    Ctrl-C; whether the app had stopped on its error screen by then. `hold`, `gap`: a
    short press's ms held and released after (None: the runner's own)."""
    from scoreboard.keys.keymaps import keymap

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    last = time.monotonic()
    try:
        tty.setraw(fd)
        while True:
            ready, _, _ = select.select([fd], [], [], _STEP_S)
            now = time.monotonic()
            device.send("wait %d" % max(10, int((now - last) * 1000)))
            last = now
            if ready:
                ch = os.read(fd, 1).decode("latin-1")
                if ch == "\x03":
                    break
                long = ch in _SHIFTED or ch.isupper()
                i = _SHIFTED.find(ch) if ch in _SHIFTED else KEYBOARD.find(ch.lower())
                if i >= 0:
                    family = device.send("family")[0].strip()
                    name = keymap(family)[i]
                    if long:
                        device.send("long %s" % name)
                    elif hold is None or gap is None:
                        device.send("press %s" % name)
                    else:
                        device.send("press %s %d %d" % (name, hold, gap))
            family = device.send("family")[0].strip()
            draw(device.panels(), keymap(family))
        failed = device.on_error_screen()
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        device.close()
    if png_dir is not None and not failed:
        print("scoreboard device: stopped")
    return failed
