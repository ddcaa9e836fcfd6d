"""The players' CSV of `scoreboard tournament create`: a header row naming the columns
`name` (also `player`), optional `seed` and `club`, then one player a row.

Read as `setup`'s draw is (host_tools/results/draw.py: UTF-8 or UTF-16 by its mark, a
`,`, `;` or tab separator, every cell free of line breaks and control characters, a quote
never closed named), and each name checked as the box will take it in a match's header
(the notation's quoting, a glyph on the box's screens). A name is given once (case and
spaces aside), a seed is a whole number from 1 and given to one player only.
"""

from pathlib import Path
from typing import NamedTuple

from host_tools.results.draw import SetupError, check_header, csv_rows, decoded, quote
from host_tools.tournament import TournamentError

MIN_PLAYERS, MAX_PLAYERS = 3, 256
NAME_COLUMNS = ("name", "player")


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
        raise TournamentError("cannot read %s: %s" % (path, e.strerror or e)) from None
    try:
        text = decoded(data, name, "row")
    except SetupError as e:
        raise TournamentError(str(e)) from None
    return entries(text, name)


def _key(name):
    return " ".join(name.split()).casefold()


def entries(text, source="players.csv"):
    """[Entry] of the CSV `text`, or TournamentError naming `source` and the row."""
    try:
        return _entries(text, source)
    except SetupError as e:
        raise TournamentError(str(e)) from None


def _entries(text, source):
    rows = csv_rows(text, source)
    if not rows:
        raise TournamentError("%s: no players in it (a header row: name,seed,club, then one "
                              "player a row)" % source)
    columns = set(rows[0][1])
    column = next((c for c in NAME_COLUMNS if c in columns), None)
    if column is None:
        raise TournamentError("%s row 1: no name column: the header row names the columns "
                              "name[,seed][,club]" % source)
    out, names, seeds = [], {}, {}
    for number, row in rows:
        where = "%s row %d" % (source, number)
        name = " ".join(row.get(column, "").split())
        if not name:
            raise TournamentError("%s: no name" % where)
        # The name as the box will get it: a side of a match's header.
        check_header(["sbn 1", "game eightball", "match race-to 1", "side A " + quote(name),
                      'side B "-"'], where)
        if _key(name) in names:
            raise TournamentError('%s: "%s" is row %d\'s name already' % (where, name,
                                                                           names[_key(name)]))
        names[_key(name)] = number
        cell = row.get("seed", "").strip()
        seed = None
        if cell:
            if not cell.isascii() or not cell.isdigit() or int(cell) < 1 or len(cell) > 4:
                raise TournamentError('%s: seed "%s": a whole number from 1' % (where, cell))
            seed = int(cell)
            if seed in seeds:
                raise TournamentError("%s: seed %d is row %d's already" % (where, seed,
                                                                           seeds[seed]))
            seeds[seed] = number
        club = " ".join(row.get("club", "").split()) or None
        out.append(Entry(name, seed, club))
    if not MIN_PLAYERS <= len(out) <= MAX_PLAYERS:
        raise TournamentError("%s: %d players; a tournament takes %d to %d" % (
            source, len(out), MIN_PLAYERS, MAX_PLAYERS))
    return out
