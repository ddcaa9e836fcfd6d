"""`scoreboard pico`: the real UF2 on an emulated RP2040, with the box's parts around it.

    scoreboard pico [--uf2 FILE] [--flash-image FILE] [--keys FILE] [--png DIR] [--pty]
                    [--seconds S] [--busy-full-ms MS] [--busy-partial-ms MS]
                    [--flash-timing typical|worst|none]
                    [--hold MS] [--gap MS]

The UF2 (default build/pico/scoreboard-pico.uf2, from `make uf2`) boots on rp2040js
behind the RP2040's boot ROM; `--flash-image` is the Pico's whole 2 MB flash (default:
`pico-flash.img` in the user's data directory), created on first use and written back at
every erase and program, so stopping the process at any moment is a power cut, and the
next start finds the box where the cut left it. The UF2 goes in over it as a BOOTSEL
drive would put it: the filesystem (the matches, the queue) stays.

The keypad, the e-ink panel (SSD1683 on SPI1, BUSY held 3 s for a full refresh and
0.5 s for a partial one unless told), the LED chain (MAX7219s on SPI0) and the buzzer
(PWM) sit on the pins of `boards/pico.py`'s wiring table. `--keys FILE` presses the
keys of a key script (`scoreboard device`'s format: a key name a line, `NAME long`,
`NAME hold=MS`, `@MS` waits, `#` comments) on the keypad's matrix, in emulated time as
fast as the emulator goes, every short press held `--hold MS` (80) and followed by
`--gap MS` (150) with the keys released, as on `scoreboard device`; `--png DIR`
writes both panels as a person sees them after each key and at the end (the same files
as `scoreboard device --png`). `--pty` prints `port /dev/pts/N` and serves the box's
USB serial port there for mpremote, `scoreboard setup|sync|flash --port` and
`scoreboard live --port auto`, until Ctrl-C; with `--keys` the script is pressed
meanwhile, in real time (a table to watch).
With none of them the box runs (`--seconds S` of emulated time, else until Ctrl-C) and
what it prints on its serial port is shown. Every run ends with the emulated time
against the wall time it took.
"""

import argparse
import signal
import sys
import threading
import time
from pathlib import Path

from host_tools.commands.device import add_press_options
from host_tools.device.keyscript import DeviceError, parse_script, play_script, write_pngs
from host_tools.pico.emulator import BUSY, FLASH_TIMINGS, UF2, Pico, PicoError


def default_image():
    from platformdirs import user_data_dir

    return Path(user_data_dir("scoreboard")) / "pico-flash.img"


def add_parser(sub):
    p = sub.add_parser("pico", help="run the UF2 on an emulated Pico (rp2040js)")
    p.add_argument("--uf2", type=Path, default=UF2, help="the image (default: make uf2's)")
    p.add_argument("--flash-image", type=Path, default=None,
                   help="the Pico's 2 MB flash as a file (made on first use)")
    p.add_argument("--keys", type=Path, help="a key script to press on the keypad")
    p.add_argument("--png", type=Path, help="write the panels as PNG files here")
    p.add_argument("--pty", action="store_true",
                   help="serve the USB serial port on a pseudo-terminal")
    p.add_argument("--seconds", type=float, default=None,
                   help="run this long (emulated seconds), then stop")
    p.add_argument("--busy-full-ms", type=int, default=BUSY["full_ms"],
                   help="e-ink BUSY time of a full refresh (default %(default)s)")
    p.add_argument("--busy-partial-ms", type=int, default=BUSY["partial_ms"],
                   help="e-ink BUSY time of a partial refresh (default %(default)s)")
    add_press_options(p)  # --hold MS, --gap MS: a short press of the key script
    p.add_argument("--flash-timing", choices=FLASH_TIMINGS, default="typical",
                   help="the flash chip's erase and program times, during which the CPU "
                   "is stalled and the PIO, timers and USB run on: the W25Q16JV "
                   "datasheet's typical ones (45 ms a sector erase, 0.4 ms a page; the "
                   "default), its maxima (400 ms, 3 ms) or none")
    p.add_argument("--cut-at-program", type=int, default=0, metavar="N",
                   help=argparse.SUPPRESS)  # tests: the power fails in the Nth program
    p.set_defaults(run=run)


def run(args):
    image = args.flash_image or default_image()
    try:
        if args.keys is not None and not args.keys.is_file():
            raise PicoError("no key script %s" % args.keys)
        commands = parse_script(args.keys.read_text(encoding="utf-8")) if args.keys else []
        if args.seconds is not None and not args.seconds > 0:
            raise PicoError("--seconds wants a positive number")
        image.parent.mkdir(parents=True, exist_ok=True)
        pico = Pico(image, args.uf2,
                    busy={"full_ms": args.busy_full_ms, "partial_ms": args.busy_partial_ms},
                    cut_at=args.cut_at_program, names=[a for c, a in commands if c != "wait"],
                    flash_timing=args.flash_timing)
    except (PicoError, DeviceError) as e:
        print("scoreboard pico: %s" % e, file=sys.stderr)
        return 1
    except OSError as e:
        print("scoreboard pico: %s" % (e.strerror or e), file=sys.stderr)
        return 1
    try:
        return _session(pico, args, commands, image)
    except PicoError as e:
        print("scoreboard pico: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        _timing(pico)
        pico.close()


def _session(pico, args, commands, image):
    if args.pty:
        return _serve(pico, commands, args.png, (args.hold, args.gap))
    if commands:
        pico.boot()
        pico.idle()  # the start screen up, as a referee waits for it
        play_script(pico, commands, args.png, args.hold, args.gap)
        if args.png is not None:  # the end as it settles: a full refresh takes 3 s
            pico.idle()
            write_pngs(pico.panels(), args.png, "")
        print("played %d keys; flash image: %s" % (_keys(commands), image))
    else:
        _console(pico, args.seconds)
        if args.png is not None:
            write_pngs(pico.panels(), args.png, "")
    _warnings(pico)
    return 0


def _keys(commands):
    return sum(c != "wait" for c, _ in commands)


def _serve(pico, commands, png, press=()):
    """Serve the USB serial port on a pty, the box running on its own at real time, until
    Ctrl-C or SIGTERM; a key script is pressed meanwhile, in real time (its `@MS` waits
    are the box's own milliseconds), as a referee would press it: what mpremote or
    `scoreboard live` reads on the port is the match as it is played. The port is
    announced for `scoreboard live --port auto` while it is served."""
    stopped = []
    signal.signal(signal.SIGTERM, lambda *_: stopped.append(1))
    if commands:
        pico.boot()  # the box up before the first key, as the referee waits for it
    port = pico.attach_pty()
    failed = []

    def press_them():
        try:
            play_script(pico, commands, png, *press)  # press: (hold, gap)
            print("played %d keys" % _keys(commands), flush=True)
        except PicoError as e:  # the emulator gone: the loop below ends and says why
            failed.append(e)

    # attach_pty announced the port (for `live --port auto`) before it is told here
    print("port %s" % port, flush=True)
    pico.go()
    if commands:
        # The one thread that sends the harness commands while serving: the keys
        # are `press` and `run` commands in the box's own time, answered when done.
        threading.Thread(target=press_them, name="pico-keys", daemon=True).start()
    while not stopped and not failed and pico.proc.poll() is None:
        time.sleep(0.2)
    if failed:
        raise failed[0]
    _warnings(pico)
    return 0


def _console(pico, seconds):
    """Show what the box prints: for `seconds` of emulated time (as fast as the emulator
    goes), or in real time until Ctrl-C."""
    shown = 0
    ran = 0.0
    if seconds is None:
        pico.go()
    while seconds is None or ran < seconds:
        if seconds is None:
            time.sleep(0.5)
        else:
            step = min(0.5, seconds - ran)
            pico.run(int(step * 1000))
            ran += step
        text = pico.console_text()
        sys.stdout.write(text[shown:])
        sys.stdout.flush()
        shown = len(text)


def _warnings(pico):
    for w in pico.warnings():
        print("scoreboard pico: %s" % w[len("warn "):], file=sys.stderr)


def _timing(pico):
    """The emulated time against the wall time it took (the emulator's speed)."""
    try:
        emulated = pico.stats()["emulated_us"] / 1e6
    except PicoError:  # the harness is gone (a power cut): what it last said
        emulated = getattr(pico, "emulated_us", 0) / 1e6
    wall = pico.wall_s()
    if emulated > 0:
        print("emulated %.1f s in %.1f s of wall time (%.2f of real time)"
              % (emulated, wall, emulated / wall), file=sys.stderr)
