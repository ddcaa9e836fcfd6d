# ruff: noqa: RUF001  (Cyrillic letters look like Latin ones: they are the language)
"""The event's name as the club writes it (`Turniej sobotni 12.12`, `Зимна купа`), and
the id derived from it (`slug`: `Turniej-sobotni-12.12`, `Zimna-kupa`) for what must be
a plain word: the boxes' match ids (`ID-W1-03`: the notation's 40 characters of A-Z a-z
0-9 - _ .), the files queued on them, the pages' addresses. The pages and the printed
sheets show the name as written; the commands and the addresses take either.

The id: the letters' diacritics taken off (NFKD; Polish ł and the like by a table),
Cyrillic and Greek by the streamlined transliterations (Bulgarian's official one for
Cyrillic: щ sht, ъ a, ю yu), every run of anything else one `-`, at most ID_MAX
characters. A name that is an id already is its own id, so tournaments made before
names could be written freely keep theirs.
"""

import unicodedata

import host_tools  # noqa: F401  (the firmware on the path)
from host_tools.results.draw import invisible
from host_tools.tournament import TournamentError
from scoreboard.core.words import check_id

NAME_MAX = 64  # the name as written, in characters
ID_MAX = 32  # its id: the match ids (ID-L12-064) fit the 40 of an id

# Latin letters NFKD leaves alone, and the Cyrillic and Greek alphabets.
_LETTERS = {
    "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE",
    "œ": "oe", "Œ": "OE", "ß": "ss", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D", "ı": "i",
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ж": "zh", "з": "z",
    "и": "i", "й": "y", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p",
    "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f", "х": "h", "ц": "ts", "ч": "ch",
    "ш": "sh", "щ": "sht", "ъ": "a", "ь": "y", "ю": "yu", "я": "ya", "ё": "yo", "ы": "y",
    "э": "e", "є": "ye", "і": "i", "ї": "yi", "ґ": "g", "ў": "u", "ј": "j", "љ": "lj",
    "њ": "nj", "ћ": "c", "џ": "dz", "ѓ": "gj", "ќ": "kj", "ѕ": "dz",
    "α": "a", "β": "v", "γ": "g", "δ": "d", "ε": "e", "ζ": "z", "η": "i", "θ": "th",
    "ι": "i", "κ": "k", "λ": "l", "μ": "m", "ν": "n", "ξ": "x", "ο": "o", "π": "p",
    "ρ": "r", "σ": "s", "ς": "s", "τ": "t", "υ": "y", "φ": "f", "χ": "ch", "ψ": "ps",
    "ω": "o",
}
_DEVICES = ("CON", "PRN", "AUX", "NUL")


def _letter(ch):
    """ASCII for one character: its diacritics off, then the table's letters."""
    out = []
    for c in unicodedata.normalize("NFKD", ch):
        if unicodedata.combining(c):
            continue
        low = c.lower()
        if low in _LETTERS:
            c = _LETTERS[low].capitalize() if c != low else _LETTERS[low]
        out.append(c)
    return "".join(out)


def clean(name):
    """The name as it is kept: NFC, its spaces one space, trimmed."""
    return " ".join(unicodedata.normalize("NFC", str(name)).split())


def check_name(name):
    """The name `name` as it is kept (clean), or TournamentError: 1 to NAME_MAX
    characters, printable, no invisible or direction-changing character, and an id can
    be made of it."""
    got = clean(name)
    if not got:
        raise TournamentError("the tournament needs a name")
    if len(got) > NAME_MAX:
        raise TournamentError("tournament name %s is %d characters (at most %d)",
                              got[:NAME_MAX] + "…", len(got), NAME_MAX)
    hidden = invisible(got) or next((c for c in got if not c.isprintable()), None)
    if hidden is not None:
        raise TournamentError("tournament name %s: a character that does not show (U+%04X)",
                              got.encode("ascii", "backslashreplace").decode(), ord(hidden))
    slug(got)
    return got


def slug(name):
    """The id of the tournament named `name` (see the module)."""
    try:
        if len(name) <= ID_MAX:
            return check_id(name)
    except ValueError:
        pass
    out, gap = [], False
    for ch in clean(name):
        for c in _letter(ch):
            if c.isascii() and (c.isalnum() or c in "._"):
                if gap and out:
                    out.append("-")
                out.append(c)
                gap = False
            else:
                gap = True
    text = "".join(out).lstrip("-_.")[:ID_MAX].rstrip("-_.")
    if not text:
        raise TournamentError("tournament name %s: no letter or digit to make its id of "
                              "(A-Z a-z 0-9)", name)
    base = text.split(".", 1)[0].upper()
    if base in _DEVICES or (len(base) == 4 and base[:3] in ("COM", "LPT") and base[3].isdigit()):
        text = (text + "-event")[:ID_MAX]
    return check_id(text)
