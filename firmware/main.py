"""Entry on the device: pick the board, run the app until stopped.

The board is named by `board.txt` on the flash when it exists (for a variant, e.g.
`pico2_oled`), else it follows from the port: `pico` on an RP2040/RP2350 (`picow` on a
Pico W: the image says so in its machine name), `host` on a computer (the unix port:
the virtual device). mpremote connecting interrupts the app
(KeyboardInterrupt): it stops cleanly, every journal line already flushed, and a soft
reset runs this file again, which recovers the match where it was. Out of memory
while the app runs, it shows its error screen and says so on the console (App.fail);
before it runs, this file says so.
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
    # of a MemoryError is scoreboard.app's OUT_OF_MEMORY). The rp2 port has the call;
    # the unix port (the virtual device) builds without it.
    if sys.platform == "rp2":
        micropython.alloc_emergency_exception_buf(100)
    app = None
    try:
        import asyncio

        from scoreboard.ui import draw

        # The faces before the app: on the .mpy route (`scoreboard flash`) each face's
        # glyphs are one bytes object in the heap (25 KB the largest), which finds its
        # block only before the app's modules have broken the heap up; frozen in the UF2
        # they stay in flash, and this costs the three small modules.
        draw.preload()
        from scoreboard.app import App

        name = board_name()
        module = __import__("boards." + name, None, None, ("build",))
        app = App(module.build())
        asyncio.run(app.run())
    except KeyboardInterrupt:
        if app is not None:
            app.stop()
        print("scoreboard: stopped")
    except (MemoryError, OSError) as e:  # before the app ran: no error screen yet
        import errno

        if isinstance(e, OSError) and e.errno != errno.ENOMEM:  # littlefs's buffers
            raise
        print("scoreboard: out of memory while starting (%s): the matches are kept "
              "on the flash" % e)


if __name__ == "__main__":
    main()
