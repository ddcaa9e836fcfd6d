"""The match notation (`.sbn`): strict parser and writer, one line at a time.

docs/notation.md is the contract. This module knows the *syntax* of every line (which words
exist in which game, how many arguments, which values); whether an event is allowed at
that moment is the rules' business (`match.py`). An event is a tuple
`(ms, word, args)`: `ms` is the `@MS` stamp or None, `args` a tuple of ints and
lower-case words (sides stay 'A'/'B'), so `parse_event(format_event(e)) == e`.

Journal lines carry ` *` and the CRC-32 of the text before the space; the checksum is
checked and stripped before anything else is read.
"""

from . import vocab
from .header import HEADER_WORDS, Header
from .vocab import (ARG_CLOCK, ARG_COUNT, ARG_FOUL, ARG_NONE, ARG_PENALTY, ARG_POT, ARG_RACK,
                    ARG_RERACK, ARG_SIDE, ARG_SIDE_OPT, ARG_SIDE_WHY, WORDS, family,
                    family_bit)
from .timekeeper import MAX_MS
from .words import (COLOURS, choice, clock_settings, count, digits, number, escaped,
                    shown, side, strip_checksum, tokenize, utf8, with_checksum)

# What other modules take from here, the words' names included.
__all__ = ("COLOURS", "Header", "NotationError", "Reader",
           "clock_settings", "format_event", "parse_event", "write")


class NotationError(Exception):
    """A line that cannot be applied: `line N: why`. Nothing after it is applied."""

    def __init__(self, line, why):
        super().__init__(line, why)
        self.line = line
        self.why = why

    def __str__(self):
        return "line %d: %s" % (self.line, escaped(self.why))


def parse_args(fam, word, args):
    """Check and convert one event's words for a game family; returns the args tuple.
    The word table (`vocab.py`) says which games take the word and how its words are
    read."""
    row = WORDS.get(word)
    if row is None or not row[1] & family_bit(fam):
        raise ValueError("unknown word '%s' in %s" % (shown(word), fam))
    arg = row[4]
    if arg == ARG_NONE:
        if args:
            count(args, 0, 0, word)
        return ()
    if arg != ARG_FOUL:
        count(args, row[5], row[6], word)
    if arg == ARG_SIDE_OPT:
        return (side(args[0]),) if args else ()
    if arg == ARG_SIDE:
        return (side(args[0]),)
    if arg == ARG_SIDE_WHY:
        return (side(args[0]), choice(args[1], vocab.reasons(word), "reason"))
    if arg == ARG_PENALTY:
        return (side(args[0]), number(args[1], 1, 15))
    if arg == ARG_CLOCK:
        if args[0] == "off":
            count(args, 1, 1, word)
            return ("off",)
        choice(args[0], ("on",), "clock")
        if len(args) < 2:
            raise ValueError("'clock on' needs settings, e.g. shot=45")
        clock_settings(args[1:])
        return tuple(args)
    if arg == ARG_RACK:
        return _rack_args(args)
    if arg == ARG_COUNT:
        return (number(args[0], 1, 15),)
    if arg == ARG_RERACK:
        return (number(args[0], 15, 15),) if args else ()
    if arg == ARG_POT:
        return _pot_args(fam, args)
    return _foul_args(fam, word, args)


def _rack_args(args):
    """`rack SIDE [run] [golden]`: the side, then the details, each once."""
    flags = args[1:]
    for f in flags:
        choice(f, ("run", "golden"), "rack detail")
    if len(flags) == 2 and flags[0] == flags[1]:
        raise ValueError("'%s' given twice" % flags[0])
    return (side(args[0]),) + tuple(flags)


def _pot_args(fam, args):
    """`pot`: pool's ball numbers; snooker's balls, `free` only first."""
    if fam == "pool":
        return tuple(number(a, 1, 15) for a in args)
    for i, a in enumerate(args):
        if a == "free":
            if i:
                raise ValueError("'free' must come first after 'pot'")
        elif a != "red" and a not in COLOURS:
            raise ValueError("unknown ball '%s'" % shown(a))
    return tuple(args)


def _foul_args(fam, word, args):
    """`foul`: snooker's value, the balls concerned, then `miss` and `time`; the other
    families' flags (`break` in straight pool, `time`)."""
    if fam == "snooker":
        count(args, 1, 20, word)
        value = number(args[0], 0, 100)
        rest = args[1:]
        flags_at = len(rest)
        for i, a in enumerate(rest):
            if a == "miss" or a == "time":
                if flags_at == len(rest):
                    flags_at = i
            elif a != "red" and a not in COLOURS:
                raise ValueError("unknown ball '%s'" % shown(a))
            elif flags_at < len(rest):
                raise ValueError("balls come before 'miss' and 'time'")
        _ordered_flags(rest[flags_at:], ("miss", "time"))
        return (value,) + tuple(rest)
    allowed = ("break", "time") if fam == "straight" else ("time",)
    count(args, 0, len(allowed), word)
    _ordered_flags(args, allowed)
    return tuple(args)


def _ordered_flags(flags, allowed):
    last = -1
    for f in flags:
        choice(f, allowed, "foul detail")
        at = allowed.index(f)
        if at <= last:
            raise ValueError("foul details go in the order %s, each once" % " ".join(allowed))
        last = at


def split_stamp(tokens):
    """(ms, tokens) from a line whose first word may be `@MS`."""
    if tokens and tokens[0][:1] == "@":
        text = tokens[0][1:]
        if digits(text) and int(text) > MAX_MS:
            raise ValueError("time stamp @%s is past the %d ms (6.2 days) that the match "
                             "clocks hold" % (text, MAX_MS))
        return number(text, 0, MAX_MS), tokens[1:]
    return None, tokens


def parse_event(fam, text):
    """The event of one line already known to be good (ValueError if not)."""
    ms, tokens = split_stamp(tokenize(text)[0])
    return (ms, tokens[0], parse_args(fam, tokens[0], tokens[1:]))


def format_event(event):
    ms, word, args = event
    parts = [] if ms is None else ["@%d" % ms]
    parts.append(word)
    for a in args:
        parts.append(str(a))
    return " ".join(parts)


class Reader:
    """Reads a notation text line by line: the header first, then events.

    `feed(text)` returns None for blank, comment and header lines, or the event tuple.
    Errors are NotationError with the physical line number.
    """

    def __init__(self, journal=False):
        self.header = Header()
        self.journal = journal
        self.line = 0
        self.in_header = True

    def feed(self, text):
        """One physical line, str or bytes (bytes are checked to be UTF-8), with or
        without its `\\n` (a `\\r` before it goes too; a lone `\\r` is no line end).
        A UTF-8 byte-order mark may open the first line."""
        self.line += 1
        try:
            if not isinstance(text, str):
                text = utf8(text)
            if self.line == 1 and text[:1] == "\ufeff":
                text = text[1:]
            if text.endswith("\n"):
                text = text[:-1]
            if text.endswith("\r"):
                text = text[:-1]
            text = strip_checksum(text, self.journal)
            tokens, quoted = tokenize(text)
            if not tokens:
                return None
            if self.in_header and ((tokens[0] in HEADER_WORDS and tokens[0] != "clock")
                                   or self.header.version is None
                                   or (tokens[0] == "clock" and len(tokens) > 1
                                   and tokens[1] not in ("on", "off"))):
                self.header.parse(tokens, quoted)
                return None
            ms, tokens = split_stamp(tokens)
            if not tokens:
                raise ValueError("a time stamp needs an event")
            if quoted:
                raise ValueError("no names in event lines")
            if self.in_header:
                self.header.check()
                self.in_header = False
            word = tokens[0]
            if word in HEADER_WORDS and word != "clock":
                raise ValueError("header line '%s' after the first event" % word)
            args = parse_args(family(self.header.game), word, tokens[1:])
            return (ms, word, args)
        except ValueError as e:
            raise NotationError(self.line, str(e)) from None

    def finish(self):
        """At the end of the text: a header alone must still be complete."""
        if self.in_header:
            try:
                self.header.check()
            except ValueError as e:
                raise NotationError(self.line, str(e)) from None


def write(header, events, journal=False):
    """The notation lines (without line ends) of a header and its events."""
    out = header.lines()
    for e in events:
        out.append(format_event(e))
    if journal:
        out = [with_checksum(line) for line in out]
    return out
