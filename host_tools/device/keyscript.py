"""The virtual device's key scripts and runner: `scoreboard device`'s library (the
command, host_tools/commands/device.py, has its arguments and messages).

A key script is one key name a line (`NAME long` for a long press, `NAME hold=MS` for a
short press held MS ms), `@MS` to let that long pass first, `#` comments: `parse_script`
reads it, `play_script` plays it on a runner (the `Device` here: the real firmware under
the MicroPython unix port, run by `host_tools/mp/device.py`; or the emulated Pico) and
`write_pngs` turns the panels' bytes into pictures. The emulated Pico (host_tools/pico/)
takes the same scripts.
"""

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RUNNER = REPO / "host_tools" / "mp" / "device.py"
MICROPYTHON = Path(sys.executable).parent / "micropython"
ERROR_SCREEN = "the box stopped on its error screen (its journal is intact)"
# A short press: held HOLD_MS, then GAP_MS released (--hold, --gap); the runner's own
# defaults (host_tools/mp/device.py, not imported here: it loads the firmware).
HOLD_MS = 80
GAP_MS = 150
_ONE_A_LINE = "one key name a line, optionally 'long' or 'hold=MS'"


class DeviceError(Exception):
    """A one-line message for the user."""


def milliseconds(text):
    """An option's MS: a whole positive number (argparse's type for --hold and --gap)."""
    import argparse

    if not (text.isdigit() and int(text) > 0):
        raise argparse.ArgumentTypeError("'%s' is not a positive number of milliseconds"
                                         % text)
    return int(text)


class Step(tuple):
    """One command of a key script, a pair: ("wait", ms), ("press", name) or ("long",
    name). `hold`: the ms a `NAME hold=MS` line holds its press (None: --hold's)."""

    hold = None

    def __new__(cls, kind, arg, hold=None):
        step = super().__new__(cls, (kind, arg))
        step.hold = hold
        return step


def parse_script(text, first=1):
    """The key script's lines as runner commands (Steps): ("wait", ms) and
    ("press"|"long", name), a press with the hold its line gave. `first`: the number of
    the text's first line in the script (a script read as it comes, in pieces)."""
    out = []
    for n, raw in enumerate(text.splitlines(), first):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        if words[0].startswith("@"):
            ms = words.pop(0)[1:]
            if not ms.isdigit():
                raise DeviceError("line %d: '@%s' is not a number of milliseconds" % (n, ms))
            out.append(Step("wait", int(ms)))
        if not words:
            continue
        out.append(_key_step(words, "line %d: '%s': " % (n, line)))
    return out


def _key_step(words, where):
    name, rest = words[0], words[1:]
    holds = [w for w in rest if w.startswith("hold=")]
    if holds and "long" in rest:
        raise DeviceError(where + "a long press has its own hold (1 s): no hold= with long")
    if len(rest) > 1 or (rest and rest[0] != "long" and not holds):
        raise DeviceError(where + _ONE_A_LINE)
    if rest == ["long"]:
        return Step("long", name)
    if not holds:
        return Step("press", name)
    ms = holds[0][len("hold="):]
    if not (ms.isdigit() and int(ms) > 0):
        raise DeviceError(where + "hold= wants a positive number of milliseconds")
    return Step("press", name, int(ms))


class Device:
    """The MicroPython runner as a child process, spoken to line by line."""

    def __init__(self, flash, micropython=MICROPYTHON, oled=False):
        if not Path(micropython).exists():
            raise DeviceError("no MicroPython at %s: run `make deps`" % micropython)
        cmd = [str(micropython), str(RUNNER), "--flash", str(flash)]
        if oled:
            cmd.append("--oled")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def send(self, command):
        """Send one command; return the lines printed before its `.` answer."""
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise DeviceError("the firmware stopped: %s" % "".join(lines[-5:]).strip())
            if line.startswith(". "):
                return lines
            if line.startswith("? "):
                raise DeviceError(line[2:].strip())
            lines.append(line)

    def panels(self):
        """{"E": (w, h, bytes), "L": (32, 16, bytes)} as the firmware drew them."""
        return panels_of(self.send("show"))

    def on_error_screen(self):
        """Whether the app stopped on its error screen (`status`: `M <screen> ...`)."""
        status = self.send("status")
        return bool(status) and status[0].split()[1:2] == ["error"]

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=10)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.proc.kill()


def panels_of(lines):
    """A `show` answer (`E W H HEX` and `L 32 16 HEX`, the runner's and the emulated
    Pico's alike) as {"E": (w, h, bytes), "L": (32, 16, bytes)}."""
    out = {}
    for line in lines:
        tag, w, h, data = line.split()
        out[tag] = (int(w), int(h), bytes.fromhex(data))
    return out


def write_pngs(panels, folder, tag):
    from host_tools import png

    folder.mkdir(parents=True, exist_ok=True)
    w, h, data = panels["E"]
    (folder / ("eink%s.png" % tag)).write_bytes(png.eink_png(data, w, h))
    w, h, data = panels["L"]
    (folder / ("led%s.png" % tag)).write_bytes(png.led_png(data, w, h))


def queue_matches(flash, matches):
    for m in matches:
        if not m.is_file():
            raise DeviceError("no match file %s" % m)
        (flash / "queue").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(m, flash / "queue" / m.name)


def play_script(device, commands, png_dir=None, hold=HOLD_MS, gap=GAP_MS):
    """Send the script's commands to a runner (the virtual one or the emulated Pico):
    every short press as `press NAME HOLD GAP`, its line's hold or `hold`."""
    keys = 0
    for step in commands:
        cmd, arg = step
        if cmd == "press":
            device.send("press %s %d %d" % (arg, getattr(step, "hold", None) or hold, gap))
        else:
            device.send("%s %s" % (cmd, arg))
        if cmd != "wait":
            keys += 1
            if png_dir is not None:
                write_pngs(device.panels(), png_dir, "-%03d" % keys)
    device.send("wait 2500")  # let the e-ink policy put the last change up
    if png_dir is not None:
        write_pngs(device.panels(), png_dir, "")
