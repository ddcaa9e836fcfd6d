"""`scoreboard flash [--port PORT]`: put the firmware on a board that runs MicroPython.

Every firmware module is compiled with `mpy-cross` (what it rejects never ships) into
build/flash/ (from the installed wheel: the user's cache folder, paths.py); `main.py`
and `boot.py` stay source: the board runs them by name. The board's files are compared
by SHA-256 (computed on the board, one pass), and only what differs is copied. Flash
removes only files it put there itself: it keeps a manifest on the board
(`firmware.txt`: the SHA-256 and path of every file it placed), and a file of an earlier
flash that this firmware no longer ships is removed; nothing else is ever touched (the
owner's boot.py, a board variant of their own in boards/, matches/, queue/). A `.py` it
did not place that would shadow a module it ships (MicroPython imports X.py before
X.mpy) stops the flash before anything is copied, naming it. The manifest is written
before the copies (what is there and what comes) and again at the end (what is there),
so a cut at any point leaves no file of the firmware unlisted. Then the board is
soft-reset, asked for `scoreboard.__version__` (or, when the firmware declares none, for
its files' hashes again), and the app is started.

It is the development route: MicroPython loads a module imported from a `.mpy` file into
the heap, where a module frozen in the UF2 stays in flash (the three faces' glyphs alone
are 41 KB): on an RP2040 Pico they no longer leave the app its heap. Every run that
flashed starts the app and listens to its start (until it answers its request channel,
at most HEAR_S), says on stderr whether it started or ran out of memory there, and names
`scoreboard flash --uf2`, the route for a club's box. The building, planning and copying
are host_tools/device/flashing.py's; this module is the command.
"""

import sys

from host_tools.commands.options import add_db_options, add_port_option
from host_tools.device.flashing import APP_HEAP_KB, HEAR_S, FlashError, build, flash
from host_tools.device.flashing import heap_warning, local_version
from host_tools.device.box import BoardError
from host_tools.device.sync_board import Board
from host_tools.messages import fail, say


def add_parser(sub):
    p = sub.add_parser(
        "flash", help="compile the firmware and copy what changed to a board",
        description="Compile the firmware to .mpy files and copy what changed to a board "
                    "that runs MicroPython: the development route. Its modules are "
                    "loaded into the heap (frozen in the UF2 they stay in flash), which "
                    "on an RP2040 Pico leaves the app less than the %d KB it plays in: "
                    "flash says what they leave the board. For a club's box use "
                    "`scoreboard flash --uf2`, which puts the UF2 (the firmware frozen "
                    "in) on a board in BOOTSEL mode." % APP_HEAP_KB)
    add_port_option(p, default=None, more="; with --uf2, the running box to pull the "
                    "matches from first when the image changes its family (Pico and Pico "
                    "W keep their filesystems apart)")
    p.add_argument("--uf2", nargs="?", const="", metavar="DRIVE",
                   help="instead: copy the Pico image (make uf2) onto the board's RPI-RP2 "
                        "drive in BOOTSEL mode (found when not given)")
    p.add_argument("--image", metavar="FILE",
                   help="with --uf2: this UF2 (default: the family the board runs, "
                        "build/pico/scoreboard-pico.uf2 or scoreboard-picow.uf2)")
    add_db_options(p)
    p.set_defaults(run=run)


def run(args):
    if args.uf2 is not None:  # the UF2 route: the firmware frozen in, nothing over USB serial
        from host_tools.commands import uf2_install

        return uf2_install.run(args.uf2 or None, args.image, port=args.port, db_args=args)
    if args.image is not None:
        print("flash: --image goes with --uf2 (the .mpy route compiles firmware/)",
              file=sys.stderr)
        return 2
    try:
        files = build()
    except FlashError as e:
        fail("flash", e)
        return 2
    version = local_version()
    try:
        with Board(args.port or "auto") as board:  # gives the box back to its app
            copied, removed, reported = flash(board, files, version, out=say)
            said = board.start_and_hear(HEAR_S)
    except BoardError as e:
        fail("flash", e)
        return 1
    size = sum(len(d) for d in files.values())
    say("flash: %d of %d files copied, %d removed (%d bytes of firmware); version %s" % (
        len(copied), len(files), len(removed), size,
        reported if reported is not None else "not declared (files checked by SHA-256)"))
    say(heap_warning(said), sys.stderr)
    return 0
