"""Replay a match file under MicroPython (the unix port): tests and `make bench`.

    micropython host_tools/mp/replay.py FILE [--path DIR] [--store PATH] [--repeat N]
                                             [--quiet] [--live]

Prints the replay JSON (streamed, never built whole), or `line N: why` and exits 2.
`--path DIR` imports the firmware from DIR (e.g. the `.mpy` files that mpy-cross made)
instead of the sources; `--store PATH` keeps finished frames in a file as the device
does on flash, so the heap holds only the current frame; `--repeat N` replays N times
and prints `events E ms T` (for events per second) instead of the JSON; `--live` prints
`base B live L`: the heap in use after the imports, and the most in use (after a
collection) at any event of the replay; `--segment` prints `locked N M bytes B`: the
file's events appended to a Segment sized once with the heap locked (N of M went in),
and the bytes allocated per event by Segment.append from its first size;
`--checkpoints` rebuilds the match from its `Match.checkpoint()` after every `frame`
line (as the device's recovery does) and goes on from the rebuilt one: the JSON must be
that of a plain replay. A file whose first line carries its checksum is a box's journal,
read as `scoreboard replay` reads it (core/replay.py's is_journal and untorn): every
line's checksum required, a torn last line dropped with a note on stderr.
"""

import gc
import sys
import time

from mp_args import firmware_dir, option

sys.path.insert(0, option("--path", firmware_dir()))

from scoreboard.core.match import Match
from scoreboard.core.notation import NotationError, Reader
from scoreboard.core.replay import is_journal, replay, untorn
from replay_json import write_json
from scoreboard.core.store import ListStore

from filestore import FileStore


def _store():
    path = option("--store")
    if path is None:
        return None
    with open(path, "w"):
        pass
    return FileStore(path)


def _timed(path, repeat):
    events = 0
    t0 = time.ticks_ms()
    for _ in range(repeat):
        with open(path, "rb") as f:
            replay(f)
    ms = time.ticks_diff(time.ticks_ms(), t0)
    reader = Reader()
    with open(path, "rb") as f:
        for line in f:
            if reader.feed(line) is not None:
                events += 1
    print("events", events * repeat, "ms", ms)


def _live(path, store):
    """The heap in use after the imports, and the most in use after a collection at any
    event of the replay."""
    gc.collect()
    base = gc.mem_alloc()
    top = [base]

    def measure(match):
        gc.collect()
        top[0] = max(top[0], gc.mem_alloc())

    with open(path, "rb") as f:
        replay(f, store, on_event=measure)
    print("base", base, "live", top[0])


def _segment(path):
    import micropython

    from scoreboard.core.segment import Segment

    reader = Reader()
    events = []
    with open(path, "rb") as f:
        for line in f:
            e = reader.feed(line)
            if e is not None and e[1] != "frame":
                events.append(e)
    seg = Segment("snooker", 64 * 1024)
    done = 0
    micropython.heap_lock()
    try:
        for e in events:
            seg.append(e)
            done += 1
    except MemoryError:
        pass
    micropython.heap_unlock()
    seg = Segment("snooker")
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for e in events:
        seg.append(e)
    after = gc.mem_alloc()
    gc.enable()
    print("locked", done, len(events), "bytes", "%.1f" % ((after - before) / len(events)))


def _via_checkpoints(f):
    """Replay, rebuilding the match from its checkpoint after every `frame` line."""
    reader = Reader()
    match = None
    for text in f:
        event = reader.feed(text)
        if event is None:
            continue
        if match is None:
            match = Match(reader.header)
        try:
            match.apply(event)
        except ValueError as e:
            raise NotationError(reader.line, str(e)) from None
        if event[1] == "frame":
            match = Match.restore(reader.header, ListStore(match.store), match.checkpoint())
    reader.finish()
    return match if match is not None else Match(reader.header)


def _tell(path):
    def told(why):
        sys.stderr.write("%s: %s\n" % (path, why))
    return told


def main():
    path = sys.argv[1]
    try:
        if "--repeat" in sys.argv:
            _timed(path, int(option("--repeat")))
            return 0
        if "--live" in sys.argv:
            _live(path, _store())
            return 0
        if "--segment" in sys.argv:
            _segment(path)
            return 0
        with open(path, "rb") as f:
            first = f.readline()
        with open(path, "rb") as f:
            if "--checkpoints" in sys.argv:
                match = _via_checkpoints(f)
            elif is_journal(first):  # `scoreboard replay`'s rule (core/replay.py)
                match = replay(untorn(f, _tell(path)), _store(), journal=True)
            else:
                match = replay(f, _store())
    except NotationError as e:
        sys.stderr.write(str(e) + "\n")
        return 2
    if "--quiet" in sys.argv:
        print("ok")
    else:
        write_json(match, sys.stdout.write)
        sys.stdout.write("\n")
    return 0


sys.exit(main())
