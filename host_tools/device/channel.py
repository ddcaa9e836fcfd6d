"""The host's side of the box's request channel (firmware/scoreboard/channel.py): the
desk asks a box that goes on playing, where the raw REPL (sync_board.Board) stops it.

    Channel(pipe).ask(verb, *args)      one request: (the `ok` words, the `-` pieces)
    ChannelBox(channel, port)           what sync, setup and live's catch-up do with a box,
                                        the same methods as sync_board.Board's; and
                                        `called(ID)`, the desk's call (tournament call)

A pipe carries the lines both ways: `SerialPipe` over the box's serial port (lines that
are not answers, such as the echo's `SB> ` frames, go to its `other`), or the one that a
port's owner lends (host_tools/device/owner.py). Every answer line is checked (its
CRC-32 and sequence number); an answer that does not arrive whole is asked for again,
and after TRIES a BoardError says so in one line. Reads are checked end to end by the
SHA-256 the box computed of what it sent.

An answer is bounded: at most ANSWER_BYTES of answer lines, ANSWER_PIECES pieces and
ANSWER_S seconds for one request. A box over a bound (one whose answer never ends: a
fault, or a hostile box) is named in one line (`TooMuch`) and nothing it sent is kept.
A line is an answer only when it checks as one, or holds `SB! ` before any echo frame's
`SB> `: a player's name with `SB! ` in it stays the echo's frame (`is_answer`).
"""

import base64
import binascii
import hashlib
import itertools
import sys
import time

try:
    import termios
except ImportError:  # Windows: pyserial raises its own errors there
    termios = None

import serial

import host_tools  # noqa: F401  (puts the firmware on the path)
from host_tools.device.box import BoardError, Refused
from host_tools.device.frames import request_line
from host_tools.device.sync_board import GONE, marks_journal, os_error
from scoreboard.core.words import crc, escaped

_TermiosError = termios.error if termios is not None else OSError
PROTOCOL = 1
ANSWER = b"SB! "
TRIES = 3
HELLO_TIMEOUT = 2.0  # seconds a box has to answer `hello` (a flash erase stalls it 0.4 s)
TIMEOUT = 5.0  # seconds for any other answer line
PIECE = 192  # bytes of a queued file in one `put` (256 in base64)
# The bounds of one answer: a whole journal of the longest match is a few hundred KB, a
# box's flash holds 1.4 MB (a Pico 2's 4 MB; the virtual device's tests move 10 MB
# files), and the box sends at least a piece a pass (38 KB/s). Base64 and the framing
# make a file a third longer on the wire.
ANSWER_BYTES = 24 * 1024 * 1024
ANSWER_PIECES = 65536
ANSWER_S = 600.0


class NoAnswer(BoardError):
    """The box did not answer (an app without the channel, or not running)."""


class TooMuch(BoardError):
    """The box's answer passed a bound (bytes, pieces or time): it never ends."""


def is_answer(raw):
    """Whether a console line (bytes) is the request channel's (else the echo's or other
    text): it checks as an answer, or its `SB! ` comes before any `SB> ` (a damaged
    answer, asked again). An echo frame whose name holds `SB! ` is the echo's."""
    at = raw.find(ANSWER)
    if at < 0:
        return False
    if answer(raw) is not None:
        return True
    from host_tools.device.frames import PREFIX

    echo = raw.find(PREFIX)
    return echo < 0 or echo > at


def answer(raw):
    """(seq, kind, words) of a checked answer line (bytes, no line end), else None.
    kind: `-` a piece, `ok` the end, `err` a refusal."""
    at = raw.find(ANSWER)
    if at < 0:
        return None
    try:
        text = raw[at + len(ANSWER):].decode("utf-8").rstrip("\r")
    except UnicodeDecodeError:
        return None
    body, sep, check = text.rpartition(" *")
    if not sep or crc(body) != check:
        return None
    words = body.split(" ")
    if len(words) < 2 or not words[0].isdigit() or words[1] not in ("-", "ok", "err"):
        return None
    return int(words[0]), words[1], words[2:]


class SerialPipe:
    """Lines over a serial connection (pyserial): `send(bytes)`, `line(timeout)`; every
    line that is not an answer goes to `other(line)`."""

    def __init__(self, ser, other=None):
        from host_tools.device.frames import Splitter

        self.ser = ser
        self.other = other
        self.split = Splitter()
        self.ready = []

    def close(self):
        self.ser.close()

    def send(self, data):
        try:
            self.ser.write(data)
            self.ser.flush()
        except (serial.SerialException, OSError, _TermiosError):
            raise BoardError(GONE) from None

    def line(self, timeout):
        try:
            return self._line(timeout)
        except (serial.SerialException, OSError, _TermiosError):
            raise BoardError(GONE) from None

    def _line(self, timeout):
        end = time.monotonic() + timeout
        while not self.ready:
            left = end - time.monotonic()
            if left <= 0:
                return None
            self.ser.timeout = min(left, 0.1)
            data = self.ser.read(max(1, self.ser.in_waiting))
            for raw in self.split.feed(data) if data else ():
                if is_answer(raw):
                    self.ready.append(raw)
                elif self.other is not None:
                    self.other(raw)
        return self.ready.pop(0)


class Channel:
    """Requests over `pipe`, one at a time."""

    _seq = itertools.count(int(time.time() * 1000) % 900000 + 1)
    # Requests without pieces whose answer is the same whichever try it answers: a box
    # slow to answer the first try (a flash erase, a backlog) is heard when it does.
    SAME_ANSWER = ("hello", "sha", "settings")

    def __init__(self, pipe, where="the box"):
        self.pipe = pipe
        self.where = where  # how the box is named in a message (its port)
        self.bytes_max, self.pieces_max, self.seconds_max = (ANSWER_BYTES, ANSWER_PIECES,
                                                             ANSWER_S)

    def ask(self, verb, *args, timeout=TIMEOUT, tries=TRIES, progress=None):
        """(ok words, [piece words]) of one request, asked again when its answer does
        not arrive whole; Refused for `err`, TooMuch past a bound, BoardError when it
        never arrives."""
        sent = set()
        for _ in range(tries):
            seq = next(self._seq) % 1000000
            sent.add(seq)
            self.pipe.send(request_line(seq, verb, args))
            pieces = []
            size = 0
            start = time.monotonic()
            while True:
                raw = self.pipe.line(timeout)
                if raw is None:
                    break  # nothing more came: ask again
                size += len(raw)
                if size > self.bytes_max or len(pieces) > self.pieces_max or \
                        time.monotonic() - start > self.seconds_max:
                    raise self._too_much(verb, args, size, len(pieces), start)
                got = answer(raw)
                if got is not None and got[0] != seq and got[0] in sent and \
                        got[1] == "ok" and verb in self.SAME_ANSWER:
                    return got[2], []  # the answer to an earlier try of the same question
                if got is None or got[0] != seq:
                    if got is None and is_answer(raw):
                        break  # a damaged line of ours: ask again
                    continue  # an answer to an earlier try
                _, kind, words = got
                if kind == "-":
                    pieces.append(words)
                    if progress is not None:
                        progress(len(pieces))
                    continue
                if kind == "err":
                    raise _refused(words)
                return words, pieces
        if verb == "hello":
            raise NoAnswer("no answer to the request channel")
        raise BoardError("the box did not answer `%s` whole %d times (a noisy cable?)"
                         % (verb, tries))

    def _too_much(self, verb, args, size, pieces, start):
        what = "%s %s" % (verb, " ".join(str(a) for a in args[:1])) if args else verb
        return TooMuch("%s: its answer to `%s` passed the bound (%s) and never ended: a "
                       "faulty or hostile box, left alone" % (
                           self.where, what.strip(),
                           "%d KB" % (size // 1024) if size > self.bytes_max else
                           "%d pieces" % pieces if pieces > self.pieces_max else
                           "%d s" % (time.monotonic() - start)))


def _refused(words):
    errno = int(words[0]) if words and words[0].isdigit() else None
    text = " ".join(words[1:] if errno is not None else words)
    return Refused("the box refused: %s" % escaped(text), errno)


class ChannelBox:
    """A box over its request channel, with the methods sync, setup and live use (the
    same as sync_board.Board's: listdir, current, read, free, box_id, marks, mark, queue).
    `hello` is its answer to the first request: box id, firmware, state, current."""

    def __init__(self, channel, port, hello=None, warn=None):
        self.channel = channel
        self.port = port
        if channel.where == "the box":
            channel.where = "the box on %s" % port
        self.warn = warn or (lambda text: print(text, file=sys.stderr))
        self.hello = hello if hello is not None else self.ask_hello()

    def ask_hello(self, timeout=HELLO_TIMEOUT, tries=TRIES):
        words, _ = self.channel.ask("hello", timeout=timeout, tries=tries)
        info = dict(zip(words[0::2], words[1::2]))
        if info.get("sb") != str(PROTOCOL):
            raise BoardError("the box speaks request protocol %s, this host %d: update "
                             "the older of the two" % (info.get("sb"), PROTOCOL))
        return info

    def _on(self, what, path, verb, *args, **kw):
        """ask(): a refusal that carries an errno becomes `cannot WHAT PATH on the box:
        the reason in words`, as the raw REPL's Board says it."""
        try:
            return self.channel.ask(verb, *args, **kw)
        except Refused as e:
            if e.errno is None:
                raise
            raise os_error(what, path, e.errno) from None

    def current(self):
        self.hello = self.ask_hello(timeout=TIMEOUT)
        stem = self.hello.get("current", "-")
        return None if stem == "-" else stem

    def box_id(self):
        return self.hello.get("box", "")

    def listdir(self, folder):
        _, pieces = self._on("list", folder, "ls", folder)
        out = []
        for raw, kind, size in pieces:
            try:
                name = bytes.fromhex(raw)
            except ValueError:
                continue
            try:
                name = name.decode("utf-8")
            except UnicodeDecodeError:  # no match file of the box's
                self.warn("skipped %s/%s on the box: its name is not UTF-8" % (
                    escaped(folder), escaped(name.decode("utf-8", "backslashreplace"))))
                continue
            out.append((name, int(kind) == 0x4000, int(size)))
        return out

    def read(self, path, progress=None, line=1):
        """The bytes of `path` from the start of its line `line`, checked by SHA-256."""
        for _ in range(TRIES):
            words, pieces = self._on(
                "read", path, "read", path, line, progress=None if progress is None else (
                    lambda n: progress(n * 384)))
            data = b"".join(base64.b64decode(p[0]) if p else b"" for p in pieces)
            if words and words[0] == str(len(data)) and words[1:] == [
                    hashlib.sha256(data).hexdigest()]:
                return data
        raise BoardError("%s: the transfer arrived damaged %d times (a noisy cable?)"
                         % (path, TRIES))

    def sha256(self, path):
        words, _ = self._on("hash", path, "sha", path)
        return words[0]

    def free(self):
        return int(self.ask_hello(timeout=TIMEOUT).get("free", "0"))

    def marks(self, stems):
        """The ids (of `stems`: id -> stem of the journal to pull) whose mark carries
        the SHA-256 of that journal as it is now."""
        found = set()
        for mid, stem in sorted(stems.items()):
            try:
                mark = self.read("matches/%s.pulled" % mid)
                digest = self.sha256("matches/%s.sbn" % stem)
            except Refused:
                continue
            if marks_journal(mark, digest):
                found.add(mid)
        return found

    def mark(self, mid, digest, when):
        self._on("write", "matches/%s.pulled" % mid, "mark", mid, digest, when)

    def queue(self, name, data):
        """queue/NAME.sbn on the box: sent in pieces, checked there by its SHA-256 and by
        the core, then listed on the start screen."""
        for i in range(0, len(data), PIECE):
            self._on("write", "queue/%s.part" % name, "put", name, i, binascii.b2a_base64(
                data[i:i + PIECE], newline=False).decode())
        self._on("write", "queue/%s.sbn" % name, "queue", name,
                 hashlib.sha256(data).hexdigest())

    def set_table(self, number):
        """The box's table (settings.txt, the channel's `table`): None clears it. A box
        whose firmware predates it is told in one line."""
        try:
            words, _ = self.channel.ask("table", "-" if number is None else number)
        except Refused as e:
            if str(e).startswith("the box refused: unknown request"):
                raise BoardError("the box's firmware keeps no table: `scoreboard flash "
                                 "--port %s` updates it" % self.port) from None
            raise
        self.hello["table"] = words[1] if len(words) > 1 else "-"
        return words

    def table(self):
        """The table the box claims (its settings, said in `hello`), or None."""
        word = self.hello.get("table", "-")
        return int(word) if word.isdigit() else None

    def withdraw(self, mid):
        """Take queued match `mid` back (the desk moved it): True when it was queued,
        False when the box did not hold it; Refused (the box's reason) once it has
        started there."""
        try:
            words, _ = self.channel.ask("withdraw", mid)
        except Refused as e:
            if str(e).startswith("the box refused: unknown request"):
                raise BoardError("the box's firmware cannot take a queued match back: "
                                 "`scoreboard flash --port %s` updates it" % self.port
                                 ) from None
            raise
        return words[:1] == ["withdrawn"]

    def stop_app(self):
        """The deliberate stop: the app stops (development, flashing); the REPL stays."""
        self.channel.ask("stop", tries=1)

    def called(self, mid):
        """The desk's call of match `mid` (`called`: the box's late start counts from
        it): what the box did, in words. BoardError of one line when it refuses, or
        when its firmware has no `called` (an older box: `err unknown request`)."""
        try:
            try:
                words, _ = self.channel.ask("called", mid, tries=1)
            except Refused:
                raise
            except BoardError:
                # The answer got lost: asked again, the box's `called already` says the
                # first request went in (a call is not done twice).
                try:
                    words, _ = self.channel.ask("called", mid)
                except Refused as e:
                    if not str(e).endswith(" was called already"):
                        raise
                    return "has %s called" % escaped(mid)
        except Refused as e:
            if str(e).startswith("the box refused: unknown request"):
                raise BoardError("the box's firmware has no call from the desk (its late "
                                 "start counts from the referee's `called`): `scoreboard "
                                 "flash --port %s` updates it" % self.port) from None
            raise
        late = " (late start %s min)" % words[3] if len(words) > 3 else ""
        if words[:1] == ["started"]:
            return "started %s with the call%s" % (escaped(mid), late)
        return "has %s called%s" % (escaped(mid), late)

    def settings(self, words):
        """Set the box's settings (`KEY=VALUE` words, percent-encoded values: the
        network's, scoreboard/settings.py), all or none; the settings as the box now
        lists them ({key: value}, a password only as `set`)."""
        _, pieces = self.channel.ask("settings", *words)
        return {p[0]: " ".join(p[1:]) for p in pieces if p}

    def close(self):
        close = getattr(self.channel.pipe, "close", None)
        if close is not None:
            close()

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        self.close()
        return False
