# ruff: noqa: RUF002  (Cyrillic letters look like Latin ones: they are the language)
"""The players' CSV of `scoreboard tournament create` and the desk's form: a header row
naming the columns, then one player a row. The columns, in English or in the club's
language (any case): the player's whole name (`name`, `player`; `zawodnik`; `играч`),
or the first name and the surname in two (`first name`, `last name`; `imię`, `nazwisko`;
`име`, `фамилия`: the name is then `imię nazwisko`), and optionally the seed (`seed`;
`rozstawienie`; `поставяне`) and the club (`club`; `klub`; `клуб`).

Read as `setup`'s draw is (host_tools/results/draw.py: UTF-8 or UTF-16 by its mark, a
`,`, `;` or tab separator, every cell free of line breaks and control characters, a quote
never closed named), and each name checked as the box will take it in a match's header
(the notation's quoting, a glyph on the box's screens). A name is kept in Unicode's NFKC
form (a full-width or ligature letter as its plain one); a name with an invisible
character (zero-width, a direction mark or override) or a word that mixes Latin with
Cyrillic or Greek letters is refused: each looks like another name on every screen. A
name is given once: two names that look the same (case, spaces, NFKC and the letters
Latin, Cyrillic and Greek share, such as `A` and `А`) are one name. A seed is a whole
number from 1 and given to one player only.
"""

import unicodedata
from pathlib import Path
from typing import NamedTuple

from host_tools.results.draw import (SetupError, check_header, csv_rows, decoded, invisible,
                                     quote)
from host_tools.tournament import TournamentError
from host_tools.tournament.says import Said, core, word

MIN_PLAYERS, MAX_PLAYERS = 3, 256
# The columns by what they hold: the header's words in English, Polish and Bulgarian.
NAME_COLUMNS = ("name", "player", "zawodnik", "gracz", "imię i nazwisko", "играч",
                "име и фамилия")
FIRST_COLUMNS = ("first name", "first_name", "imię", "imie", "име")
LAST_COLUMNS = ("last name", "last_name", "surname", "nazwisko", "фамилия")
SEED_COLUMNS = ("seed", "rozstawienie", "поставяне")
CLUB_COLUMNS = ("club", "klub", "клуб")
# Letters that look alike in Latin, Cyrillic and Greek, as the Latin one: two names that
# differ only in them look the same (Unicode's confusables of these scripts).
_ALIKE = str.maketrans("авсеіјкмнорстухѕԁԛԝАВСЕІЈКМНОРСТУХЅԚԜαβεικνορτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
                       "abceijkmhopctyxsdqwABCEIJKMHOPCTYXSQWabeiknoptuxABEZHIKMNOPTYX")


class Entry(NamedTuple):
    name: str
    seed: int | None
    club: str | None


def read(path):
    """[Entry] of the CSV at `path`, or TournamentError naming the file and the row."""
    name = Path(path).name
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise TournamentError("cannot read %s: %s", path, e.strerror or e) from None
    try:
        text = decoded(data, name, "row")
    except SetupError as e:
        raise TournamentError(core(str(e))) from None
    return entries(text, name)


def key(name):
    """What a name looks like: two names with the same key are one player's."""
    folded = " ".join(unicodedata.normalize("NFKC", name).split()).casefold()
    return folded.translate(_ALIKE)


def _script(ch):
    """`latin`, `cyrillic`, `greek`, or None for any other character."""
    if not ch.isalpha():
        return None
    what = unicodedata.name(ch, "").split(" ", 1)[0]
    return what.lower() if what in ("LATIN", "CYRILLIC", "GREEK") else None


def looks(name, where):
    """The name as it is kept (NFKC, one space between words), or TournamentError for a
    character that does not show or a word of two scripts."""
    name = " ".join(unicodedata.normalize("NFKC", name).split())
    hidden = invisible(name)
    if hidden is not None:
        raise TournamentError('%s: "%s" holds a character that does not show (U+%04X): '
                              "type the name again", where, name.encode(
                                  "ascii", "backslashreplace").decode(), ord(hidden))
    for w in name.split():
        scripts = sorted({s for s in map(_script, w) if s})
        if len(scripts) > 1:
            raise TournamentError('%s: "%s" mixes %s and %s letters in one word: type it in '
                                  "one alphabet", where, w, word("script", scripts[0]),
                                  word("script", scripts[1]))
    return name


def entries(text, source="players.csv"):
    """[Entry] of the CSV `text`, or TournamentError naming `source` and the row."""
    try:
        return _entries(text, source)
    except SetupError as e:
        raise TournamentError(core(str(e))) from None


def _column(columns, names):
    return next((c for c in names if c in columns), None)


def _entries(text, source):
    rows = csv_rows(text, source)
    if not rows:
        raise TournamentError("%s: no players in it (a header row: name,seed,club, then one "
                              "player a row)", core(source))
    columns = set(rows[0][1])
    column = _column(columns, NAME_COLUMNS)
    first, last = _column(columns, FIRST_COLUMNS), _column(columns, LAST_COLUMNS)
    if column is None and last is None:
        raise TournamentError("%s row 1: no name column: the header row names the columns "
                              "name[,seed][,club]", core(source))
    seed_column = _column(columns, SEED_COLUMNS)
    club_column = _column(columns, CLUB_COLUMNS)
    out, names, seeds = [], {}, {}
    for number, row in rows:
        where = Said("%s row %s", core(source), number)
        whole = row.get(column, "") if column else "%s %s" % (row.get(first, "") if first
                                                              else "", row.get(last, ""))
        name = " ".join(whole.split())
        if not name:
            raise TournamentError("%s: no name", where)
        name = looks(name, where)
        # The name as the box will get it: a side of a match's header.
        check_header(["sbn 1", "game eightball", "match race-to 1", "side A " + quote(name),
                      'side B "-"'], str(where))
        if key(name) in names:
            raise TournamentError('%s: "%s" is row %d\'s name already', where, name,
                                  names[key(name)])
        names[key(name)] = number
        cell = row.get(seed_column, "").strip() if seed_column else ""
        seed = None
        if cell:
            if not cell.isascii() or not cell.isdigit() or int(cell) < 1 or len(cell) > 4:
                raise TournamentError('%s: seed "%s": a whole number from 1', where, cell)
            seed = int(cell)
            if seed in seeds:
                raise TournamentError("%s: seed %d is row %d's already", where, seed,
                                      seeds[seed])
            seeds[seed] = number
        club = " ".join(row.get(club_column, "").split()) if club_column else ""
        out.append(Entry(name, seed, looks(club, where) if club else None))
    if not MIN_PLAYERS <= len(out) <= MAX_PLAYERS:
        raise TournamentError("%s: %d players; a tournament takes %d to %d", core(source),
                              len(out), MIN_PLAYERS, MAX_PLAYERS)
    return out
