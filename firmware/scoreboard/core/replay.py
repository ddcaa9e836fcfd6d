"""Replay notation lines into a Match: the one way the host, the tests and the device
(after a reset) rebuild a match from its lines."""

from .match import Match
from .notation import NotationError, Reader
from .words import strip_checksum


def replay(lines, store=None, journal=False, on_event=None):
    """The Match that the lines describe. NotationError (`line N: why`) at the first line
    that cannot be read or applied; nothing after it is applied. `on_event(match)` is
    called after each applied event (the benchmark reads the heap there)."""
    reader = Reader(journal)
    match = None
    for text in lines:
        match, event = feed(reader, match, text, store)
        if event is not None and on_event is not None:
            on_event(match)
    reader.finish()
    if match is None:
        match = Match(reader.header, store)
    return match


def feed(reader, match, text, store=None):
    """One line into `reader`, and its event (if it is one) applied to `match`, which is
    made from the header at the first event: (match, event or None). NotationError, with
    the reader's line number, for a line that cannot be read or applied. The one feed
    loop step of replay() and of the box's recovery (scoreboard/recovery.py)."""
    event = reader.feed(text)
    if event is None:
        return match, None
    if match is None:
        match = Match(reader.header, store)
    try:
        match.apply(event)
    except ValueError as e:
        raise NotationError(reader.line, str(e)) from None
    return match, event


def is_journal(first):
    """Whether a file whose first line (bytes, its line end or not) is `first` is a box's
    journal: that line carries a checksum that matches (docs/notation.md: in a journal
    every line carries one, and a file written on a computer may leave them all out).
    The one rule of `scoreboard replay` and the MicroPython runner: in a journal a line
    without its checksum is damage (`line N: missing checksum`)."""
    first = first.split(b"\n", 1)[0]
    if first[-1:] == b"\r":
        first = first[:-1]
    try:
        strip_checksum(first.decode(), True)
        return True
    except (ValueError, UnicodeError):
        return False


def untorn(lines, told):
    """A journal's lines (bytes, each with its line end) but a torn last one: without its
    line end, or with a checksum that fails (a write cut by a power loss), dropped with
    `told(why)` as the box's recovery and `scoreboard sync` drop it."""
    held = None
    for line in lines:
        if held is not None:
            yield held
        held = line
    if held is None:
        return
    if held[-1:] != b"\n":
        told("a torn last line (no line end) was dropped")
        return
    body = held[:-2] if held[-2:] == b"\r\n" else held[:-1]
    try:
        strip_checksum(body.decode(), True)
    except (ValueError, UnicodeError) as e:
        told("a torn last line (%s) was dropped" % (
            "not UTF-8" if isinstance(e, UnicodeError) else e))
        return
    yield held
