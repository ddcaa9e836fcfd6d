"""Where the whole app's heap goes: each module's objects, the board, the app, a frame.

    build/mp32/micropython host_tools/mp/heap_breakdown.py [--flash DIR] < modules

Run by the 32-bit build with the firmware frozen in (`python -m host_tools.measure.app_bench
--breakdown` and `make bench` run it, with the module list from
`app_bench.import_order()`); the 64-bit port and CPython run it too, where the figures
include the code. Standard input names the modules one a line, each after the modules
it imports at its top (the key runner's, as `scoreboard device` loads them): each is
imported in turn and measured as the live heap it adds (`gc.mem_alloc()` after a
collection). A frozen module's bytecode stays in flash, but its globals dictionary, its
functions, its classes with their dictionaries and any table built at import are made
in RAM. Then it builds the host board, the app, boots it and plays one snooker frame by
keys, measuring after each step (what the app imports inside its functions shows in
the step that first runs them). The board leaves out the e-ink panel's picture
(`panel=False`: on a Pico it is in the controller's RAM), as the heap benchmarks do.
Prints

    module NAME BYTES          one line a module, in the order imported
    modules COUNT BYTES        all of them
    step NAME BYTES            board, app, boot, frame: the live heap each step added
    live BYTES                 the heap in use at the end (collected)

`--flash DIR` is an empty folder to use as the board's flash (default: `heapflash`,
made if missing; a match is queued in it).
"""

import gc
import sys

# The frozen modules first: this script's folder (sys.path[0]) also holds the key runner's
# sources, which would be compiled into the heap.
if ".frozen" in sys.path:
    sys.path.remove(".frozen")
    sys.path.insert(0, ".frozen")

try:
    from mp_args import firmware_dir, option
except ImportError:  # CPython: imported as host_tools.mp.heap_breakdown
    from host_tools.mp.mp_args import firmware_dir, option


def _live():
    gc.collect()
    return gc.mem_alloc()


def _frame_keys():
    keys = ["ok"]
    for red in range(15):
        keys += ["red", "black" if red % 2 == 0 else "yellow", "end"]
    return keys + ["yellow", "green", "brown", "blue", "pink", "black"]


def _flash(path):
    import os

    for part in (path, path + "/queue"):
        try:
            os.mkdir(part)
        except OSError:
            pass
    with open(path + "/queue/m.sbn", "w") as f:
        f.write('sbn 1\ngame snooker reds=15\nmatch best-of 3\nside A "Ann"\n'
                'side B "Bob"\nclock shot=45 warn=10\n')


def main():
    path = firmware_dir()
    if path not in sys.path:
        sys.path.append(path)  # behind the frozen modules, as the key runner does
    try:
        import micropython  # noqa: F401
    except ImportError:  # CPython: the stand-ins for micropython and framebuf
        sys.path.insert(0, path.rsplit("/", 1)[0] + "/host_tools/compat")
    flash = option("--flash", "heapflash")
    _flash(flash)
    names = [line.strip() for line in sys.stdin.read().split("\n") if line.strip()]
    sizes = [0] * len(names)  # measured before any line is printed: no output in between
    start = _live()
    i = 0
    while i < len(names):
        before = _live()
        __import__(names[i])
        sizes[i] = _live() - before
        i += 1
    imported = _live() - start
    device = sys.modules["device"]
    steps = []
    mark = _live()
    board = device.HostBoard(flash, panel=False)
    steps.append(("board", _live() - mark))
    mark = _live()
    app = device.App(board)
    steps.append(("app", _live() - mark))
    mark = _live()
    app.boot(0)
    steps.append(("boot", _live() - mark))
    mark = _live()

    class Keys(device.Runner):  # the key runner's presses on this board and app
        def __init__(self):
            self.board = board
            self.app = app

    runner = Keys()
    for key in _frame_keys():
        runner.press(key, device.HOLD_MS)
    runner.wait(3000)  # the frame-end screen reaches the panel
    steps.append(("frame", _live() - mark))
    app.stop()
    for i in range(len(names)):
        print("module %s %d" % (names[i], sizes[i]))
    print("modules %d %d" % (len(names), imported))
    for name, size in steps:
        print("step %s %d" % (name, size))
    print("live %d" % _live())


main()
