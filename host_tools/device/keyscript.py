"""`scoreboard device`: the real firmware under the MicroPython unix port, on the host board.

    scoreboard device [--flash DIR] [--match FILE.sbn] [--keys FILE] [--png DIR] [--pty]
                      [--hold MS] [--gap MS]

`--flash DIR` is the box's flash (default: a folder in the user's data directory);
`--match` queues a prepared match there; `--keys FILE` presses the keys named in FILE
(one name a line, `NAME long` for a long press, `NAME hold=MS` for a short press held
MS ms, `@MS` to let that long pass first, `#` comments) and stops the app cleanly;
`--png DIR` writes both panels as PNG files after each key and at the end. `--hold MS`
and `--gap MS` say how long every short press is held and how long the keys rest after
it (default 80 and 150 ms; a line's `hold=MS` is its own hold, a long press is held 1 s).
Without `--keys` it is interactive in the terminal: the keys from the keyboard (the
layout is shown), both panels drawn, until Ctrl-C. `--pty` serves the firmware's REPL on
a pseudo-terminal for `mpremote` (the virtual device); with `--keys` it also plays the
script there in real time (its `@MS` waits included), a table to watch with `scoreboard
live` without hardware.

The firmware itself runs in `host_tools/mp/device.py` under MicroPython; this side only
reads the script or the keyboard, and turns the panels' bytes into pictures.
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


def default_flash():
    from platformdirs import user_data_dir

    return Path(user_data_dir("scoreboard")) / "flash"


def add_parser(sub):
    p = sub.add_parser("device", help="run the firmware on the host board (virtual device)")
    p.add_argument("--flash", type=Path, default=None, help="the box's flash folder")
    p.add_argument("--match", type=Path, action="append", default=[],
                   help="queue a prepared match (.sbn header) on the box")
    p.add_argument("--keys", type=Path, help="a key script to play, then stop")
    p.add_argument("--png", type=Path, help="write the panels as PNG files here")
    p.add_argument("--pty", action="store_true", help="serve the REPL on a pseudo-terminal")
    add_press_options(p)
    p.add_argument("--keys-log", type=Path, default=None,
                   help="with --pty --keys: append each press as NAME EPOCH_MS")
    p.add_argument("--oled", action="store_true", help="the 128x64 OLED variant's panel")
    p.add_argument("--micropython", type=Path, default=MICROPYTHON,
                   help="the MicroPython binary (default: the unix port in the venv)")
    p.set_defaults(run=run)


def milliseconds(text):
    """An option's MS: a whole positive number (argparse's type for --hold and --gap)."""
    import argparse

    if not (text.isdigit() and int(text) > 0):
        raise argparse.ArgumentTypeError("'%s' is not a positive number of milliseconds"
                                         % text)
    return int(text)


def add_press_options(p):
    """--hold and --gap, for `scoreboard device` and `scoreboard pico` alike."""
    p.add_argument("--hold", type=milliseconds, default=HOLD_MS, metavar="MS",
                   help="hold every short press this long (default %(default)s; a script "
                        "line's NAME hold=MS holds that one press MS ms)")
    p.add_argument("--gap", type=milliseconds, default=GAP_MS, metavar="MS",
                   help="release the keys this long after every short press "
                        "(default %(default)s)")


class Step(tuple):
    """One command of a key script, a pair: ("wait", ms), ("press", name) or ("long",
    name). `hold`: the ms a `NAME hold=MS` line holds its press (None: --hold's)."""

    hold = None

    def __new__(cls, kind, arg, hold=None):
        step = super().__new__(cls, (kind, arg))
        step.hold = hold
        return step


def parse_script(text):
    """The key script's lines as runner commands (Steps): ("wait", ms) and
    ("press"|"long", name), a press with the hold its line gave."""
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
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
    from host_tools.gen import png

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


def run(args):
    flash = args.flash or default_flash()
    try:
        flash.mkdir(parents=True, exist_ok=True)
        queue_matches(flash, args.match)
        if args.pty:
            from host_tools.device.vdev import serve_pty

            keys = None
            if args.keys is not None:  # played in real time while the pty is served
                if not args.keys.is_file():
                    raise DeviceError("no key script %s" % args.keys)
                keys = parse_script(args.keys.read_text(encoding="utf-8"))
            return serve_pty(flash, micropython=args.micropython, keys=keys,
                             keys_log=args.keys_log, hold=args.hold, gap=args.gap)
        if args.keys is not None:
            if not args.keys.is_file():
                raise DeviceError("no key script %s" % args.keys)
            commands = parse_script(args.keys.read_text(encoding="utf-8"))
            device = Device(flash, args.micropython, args.oled)
            try:
                play_script(device, commands, args.png, args.hold, args.gap)
                failed = device.on_error_screen()
            finally:
                device.close()
            if failed:
                raise DeviceError(ERROR_SCREEN + "; --png shows it")
            print("played %d keys; flash: %s" % (sum(c != "wait" for c, _ in commands), flash))
            return 0
        if not sys.stdin.isatty():
            raise DeviceError("the interactive device needs a terminal (or give --keys FILE)")
        from host_tools.device.terminal import interactive  # it imports nothing from here

        if interactive(Device(flash, args.micropython, args.oled), args.png, args.hold,
                       args.gap):
            raise DeviceError(ERROR_SCREEN)  # as with --keys: one line, a non-zero exit
        return 0
    except DeviceError as e:
        print("scoreboard device: %s" % e, file=sys.stderr)
        return 1
    except OSError as e:
        print("scoreboard device: %s" % (e.strerror or e), file=sys.stderr)
        return 1

