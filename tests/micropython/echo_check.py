"""The journal's console echo, printed the same under either interpreter.

    micropython tests/micropython/echo_check.py FLASH_DIR journal
    micropython tests/micropython/echo_check.py FLASH_DIR flood N

`journal`: plays a short match through a Journal on FLASH_DIR whose echo writes into a
BytesIO, then resets (a new Journal, recover()); prints every frame, then `file` and the
journal file's lines, so the test can hold each frame against the flash.
`flood N`: N frames onto the real standard output (a pipe nobody reads, in the test);
prints `sent S dropped D ms T` on standard error when done.
"""

import io
import sys

import _paths

_paths.setup(__file__)

from scoreboard.echo import Echo  # noqa: E402

HEADER = ["sbn 1", "game snooker reds=6", "match best-of 3", 'side A "Ann"', 'side B "Bob"']
EVENTS = ["frame A", "@1200 pot red", "@2500 pot black", "@4100 end", "@9000 foul 4",
          "@9100 undo", "@9800 pot red"]


def rmtree(path):
    import os

    try:
        names = os.listdir(path)
    except OSError:
        return
    for n in names:
        p = path + "/" + n
        if os.stat(p)[0] & 0x4000:
            rmtree(p)
        else:
            os.remove(p)
    os.rmdir(path)


def journal(flash):
    from scoreboard.journal import Journal

    rmtree(flash)
    out = io.BytesIO()
    j = Journal(flash, "PICO-3F2A0001")
    j.echo = Echo(out)
    match = j.start(HEADER)
    for line in EVENTS:
        from scoreboard.core.notation import parse_event

        match.apply(parse_event(match.family, line))
        j.append(line)
    stem = j.stem
    j.close()
    j2 = Journal(flash, "PICO-3F2A0001")
    j2.echo = Echo(out)
    j2.recover()
    j2.close()
    sys.stdout.write(out.getvalue().decode())
    print("file")
    with open(flash + "/matches/" + stem + ".sbn") as f:
        for line in f:
            sys.stdout.write(line)


def flood(n):
    import time

    e = Echo()
    data = b"@61250 pot red *1a2b3c4d\n"
    t = time.ticks_ms() if hasattr(time, "ticks_ms") else int(time.monotonic() * 1000)
    for i in range(n):
        e.lines("PICO-3F2A0001-0001", i + 1, data)
    t2 = time.ticks_ms() if hasattr(time, "ticks_ms") else int(time.monotonic() * 1000)
    sys.stderr.write("sent %d dropped %d ms %d\n" % (e.sent, e.dropped, t2 - t))


if __name__ == "__main__":
    if sys.argv[2] == "journal":
        journal(sys.argv[1])
    else:
        flood(int(sys.argv[3]))
