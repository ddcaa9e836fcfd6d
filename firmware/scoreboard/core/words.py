"""The words of the match notation: names of things, tokens, numbers, checksums.

Shared by the header (`header.py`) and the event lines (`notation.py`); errors here are
ValueErrors whose text says what is wrong, and the reader adds the line number.
"""

import binascii

from micropython import const

from .clocksettings import KEYS as CLOCK_KEYS
from .clocksettings import parse_words
from .vocab import AWARD_WHY, COLOURS, FORFEIT_WHY, GAMES, SIDES, family

# What other modules take from here.
__all__ = ("AWARD_WHY", "CLOCK_KEYS", "COLOURS", "FORFEIT_WHY", "GAMES", "RULES_KEYS",
           "RULES_SWITCHES",
           "choice", "clock_settings", "count", "crc", "family", "key_values",
           "number", "quote", "side", "strip_checksum", "tokenize", "with_checksum")

# Add keys, never change one (docs/notation.md): `threefoul` and `pushout` (issue 27) are
# switches, 0 or 1; the others count, 1 to 99.
RULES_KEYS = ("misses", "late", "threefoul", "pushout")
RULES_SWITCHES = ("threefoul", "pushout")
_MAX_DIGITS = const(9)  # every number of the notation fits in 9 digits


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


def utf8(raw):
    """The text of a line's bytes; ValueError("not UTF-8") unless they are strict UTF-8
    (no overlong forms, no surrogates, nothing past U+10FFFF, no cut sequence), checked
    here because MicroPython's own decoder lets some of those through."""
    try:
        text = raw.decode()
    except UnicodeError:
        raise ValueError("not UTF-8") from None
    if len(text) != len(raw) and not _strict_utf8(raw):
        raise ValueError("not UTF-8")
    return text


def _strict_utf8(b):
    i = 0
    n = len(b)
    while i < n:
        c = b[i]
        if c < 0x80:
            i += 1
            continue
        lo, hi = 0x80, 0xBF
        if 0xC2 <= c <= 0xDF:
            k = 1
        elif c == 0xE0:
            k, lo = 2, 0xA0
        elif c == 0xED:
            k, hi = 2, 0x9F
        elif 0xE1 <= c <= 0xEF:
            k = 2
        elif c == 0xF0:
            k, lo = 3, 0x90
        elif 0xF1 <= c <= 0xF3:
            k = 3
        elif c == 0xF4:
            k, hi = 3, 0x8F
        else:
            return False
        if i + k >= n:  # the sequence is cut off
            return False
        if not lo <= b[i + 1] <= hi:
            return False
        for j in range(i + 2, i + k + 1):
            if not 0x80 <= b[j] <= 0xBF:
                return False
        i += k + 1
    return True


# Unicode's line and paragraph separators (a terminal or an editor breaks the line
# there) and its bidirectional controls (U+202E shows what follows it backwards: a name
# could read as another): escaped as `\\uNNNN`. All from U+061C up, so text below it
# costs one comparison a character.
HIDDEN = ("\u061c\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e"
          "\u2066\u2067\u2068\u2069")


def escaped(text):
    """Text for a message: control characters (C0, DEL and the C1 set, whose 0x9b a
    terminal takes as ESC [) as `\\xNN`, line separators and bidi controls (HIDDEN) as
    `\\uNNNN`, so none reaches a terminal."""
    for c in text:
        if c < " " or "\x7f" <= c <= "\x9f" or (c >= "\u061c" and c in HIDDEN):
            break
    else:
        return text
    out = []
    for c in text:
        if c < " " or "\x7f" <= c <= "\x9f":
            out.append("\\x%02x" % ord(c))
        elif c >= "\u061c" and c in HIDDEN:
            out.append("\\u%04x" % ord(c))
        else:
            out.append(c)
    return "".join(out)


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


ID_MAX = const(40)  # a match or box id: fits a file name on littlefs, FAT and Windows


_DEVICES = ("CON", "PRN", "AUX", "NUL")


def check_id(word, what="id"):
    """A match or box id as it may become a file name anywhere (the box's flash, the
    host's disk): 1 to ID_MAX characters of A-Z a-z 0-9 - _ . , starting with a letter or
    digit, not ending with a dot and not one of Windows' device names (CON, NUL, COM1...,
    in any case, with any extension). Returns it; ValueError says what is wrong."""
    if not word:
        raise ValueError("%s is empty" % what)
    if len(word) > ID_MAX:
        raise ValueError("%s is %d characters (at most %d)" % (what, len(word), ID_MAX))
    for i, ch in enumerate(word):
        if not (("0" <= ch <= "9") or ("A" <= ch <= "Z") or ("a" <= ch <= "z")
                or (i and ch in "-_.")):
            raise ValueError("%s '%s': '%s' is not allowed (A-Z a-z 0-9 - _ . only, "
                             "starting with a letter or digit)"
                             % (what, escaped(shown(word, 40)), escaped(ch)))
    if word[-1] == ".":
        raise ValueError("%s '%s' ends with a dot" % (what, escaped(shown(word, 40))))
    base = word.split(".", 1)[0].upper()
    if base in _DEVICES or (len(base) == 4 and base[:3] in ("COM", "LPT") and base[3] in
                            "0123456789"):
        # CON.sbn, com1.csv...: on the club desk's Windows a device, not a file
        raise ValueError("%s '%s' is a device name on Windows" % (what, word))
    return word


def quote(name):
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def shown(word, most=16):
    """A word for a message: at most `most` characters."""
    return word if len(word) <= most else word[:most] + "..."


def digits(word):
    """True when word is 1 to 9 ASCII digits (CPython's isdigit takes other scripts')."""
    if not word or len(word) > _MAX_DIGITS:
        return False
    for c in word:
        if c < "0" or c > "9":
            return False
    return True


def number(word, low=0, high=1000000):
    """A plain decimal integer within [low, high], or ValueError naming it."""
    if not digits(word):
        if word and len(word) > _MAX_DIGITS and all("0" <= c <= "9" for c in word):
            raise ValueError("number '%s' is too long" % shown(word))
        raise ValueError("bad number '%s'" % shown(word))
    value = int(word)
    if value < low or value > high:
        raise ValueError("number %d out of range %d..%d" % (value, low, high))
    return value


def side(word):
    if word not in SIDES:
        raise ValueError("side must be A or B, not '%s'" % shown(word))
    return word


def choice(word, allowed, what):
    if word not in allowed:
        raise ValueError("%s must be one of %s, not '%s'" % (what, " ".join(allowed),
                                                             shown(word)))
    return word


def count(args, low, high, word):
    if len(args) < low:
        raise ValueError("'%s' needs more words" % word)
    if len(args) > high:
        raise ValueError("too many words after '%s'" % word)


def key_values(args, keys, what, switches=()):
    """`key=value` words with numbers, checked against the known keys (the header's
    `rules`): 1 to 99, or for a key of `switches` 0 (off) or 1 (on); returns them as
    given."""
    out = []
    seen = []
    for word in args:
        eq = word.find("=")
        if eq <= 0 or eq == len(word) - 1:
            raise ValueError("%s setting must be key=value, not '%s'" % (what, shown(word)))
        key = word[:eq]
        choice(key, keys, what + " key")
        if key in seen:
            raise ValueError("%s key '%s' given twice" % (what, key))
        seen.append(key)
        if key in switches:
            if word[eq + 1:] not in ("0", "1"):
                raise ValueError("%s %s must be 0 (off) or 1 (on), not '%s'"
                                 % (what, key, shown(word[eq + 1:])))
        else:
            number(word[eq + 1:], 1, 99)
        out.append(word)
    return tuple(out)


def clock_settings(words, base=None):
    """Shot-clock settings from `key=value` words (ValueError naming a wrong one)."""
    return parse_words(words, base)
