"""The events of the current segment (since the last `frame` line), packed as notation
text in one buffer: about 15 bytes an event instead of a tuple of fresh strings, so a
long frame (a straight pool game is one frame) costs little RAM. Events are decoded
again only when `undo` folds part of the segment again.

`append` writes the event's text straight into the buffer, which grows geometrically
(doubling), so an event allocates nothing but, now and then, a bigger buffer: the words
of the notation are kept encoded once (`_TEXT`, constant tuples that stay in flash when
frozen), and numbers are written digit by digit.
"""

from micropython import const

from .notation import parse_event

_FIRST = const(64)  # bytes of a new segment's buffer
_NL = const(10)
_SPACE = const(32)
_AT = const(64)
_ZERO = const(48)
_INT_MAX = const(11)  # bytes a number may take in the text (9 digits and some spare)
_ARG = const(12)  # bytes that an argument is given room for ahead

# The words an event holds (vocab.TABLE's event words, the sides, the colours, the award
# and forfeit reasons, and the parser's other words) and their bytes, in the same order:
# constant tuples, in flash when frozen (a dict built from vocab at import took 1.3 KB of
# heap). A word not here still goes in, encoded on the spot (a clock setting, `shot=45`);
# tests/test_core_undo.py checks that every other word of every event is here.
_WORDS = ("frame", "undo", "pot", "foul", "end", "score", "push", "again", "free",
          "replace", "respot", "pass", "rerack", "rack", "warn", "penalty", "award",
          "claim", "concede", "forfeit", "abandon", "called", "suspend", "resume",
          "restart", "clock", "go", "hit", "extend", "A", "B", "yellow", "green", "brown",
          "blue", "pink", "black", "miss3", "conduct", "time", "other", "late", "retired",
          "disqualified", "red", "miss", "break", "run", "golden", "on", "off")
_TEXT = (b"frame", b"undo", b"pot", b"foul", b"end", b"score", b"push", b"again", b"free",
         b"replace", b"respot", b"pass", b"rerack", b"rack", b"warn", b"penalty", b"award",
         b"claim", b"concede", b"forfeit", b"abandon", b"called", b"suspend", b"resume",
         b"restart", b"clock", b"go", b"hit", b"extend", b"A", b"B", b"yellow", b"green",
         b"brown", b"blue", b"pink", b"black", b"miss3", b"conduct", b"time", b"other",
         b"late", b"retired", b"disqualified", b"red", b"miss", b"break", b"run", b"golden",
         b"on", b"off")


def _text(word):
    """The bytes of a word of the notation: from _TEXT (no allocation) when it is there."""
    if word in _WORDS:
        return _TEXT[_WORDS.index(word)]
    return word.encode()


class Segment:
    def __init__(self, fam, size=_FIRST):
        self.family = fam
        self.buf = bytearray(size)  # `size`: bytes to start with (it grows as needed)
        self.used = 0  # bytes of the buffer in use
        self.count = 0

    def _room(self, need):
        buf = self.buf
        if self.used + need <= len(buf):
            return buf
        size = len(buf) * 2
        while size < self.used + need:
            size *= 2
        grown = bytearray(size)
        grown[0:self.used] = memoryview(buf)[0:self.used]
        self.buf = grown
        return grown

    def append(self, event):
        ms, word, args = event
        wb = _text(word)
        i = self.used
        buf = self.buf
        # Room for the stamp, the word and each argument (a number, or a word of at
        # most _ARG bytes; a longer one makes its own room below).
        need = len(wb) + _INT_MAX + 2 + (_ARG + 1) * len(args)
        if i + need > len(buf):
            buf = self._room(need)
        if ms is not None:
            buf[i] = _AT
            i = _write_int(buf, i + 1, ms)
            buf[i] = _SPACE
            i += 1
        n = len(wb)
        buf[i:i + n] = wb
        i += n
        for a in args:
            buf[i] = _SPACE
            i += 1
            if isinstance(a, int):
                i = _write_int(buf, i, a)
                continue
            ab = _text(a)
            n = len(ab)
            if n > _ARG:
                self.used = i
                buf = self._room(n + (_ARG + 1) * len(args) + 1)
            buf[i:i + n] = ab
            i += n
        buf[i] = _NL
        self.used = i + 1
        self.count += 1

    def pop(self):
        """Drop the last event."""
        self.used = self.buf.rfind(b"\n", 0, self.used - 1) + 1
        self.count -= 1

    def __len__(self):
        return self.count

    def __iter__(self):
        for e, _ in self.entries(0, 0):
            yield e

    def entries(self, start, offset):
        """(event, byte offset after it) from event number `start` on, the first of them
        at byte `offset`."""
        buf = self.buf
        view = memoryview(buf)
        used = self.used
        for _ in range(self.count - start):
            end = buf.find(b"\n", offset, used)
            yield parse_event(self.family, str(view[offset:end], "utf-8")), end + 1
            offset = end + 1


def _write_int(buf, i, v):
    """Write v (an int >= 0) in decimal at buf[i:]; returns the index after it."""
    if v < 10:
        buf[i] = _ZERO + v
        return i + 1
    n = 1
    top = 10
    while v >= top:
        top *= 10
        n += 1
    end = i + n
    j = end
    while j > i:
        j -= 1
        buf[j] = _ZERO + v % 10
        v //= 10
    return end
