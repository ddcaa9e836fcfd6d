"""`scoreboard device`: the real firmware under the MicroPython unix port, on the host board.

    scoreboard device [--flash DIR] [--match FILE.sbn] [--keys FILE] [--png DIR] [--pty]
                      [--hold MS] [--gap MS]
    scoreboard device --stop PORT

`--stop PORT` stops the app on a box (a Pico or a virtual device) on purpose, with its
request channel's `stop`: a Ctrl-C from a terminal or an IDE no longer does (a stray one
must never stop a match), so this is how a developer frees the REPL for mpremote or
Thonny; the panels say the app stopped, and a reset (or power) starts it again.

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
live` without hardware. `--keys -` takes the script from standard input: with `--pty`
line by line as it comes, each line played when it arrives (its `@MS` counted from
then), so a program presses the box's keys when it chooses, and the box serves on when
the input ends.

The arguments and the messages; the key script, the runner and the pictures are
host_tools/device/keyscript.py's, the pty host_tools/device/vdev.py's.
"""

import sys
from pathlib import Path

from host_tools.device.keyscript import (ERROR_SCREEN, GAP_MS, HOLD_MS, MICROPYTHON, Device,
                                         DeviceError, milliseconds, parse_script, play_script,
                                         queue_matches)


def default_flash():
    from platformdirs import user_data_dir

    return Path(user_data_dir("scoreboard")) / "flash"


def add_parser(sub):
    p = sub.add_parser("device", help="run the firmware on the host board (virtual device)")
    p.add_argument("--flash", type=Path, default=None, help="the box's flash folder")
    p.add_argument("--match", type=Path, action="append", default=[],
                   help="queue a prepared match (.sbn header) on the box")
    p.add_argument("--keys", type=Path, help="a key script to play, then stop ('-': standard "
                   "input; with --pty its lines played as they come)")
    p.add_argument("--png", type=Path, help="write the panels as PNG files here")
    p.add_argument("--pty", action="store_true", help="serve the REPL on a pseudo-terminal")
    add_press_options(p)
    p.add_argument("--keys-log", type=Path, default=None,
                   help="with --pty --keys: append each press as NAME EPOCH_MS")
    p.add_argument("--oled", action="store_true", help="the 128x64 OLED variant's panel")
    p.add_argument("--micropython", type=Path, default=MICROPYTHON,
                   help="the MicroPython binary (default: the unix port in the venv)")
    p.add_argument("--stop", metavar="PORT", default=None,
                   help="stop the app on the box on PORT (a Pico, or a virtual device), "
                        "leaving its REPL to mpremote or Thonny; a reset starts it again")
    p.set_defaults(run=run)


def stop(port):
    """`--stop PORT`: the request channel's deliberate `stop` (a stray Ctrl-C from a
    terminal or an IDE no longer stops the app)."""
    import serial

    from host_tools.device.frames import stop_app
    from host_tools.device.port_errors import why

    try:
        with serial.Serial(port, 115200, timeout=0.1) as ser:
            heard = stop_app(ser, wait=5.0)
    except (serial.SerialException, OSError) as e:
        print("device: %s" % why(port, e), file=sys.stderr)
        return 1
    if not heard:
        print("device: the box on %s did not say it stopped (is its app running?)" % port,
              file=sys.stderr)
        return 1
    print("device: the app on %s has stopped: its REPL is free (mpremote, Thonny); a "
          "reset starts it again" % port)
    return 0


def add_press_options(p):
    """--hold and --gap, for `scoreboard device` and `scoreboard pico` alike."""
    p.add_argument("--hold", type=milliseconds, default=HOLD_MS, metavar="MS",
                   help="hold every short press this long (default %(default)s; a script "
                        "line's NAME hold=MS holds that one press MS ms)")
    p.add_argument("--gap", type=milliseconds, default=GAP_MS, metavar="MS",
                   help="release the keys this long after every short press "
                        "(default %(default)s)")


def _stdin(keys):
    """Whether the key script is standard input (`--keys -`)."""
    return keys is not None and str(keys) == "-"


def _script(path):
    if not path.is_file():
        raise DeviceError("no key script %s" % path)
    return path.read_text(encoding="utf-8")


def run(args):
    if args.stop is not None:
        return stop(args.stop)
    flash = args.flash or default_flash()
    try:
        flash.mkdir(parents=True, exist_ok=True)
        queue_matches(flash, args.match)
        if args.pty:
            from host_tools.device.vdev import serve_pty

            keys = keys_in = None
            if _stdin(args.keys):  # the script's lines played as they come on stdin
                keys_in = sys.stdin.fileno()
            elif args.keys is not None:  # played in real time while the pty is served
                keys = parse_script(_script(args.keys))
            return serve_pty(flash, micropython=args.micropython, keys=keys,
                             keys_in=keys_in, keys_log=args.keys_log, hold=args.hold,
                             gap=args.gap)
        if args.keys is not None:
            commands = parse_script(sys.stdin.read() if _stdin(args.keys)
                                    else _script(args.keys))
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
