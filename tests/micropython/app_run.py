"""App.run() in real time on the host board: the loop it runs is App.step, nothing else.

    micropython tests/micropython/app_run.py FLASH_DIR [STEPS]

Runs the app's real asyncio loop (App.run) with a queued match, holds `ok` on the
keypad for a few passes, then stops it as mpremote would (KeyboardInterrupt from the
pass) after STEPS passes (default 60). Prints how many passes App.step made and how many
key scans ran (the same number when run() drives step() and nothing else), the tasks
run() made besides itself, how often it asked for the e-ink at once (eink_show_now,
which is only for stepped runners) and how often the e-ink task refreshed the panel
(eink_show), the journal's events and the screen, then OK.
"""

import os
import sys

import _paths

_paths.setup(__file__)

import asyncio  # noqa: E402

from boards.host import HostBoard  # noqa: E402
from scoreboard.app import App  # noqa: E402
from scoreboard.keys.keymaps import key_index  # noqa: E402

STEPS = int(sys.argv[2]) if len(sys.argv) > 2 else 60
OK = 1 << key_index("snooker", "ok")


def main():
    os.chdir(sys.argv[1])
    board = HostBoard("", real_time=True)
    now_calls = [0]
    shows = [0, 0]

    def eink_show_now(full, paint):
        now_calls[0] += 1

    async def eink_show(full, paint):
        shows[1 if full else 0] += 1

    board.eink_show_now = eink_show_now
    board.eink_show = eink_show
    app = App(board)
    steps = [0]
    step = app.step

    def counted(now):
        steps[0] += 1
        board.raw = OK if 3 <= steps[0] < 12 else 0  # `ok` held for nine passes
        if steps[0] > STEPS:
            raise KeyboardInterrupt
        step(now)

    app.step = counted
    tasks = [0]
    create_task = asyncio.create_task

    def counted_task(coro):
        tasks[0] += 1
        return create_task(coro)

    asyncio.create_task = counted_task
    try:
        asyncio.run(app.run())
    except KeyboardInterrupt:
        app.stop()
    asyncio.create_task = create_task
    name = next(n for n in os.listdir("matches") if n.endswith(".sbn"))
    with open("matches/" + name) as f:
        events = [line.split(" ", 1)[1].rsplit(" *", 1)[0] for line in f if line[0] == "@"]
    print("steps", steps[0] - 1, "passes", app.passes)
    print("tasks", tasks[0])
    print("eink_show_now", now_calls[0], "eink_show partial %d full %d" % tuple(shows))
    print("events", events)
    print("screen", app.screen.kind, "stopped", app.stopped, app.screen.error)
    print("OK")


main()
