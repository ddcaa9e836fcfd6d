"""Play a match's lines through the Journal the way the app does: apply, then append.

Shared by the journal scripts in this folder (run under MicroPython and CPython alike)
and by the CPython tests (tests/test_journal*.py). No CPython-only idioms here.
"""

from scoreboard.core.notation import Reader, format_event, parse_event
from scoreboard.core.replay import replay
try:  # MicroPython's scripts have host_tools/mp/ on their path
    from replay_json import write_json
except ImportError:  # CPython's tests
    from host_tools.mp.replay_json import write_json


def split(lines):
    """(header lines, event lines) of a notation text: the header is everything before
    the first event; events are written back canonically (comments and blanks dropped)."""
    reader = Reader()
    head = []
    events = []
    for line in lines:
        text = line.rstrip("\r\n")
        event = reader.feed(text)
        if event is not None:
            events.append(format_event(event))
        elif not events:
            head.append(text)
    return head, events


def stamped(lines, seed=5):
    """The lines with `@MS` stamps 4 to 40 s apart, as the app writes them (a small LCG,
    the same on every interpreter); header lines left alone."""
    reader = Reader()
    out = []
    ms = 0
    x = seed
    for line in lines:
        if reader.feed(line) is None:
            out.append(line)
            continue
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        ms += 4000 + (x >> 8) % 36000
        out.append("@%d %s" % (ms, line))
    return out


def play(journal, events):
    """Apply each event line to journal.match, then append it."""
    m = journal.match
    for text in events:
        m.apply(parse_event(m.family, text))
        journal.append(text)


def report(match):
    """The replay JSON of a match, as one str (CPython and MicroPython alike)."""
    parts = []
    write_json(match, parts.append)
    return "".join(parts)


def replay_lines(lines):
    """The report of a full replay of journal lines (bytes or str, with checksums)."""
    out = []
    for b in lines:
        out.append(b.decode() if isinstance(b, bytes) else b)
    return report(replay(out, journal=True))


def lines_of(data):
    """Whole lines (each with its `\\n`) of journal bytes; a last line without one is
    left out, as recovery drops it."""
    out = []
    start = 0
    while True:
        end = data.find(b"\n", start)
        if end < 0:
            return out
        out.append(data[start:end + 1])
        start = end + 1


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def rmtree(path):
    """Remove a folder and what is in it (two levels: the flash layout's)."""
    import os
    try:
        names = os.listdir(path)
    except OSError:
        return
    for n in names:
        p = path + "/" + n
        try:
            os.remove(p)
        except OSError:
            rmtree(p)
    os.rmdir(path)
