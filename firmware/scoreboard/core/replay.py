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
        event = reader.feed(text)
        if event is None:
            continue
        if match is None:
            match = Match(reader.header, store)
        try:
            match.apply(event)
        except ValueError as e:
            raise NotationError(reader.line, str(e)) from None
        if on_event is not None:
            on_event(match)
    reader.finish()
    if match is None:
        match = Match(reader.header, store)
    return match

