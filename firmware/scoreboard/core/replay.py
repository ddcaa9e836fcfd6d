"""Replay notation lines into a Match: the one way the host, the tests and the device
(after a reset) rebuild a match from its lines."""

from .match import Match
from .notation import NotationError, Reader


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
