"""The box on the host board, driven by commands: run by the MicroPython unix port for
`scoreboard device`, the tests and the benchmarks (also runs on CPython).

    micropython host_tools/mp/device.py --flash DIR [--path FIRMWARE] [--oled]
                                        [--flash-kb N] [--no-panel] < commands

Time is virtual: the app is stepped every 10 ms of it, so a whole match plays in a
moment and the shot clock runs exactly. Commands, one a line on standard input:

    press NAME [HOLD [GAP]]   a short press of key NAME: held HOLD ms (default 80),
                   then GAP ms released (default 150)
    long NAME      a long press (held 1 s)
    down NAME / up NAME   hold / release a key (the interactive terminal)
    wait MS        let MS milliseconds pass
    show           print both panels: `E <hex>` (e-ink) and `L <hex>` (LED) lines
    where          print where the app was loaded from (`.frozen/...` when frozen in)
    status         print `M <screen> <frames A> <frames B> running|stopped`
    family         print the game family whose legend is on (snooker, pool, straight)
    latency NAME   press NAME, print `T <passes> <us>`: release to LED, and that pass's time
    reset          a power cut: a new app boots on the same flash; prints `R <lines> <ms>`
    heap           print `H <allocated> <free>` after a collection
    free           print `F <bytes>`: the flash's free space (`--flash-kb`: its size)
    state          print `S <passes> <refreshes partial> <full> <led frames> <tones>`
    quit           stop the app cleanly and exit

Each command is answered by a line `. <virtual ms>` (after `show`'s lines), so the
caller can wait for it. Unknown keys or commands print `? why` and change nothing.
`--no-panel` leaves out the e-ink panel's picture (its RAM is the controller's, not the
Pico's: the heap benchmarks run so); `show` then prints no `E` line.
"""

import sys

try:
    from mp_args import firmware_dir, option
except ImportError:  # imported as host_tools.mp.device (CPython tests)
    from host_tools.mp.mp_args import firmware_dir, option

# Appended, not inserted: where the firmware is frozen in (the 32-bit build, as on a
# board), the frozen modules come first and this path is never read.
_PATH = option("--path", firmware_dir())
if _PATH not in sys.path:
    sys.path.append(_PATH)
try:  # CPython: micropython.const and framebuf stand-ins
    import micropython  # noqa: F401
except ImportError:
    sys.path.insert(0, _PATH.rsplit("/", 1)[0] + "/host_tools/compat")

from boards.host import HostBoard  # noqa: E402
from scoreboard.app import SCAN_MS, App  # noqa: E402
from scoreboard.keys.keymaps import key_index  # noqa: E402

HOLD_MS = 80
LONG_MS = 1000
GAP_MS = 150


class Runner:
    def __init__(self, flash, oled=False, flash_kb=None, panel=True, now=0):
        """The app on a host board over `flash`, booted at tick `now` (a box restarted
        after a power cut boots when its ticks start, and steps on from there)."""
        size = (128, 64) if oled else (400, 300)
        self.board = HostBoard(flash, eink_size=size, panel=panel)
        if flash_kb is not None:
            self.board.flash_bytes = flash_kb * 1024
        self.board.now = now
        self.app = App(self.board)
        self.app.boot(now)

    def wait(self, ms):
        board, app = self.board, self.app
        end = board.now + ms
        while board.now < end:
            board.now += SCAN_MS
            app.step(board.now)

    def latency(self, name):
        """Press NAME; print `T <passes> <us>`: the passes from the key's release to the
        LED showing the change, and the time of the pass that took the key."""
        import time

        bit = self._bit(name)
        board, app = self.board, self.app
        board.raw |= bit
        self.wait(HOLD_MS)
        board.raw &= ~bit
        frames = board.led_frames
        passes = 0
        us = 0
        while board.led_frames == frames and passes < 100:
            board.now += SCAN_MS
            t = time.ticks_us()
            app.step(board.now)
            us = time.ticks_diff(time.ticks_us(), t)
            passes += 1
        print("T %d %d" % (passes, us))
        self.wait(GAP_MS)

    def reset(self):
        """A power cut and restart: a new app on the same flash; print
        `R <lines replayed> <ms>`, the recovery's work."""
        import time

        self.app.stop()
        t = time.ticks_ms()
        self.power_cut()
        ms = time.ticks_diff(time.ticks_ms(), t)
        print("R %d %d" % (self.app.journal.replayed, ms))

    def _bit(self, name):
        i = key_index(self.app.family, name)
        if i < 0:
            raise ValueError("no key '%s' on the %s legend" % (name, self.app.family))
        return 1 << i

    def press(self, name, hold, gap=GAP_MS):
        bit = self._bit(name)
        self.board.raw |= bit
        self.wait(hold)
        self.board.raw &= ~bit
        self.wait(gap)

    press_for = press

    def power_cut(self):
        """The power goes: the app is dropped as it is, and a new one boots."""
        self.board.raw = 0
        self.app = App(self.board)
        self.app.boot(self.board.now)

    def command(self, line):
        words = line.split()
        if not words:
            return
        cmd = words[0]
        arg = words[1] if len(words) > 1 else ""
        if cmd == "press":
            if len(words) > 4:
                raise ValueError("press NAME [HOLD [GAP]]: too many words")
            hold = _ms(words, 2, HOLD_MS)
            self.press(arg, hold, _ms(words, 3, GAP_MS))
        elif cmd == "long":
            self.press(arg, LONG_MS)
        elif cmd == "down":
            self.board.raw |= self._bit(arg)
        elif cmd == "up":
            self.board.raw &= ~self._bit(arg)
        elif cmd == "wait":
            self.wait(int(arg))
        elif cmd == "show":
            b = self.board
            if b.eink_buf is not None:
                print("E %d %d %s" % (b.eink_size[0], b.eink_size[1], _hex(b.eink_buf)))
            print("L 32 16 %s" % _hex(b.led_buf))
        elif cmd == "latency":
            self.latency(arg)
        elif cmd == "reset":
            self.reset()
        elif cmd == "heap":
            import gc

            gc.collect()
            print("H %d %d" % (gc.mem_alloc(), gc.mem_free()))
        elif cmd == "free":
            print("F %d" % self.board.free_bytes())
        elif cmd == "where":
            import scoreboard.app

            print(scoreboard.app.__file__)
        elif cmd == "status":
            app = self.app
            won = app.match.frames_won() if app.match is not None else (0, 0)
            print("M %s %d %d %s" % (app.screen.kind, won[0], won[1],
                                     "stopped" if app.stopped else "running"))
        elif cmd == "family":
            print(self.app.family)
        elif cmd == "state":
            b = self.board
            print("S %d %d %d %d %d" % (self.app.passes, b.refreshes[0], b.refreshes[1],
                                        b.led_frames, b.tone_count))
        else:
            raise ValueError("unknown command '%s'" % cmd)


def _ms(words, i, default):
    """words[i] as a positive number of ms (`default` when there is none)."""
    if len(words) <= i:
        return default
    if not (words[i].isdigit() and int(words[i]) > 0):
        raise ValueError("'%s' is not a positive number of milliseconds" % words[i])
    return int(words[i])


def _hex(buf):
    import binascii

    return binascii.hexlify(buf).decode()


def main():
    kb = option("--flash-kb")
    runner = Runner(option("--flash", "flash"), "--oled" in sys.argv,
                    None if kb is None else int(kb), "--no-panel" not in sys.argv)
    while True:
        line = sys.stdin.readline()
        if not line or line.strip() == "quit":
            break
        try:
            runner.command(line)
        except ValueError as e:
            print("? %s" % e)
        print(". %d" % runner.board.now)
    runner.app.stop()
    print(". stopped")


if __name__ == "__main__":
    main()
