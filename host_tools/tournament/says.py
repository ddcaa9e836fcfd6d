"""What the tournament library says (its refusals, the words of `show`, a match in a
message), in the club's language.

The library never builds a finished sentence: it says `Said(TEMPLATE, *args)`, the
English template and its arguments, and whoever shows it chooses the language
(`text(value, lang)`: the desk's page its `--lang`, `scoreboard tournament --lang`).
`str()` of a Said is its English, so logs, the audit's details and the tests read the
same text as before. An argument may be a Said itself (a match in a message, `W1-01
(Ann v Bob)`, whose `v` is a word too): it is said in the same language.

The key is the English template (`%s is not ready: %s`), as the box's tables key the
rules core's refusals; a word that would be ambiguous alone carries its context before
a `|` (`how|walkover`, `game|eightball`), which English drops. words.py holds the
Polish and Bulgarian texts; a template a table lacks is said in English (the tests
check that every template the library uses is in every table).
"""

import re

from host_tools.tournament.words import TABLES

LANGS = ("en", "pl", "bg")


# The contexts a word's key may carry before its `|` (says.word).
CONTEXTS = ("how", "game", "format", "stage", "status", "breaks", "switch", "script",
            "column")


def english(key):
    """A key's English: the template, its context (`how|`) dropped."""
    context, bar, rest = key.partition("|")
    return rest if bar and context in CONTEXTS else key


class Said:
    """An English template and its arguments, said in any language (`text`)."""

    __slots__ = ("args", "key")

    def __init__(self, key, *args):
        self.key = key
        self.args = args

    def text(self, lang="en"):
        table = TABLES.get(lang, {})
        template = table.get(self.key) or english(self.key)
        if not self.args:
            return template
        return template % tuple(text(a, lang) if isinstance(a, Said) else a
                                for a in self.args)

    def __str__(self):
        return self.text("en")

    def __repr__(self):
        return "Said(%r)" % self.text("en")

    def __eq__(self, other):
        return str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


def text(value, lang="en"):
    """`value` in `lang`: a Said said there, anything else as it is (a str)."""
    if isinstance(value, Said):
        return value.text(lang)
    said = getattr(value, "said", None)  # a TournamentError
    if isinstance(said, Said):
        return said.text(lang)
    return str(value)


def word(context, value):
    """A word of the library's vocabulary (a game, a kind of result, a stage, a status,
    a format) said in a language: `word("game", "eightball")`."""
    return Said("%s|%s" % (context, value))


def length(words):
    """A stage's `match` words said: `race-to 5`, `best-of 7` (other words as they are)."""
    kind, _, n = words.partition(" ")
    if kind in ("race-to", "best-of") and n.isdigit():
        return Said(kind + " %d", int(n))
    return words


def game(words):
    """A header's game words said: the game's name in words, its settings (`reds=6`) as
    the box reads them."""
    name, _, rest = words.partition(" ")
    return Said("%s %s", word("game", name), rest) if rest else word("game", name)


# The box's own refusals of a header (the notation's reader, scoreboard.core.header and
# clocksettings, in English on every box) that a tournament's conditions can meet: a
# refusal of one of these is said in the club's language too (`core`).
CORE = (
    # the notation's header (scoreboard.core.header, clocksettings)
    "%s: '%s' is a nine-ball and ten-ball setting",
    "%s: '%s' is a pool setting",
    "%s: '%s' is a snooker setting",
    "%s: %s is played as %s",
    "%s: best-of needs an odd number of frames",
    "%s: a whole number of seconds is needed",
    "%s: clock: shot=S is required",
    "%s: unknown clock key '%s' (%s)",
    "game must be one of %s, not '%s'",
    # the players' CSV, read as setup's draw (host_tools/results/draw.py)
    '%s: a quote (") is never closed',
    "%s: a cell is longer than %s characters",
    '%s: a quote (") inside a quoted cell must be doubled ("")',
    "%s: column %s is given twice",
    "%s: columns %s and %s both name %s: keep one",
    "%s: column %s: a line break or control character (%s) is not allowed in a cell",
    ('%s: side %s name "%s": the box has no glyph for any of its characters (it draws '
     "Latin, Greek and Cyrillic letters)"),
    '%s: side %s name "%s": a character that does not show (U+%s): type the name again',
    "%s: not UTF-16 text, though it starts as such",
    ('%s: not UTF-8 (byte %s): save it as "CSV UTF-8" (in Excel: Save As, CSV UTF-8) or '
     "as UTF-8 text"),
    # a box's answers to the desk (the request channel's refusals: firmware/scoreboard/
    # channel.py; host_tools/device)
    "the box refused: match %s is over on the box",
    "the box refused: match %s has ended on the box and waits for the referee's ok",
    "the box refused: match %s is in progress on the box",
    "the box refused: match %s is past its first frame",
    "the box refused: match %s was called already",
    ("the box refused: the referee has the box's menus open: call again once it shows "
     "its start screen"),
    "the box refused: match %s was played on the box already",
    "the box refused: no match %s on the box",
    "the board stopped answering (cable pulled?)",
    "the box refused: match %s has started on the box",
    # why a box's result is held for the desk (tournament/identity.py judge, stored)
    "%s was never assigned to a table by the desk",
    "%s is assigned to table %s's box %s, not to box %s",
    "%s is assigned to table %s, and box %s claims %s",
    # where in the players' CSV (the generic last: the others are tried first)
    "%s row %s",
    "players",
)
_CORE = [(t, re.compile("(.+?)".join(re.escape(p) for p in t.split("%s")), re.S))
         for t in CORE]


def core(message, depth=0):
    """A refusal of the box's core (its English text) as a Said: in the club's language
    when it is one of CORE (and so are its parts that are), else as it is."""
    for template, pattern in _CORE:
        m = pattern.fullmatch(message)
        if m:
            parts = m.groups()
            if depth < 2:
                parts = [core(p, depth + 1) for p in parts]
            return Said(template, *parts)
    return Said("%s", message)
