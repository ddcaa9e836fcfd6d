"""Entry on the device: pick the board, run the app until stopped.

The board is named by `board.txt` on the flash when it exists (for a variant, e.g.
`pico2_oled`), else it follows from the port: `pico` on an RP2040/RP2350, `host` on a
computer (the unix port: the virtual device). mpremote connecting interrupts the app
(KeyboardInterrupt): it stops cleanly, every journal line already flushed, and a soft
reset runs this file again, which recovers the match where it was.
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
    return _DEFAULT.get(sys.platform, "pico")


def main():
    import asyncio

    from scoreboard.app import App

    name = board_name()
    module = __import__("boards." + name, None, None, ("build",))
    app = App(module.build())
    try:
        asyncio.run(app.run())
    except KeyboardInterrupt:
        app.stop()
        print("scoreboard: stopped")


if __name__ == "__main__":
    main()
