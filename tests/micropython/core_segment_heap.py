"""Segment.append under MicroPython: with the buffer sized once, every event of a long
frame is appended with the heap locked; then the bytes allocated per event while the
segment grows by chunks from its first one (gc.mem_alloc with the collector off).

Prints `locked N M growing B text T`: N of M events appended under heap_lock, B bytes
allocated per event while growing, T bytes of text per event (by chunks: B < 4 T).
"""

import gc

import _paths

_paths.setup(__file__)

import micropython  # noqa: E402

from scoreboard.core.segment import Segment  # noqa: E402

# A long safety battle: the events of host_tools.measure.bench's long frame, in kind.
EVENTS = []
for i in range(800):
    ms = 1500 * i
    k = i % 8
    if k == 0:
        EVENTS.append((ms, "pot", ("red",)))
    elif k == 1:
        EVENTS.append((ms, "pot", ("black",)))
    elif k == 5:
        EVENTS.append((None, "foul", (4, "red", "miss")))
    elif k == 6:
        EVENTS.append((ms, "replace", ()))
    else:
        EVENTS.append((ms, "end", ()))


def locked(seg):
    """Append every event with the heap locked (in a function: a new global name would
    allocate); returns how many went in."""
    done = 0
    micropython.heap_lock()
    try:
        for e in EVENTS:
            seg.append(e)
            done += 1
    except MemoryError:
        pass
    micropython.heap_unlock()
    return done


done = locked(Segment("snooker", 16384))

seg = Segment("snooker")
gc.collect()
gc.disable()
before = gc.mem_alloc()
for e in EVENTS:
    seg.append(e)
after = gc.mem_alloc()
gc.enable()
print("locked", done, len(EVENTS), "growing", (after - before) / len(EVENTS), "text",
      seg.nbytes() / len(EVENTS))
