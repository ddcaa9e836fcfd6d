"""A key script played in real time on the virtual device (run by MicroPython):
`scoreboard device --pty --keys FILE`.

The vdev's bridge keeps the script's clock (its `@MS` waits, on the wall: they go on
while the box resets) and writes each press, as the key runner's commands (`press NAME
HOLD GAP`, `long NAME`: host_tools/device/keyscript.py parse_script), into a pipe that
every start of the interpreter inherits when it is due (its clock starts when the app
takes the `start` the bridge puts there first); `Feed(fd, log).main()` runs the
app as main.py does, with one more task that takes the commands one at a time and holds
the keys on the host board for as long as host_tools/mp/device.py does (a short press
HOLD ms, then GAP ms released, 80 and 150 when not given; a long press 1 s, then 150
ms), by name on the legend the app shows now. A command
taken is gone from the pipe: after a reset the next start goes on with the rest (what
was being pressed at the reset is lost, as a referee's press would be; what came while
the app was down is pressed when it is back). `log`: a file to which each press is
appended as `NAME EPOCH_MS` when the key goes down (the latency benchmark's clock).
"""

HOLD_MS = 80  # host_tools/mp/device.py's
LONG_MS = 1000
GAP_MS = 150


class Feed:
    """The pipe (and the press log) are opened here, before the vdev mounts the flash as
    `/`: after that no path of the computer is reachable from the device."""

    def __init__(self, fd, log=None):
        import select

        self.app = None
        self.f = open("/dev/fd/%d" % fd, "rb")
        self.poll = select.poll()
        self.poll.register(self.f, select.POLLIN)
        self.log = open(log, "a") if log else None
        self.pressed = 0

    def _stamp(self, name):
        if self.log is None:
            return
        import time

        ms = time.time_ns() // 1000000 if hasattr(time, "time_ns") else int(time.time() * 1000)
        self.log.write("%s %d\n" % (name, ms))
        self.log.flush()

    async def run(self):
        try:
            await self._run()
        except Exception as e:  # the feed's own trouble must not stop the box
            import sys

            print("keys: stopped:")
            sys.print_exception(e)

    async def _run(self):
        import asyncio

        from scoreboard.keys.keymaps import key_index

        app = self.app
        board = app.board
        while not app.stopped:
            if not self.poll.poll(0):
                await asyncio.sleep_ms(10)
                continue
            line = self.f.readline()
            if not line:
                return  # the bridge closed the pipe
            words = line.decode().split()
            if len(words) not in (2, 4) or words[0] == "start":  # `start`: the bridge's hello
                continue
            i = key_index(app.family, words[1])
            if i < 0:
                print("keys: no key '%s' on the %s legend" % (words[1], app.family))
                continue
            board.raw |= 1 << i
            self._stamp(words[1])
            self.pressed += 1
            long = words[0] == "long"
            await asyncio.sleep_ms(LONG_MS if long else _ms(words, 2, HOLD_MS))
            board.raw &= ~(1 << i)
            await asyncio.sleep_ms(GAP_MS if long else _ms(words, 3, GAP_MS))

    def main(self):
        """main.py's main() on the host board, with the key feed as one more task."""
        main(self)


def _ms(words, i, default):
    """words[i] as ms (the bridge writes whole positive numbers), else `default`."""
    return int(words[i]) if len(words) > i and words[i].isdigit() else default


def main(feed):
    """main.py's main() with the feed: the keyboard interrupt off while the app plays
    (a Ctrl-C from the port is a byte), the panels told when it stops."""
    import asyncio

    import micropython

    from boards.host import build
    from scoreboard.app import App

    micropython.kbd_intr(-1)
    app = App(build())
    feed.app = app

    async def both():
        task = asyncio.create_task(feed.run())
        await app.run()
        task.cancel()

    try:
        asyncio.run(both())
    except KeyboardInterrupt:
        app.stop()
        app.show_stopped()
        print("scoreboard: stopped")
    finally:
        micropython.kbd_intr(3)

