"""The console's frames (firmware/scoreboard/echo.py) read out of a serial byte stream.

A box's console carries other text too (the REPL, `soft reboot`, a traceback): only
lines holding `SB> ` are frames, and a frame glued behind a torn one (a cable pulled
mid-frame) is read from its own prefix on. `parse` returns (stem, n, text) for a line
frame, (stem, n, None) for a state frame, or None for anything else; the line's CRC-32
is checked by the table (table.py), which heals a bad line from the journal.
"""

from scoreboard.core.words import check_id, strip_checksum

PREFIX = b"SB> "
_MAX_LINE = 4096  # bytes without a line end before the buffer is dropped (noise)


def parse(raw):
    """(stem, n, text or None) of one console line (bytes, no line end), or None.

    The frame is read from the first prefix whose line checks (its journal CRC): a
    player's name may hold `SB> ` itself. A line whose every reading fails is read from
    its last prefix (a frame glued behind a torn one), and the table heals it."""
    at = raw.find(PREFIX)
    if at < 0:
        return None
    last = raw.rfind(PREFIX)
    while at < last:
        frame = _parse_at(raw, at)
        if frame[0] and (frame[2] is None or _checks(frame[2])):
            return frame
        at = raw.find(PREFIX, at + 1)
    return _parse_at(raw, last)


def _checks(text):
    try:
        strip_checksum(text, True)
        return True
    except ValueError:
        return False


def _parse_at(raw, at):
    try:
        body = raw[at + len(PREFIX):].decode("utf-8")
    except UnicodeDecodeError:
        return ("", 0, "")  # a frame, but damaged: the table heals it
    body = body.rstrip("\r")
    parts = body.split(" ", 2)
    if len(parts) < 2 or not parts[1].isdigit() or not parts[1].isascii():
        return ("", 0, "")
    stem = parts[0]
    mid, dot, k = stem.rpartition(".")
    try:
        check_id(mid if dot and k.isdigit() else stem, "match id")
    except ValueError:
        return ("", 0, "")
    n = int(parts[1])
    return (stem, n, parts[2] if len(parts) == 3 else None)


class Splitter:
    """Bytes in, complete console lines out (without `\\r\\n`)."""

    def __init__(self):
        self.buf = bytearray()

    def feed(self, data):
        self.buf += data
        out = []
        while True:
            i = self.buf.find(b"\n")
            if i < 0:
                break
            out.append(bytes(self.buf[:i]).rstrip(b"\r"))
            del self.buf[:i + 1]
        if len(self.buf) > _MAX_LINE:
            self.buf.clear()
        return out

    def clear(self):
        self.buf.clear()
