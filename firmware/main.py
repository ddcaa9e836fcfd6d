"""Entry on the device: pick the board, run the app until stopped.

The board is named by `board.txt` on the flash when it exists (for a variant, e.g.
`pico2_oled`), else it follows from the port: `pico` on an RP2040/RP2350 (`picow` on a
Pico W: the image says so in its machine name), `host` on a computer (the unix port:
the virtual device).

Another program on the USB port never stops a match: the port's keyboard interrupt is
off while this file runs (`micropython.kbd_intr(-1)`), so a Ctrl-C or a Ctrl-A from a
terminal or an IDE connecting is a byte the app's request channel drops. The app stops
only when asked on purpose: the request channel's `stop` (the desk's tools send it
before they need the REPL: `scoreboard flash`, `scoreboard device --stop`). Stopped, it stops
cleanly, every journal line already flushed, both panels say so, and the REPL has the
keyboard interrupt back; a soft reset runs this file again, which recovers the match
where it was. Out of memory
while the app runs, it shows its error screen and says so on the console (App.fail);
before it runs, this file says so, on the console and on both panels
(scoreboard.outofmemory).
"""

import sys

_DEFAULT = {"rp2": "pico", "linux": "host", "darwin": "host", "webassembly": "sim"}


def board_name():
    try:
        with open("board.txt") as f:
            name = f.read().strip()
        if name:
            return name
    except OSError:
        pass
    if "Pico W" in getattr(sys.implementation, "_machine", ""):
        return "picow"  # the Wi-Fi image (Raspberry Pi Pico W with RP2040)
    return _DEFAULT.get(sys.platform, "pico")


def main():
    import micropython

    # Room for an exception's traceback when the heap is full (the app's own report
    # of a MemoryError is scoreboard.outofmemory's). The rp2 port has the call;
    # the unix port (the virtual device) builds without it.
    if sys.platform == "rp2":
        micropython.alloc_emergency_exception_buf(100)
    _interrupt(-1)  # a stray Ctrl-C from the port is a byte from now on (see above)
    app = board = None
    try:
        import asyncio

        from scoreboard.ui import draw

        # The faces before the app: on the .mpy route (`scoreboard flash`) each face's
        # glyphs are one bytes object in the heap (25 KB the largest), which finds its
        # block only before the app's modules have broken the heap up; frozen in the UF2
        # they stay in flash, and this costs the three small modules.
        draw.preload()
        # the board before the app: a start that runs out of memory has its panels
        module = __import__("boards." + board_name(), None, None, ("build",))
        board = module.build()
        from scoreboard.app import App

        app = App(board)
        asyncio.run(app.run())
    except KeyboardInterrupt:
        if app is not None:
            app.stop()
            app.show_stopped()
        print("scoreboard: stopped")
    except (MemoryError, OSError) as e:  # before the app ran: no error screen yet
        import errno

        if isinstance(e, OSError) and e.errno != errno.ENOMEM:  # littlefs's buffers
            raise
        app = App = module = draw = None  # what the start made goes to the collector
        try:  # the console's line and both panels, once the start's modules are let go
            from scoreboard.outofmemory import at_start

            at_start(board, board_name, e)
        except MemoryError:  # not even that: the line without its details
            print("scoreboard: out of memory while starting")
    finally:
        _interrupt(3)  # the REPL's Ctrl-C again


def _interrupt(char):
    """micropython.kbd_intr where the port has it (not the simulator's)."""
    import micropython

    try:
        micropython.kbd_intr(char)
    except AttributeError:
        pass


if __name__ == "__main__":
    main()
