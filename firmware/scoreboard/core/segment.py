"""The events of the current segment (since the last `frame` line), packed as notation
text: about 15 bytes an event instead of a tuple of fresh strings, so a long frame (a
straight pool game is one frame) costs little RAM. Events are decoded again only when
`undo` folds part of the segment again.

`append` writes the event's text straight into the current chunk, a bytearray of
`_CHUNK` bytes; an event that does not fit starts the next chunk (a longer event gets a
chunk of its own size). The chunks are kept for the match's next segments (`clear`), so
once the longest frame so far has been held, an event allocates nothing at all; and no
allocation is ever bigger than a chunk. A buffer that doubled would need one block of
its whole size, free in one piece, in the middle of play: on the Pico, whose heap is
broken up by then, a 1 KB doubling is what ran out of memory first (docs/design.md).
The words of the notation are kept encoded once (`_TEXT`, constant tuples that stay in
flash when frozen), and numbers are written digit by digit.

A position in the segment (`used`, the offsets `entries` takes and yields) is
`chunk << 16 | byte`: opaque to the snapshots that keep it.
"""

from micropython import const

from .notation import parse_event

_CHUNK = const(256)  # bytes of a chunk
_SHIFT = const(16)  # a position: chunk << _SHIFT | byte in it
_LOW = const(0xFFFF)
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
# tests/core/test_core_undo.py checks that every other word of every event is here.
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
    def __init__(self, fam, size=_CHUNK):
        self.family = fam
        # `size`: bytes of room to start with, in chunks (it grows as needed)
        self.chunks = [bytearray(_CHUNK) for _ in range((size + _CHUNK - 1) // _CHUNK)]
        self.ends = [0] * len(self.chunks)  # bytes in use of each chunk up to `k`
        self.k = 0  # the chunk being written
        self.count = 0

    def clear(self):
        """No event, the chunks kept for the next segment."""
        self.k = 0
        self.ends[0] = 0
        self.count = 0

    @property
    def used(self):
        """The position after the last event."""
        return self.k << _SHIFT | self.ends[self.k]

    def nbytes(self):
        """Bytes of text held."""
        return sum(self.ends[:self.k + 1])

    def _next(self, need):
        """The next chunk, empty, with room for `need` bytes (kept, or made)."""
        k = self.k + 1
        chunks = self.chunks
        size = need if need > _CHUNK else _CHUNK
        if k == len(chunks):
            chunks.append(bytearray(size))
            self.ends.append(0)
        elif len(chunks[k]) < need:
            chunks[k] = bytearray(size)
        self.k = k
        self.ends[k] = 0
        return chunks[k]

    def append(self, event):
        ms, word, args = event
        wb = _text(word)
        # Room for the stamp, the word and each argument (a number, or a word) with
        # their spaces and the line end.
        need = len(wb) + _INT_MAX + 2
        for a in args:
            need += 1 + (_INT_MAX if isinstance(a, int) else len(_text(a)))
        k = self.k
        i = self.ends[k]
        buf = self.chunks[k]
        if i + need > len(buf):
            buf = self._next(need)
            k = self.k
            i = 0
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
            buf[i:i + n] = ab
            i += n
        buf[i] = _NL
        self.ends[k] = i + 1
        self.count += 1

    def pop(self):
        """Drop the last event."""
        k = self.k
        end = self.chunks[k].rfind(b"\n", 0, self.ends[k] - 1) + 1
        self.ends[k] = end
        self.count -= 1
        if end == 0 and k:
            self.k = k - 1

    def __len__(self):
        return self.count

    def __iter__(self):
        for e, _ in self.entries(0, 0):
            yield e

    def entries(self, start, pos):
        """(event, position after it) from event number `start` on, the first of them
        at position `pos`."""
        k = pos >> _SHIFT
        at = pos & _LOW
        chunks = self.chunks
        ends = self.ends
        for _ in range(self.count - start):
            if at >= ends[k]:
                k += 1
                at = 0
            buf = chunks[k]
            end = buf.find(b"\n", at, ends[k])
            yield parse_event(self.family, str(memoryview(buf)[at:end], "utf-8")), (
                k << _SHIFT | end + 1)
            at = end + 1


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
