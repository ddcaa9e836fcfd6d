"""The match notation (`.sbn`): strict parser and writer, one line at a time.

NOTATION.md is the contract. This module knows the *syntax* of every line (which words
exist in which game, how many arguments, which values); whether an event is allowed at
that moment is the rules' business (`match.py`). An event is a tuple
`(ms, word, args)`: `ms` is the `@MS` stamp or None, `args` a tuple of ints and
lower-case words (sides stay 'A'/'B'), so `parse_event(format_event(e)) == e`.

Journal lines carry ` *` and the CRC-32 of the text before the space; the checksum is
checked and stripped before anything else is read.
"""

import binascii

from .clock import parse_settings

SIDES = ("A", "B")
COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")  # values 2..7
AWARD_WHY = ("miss3", "conduct", "time", "other")
FORFEIT_WHY = ("late", "conduct", "retired", "disqualified")
GAMES = ("snooker", "eightball", "nineball", "tenball", "straight")
POOL_GAMES = ("eightball", "nineball", "tenball")
CLOCK_KEYS = ("shot", "warn", "ext", "first", "wait", "beeps")
RULES_KEYS = ("misses", "late")

# Words that every game knows, then each family's own.
_COMMON = ("frame", "end", "award", "penalty", "restart", "forfeit", "abandon", "called",
           "suspend", "resume", "clock", "go", "hit", "extend", "undo")
_SNOOKER = ("pot", "foul", "again", "free", "replace", "claim", "concede", "respot")
_POOL = ("rack", "pot", "foul", "warn", "push", "pass", "concede")
_STRAIGHT = ("score", "again", "foul", "rerack", "warn", "concede")
# Allowed between the header and the first `frame`.
PRE_FRAME = ("called", "forfeit", "abandon", "clock")


class NotationError(Exception):
    """A line that cannot be applied: `line N: why`. Nothing after it is applied."""

    def __init__(self, line, why):
        super().__init__(line, why)
        self.line = line
        self.why = why

    def __str__(self):
        return "line %d: %s" % (self.line, self.why)


def crc(text):
    """CRC-32 of a line's text, as the 8 lower-case hex digits of the journal."""
    return "%08x" % (binascii.crc32(text.encode()) & 0xFFFFFFFF)


def with_checksum(text):
    return text + " *" + crc(text)


def strip_checksum(text, required):
    """The line without its checksum field; ValueError on a bad or missing one."""
    n = len(text)
    if n >= 10 and text[n - 10] == " " and text[n - 9] == "*":
        body = text[:n - 10]
        if crc(body) != text[n - 8:]:
            raise ValueError("bad checksum")
        return body
    if required:
        raise ValueError("missing checksum")
    return text


def tokenize(text):
    """Words and quoted names of a line, comments dropped.

    Returns (tokens, quoted): quoted holds the indexes of tokens that were names.
    """
    tokens = []
    quoted = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == " " or c == "\t":
            i += 1
        elif c == "#":
            break
        elif c == '"':
            i += 1
            name = []
            while True:
                if i >= n:
                    raise ValueError("unterminated quote")
                c = text[i]
                if c == "\\":
                    if i + 1 >= n or text[i + 1] not in '"\\':
                        raise ValueError("bad escape in name")
                    name.append(text[i + 1])
                    i += 2
                elif c == '"':
                    i += 1
                    break
                else:
                    name.append(c)
                    i += 1
            if i < n and text[i] not in " \t#":
                raise ValueError("space expected after name")
            quoted.append(len(tokens))
            tokens.append("".join(name))
        else:
            j = i
            while j < n and text[j] not in ' \t"#':
                j += 1
            tokens.append(text[i:j])
            i = j
    return tokens, quoted


def quote(name):
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def number(word, low=0, high=1000000):
    """A plain decimal integer within [low, high], or ValueError naming it."""
    if not word or not ("0" <= word[0] <= "9") or not word.isdigit():
        raise ValueError("bad number '%s'" % word)
    value = int(word)
    if value < low or value > high:
        raise ValueError("number %d out of range %d..%d" % (value, low, high))
    return value


def side(word):
    if word not in SIDES:
        raise ValueError("side must be A or B, not '%s'" % word)
    return word


def _choice(word, allowed, what):
    if word not in allowed:
        raise ValueError("%s must be one of %s, not '%s'" % (what, " ".join(allowed), word))
    return word


def _count(args, low, high, word):
    if len(args) < low:
        raise ValueError("'%s' needs more words" % word)
    if len(args) > high:
        raise ValueError("too many words after '%s'" % word)


def family(game):
    if game == "snooker":
        return "snooker"
    if game == "straight":
        return "straight"
    return "pool"


def _key_values(args, keys, what):
    """`key=value` words, checked against the known keys; returns them as given."""
    out = []
    seen = []
    for word in args:
        eq = word.find("=")
        if eq <= 0 or eq == len(word) - 1:
            raise ValueError("%s setting must be key=value, not '%s'" % (what, word))
        key = word[:eq]
        value = word[eq + 1:]
        _choice(key, keys, what + " key")
        if key in seen:
            raise ValueError("%s key '%s' given twice" % (what, key))
        seen.append(key)
        if key == "wait":
            _choice(value, ("go",), "wait")
        elif key == "ext":
            x = value.find("x")
            if x <= 0:
                raise ValueError("ext must be NxS, not '%s'" % value)
            number(value[:x], 0, 9)
            number(value[x + 1:], 1, 600)
        else:
            number(value, 0, 100000)
        out.append(word)
    return tuple(out)


def clock_settings(words, base=None):
    """Shot-clock settings from `key=value` words (ValueError naming a wrong one)."""
    keys = {}
    for kv in words:
        eq = kv.find("=")
        keys[kv[:eq]] = kv[eq + 1:]
    return parse_settings(keys, base)


def parse_args(fam, word, args):
    """Check and convert one event's words for a game family; returns the args tuple."""
    if word not in _COMMON:
        vocab = _SNOOKER if fam == "snooker" else _POOL if fam == "pool" else _STRAIGHT
        if word not in vocab:
            raise ValueError("unknown word '%s' in %s" % (word, fam))
    if word in ("end", "restart", "called", "suspend", "resume", "go", "hit", "extend",
                "undo", "again", "free", "replace", "claim", "concede", "push", "pass"):
        _count(args, 0, 0, word)
        return ()
    if word == "frame" or word == "abandon":
        _count(args, 0, 1, word)
        return (side(args[0]),) if args else ()
    if word == "award" or word == "forfeit":
        _count(args, 2, 2, word)
        return (side(args[0]), _choice(args[1], AWARD_WHY if word == "award" else FORFEIT_WHY,
                                       "reason"))
    if word == "penalty":
        _count(args, 2, 2, word)
        return (side(args[0]), number(args[1], 1, 15))
    if word == "clock":
        _count(args, 1, 9, word)
        if args[0] == "off":
            _count(args, 1, 1, word)
            return ("off",)
        _choice(args[0], ("on",), "clock")
        if len(args) < 2:
            raise ValueError("'clock on' needs settings, e.g. shot=45")
        words = _key_values(args[1:], CLOCK_KEYS, "clock")
        clock_settings(words)
        return ("on",) + words
    if word == "respot" or word == "warn":
        _count(args, 1, 1, word)
        return (side(args[0]),)
    if word == "rack":
        _count(args, 1, 3, word)
        flags = args[1:]
        for f in flags:
            _choice(f, ("run", "golden"), "rack detail")
        if len(flags) == 2 and flags[0] == flags[1]:
            raise ValueError("'%s' given twice" % flags[0])
        return (side(args[0]),) + tuple(flags)
    if word == "score":
        _count(args, 1, 1, word)
        return (number(args[0], 1, 15),)
    if word == "rerack":
        _count(args, 0, 1, word)
        return (number(args[0], 15, 15),) if args else ()
    if word == "pot":
        _count(args, 1, 16, word)
        if fam == "pool":
            return tuple(number(a, 1, 15) for a in args)
        for i, a in enumerate(args):
            if a == "free":
                if i:
                    raise ValueError("'free' must come first after 'pot'")
            elif a != "red" and a not in COLOURS:
                raise ValueError("unknown ball '%s'" % a)
        return tuple(args)
    # word == "foul"
    if fam == "snooker":
        _count(args, 1, 20, word)
        value = number(args[0], 0, 100)
        rest = args[1:]
        flags_at = len(rest)
        for i, a in enumerate(rest):
            if a == "miss" or a == "time":
                if flags_at == len(rest):
                    flags_at = i
            elif a != "red" and a not in COLOURS:
                raise ValueError("unknown ball '%s'" % a)
            elif flags_at < len(rest):
                raise ValueError("balls come before 'miss' and 'time'")
        _ordered_flags(rest[flags_at:], ("miss", "time"))
        return (value,) + tuple(rest)
    allowed = ("break", "time") if fam == "straight" else ("time",)
    _count(args, 0, len(allowed), word)
    _ordered_flags(args, allowed)
    return tuple(args)


def _ordered_flags(flags, allowed):
    last = -1
    for f in flags:
        _choice(f, allowed, "foul detail")
        at = allowed.index(f)
        if at <= last:
            raise ValueError("foul details go in the order %s, each once" % " ".join(allowed))
        last = at


def split_stamp(tokens):
    """(ms, tokens) from a line whose first word may be `@MS`."""
    if tokens and tokens[0][:1] == "@":
        return number(tokens[0][1:], 0, 1 << 40), tokens[1:]
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


class Header:
    """The lines before the first `frame`: what is played, by whom, under which settings."""

    def __init__(self):
        self.version = None
        self.id = None
        self.date = None
        self.game = None
        self.reds = 15
        self.kind = None  # best-of, frames, race-to, points
        self.target = 0
        self.by_points = False
        self.breaks = "alternate"
        self.sides = [(), ()]  # each a tuple of one or two names; () until given
        self.rules = ()  # key=value words as given
        self.clock = ()  # key=value words as given

    def __eq__(self, other):
        return self.lines() == other.lines()

    def rule(self, key, default):
        for kv in self.rules:
            if kv.startswith(key + "="):
                return int(kv[len(key) + 1:])
        return default

    def doubles(self):
        return len(self.sides[0]) == 2 or len(self.sides[1]) == 2

    def parse(self, tokens, quoted):
        """Take one header line; ValueError says what is wrong with it."""
        word = tokens[0]
        args = tokens[1:]
        if self.version is None:
            if word != "sbn":
                raise ValueError("the first line must be 'sbn 1'")
            _count(args, 1, 1, word)
            if number(args[0], 0, 99) != 1:
                raise ValueError("unsupported format version %s" % args[0])
            self.version = 1
            return
        if word == "sbn":
            raise ValueError("'sbn' given twice")
        if word in ("id", "date"):
            _count(args, 1, 1, word)
            if getattr(self, word) is not None:
                raise ValueError("'%s' given twice" % word)
            setattr(self, word, args[0])
        elif word == "game":
            self._game(args)
        elif word == "match":
            self._match(args)
        elif word == "breaks":
            _count(args, 1, 1, word)
            self.breaks = _choice(args[0], ("alternate", "winner", "loser"), "breaks")
            self._check_game()
        elif word == "side":
            self._side(args, quoted)
        elif word == "rules":
            _count(args, 1, 8, word)
            self.rules = _key_values(args, RULES_KEYS, "rules")
            for kv in self.rules:
                number(kv[kv.find("=") + 1:], 1, 99)
        elif word == "clock":
            _count(args, 1, 8, word)
            self.clock = _key_values(args, CLOCK_KEYS, "clock")
            clock_settings(self.clock)
        else:
            raise ValueError("unknown header word '%s'" % word)

    def _game(self, args):
        if self.game is not None:
            raise ValueError("'game' given twice")
        _count(args, 1, 2, "game")
        game = _choice(args[0], GAMES, "game")
        if len(args) == 2:
            if game != "snooker" or not args[1].startswith("reds="):
                raise ValueError("unexpected '%s' after game %s" % (args[1], game))
            reds = number(args[1][5:], 0, 15)
            if reds not in (15, 10, 6):
                raise ValueError("reds must be 15, 10 or 6")
            self.reds = reds
        self.game = game
        self._check_game()

    def _match(self, args):
        if self.kind is not None:
            raise ValueError("'match' given twice")
        _count(args, 2, 4, "match")
        kind = _choice(args[0], ("best-of", "frames", "race-to", "points"), "match")
        target = number(args[1], 1, 10000)
        rest = args[2:]
        by_points = False
        if rest:
            if kind != "frames" or len(rest) != 2 or rest[0] != "by" or rest[1] != "points":
                raise ValueError("unexpected '%s' in match" % " ".join(rest))
            by_points = True
        if kind == "best-of" and target % 2 == 0:
            raise ValueError("best-of needs an odd number of frames")
        self.kind = kind
        self.target = target
        self.by_points = by_points
        self._check_game()

    def _check_game(self):
        """What the game rules out, checked on whichever line makes it known."""
        if self.game is None:
            return
        fam = family(self.game)
        if self.kind is not None:
            want = ("best-of", "frames") if fam == "snooker" else \
                ("race-to",) if fam == "pool" else ("points",)
            if self.kind not in want:
                raise ValueError("%s is played as %s" % (self.game, " or ".join(want)))
        if fam == "snooker" and self.breaks != "alternate":
            raise ValueError("in snooker the break-off alternates")

    def _side(self, args, quoted):
        _count(args, 2, 3, "side")
        s = SIDES.index(side(args[0]))
        names = args[1:]
        for i in range(len(names)):
            if i + 2 not in quoted:
                raise ValueError("names are double-quoted")
            if not names[i]:
                raise ValueError("empty name")
        if self.sides[s]:
            raise ValueError("side %s given twice" % args[0])
        self.sides[s] = tuple(names)

    def check(self):
        """ValueError naming the first required line that is missing or contradicted."""
        if self.version is None:
            raise ValueError("the first line must be 'sbn 1'")
        if self.game is None:
            raise ValueError("missing 'game' line")
        if self.kind is None:
            raise ValueError("missing 'match' line")
        for s in range(2):
            if not self.sides[s]:
                raise ValueError("missing 'side %s' line" % SIDES[s])
        if self.game != "snooker" and self.rules and "misses=" in " ".join(self.rules):
            raise ValueError("'misses' is a snooker setting")

    def lines(self):
        out = ["sbn %d" % (self.version or 1)]
        if self.id is not None:
            out.append("id " + self.id)
        if self.date is not None:
            out.append("date " + self.date)
        out.append("game snooker reds=%d" % self.reds if self.game == "snooker"
                   else "game %s" % self.game)
        out.append("match %s %d%s" % (self.kind, self.target,
                                      " by points" if self.by_points else ""))
        if self.breaks != "alternate":
            out.append("breaks " + self.breaks)
        for s in range(2):
            out.append("side %s %s" % (SIDES[s], " ".join(quote(n) for n in self.sides[s])))
        if self.rules:
            out.append("rules " + " ".join(self.rules))
        if self.clock:
            out.append("clock " + " ".join(self.clock))
        return out


HEADER_WORDS = ("sbn", "id", "date", "game", "match", "breaks", "side", "rules", "clock")


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
        self.line += 1
        if text.endswith("\n"):
            text = text[:-1]
        if text.endswith("\r"):
            text = text[:-1]
        try:
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
