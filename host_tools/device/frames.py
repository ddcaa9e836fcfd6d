"""The console's frames (firmware/scoreboard/echo.py) read out of a serial byte stream.

A box's console carries other text too (the REPL, `soft reboot`, a traceback): only
lines holding `SB> ` are frames, and a frame glued behind a torn one (a cable pulled
mid-frame) is read from its own prefix on. `parse` returns (stem, n, text) for a line
frame, (stem, n, None) for a state frame, or None for anything else; the line's CRC-32
is checked by the table (table.py), which heals a bad line from the journal.

The desk's own lines on that console are here too: `request_line` frames a request of
the request channel (device/channel.py asks and reads the answers), and `stop_app` sends
the deliberate stop (`STOP_REQUEST`), which every tool that needs the REPL sends first.
"""

import time

from scoreboard.core.words import check_id, crc, strip_checksum

PREFIX = b"SB> "
REQUEST = b"#SB? "  # a comment to a Python REPL: a box whose app is stopped shrugs
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


def request_line(seq, verb, args):
    body = " ".join([str(seq), verb] + [str(a) for a in args])
    return REQUEST + body.encode() + b" *" + crc(body).encode() + b"\n"


# The deliberate stop (the box's `stop`, no terminal sends it by accident): written
# before a Ctrl-C by every tool of the desk's that needs the REPL (sync_board.Board,
# so `scoreboard flash`; the emulated Pico's REPL; the tests' mpremote). A box whose app
# is stopped takes it as a comment; one without the verb answers `err` and its older
# firmware stops at the Ctrl-C that follows.
STOP_REQUEST = b"\r" + request_line(0, "stop", [])


def stop_app(ser, wait=3.0):
    """Ask the app on the open serial port `ser` to stop, and wait (at most `wait` s)
    until it has (its `scoreboard: stopped`, or a REPL prompt); whether it was heard."""
    ser.write(STOP_REQUEST)
    ser.flush()
    end = time.monotonic() + wait
    got = b""
    while time.monotonic() < end:
        chunk = ser.read(max(1, ser.in_waiting))
        got = (got + chunk)[-256:]
        if b"stopped" in got or b">>> " in got or b"unknown request stop" in got:
            return True
    return False
